// js/index.d.ts: hand-written types for cuckoo-wasm (ESM `import` and CommonJS `require` alike).
//
// A cuckoo filter (Fan et al., CoNEXT 2014) answers "may this key be in the set?": never a false
// negative for a key added and not deleted, false positives at most `fprBound`, and deletion.
// One C++ core (core/) compiled to WebAssembly; the binary format is byte-identical to native C++.
//
//   import { CuckooFilter } from 'cuckoo-wasm';
//   const f = await CuckooFilter.create({ capacity: 1_000_000, fpr: 0.001 });  // fixed size
//   const g = await CuckooFilter.create({ fpr: 0.001 });                        // grows as keys come
//   f.add('alice');                 // true
//   f.has('alice');                 // true, always
//   const bytes = f.serialize();    // Uint8Array, readable by native cuckoo::CuckooFilter::deserialize
//   f.dispose();                    // frees the WebAssembly memory now (or let GC do it, eventually)

// Symbol.dispose for projects whose `lib` predates it (TypeScript < 5.2 or no esnext.disposable); the same
// declaration as lib.esnext.disposable and @types/node, so they merge.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/**
 * A key. It is hashed as bytes, exactly as the native API hashes them:
 * - `string`: its UTF-8 bytes (as `TextEncoder` encodes them: a lone surrogate becomes U+FFFD, bytes
 *   EF BF BD). No Unicode normalization: "é" (U+00E9) and "e\u0301" are different keys.
 * - `Uint8Array` or any other `ArrayBufferView` (`DataView`, `Uint32Array`, Node `Buffer`, ...): its bytes,
 *   from `byteOffset` for `byteLength`. `ArrayBuffer` / `SharedArrayBuffer`: all of its bytes.
 * - `number`: an integer in 0..2^53-1, hashed as its 8 little-endian bytes like native `insert(uint64_t)`.
 * - `bigint`: 0..2^64-1, the same 8 little-endian bytes.
 *
 * So `"abc"` and `Uint8Array.of(97, 98, 99)` are the same key, and so are `7`, `7n` and
 * `Uint8Array.of(7, 0, 0, 0, 0, 0, 0, 0)`; but `7` and `"7"` are not.
 *
 * Any other value throws a `TypeError` (null, undefined, booleans, objects, symbols, and numbers that are
 * not integers: 1.5, NaN, ±Infinity). An integer out of range throws a `RangeError` (negative, or a
 * number above 2^53-1: pass a bigint for those, or a bigint above 2^64-1). `-0` is `0`.
 */
export type Key = string | number | bigint | ArrayBufferView | ArrayBuffer | SharedArrayBuffer;

/**
 * Options for {@link CuckooFilter.create} and `new CuckooFilter()`. With `capacity` (or `bucketCount`) the
 * filter is fixed: it holds that many keys and then refuses more. Without either, it grows: it starts
 * small and adds a level (twice the size of the newest) whenever the newest fills, keeping the
 * false-positive rate within `fpr` at every size; `growable: true` makes a filter of a given `capacity`
 * grow from there. Everything else has a default.
 *
 * The ranges, defaults and combinations below are the C++ core's (`core/include/cuckoo/options.h`, in
 * snake_case), and the core checks them: a value out of range is a `RangeError` with the core's message,
 * which names the option as JS spells it (e.g. "cuckoo: bucketSize must be 2, 4 or 8 (got 3)"), as are the
 * limits only sizing can tell (a capacity needing more than 2^32 buckets, a table too large for the 4 GiB of
 * WebAssembly memory or over the ~2 GiB one table can take). JS checks what reaches the core: a value of
 * the wrong type (e.g. `bucketSize: '4'`), an unknown option, or `growable: false` without a capacity is a
 * `TypeError`; an integer option that is not an exact integer, is negative or is beyond what the binding
 * takes (2^53-1 as a number, 2^64-1 as a bigint, 2^32-1 for fingerprintBits, bucketSize and maxKicks) is a
 * `RangeError` starting "cuckoo-wasm: options.".
 */
