// js/reader_filter.js: CuckooReader, a filter loaded read-only from its bytes (docs/format.md), for pages
// and workers that only query: has, hasMany, count and the filter's properties, with the answers and
// errors of CuckooFilter (js/cuckoo_filter.js) at a fraction of its download.
//
// A reader keeps the serialized bytes in wasm memory, once, as they came, with a small descriptor of its
// tables in front (wasm/reader_table.h, struct Filter); the module probes the tables in place. Loading runs
// deserialize's checks in its order: the header's in JS (reader_format.js), the checksum and the tables'
// contents in wasm. Each reader owns its block of wasm memory: dispose() gives it back, and a
// FinalizationRegistry gives back the blocks of readers never disposed, eventually.
import { loadReader, rd, alloc, release, callProbe, stageKey, shrinkScratch, kKeptScratch } from './reader_runtime.js';
import { classified, bytesOf, isKeyError, toArray } from './classify.js';
import { readHeader, readLevelHeaders, checkLength, checkTable, formatError } from './reader_format.js';
import { tableBytes, levelLimit, extraBits, kMaxTableBytes } from './reader_format.js';
import { streamPieces } from './stream_source.js';

// wasm/reader_table.h: sizeof(Filter) before its levels, and sizeof(Level).
const kFilterBytes = 40;
const kLevelBytes = 56;

const finalizer = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry(([address, bytes]) => release(address, bytes)) : null;
const disposeSymbol = typeof Symbol.dispose === 'symbol' ? Symbol.dispose : Symbol.for('Symbol.dispose');
const kConstruct = Symbol('construct');
// What toJSON() writes in place of a reader (as CuckooFilter's does).
const kSummaryNote = 'a summary, not the filter: JSON cannot hold one; store the bytes of serialize()';

function requireLoaded() {
  if (rd.M === null) {
    throw new Error(
      'cuckoo-wasm: the WebAssembly module is not loaded yet: `await CuckooReader.ready` first, ' + 'or use the async CuckooReader.deserialize()',
    );
  }
  return rd.M;
}

// 1 - (1 - p)^(2b) with +, * and / only, as the core computes it (options.cpp, match_bound).
function matchBound(p, bucketSize) {
  const x = 1 - p;
  let sum = 0;
  let power = 1;
  for (let k = 0; k < 2 * bucketSize; k++) {
    sum += power;
    power *= x;
  }
  return p * sum;
}

// Writes the descriptor of wasm/reader_table.h at address, the tables (oldest first) at `file` + offsets.
function describe(address, file, shape, tables) {
  const h = rd.heap32;
  let q = address >>> 2;
  new DataView(h.buffer).setBigUint64(address, shape.seed, true);
  h.set([shape.bucketSize, shape.semiSort ? 1 : 0, shape.fingerprintBits, shape.bucketCount, tables.length, 0], q + 2);
  q += kFilterBytes / 4;
  for (let i = tables.length; i-- > 0; q += kLevelBytes / 4) {
    const t = tables[i];
    h.set([file + t.offset, t.buckets, t.bits, t.extra, t.level, t.victim ? 1 : 0, t.victimFp, Number(t.victimIndex)], q);
  }
}

