// js/reader.d.ts: types for the read-only entry `cuckoo-wasm/reader` (ESM `import` and CommonJS `require`).
//
// For pages and workers that query filters built elsewhere (a server, the CLI, C++, CuckooFilter): it
// loads a filter's bytes and answers as CuckooFilter does, for a fraction of the full entry's download.
// It cannot build or change a filter: for that, import CuckooFilter from 'cuckoo-wasm'.
//
//   import { CuckooReader } from 'cuckoo-wasm/reader';
//   const filter = await CuckooReader.deserialize(bytes);   // bytes from CuckooFilter#serialize(), C++, the CLI
//   filter.has('alice');                                     // the answer CuckooFilter#has gives
//   filter.dispose();                                        // frees its WebAssembly memory now
import type { Key, KeyBatch, Bytes } from './index.js';

export type { Key, KeyBatch, Bytes };

/**
 * A stream of a filter's bytes, as {@link CuckooReader.deserialize} reads it: a fetch `Response` or its
 * `body` (a `ReadableStream`), or any async iterable of `Uint8Array` pieces (a Node `Readable`). Typed by
 * shape, so that it needs neither the DOM's nor Node's declarations.
 */
export type ByteStream =
  | AsyncIterable<Uint8Array>
  | { getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(): Promise<void> } }
  | { readonly body: unknown; arrayBuffer(): Promise<ArrayBuffer> };

/** Options of {@link CuckooReader.deserialize}. */
export interface ReaderOptions {
  /** `false`: only the structural checks a C++ `FilterView` makes on open; default `true` (every check). */
  verify?: boolean;
}

/**
 * A filter loaded read-only from its serialized bytes (docs/format.md: fixed and growing filters, every
 * shape): the same answers, properties and errors as `CuckooFilter` gives for the
 * same bytes. It holds the bytes in WebAssembly memory once: call {@link CuckooReader.dispose} (or use
 * `using`) when done; a `FinalizationRegistry` frees readers that are garbage-collected without it,
 * eventually. After `dispose()` every method and property throws, except `dispose()`, `disposed`,
 * `toJSON()` and `Symbol.toStringTag`.
 */
export declare class CuckooReader {
  /** Not constructible: readers come from {@link CuckooReader.deserialize}. Throws a `TypeError`. */
  private constructor();

  /** Resolves when the WebAssembly module is loaded; then {@link CuckooReader.deserializeSync} works. */
  static readonly ready: Promise<void>;

  /**
   * Loads a filter from the bytes `CuckooFilter#serialize()` (or C++ `serialize()`, or the CLI) wrote, or
   * from a stream of them ({@link ByteStream}: `fetch()`'s `Response`, for one), whose pieces go straight
   * into WebAssembly memory as they arrive.
   * @throws (rejects) {TypeError} if `bytes` is neither bytes (a `Uint8Array`, an `ArrayBufferView`, an
   *   `ArrayBuffer` or a `SharedArrayBuffer`) nor a stream of `Uint8Array` pieces; {FormatError} on bad
   *   bytes, with `CuckooFilter.deserialize`'s message for the same bytes; `RangeError` if WebAssembly
   *   memory (4 GiB at most) cannot hold them. A stream's own error passes through.
   * @param options.verify `false`: run only the checks a C++ `FilterView` runs on open (docs/format.md,
   *   "Views"): the headers and each table's state, not the checksum nor the scans of every bucket. Corrupt
   *   bytes that pass them give wrong answers (a false negative, a wrong `size`), never an error or a read
   *   outside the bytes. For bytes known intact; the command-line tools' `query` uses it. Default `true`.
   */
  static deserialize(bytes: ArrayBufferView | ArrayBuffer | SharedArrayBuffer | ByteStream, options?: ReaderOptions): Promise<CuckooReader>;

  /** {@link CuckooReader.deserialize}, synchronously: needs the module loaded (`await CuckooReader.ready`). */
  static deserializeSync(bytes: ArrayBufferView | ArrayBuffer | SharedArrayBuffer, options?: ReaderOptions): CuckooReader;

  /** Whether the key may be in the set: always `true` for a key the filter holds. */
  has(key: Key): boolean;

  /** One answer per key, 1 or 0, in order. An invalid key throws, naming its index. */
  hasMany(keys: KeyBatch): Bytes;

  /** How many stored fingerprints match the key (a key added n times and not deleted: at least n). */
  count(key: Key): number;

  /** A copy of the bytes it was loaded from. */
  serialize(): Bytes;

  /**
   * What `JSON.stringify(reader)` writes: a note that it is not the filter (JSON cannot hold one: store the
   * bytes of {@link CuckooReader.serialize}) and the filter's shape. `deserialize()` of it is a `TypeError`
   * that says so.
   */
  toJSON(): {
    readonly CuckooReader: string;
    readonly disposed?: true;
    readonly size?: number;
    readonly slotCount?: number;
    readonly bucketSize?: 2 | 4 | 8;
    readonly fingerprintBits?: number;
    readonly semiSort?: boolean;
    readonly byteLength?: number;
    readonly growable?: true;
    readonly levels?: number;
  };

  /** Frees its WebAssembly memory; idempotent. */
  dispose(): void;
  [Symbol.dispose](): void;
  readonly disposed: boolean;
  readonly [Symbol.toStringTag]: 'CuckooReader';

  /** Keys stored (items, with each parked victim). */
  readonly size: number;
  /** Entries of every table: buckets × bucket size. */
  readonly slotCount: number;
  /** The share of slots in use, at most 1: size / slotCount, less the parked victims, which are in no slot. */
  readonly loadFactor: number;
  /** Table bits per key stored (`Infinity` when empty). */
  readonly bitsPerItem: number;
  /** Bytes of the serialized filter. */
  readonly byteLength: number;
  /** Whether an insert into the filter would be refused for lack of room (as `CuckooFilter#isFull`). */
  readonly isFull: boolean;
  /** Buckets of every table (all levels of a growing filter). */
  readonly bucketCount: number;
  readonly bucketSize: 2 | 4 | 8;
  /** Fingerprint bits (a growing filter's first level's). */
  readonly fingerprintBits: number;
  readonly semiSort: boolean;
  readonly maxKicks: number;
  readonly seed: bigint;
  readonly growable: boolean;
  /** A growing filter's limit on its tables' bytes; `Infinity` for none. */
  readonly maxMemoryBytes: number;
  /** Levels of a growing filter (1 for a fixed one). */
  readonly levels: number;
  /** The false-positive bound of the filter as it is, its tables full. */
  readonly fprBound: number;
}

/**
 * Bytes that are not a valid filter, with the message `CuckooFilter.deserialize` gives. An `Error`; `name`
 * is `'FormatError'`. (Under Node, `cuckoo-wasm` and `cuckoo-wasm/reader` are separate modules, each with
 * its own FormatError: test `error.name === 'FormatError'` to handle both.)
 */
export declare class FormatError extends Error {
  constructor(message?: string);
}