export interface CuckooFilterOptions {
  /** Number of distinct keys the filter must accept: an integer >= 1 (number up to 2^53-1, or bigint).
   * For a growing filter, the size of its first level (default 1024).
   * The table gets m = `ceil(capacity / (bucketSize * targetLoad))` buckets plus `ceil(2 * sqrt(m))` of
   * slack (so that small filters take their capacity too), rounded up to even. Very rarely a key set needs
   * more room than that (seen only at bucketSize 2: 7 in 1.16 M random small filters); the filter then
   * reports full (`isFull`, `add` returns false) a little before `capacity`, and loses nothing. */
  capacity?: number | bigint;
  /** Target false-positive rate in (0, 1); picks the smallest fingerprint with 2b/(2^f-1) <= fpr, but
   * never fewer than 8 / 6 / 5 bits for bucketSize 2 / 4 / 8 (shorter ones make large tables jam early).
   * Set either `fpr` or `fingerprintBits`, not both. With neither, fpr = 0.01.
   * A growing filter keeps its bound, over all the levels it can grow to, within `fpr`: its first level's
   * fingerprint is the shortest with 3.5 * 2b/(2^f-1) <= fpr, and each newer level adds a few bits.
   * That first fingerprint may take at most 28 bits, so that the filter can grow to 16 levels: a smaller
   * fpr (below about 1.1e-7 at bucketSize 4) is a RangeError for a growing filter. */
  fpr?: number;
  /** Fingerprint length in bits, 4..32 (a growing filter's first level: 4..28; with `semiSort`, each
   * entry stores one bit less). */
  fingerprintBits?: number;
  /** Entries per bucket: 2, 4 (default) or 8. */
  bucketSize?: 2 | 4 | 8;
  /** Relocations an insert tries before it gives up, 0..2^20 (default 500, as in the paper). It then parks
   * the fingerprint in hand in the victim slot: that insert still returns true, later ones return false
   * until a delete makes room. A fixed filter below the load it was sized for instead undoes them and
   * refuses the key alone (see `add`). Very few (0, 1, ...) make inserts fail well before `capacity`. */
  maxKicks?: number;
  /** Seeds the key hash and the relocation walk: 0..2^53-1 as a number, 0..2^64-1 as a bigint (default 0).
   * Same keys + options + seed + operation order = the same bytes, natively and in WebAssembly. */
  seed?: number | bigint;
  /** Semi-sorted buckets (paper section 5.2): one bit less per entry. Requires `bucketSize` 4. */
  semiSort?: boolean;
  /** Fraction of slots expected to be used at `capacity` keys, in (0, 1]; default 0.82 / 0.94 / 0.97 for
   * bucketSize 2 / 4 / 8 with fingerprints of 8 bits or more, lower for shorter ones (e.g. 0.90 for
   * bucketSize 4 with 6 or 7 bits, 0.60 with 4; 0.05-0.55 for bucketSize 2 below 8 bits, measured to take
   * 16 M keys; larger filters of those widths may fill before `capacity`). Lower values buy faster inserts near capacity with more memory;
   * values above those defaults may make `add()` fail before `capacity` keys. */
  targetLoad?: number;
  /** Advanced: the exact number of buckets, 1..2^32 (rounded up to even). Overrides `capacity` sizing.
   * For a growing filter, its first level's. */
  bucketCount?: number | bigint;
  /** Whether the filter grows instead of filling up. Default: `true` when neither `capacity` nor
   * `bucketCount` is given, else `false` (a fixed filter). `false` without a size is a `TypeError`.
   * A growing filter costs more memory per key than a fixed one sized right (its newest level is at most
   * half full just after a growth) and looks keys up in every level, newest first: pick a fixed filter
   * when you know the size, a growing one when you do not. */
  growable?: boolean;
  /** Growing filters only: the most bytes their tables may take together, an integer >= 0 (number or
   * bigint); 0 or left out: no limit. A growth past it is refused: `add()` then returns `false` (and
   * `addMany()` stops) with nothing lost, as for a full fixed filter. Smaller than the first level's table,
   * or given for a fixed filter, it is a `RangeError` with the core's message. */
  maxMemoryBytes?: number | bigint;
}

/**
 * A batch of keys: an array or any iterable of {@link Key}s. Not a string and not a typed array or
 * `Buffer` (each is iterable, but one key: its characters or bytes are not keys of their own). Being
 * `object`, this type rejects strings, and having no `byteLength`, it rejects typed arrays; the batch
 * calls reject both at run time too, as they do a `String` object, which this type lets through.
 */