// deserialize's checks after the header's: each table's fields, then its contents (docs/format.md, steps
// 9 to 13), and for version 2 the totals. Throws FormatError. Unless `scan`, steps 11 and 12, which read
// the whole table, are left out, as a C++ FilterView leaves them out (docs/format.md, "Views").
function checkTables(M, address, shape, tables, scan) {
  const growable = shape.growable;
  let items = 0n;
  let bytes = 0;
  tables.forEach((t, s) => {
    const where = growable ? `level ${s}: ` : '';
    checkTable(shape, t, where);
    const index = tables.length - 1 - s;
    const scanned = scan ? M.reader_scan(address, index) : 0;
    if (scanned === -1) throw formatError(`${where}invalid table: nonzero padding bits after the last bucket`);
    if (scanned === -2) throw formatError(`${where}a fingerprint that no key has in this level`);
    if (scanned < 0) throw formatError(`${where}invalid table: invalid semi-sort code in bucket ${-3 - scanned}`);
    const stored = scanned + (t.victim ? 1 : 0);
    if (scan && t.items !== BigInt(stored)) {
      throw formatError(`${where}item count ${t.items} does not match the ${stored} fingerprints stored`);
    }
    if (t.victim && M.reader_victim_has_room(address, index)) {
      throw formatError(`${where}victim parked although one of its buckets has an empty entry`);
    }
    items += t.items;
    bytes += tableBytes(t.buckets, shape.bucketSize, t.bits, shape.semiSort);
  });
  if (growable && items !== shape.items) throw formatError(`item count ${shape.items} does not match the levels' ${items}`);
  const limit = shape.maxMemoryBytes;
  if (limit !== 0n && bytes > limit) {
    throw formatError(`the levels' tables take ${bytes} bytes, more than max_memory_bytes ${limit}`);
  }
  return bytes;
}

// What CuckooFilter reports for the same filter (core/src/filter.cpp, growing_core.cpp, options.cpp).
function properties(shape, tables, bytes, tableTotal) {
  const { bucketSize: b, fingerprintBits: f, semiSort, growable } = shape;
  const size = Number(shape.items);
  let buckets = 0;
  let fprBound = 0;
  let parked = 0; // victims: in no slot, so not in loadFactor
  for (const t of tables) {
    buckets += t.buckets;
    if (t.victim) parked++;
    fprBound += matchBound(1 / ((2 ** f - 1) * 2 ** t.extra), b);
  }
  const newest = tables[tables.length - 1];
  let isFull = newest.victim;
  if (isFull && growable) {
    // A growing filter is full when its newest level is and no level may be added (GrowingCore::may_grow).
    const s = tables.length;
    const next = tableBytes(shape.bucketCount * 2 ** s, b, f + extraBits(s), semiSort);
    const limit = shape.maxMemoryBytes;
    isFull = s >= levelLimit(shape) || next > kMaxTableBytes || (limit !== 0n && tableTotal + next > limit);
  }
  const maxMemory = Number(shape.maxMemoryBytes);
  return {
    size,
    slotCount: buckets * b,
    loadFactor: (size - parked) / (buckets * b),
    bitsPerItem: size === 0 ? Infinity : (tableTotal * 8) / size,
    byteLength: bytes,
    isFull,
    bucketCount: buckets,
    bucketSize: b,
    fingerprintBits: f,
    semiSort,
    maxKicks: shape.maxKicks,
    seed: shape.seed,
    growable,
    maxMemoryBytes: maxMemory === 0 ? Infinity : maxMemory,
    levels: tables.length,
    fprBound,
  };
}

// The block in wasm memory for a filter whose header readHeader() read (`plan`): its descriptor, then
// room for its serialized bytes at `file`.
function allocate(plan) {
  const head = kFilterBytes + plan.tables.length * kLevelBytes;
  const size = plan.body + 8;
  const bytes = head + size;
  const address = alloc(bytes);
  return { ...plan, address, file: address + head, size, bytes };
}

// deserialize's checks from the checksum on, over the bytes in the block, and the reader; frees the
// block and throws on bad bytes. verify === false: a view's checks only (checkTables), no checksum.
function finishLoad(block, verify) {
  const M = rd.M;
  const { shape, tables, body, address, file } = block;
  let tableTotal;
  try {
    if (verify && M.reader_checksum(file, body) !== new DataView(rd.heap.buffer).getBigInt64(file + body, true)) {
      throw formatError('checksum mismatch: the bytes are corrupted');
    }
    readLevelHeaders(rd.heap.subarray(file, file + block.size), shape, tables);
    describe(address, file, shape, tables);
    M.reader_prepare(address);
    tableTotal = checkTables(M, address, shape, tables, verify);
  } catch (error) {
    release(address, block.bytes);
    throw error;
  }
  return new CuckooReader(kConstruct, block, properties(shape, tables, block.size, tableTotal));
}