export type KeyBatch = Iterable<Key> & object & { readonly byteLength?: never };

/**
 * A `Uint8Array` over a plain `ArrayBuffer` (never a `SharedArrayBuffer`), as `serialize()` and
 * `hasMany()` return: on TypeScript >= 5.7 this is `Uint8Array<ArrayBuffer>`, so the result can go in a
 * transfer list or to `Blob`, `Response` and `crypto.subtle` as is; before 5.7 it is plain `Uint8Array`.
 */
export type Bytes = ReturnType<Uint8Array['slice']>;

/** What `JSON.stringify(filter)` writes: a note that it is not the filter, and the filter's shape. */
export interface CuckooFilterSummary {
  readonly CuckooFilter: string;
  readonly disposed?: true;
  readonly size?: number;
  readonly slotCount?: number;
  readonly bucketSize?: 2 | 4 | 8;
  readonly fingerprintBits?: number;
  readonly semiSort?: boolean;
  readonly byteLength?: number;
  /** Only for a growing filter: `true`, with its level count. */
  readonly growable?: true;
  readonly levels?: number;
}

/**
 * A cuckoo filter living in WebAssembly memory.
 *
 * Each filter owns memory outside the JS heap: call {@link CuckooFilter.dispose} (or use `using`) when done.
 * A `FinalizationRegistry` frees filters that are garbage-collected without `dispose()`, but garbage
 * collection is not guaranteed to run soon (or at all), so do not rely on it for many or large filters.
 * After `dispose()`, every method and property throws an `Error` saying the filter was disposed, except
 * `dispose()` itself, `disposed`, `toJSON()` (`{ CuckooFilter: ..., disposed: true }`), `Symbol.toStringTag`
 * and Node's `util.inspect` (`CuckooFilter <disposed>`), so that logging a disposed filter still works.
 *
 * Not thread-safe in the usual sense: a filter belongs to the JS realm (thread) that created it; move it
 * between workers with `serialize()` / `deserialize()`. `structuredClone()` and `postMessage()` copy none of
 * its state (its fields are private), and `JSON.stringify()` writes only a summary: send or store
 * `serialize()`'s bytes.
 */
export declare class CuckooFilter {
  /**
   * Creates an empty filter synchronously. The WebAssembly module must be loaded first:
   * `await CuckooFilter.ready` once (or use the async {@link CuckooFilter.create}).
   * @param options the filter's shape; see {@link CuckooFilterOptions}.
   * @throws {Error} if the module is not loaded yet.
   * @throws {TypeError} for options of the wrong type, unknown options, or `growable: false` without a
   *   capacity.
   * @throws {RangeError} for options out of range, naming the option, or a table that does not fit in
   *   WebAssembly memory (4 GiB in all, just under 2 GiB for one table). In Node, one that the core's
   *   checks refuse is an {@link OptionRangeError}, saying which option and which value.
   */
  constructor(options: CuckooFilterOptions);

  /**
   * Resolves once the WebAssembly module is compiled and instantiated (the same promise every time);
   * after that, `new CuckooFilter()` and {@link CuckooFilter.deserializeSync} work. Loading starts on
   * first use of `ready`, `create()` or `deserialize()`, not at import. Rejects if WebAssembly is
   * unavailable.
   */
  static readonly ready: Promise<void>;

  /**
   * Loads the module if needed, then creates an empty filter.
   * @param options the filter's shape; see {@link CuckooFilterOptions}.
   * Called on a subclass (`await Sub.create(options)`), it makes a `new Sub(options)`, so a subclass's
   * constructor takes the options first and passes them on to `super()`.
   * @returns a promise of the new filter.
   * @throws (rejects) {TypeError} / {RangeError} as the constructor does.
   */
  static create<T extends typeof CuckooFilter = typeof CuckooFilter>(this: T | void, options: CuckooFilterOptions): Promise<InstanceType<T>>;

  /**
   * Loads the module if needed, then reads a filter from the portable binary format (docs/format.md),
   * as written by {@link CuckooFilter.serialize} or by native `cuckoo::CuckooFilter::serialize()`.
   * Everything is validated before anything is trusted.
   * @param bytes the serialized filter: a `Uint8Array` (any offset), another view, or an `ArrayBuffer` /
   *   `SharedArrayBuffer` (so `f.serialize().buffer` type-checks: TypeScript types it `ArrayBufferLike`);
   *   or a stream of it: a `fetch` `Response` or its body, a `ReadableStream`, a Node `Readable` or any
   *   async iterable of `Uint8Array` pieces, each piece copied straight into the new table as it arrives
   *   and the checksum computed on the way, so the whole input never sits in one buffer (memory: the table
   *   plus a piece), in browsers as in Node.
   * @returns a promise of the filter.
   * @throws (rejects) {TypeError} if `bytes` is not binary data, or a stream yields something else.
   * @throws (rejects) {FormatError} on bad bytes, with the core's `cuckoo::FormatError` message, e.g.
   *   "cuckoo: truncated input: expected 1080 bytes, got 1000", "cuckoo: bad magic: not a cuckoo filter",
   *   "cuckoo: checksum mismatch: the bytes are corrupted", "cuckoo: trailing bytes: ...".
   * @throws (rejects) {RangeError} if the filter does not fit in WebAssembly memory.
   * @throws (rejects) {TypeError} if called on a subclass whose constructor does not pass its first
   *   argument on to `super()` (called on a subclass, it returns an instance of that subclass).
   */
  static deserialize<T extends typeof CuckooFilter = typeof CuckooFilter>(
    this: T | void,
    bytes: ArrayBufferView | ArrayBuffer | SharedArrayBuffer | Response | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  ): Promise<InstanceType<T>>;

  /**
   * Node only (the package's Node entry; absent from the browser build): the filter in the file at
   * `path`, as {@link CuckooFilter.save} or native C++ wrote it, read straight into its table in pieces:
   * memory holds the table once, plus a 256 KiB piece. The file's size is checked against its header before
   * anything is allocated.
   * @throws (rejects) {FormatError} on bad bytes, as `deserialize` of the file's bytes; the `fs` error
   *   (`ENOENT`, ...) if the file cannot be read; {RangeError} if the filter does not fit in memory.
   */
  static load<T extends typeof CuckooFilter = typeof CuckooFilter>(this: T | void, path: string): Promise<InstanceType<T>>;

  /**
   * Node only (the package's Node entry): the filter rebuilt from its chunks ({@link CuckooFilter.chunks}),
   * given in order, each copied straight into the new table.
   * @throws (rejects) {FormatError} naming the chunk for a missing, repeated, reordered, truncated or
   *   corrupt chunk ("cuckoo: chunk 3 is missing (chunk 4 arrived in its place)"); for bad filter bytes, the
   *   message `deserialize` gives; {TypeError} if a chunk is not a `Uint8Array`.
   */
  static fromChunks<T extends typeof CuckooFilter = typeof CuckooFilter>(
    this: T | void,
    chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
  ): Promise<InstanceType<T>>;

  /**
   * {@link CuckooFilter.deserialize}, synchronously; needs `await CuckooFilter.ready` first.
   * @throws {Error} if the module is not loaded yet; {FormatError} on bad bytes (as `deserialize`).
   * @throws {TypeError} if `bytes` is not binary data. {RangeError} if it does not fit in memory.
   */
  static deserializeSync<T extends typeof CuckooFilter = typeof CuckooFilter>(
    this: T | void,
    bytes: ArrayBufferView | ArrayBuffer | SharedArrayBuffer,
  ): InstanceType<T>;

  /**
   * Adds one copy of `key`. A growing filter that is full adds a level first (see `levels`).
   * @returns `true` if the key is now stored; `false` if it was refused, in which case nothing changed and
   *   nothing already stored was lost. Refused are:
   *   - any key when the filter is full (`isFull`: a fixed filter stays full until a `delete()` makes room;
   *     a growing one is full only when `maxMemoryBytes` or the level limit forbids another level);
   *   - a key whose two buckets already hold `2 * bucketSize` copies of it (8 at the default bucket size),
   *     alone: other keys still go in;
   *   - in a fixed filter below the load it was sized for (at least `capacity` keys, unless `targetLoad`
   *     is set higher), a key whose relocation walk fails, alone: there a failure means a few buckets
   *     jammed by repeated or colliding keys (or, rarely, chance in a small filter of 2-entry buckets),
   *     not a full filter;
   *   - in a growing filter, a key whose relocation walk fails while the newest level is under half full
   *     (keys crafted to collide), alone, so that such keys cannot make the filter grow again and again.
   * @throws {TypeError} / {RangeError} for an invalid key (see {@link Key}).
   * @throws {RangeError} if a growing filter's new level does not fit in WebAssembly memory; the filter is
   *   as it was before this call.
   */
  add(key: Key): boolean;