// A reader from a stream of byte pieces: the header from the first 64 bytes, then every piece straight into
// its block. Bad bytes get the errors deserializeSync gives the same bytes in one piece; a stream longer
// or shorter than its header says is read to its end first, to name its length.
async function loadStream(pieces, verify) {
  let head = new Uint8Array(0);
  let received = 0;
  let block = null;
  try {
    // Leaving the loop early (an error) releases the source (js/stream_source.js).
    for await (const value of pieces) {
      if (block === null) {
        const joined = new Uint8Array(head.length + value.length);
        joined.set(head);
        joined.set(value, head.length);
        head = joined;
        if (head.length < 64) continue;
        block = allocate(readHeader(head, Infinity));
        received = 0;
        copy(block, head, 0);
        received = head.length;
        head = null;
      } else {
        copy(block, value, received);
        received += value.length;
      }
    }
    if (block === null) readHeader(head); // fewer than 64 bytes: the truncated-input error
    checkLength(received, block.size);
  } catch (error) {
    if (block !== null) release(block.address, block.bytes);
    throw error;
  }
  return finishLoad(block, verify);
}

// Copies the part of `piece` (bytes at offset `at` of the stream) that falls within the block's bytes.
function copy(block, piece, at) {
  const room = block.size - at;
  if (room > 0) rd.heap.set(room < piece.length ? piece.subarray(0, room) : piece, block.file + at);
}

let readyPromise = null;

export class CuckooReader {
  #address = 0; // the block in wasm memory: the descriptor (the address the probes take), then the bytes
  #file = 0; // where the serialized bytes start in it
  #blockBytes = 0;
  #properties = null;

  // Only finishLoad() makes readers: a block it checked, and what the reader reports.
  constructor(token, block, properties) {
    if (token !== kConstruct) {
      throw new TypeError('cuckoo-wasm: a CuckooReader comes from CuckooReader.deserialize(bytes), not from new');
    }
    this.#address = block.address;
    this.#file = block.file;
    this.#blockBytes = block.bytes;
    this.#properties = properties;
    if (finalizer !== null) finalizer.register(this, [block.address, block.bytes], this);
  }

  // Resolves when the WebAssembly module is ready; after that, deserializeSync works.
  static get ready() {
    readyPromise ??= loadReader().then(
      () => undefined,
      (error) => {
        readyPromise = null;
        throw error;
      },
    );
    return readyPromise;
  }

  // bytes, or a stream of them (a fetch Response or its body, a ReadableStream, a Node Readable, any async
  // iterable of Uint8Array pieces), copied into wasm memory as they arrive: once, with no whole copy in JS.
  // options.verify === false: only the checks a C++ FilterView makes on open (docs/format.md, "Views").
  static async deserialize(bytes, options) {
    await loadReader();
    const pieces = streamPieces(bytes);
    if (pieces) return loadStream(pieces, options?.verify !== false);
    return CuckooReader.deserializeSync(bytes, options);
  }

  static deserializeSync(bytes, options) {
    requireLoaded();
    const view = bytesOf(bytes);
    if (view === null) {
      if (bytes?.CuckooReader === kSummaryNote || bytes?.CuckooFilter === kSummaryNote) {
        throw new TypeError(
          'cuckoo-wasm: deserialize() got the JSON summary of a filter (what JSON.stringify writes), not its bytes: ' +
            'store the bytes of serialize() instead',
        );
      }
      throw new TypeError('cuckoo-wasm: deserialize() takes a Uint8Array, an ArrayBuffer view, an ArrayBuffer or a SharedArrayBuffer');
    }
    const block = allocate(readHeader(view));
    try {
      rd.heap.set(view, block.file);
    } catch (error) {
      release(block.address, block.bytes);
      throw error;
    }
    return finishLoad(block, options?.verify !== false);
  }