  /**
   * Adds `key` unless {@link CuckooFilter.has} already says `true` (C++ `insert_if_absent`): for storing a
   * set from input that repeats keys, whose copies then neither fill the filter nor jam a key's buckets.
   * Caveats (as for RedisBloom's `CF.ADDNX`):
   * - a false positive makes it skip a key that was not there: the key is reported `'present'` and not
   *   stored (`has()` still says `true` for it, by the same false positive, while that fingerprint stays);
   * - so deleting such a key later removes another key's fingerprint: if you delete, delete only keys
   *   reported `'added'`, or keep copies with {@link CuckooFilter.add}.
   * @returns `'added'`; `'present'` (nothing changed); or `'refused'` (nothing changed: refused as
   *   {@link CuckooFilter.add} refuses a key, e.g. the filter is full).
   * @throws {TypeError} / {RangeError} as {@link CuckooFilter.add} does.
   */
  addIfAbsent(key: Key): 'added' | 'present' | 'refused';

  /**
   * @returns `true` if `key` may be in the set: always for a key added and not deleted; for other keys
   *   with probability at most {@link CuckooFilter.fprBound}.
   * @throws {TypeError} / {RangeError} for an invalid key.
   */
  has(key: Key): boolean;

  /**
   * Removes one copy of `key`. Only delete keys you added: deleting a key that was never added may
   * remove another key's colliding fingerprint (and make that key a false negative).
   * @returns `true` if a copy was found and removed, `false` otherwise.
   * @throws {TypeError} / {RangeError} for an invalid key.
   */
  delete(key: Key): boolean;

  /**
   * @returns the number of stored fingerprints matching `key`: at least the number of copies added and
   *   not deleted (more if other keys collide).
   * @throws {TypeError} / {RangeError} for an invalid key.
   */
  count(key: Key): number;

  /**
   * Adds keys in order, in batches (one WebAssembly call per chunk of up to 16384 keys, with prefetching).
   * Every key is checked first: an invalid key throws before anything is added. (Keys are read twice, to
   * check and to add; an array whose getters or Proxy hand out a valid key, then an invalid one, throws
   * at the second read, with the chunks before that key already added.)
   * @param keys an array or any iterable of keys. A string or a `Uint8Array` (or other view) is one key,
   *   not a batch of its characters or bytes: passing one is a TypeError (wrap it: `addMany([key])`).
   * @returns how many keys were added. Stops at the first key refused (as {@link CuckooFilter.add} would
   *   refuse it: the filter is full, or the key is repeated too often): when the result `n` is less than
   *   the number of keys, `keys[0..n)` were added, `keys[n]` was refused and the rest were not tried.
   *   Nothing already stored is lost.
   * @throws {TypeError} if `keys` is not iterable or a key has the wrong type; {RangeError} for an integer
   *   key out of range. The message says the bad key's index.
   * @throws {RangeError} if a growing filter's new level does not fit in WebAssembly memory. Its message
   *   says how many keys were added before that (`keys[0..n)`, which stay in, with everything stored before).
   */
  addMany(keys: KeyBatch): number;

  /** @deprecated Use {@link CuckooFilter.addMany}: the same call under its old name. */
  addAll(keys: KeyBatch): number;

  /**
   * {@link CuckooFilter.addIfAbsent} for each key in order (C++ `insert_many_if_absent`; a key repeated in
   * the batch is present the second time), with its caveats. Every key is checked first, as by `addMany`.
   * @returns how many keys were added or found present before the first key refused: when the result `n`
   *   is less than the number of keys, `keys[n]` was refused and the rest were not tried.
   * @throws {TypeError} / {RangeError} for an invalid key, as `addMany`.
   * @throws {RangeError} if a growing filter's new level does not fit in WebAssembly memory: the keys
   *   before the one that needed it are stored or present; a second call with the same keys (after freeing
   *   memory) finds those and goes on.
   */
  addManyIfAbsent(keys: KeyBatch): number;

  /**
   * Looks up keys in batches (as {@link CuckooFilter.addMany}).
   * @param keys an array or any iterable of keys (not a string or a view, as for `addMany`).
   * @returns one byte per key, in order: 1 if the key may be in the set, else 0.
   * @throws {TypeError} / {RangeError} for an invalid key, with its index (no partial result).
   */
  hasMany(keys: KeyBatch): Bytes;

  /** Removes every key; keeps the configuration and the memory (a growing filter keeps its first level
   * only, and frees the others). */
  clear(): void;

  /**
   * Adds every fingerprint of `other` to this filter, without the keys: afterwards this filter answers
   * `true` for every key of either. `other` is unchanged. Filters built apart (workers, machines) from
   * shares of the keys combine this way when all were created with the same options, sized for all
   * the keys together.
   * @throws {Error} if the shapes or seeds differ (the message names the field), or if the union does not
   *   fit (this filter is then unchanged); {TypeError} if `other` is not a CuckooFilter; {RangeError} if
   *   WebAssembly memory has no room for the copy of the table the merge works on.
   */
  merge(other: CuckooFilter): void;

  /**
   * @returns the filter in the portable binary format (docs/format.md): a 56-byte header, the packed
   *   table, an 8-byte checksum; `byteLength` bytes, identical to what native C++ writes for the same
   *   filter. A fresh copy, independent of the filter. In Node it is assembled straight from the table in
   *   WebAssembly memory; in browsers it is written there first, so it needs `byteLength` bytes free there.
   * @throws {RangeError} (browsers) if WebAssembly memory has no room for the copy.
   */
  serialize(): Bytes;

  /**
   * Node only (the package's Node entry): writes {@link CuckooFilter.serialize}'s bytes to the file at
   * `path` straight from the table, in pieces, atomically: a temporary file in the same directory,
   * flushed to disk, then renamed over `path` (an existing file's permissions are kept). On failure the
   * temporary file is removed and `path` is untouched.
   * @throws (rejects) the `fs` error if the file cannot be written.
   */
  save(path: string): Promise<void>;

  /**
   * Node only (the package's Node entry): the filter as chunks of at most `chunkBytes` bytes each, framing
   * included (docs/format.md, "Chunks"), for transports with a message limit: the same chunks C++'s
   * `cuckoo::to_chunks` makes. One new `Uint8Array` at a time; the filter must not change meanwhile.
   * @throws {RangeError} if `chunkBytes` is not an integer above 40.
   */
  chunks(chunkBytes: number): IterableIterator<Bytes>;

  /** `'CuckooFilter'`, so `Object.prototype.toString.call(f)` is `[object CuckooFilter]`. */
  readonly [Symbol.toStringTag]: 'CuckooFilter';

  /**
   * What `JSON.stringify()` writes for a filter: a {@link CuckooFilterSummary}, not the filter, which JSON
   * cannot hold (`deserialize()` of it is a `TypeError` that says so). Store the bytes of
   * {@link CuckooFilter.serialize} instead.
   */
  toJSON(): CuckooFilterSummary;

  /** Frees the filter's WebAssembly memory now. Idempotent; afterwards every other call throws an `Error`. */
  dispose(): void;

  /** The same as {@link CuckooFilter.dispose}, for `using f = await CuckooFilter.create(...)`. */
  [Symbol.dispose](): void;

  /** `true` once {@link CuckooFilter.dispose} was called (never throws). */
  readonly disposed: boolean;

  /** Items stored, counting every copy (and a parked victim, see `isFull`). */
  readonly size: number;

  /**
   * The number of slots, `bucketCount * bucketSize` (C++ `slot_count()`): the fingerprints the table
   * holds, of all levels of a growing filter. At least the `capacity` option asked for (sizing divides by
   * `targetLoad`). Inserts start failing somewhat below it (about 97% full at bucketSize 4 with 8+ bit
   * fingerprints).
   */
  readonly slotCount: number;