  // A reader over a block that finishLoad() checked; `properties` are what it reports.
  // The descriptor's address, or throws if disposed (member: 'has()' for a method, 'size' for a property).
  #live(member) {
    const address = this.#address;
    if (address === 0) {
      const use = member.endsWith('()') ? 'called' : 'read';
      throw new Error(`cuckoo-wasm: CuckooReader.${member} ${use} after dispose(): the filter was disposed`);
    }
    return address;
  }

  // Stages key (reader_runtime.js); a disposed reader says so before any complaint about the key.
  #stage(member, key) {
    try {
      return stageKey(key);
    } catch (error) {
      this.#live(member);
      throw error;
    }
  }

  // One probe of a staged key: op for bytes, opU64 for an integer number (n < 0).
  #probe(member, key, op, opU64) {
    const n = this.#stage(member, key);
    const filter = this.#live(member);
    const result = n < 0 ? callProbe(opU64, filter, classified.lo, classified.hi) : callProbe(op, filter, rd.scratch, n);
    if (rd.scratchCap > kKeptScratch) shrinkScratch();
    return result;
  }

  has(key) {
    return this.#probe('has()', key, rd.M.reader_contains, rd.M.reader_contains_u64) !== 0;
  }

  count(key) {
    return this.#probe('count()', key, rd.M.reader_count, rd.M.reader_count_u64) >>> 0;
  }

  // Uint8Array: 1 where a key may be in the set. An invalid key throws, naming its index.
  hasMany(keys) {
    this.#live('hasMany()');
    const list = toArray(keys, 'hasMany');
    const out = new Uint8Array(list.length);
    for (let i = 0; i < list.length; i++) {
      try {
        out[i] = this.has(list[i]) ? 1 : 0;
      } catch (error) {
        if (isKeyError(error)) error.message += ` (the key at index ${i})`;
        throw error;
      }
    }
    return out;
  }

  // The bytes it was loaded from (a copy): the same bytes CuckooFilter.serialize() gives for it.
  serialize() {
    this.#live('serialize()');
    const n = this.#properties.byteLength;
    return rd.heap.slice(this.#file, this.#file + n);
  }

  dispose() {
    const address = this.#address;
    if (address === 0) return;
    this.#address = 0;
    if (finalizer !== null) finalizer.unregister(this);
    release(address, this.#blockBytes);
  }

  [disposeSymbol]() {
    this.dispose();
  }

  get disposed() {
    return this.#address === 0;
  }

  get [Symbol.toStringTag]() {
    return 'CuckooReader';
  }

  // JSON cannot hold a filter: without this JSON.stringify would write `{}` (the fields are private) and
  // JSON meant to store one would lose it without a trace. A summary that says so, as CuckooFilter writes.
  toJSON() {
    if (this.#address === 0) return { CuckooReader: kSummaryNote, disposed: true };
    const p = this.#properties;
    const growth = p.growable ? { growable: true, levels: p.levels } : {};
    const { size, slotCount, bucketSize, fingerprintBits, semiSort, byteLength } = p;
    return { CuckooReader: kSummaryNote, size, slotCount, bucketSize, fingerprintBits, semiSort, byteLength, ...growth };
  }

  #get(name) {
    this.#live(name);
    return this.#properties[name];
  }

  get size() {
    return this.#get('size');
  }
  get slotCount() {
    return this.#get('slotCount');
  }
  get loadFactor() {
    return this.#get('loadFactor');
  }
  get bitsPerItem() {
    return this.#get('bitsPerItem');
  }
  get byteLength() {
    return this.#get('byteLength');
  }
  get isFull() {
    return this.#get('isFull');
  }
  get bucketCount() {
    return this.#get('bucketCount');
  }
  get bucketSize() {
    return this.#get('bucketSize');
  }
  get fingerprintBits() {
    return this.#get('fingerprintBits');
  }
  get semiSort() {
    return this.#get('semiSort');
  }
  get maxKicks() {
    return this.#get('maxKicks');
  }
  get seed() {
    return this.#get('seed');
  }
  get growable() {
    return this.#get('growable');
  }
  get maxMemoryBytes() {
    return this.#get('maxMemoryBytes');
  }
  get levels() {
    return this.#get('levels');
  }
  get fprBound() {
    return this.#get('fprBound');
  }
}