  /** @deprecated Use {@link CuckooFilter.slotCount}: the number of slots, not the `capacity` option. */
  readonly capacity: number;

  /** The share of slots in use, at most 1: `size / slotCount`, less a parked victim, which is in no slot
   * (see `isFull`). */
  readonly loadFactor: number;

  /** Table bits per stored item: `(byteLength - 64) * 8 / size`; `Infinity` when empty. */
  readonly bitsPerItem: number;

  /** The length of {@link CuckooFilter.serialize}'s result in bytes (table bytes + 64); about the
   * WebAssembly memory the filter occupies. */
  readonly byteLength: number;

  /** `true` when an insert ran out of kicks and parked its last fingerprint: `add()` returns `false`
   * until a `delete()` frees a place the parked fingerprint can move to (each delete tries; one elsewhere in
   * the table may leave the filter full). A growing filter is full only when, besides, it may not add a
   * level (`maxMemoryBytes`, or the level limit: at most 32 levels and 2^32 buckets in the newest). */
  readonly isFull: boolean;

  /** Number of buckets (even, at most 2^32); of all levels in a growing filter. */
  readonly bucketCount: number;
  /** Entries per bucket: 2, 4 or 8. */
  readonly bucketSize: 2 | 4 | 8;
  /** Fingerprint length in bits (4..32); in a growing filter, its first level's (level s adds
   * ceil(log2(s + 1)) bits). */
  readonly fingerprintBits: number;
  /** Whether buckets are semi-sorted (one bit less per entry). */
  readonly semiSort: boolean;
  /** Relocations an insert tries before it gives up (see the `maxKicks` option). */
  readonly maxKicks: number;
  /** The hash seed, as a bigint (0..2^64-1). */
  readonly seed: bigint;
  /**
   * The false-positive rate bound of the filter as it is, full: `1 - (1 - 1/(2^f - 1))^(2b)` for a fixed
   * filter (a lookup compares 2b fingerprints); for a growing one, the sum of that over its levels, which
   * rises with `levels` and stays within the `fpr` asked for. Once an item is parked as the victim
   * (`isFull`), lookups also compare it, which adds about `2 / bucketCount` of one comparison's
   * `1/(2^f - 1)`: noticeable only for tiny filters.
   */
  readonly fprBound: number;
  /** Whether the filter grows (see {@link CuckooFilterOptions.growable}); a deserialized filter keeps it. */
  readonly growable: boolean;
  /** The number of levels: 1 for a fixed filter; for a growing one, 1 plus the times it grew. */
  readonly levels: number;
  /** A growing filter's memory limit ({@link CuckooFilterOptions.maxMemoryBytes}); `Infinity` when it
   * has none, and for a fixed filter. */
  readonly maxMemoryBytes: number;
}

/**
 * Bytes that are not a valid filter (docs/format.md): thrown by {@link CuckooFilter.deserialize} and
 * {@link CuckooFilter.deserializeSync}, as C++ throws `cuckoo::FormatError`. An `Error`; `name` is
 * `'FormatError'` and the message is the core's, e.g. "cuckoo: bad magic: not a cuckoo filter".
 */
export declare class FormatError extends Error {
  constructor(message?: string);
}

/**
 * The `RangeError` that the constructor and {@link CuckooFilter.create} throw in Node when the core's
 * checks refuse an option, as C++ throws `cuckoo::OptionError`: a plain `RangeError` (not a class of its
 * own) with three more properties. In browsers and bundles the error has the message only.
 */
export interface OptionRangeError extends RangeError {
  /** Which option, as JS spells it, e.g. `'bucketSize'`. */
  option: keyof CuckooFilterOptions;
  /** The value refused, as the message writes it, e.g. `'3'`, `'1e-12'`, `'true'`. */
  value: string;
  /**
   * The message in parts: text at the even indices, the JS name of an option it names at the odd ones
   * (`['cuckoo: ', 'semiSort', ' requires ', 'bucketSize', ' 4 (got 8)']`), so that a front end can name
   * the options its own way; `messageParts.join('')` is the message.
   */
  messageParts: string[];
}

/** The same promise as {@link CuckooFilter.ready}, as a function. */
export declare function ready(): Promise<void>;
