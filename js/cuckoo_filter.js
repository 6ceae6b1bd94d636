// js/cuckoo_filter.js: the public CuckooFilter class, a thin hand-written layer over the core.
//
// Roads into wasm (see wasm/bindings.cpp and wasm/hot_path.cpp):
// - a NativeFilter handle (js/native.js) for construction, configuration, properties and serialization: cold.
// - raw exports for add/has/delete/count: the key is written into a scratch buffer in wasm memory
//   (js/stage.js) and the call passes (filter address, key address, length), or two u32 halves for integers.
// - one raw call per chunk of up to 16384 keys for addMany/hasMany (js/batch.js; the core's
//   insert_many/contains_many).
// Each filter owns a C++ object in wasm memory: dispose() frees it; a FinalizationRegistry frees the ones
// never disposed, eventually (garbage collection is not guaranteed to run).
// A growing filter (options without a size, or growable: true) is the same C++ class with a stack of
// levels; only an insert can grow it, and an insert whose new level does not fit in wasm memory returns
// -1 from the raw call (the error recorded in wasm, the filter unchanged): add() throws it as a RangeError.
import { loadRuntime, requireRuntime, callRaw } from './runtime.js';
import { kInsertBytes, kContainsBytes, kEraseBytes, kCountBytes, kInsertU64, kContainsU64, kEraseU64, kCountU64 } from './runtime.js';
import { rt, malloc, free, requireHeadroom } from './memory.js';
import { lastError } from './errors.js';
import { classified, checkKeys, bytesOf, toArray } from './classify.js';
import { stageKey } from './stage.js';
import { insertAll, containsAll } from './batch.js';
import { createArgs } from './options.js';
import { NativeFilter } from './native.js';
import { streamPieces } from './stream_source.js';
import { loadBytes, loadStream } from './stream.js';

// Frees the C++ object of a filter that was garbage-collected without dispose().
const finalizer = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((handle) => handle.delete()) : null;

// Node >= 18.18 / 20.4 and recent browsers have Symbol.dispose (`using f = ...`); elsewhere the method is
// still reachable under the registered symbol TypeScript's downlevel helpers look for.
const disposeSymbol = typeof Symbol.dispose === 'symbol' ? Symbol.dispose : Symbol.for('Symbol.dispose');

// deserialize() builds its filter with `new C(kAdopt)` and hands the handle over in `adopting`, not as a
// second argument: a subclass (C) whose constructor passes its first argument on to super() then works.
const kAdopt = Symbol('adopt');
let adopting = null;

// The class a static factory was called on: CuckooFilter or a subclass, so that `await Sub.create()` is a
// Sub (as Array.from and Promise.resolve do); CuckooFilter when called detached (`const { create } = ...`).
function classOf(C) {
  return typeof C === 'function' && (C === CuckooFilter || C.prototype instanceof CuckooFilter) ? C : CuckooFilter;
}

// An instance of C wrapping a handle from _deserialize. If C's constructor did not pass kAdopt on to
// super(), the handle is freed and that is a TypeError (it would otherwise leak, or the filter be empty).
function adopt(C, handle) {
  adopting = handle;
  try {
    const filter = new C(kAdopt);
    if (adopting !== null) {
      filter.dispose();
      throw new TypeError(`cuckoo-wasm: ${C.name}.deserialize(): its constructor must pass its first argument on to super()`);
    }
    return filter;
  } finally {
    if (adopting !== null) {
      adopting.delete();
      adopting = null;
    }
  }
}

// member: 'add()' for a method, 'size' for a property.
function disposedError(member) {
  const use = member.endsWith('()') ? 'called' : 'read';
  return new Error(`cuckoo-wasm: CuckooFilter.${member} ${use} after dispose(): the filter was disposed`);
}

// What toJSON() writes in place of a filter.
const kSummaryNote = 'a summary, not the filter: JSON cannot hold one; store the bytes of serialize()';

function toBytes(bytes) {
  const view = bytesOf(bytes); // the same reading of binary data as binary keys
  if (view !== null) return view;
  if (bytes?.CuckooFilter === kSummaryNote) {
    throw new TypeError(
      'cuckoo-wasm: deserialize() got the JSON summary of a filter (what JSON.stringify writes), not its bytes: ' + 'store the bytes of serialize() instead',
    );
  }
  throw new TypeError('cuckoo-wasm: deserialize() takes a Uint8Array, an ArrayBuffer view, an ArrayBuffer or a SharedArrayBuffer');
}

let readyPromise = null;

// Node's entry (js/node.js) registers what only it has: serialize() straight from the table (js/stream.js),
// and it adds the methods for files and chunks itself, through `internals`. Browser bundles load none of
// it. Both entries read bytes and streams straight into the new table (js/stream.js's Loader).
let nodeOnly = null;
let internals = null;
export function registerNodeOnly(implementation) {
  nodeOnly = implementation;
  return internals;
}

export class CuckooFilter {
  static {
    // For js/node.js's methods (registerNodeOnly).
    internals = {
      adopt: (C, handle) => adopt(classOf(C), handle),
      address: (filter, member) => filter.#live(member),
    };
  }

  #handle; // NativeFilter; null after dispose()
  #ptr; // address of the C++ object as int32: first argument of the raw exports; 0 after dispose()
  #config; // resolved configuration, fixed for the filter's life

  // Synchronous construction; needs the module loaded (`await CuckooFilter.ready`).
  constructor(options) {
    requireRuntime();
    let handle = null;
    if (options === kAdopt) {
      handle = adopting;
      adopting = null;
    }
    if (handle === null) {
      const args = createArgs(options);
      requireHeadroom();
      handle = NativeFilter.create(args);
      if (handle === null) throw lastError();
    }
    let config;
    try {
      config = handle._config();
    } catch (error) {
      handle.delete(); // not yet registered with the finalizer
      throw error;
    }
    this.#handle = handle;
    this.#ptr = handle._address() | 0; // int32 for calls (never 0 for a live object)
    this.#config = config;
    if (finalizer !== null) finalizer.register(this, handle, this);
  }

  // Resolves when the WebAssembly module is ready; after that, the synchronous API works.
  static get ready() {
    if (readyPromise === null) {
      readyPromise = loadRuntime().then(
        () => undefined,
        (err) => {
          readyPromise = null; // like create(): a later `ready` tries again
          throw err;
        },
      );
    }
    return readyPromise;
  }

  static async create(options) {
    await loadRuntime();
    return new (classOf(this))(options);
  }

  // bytes, or a stream of them (a fetch Response or its body, a ReadableStream, a Node Readable or any
  // async iterable of Uint8Array pieces), read straight into the new table as it arrives, the checksum
  // computed on the way (js/stream.js): the whole input is never in one buffer.
  static async deserialize(bytes) {
    await loadRuntime();
    const pieces = streamPieces(bytes);
    if (pieces) return adopt(classOf(this), await loadStream(pieces));
    return CuckooFilter.deserializeSync.call(this, bytes);
  }

  // bytes copied straight into the new table (js/stream.js), with no copy of the input in wasm memory.
  static deserializeSync(bytes) {
    requireRuntime();
    return adopt(classOf(this), loadBytes(toBytes(bytes)));
  }

  // The live address, or throws if disposed (member: 'add()' for a method, 'size' for a property).
  #live(member) {
    const ptr = this.#ptr;
    if (ptr === 0) throw disposedError(member);
    return ptr;
  }

  // Stages key for a per-key call (stage.js); the caller then takes #live(), after staging, because reading
  // the key can run user code (a getter) that disposes the filter. A disposed filter says so before any
  // complaint about the key: checked only when the key is bad, so valid keys pay for one #live() only.
  #stage(member, key) {
    try {
      return stageKey(key);
    } catch (error) {
      this.#live(member);
      throw error;
    }
  }

  add(key) {
    const n = this.#stage('add()', key);
    const f = this.#live('add()');
    const stored = n < 0 ? callRaw(kInsertU64, f, classified.lo, classified.hi) : callRaw(kInsertBytes, f, rt.scratchArg, n);
    if (stored < 0) throw lastError(); // a growing filter's new level did not fit in wasm memory
    return stored !== 0;
  }

  // C++ insert_if_absent: a lookup, then an insert if it said no.
  addIfAbsent(key) {
    this.#live('addIfAbsent()');
    return this.has(key) ? 'present' : this.add(key) ? 'added' : 'refused';
  }

  has(key) {
    const n = this.#stage('has()', key);
    const f = this.#live('has()');
    return (n < 0 ? callRaw(kContainsU64, f, classified.lo, classified.hi) : callRaw(kContainsBytes, f, rt.scratchArg, n)) !== 0;
  }

  delete(key) {
    const n = this.#stage('delete()', key);
    const f = this.#live('delete()');
    return (n < 0 ? callRaw(kEraseU64, f, classified.lo, classified.hi) : callRaw(kEraseBytes, f, rt.scratchArg, n)) !== 0;
  }

  count(key) {
    const n = this.#stage('count()', key);
    const f = this.#live('count()');
    return (n < 0 ? callRaw(kCountU64, f, classified.lo, classified.hi) : callRaw(kCountBytes, f, rt.scratchArg, n)) >>> 0;
  }

  addMany(keys) {
    return this.#addMany(keys, 'addMany');
  }

  // Deprecated alias of addMany() (messages name the method called).
  addAll(keys) {
    return this.#addMany(keys, 'addAll');
  }

  #addMany(keys, method) {
    this.#live(`${method}()`);
    const list = toArray(keys, method);
    checkKeys(list, 0, list.length);
    return insertAll(() => this.#live(`${method}()`), list, method);
  }

  // C++ insert_many_if_absent: has() then add() for each key in order, on calls the module has anyway (a
  // page downloads every function). Node's entry does it in batches instead (js/batch.node.js).
  addManyIfAbsent(keys) {
    this.#live('addManyIfAbsent()');
    const list = toArray(keys, 'addManyIfAbsent');
    checkKeys(list, 0, list.length);
    let i = 0;
    while (i < list.length && (this.has(list[i]) || this.add(list[i]))) i++;
    return i;
  }

  hasMany(keys) {
    this.#live('hasMany()');
    return containsAll(() => this.#live('hasMany()'), toArray(keys, 'hasMany'));
  }

  clear() {
    this.#live('clear()');
    this.#handle._clear();
  }

  // Adds every fingerprint of `other` (a CuckooFilter of the same shape and seed) to this filter, without
  // the keys: afterwards this filter has every key of both (cuckoo::CuckooFilter::merge). A mismatch is an
  // Error naming it; if the union does not fit, an Error says so and this filter is unchanged.
  merge(other) {
    this.#live('merge()');
    if (typeof other !== 'object' || other === null || !(#handle in other)) {
      throw new TypeError('cuckoo-wasm: merge() takes a CuckooFilter');
    }
    if (other.#ptr === 0) throw new Error('cuckoo-wasm: merge() got a disposed filter');
    requireHeadroom();
    if (!this.#handle._merge(other.#handle)) throw lastError();
  }

  // In Node, assembled straight from the table in wasm memory (no second copy of it there).
  serialize() {
    const ptr = this.#live('serialize()');
    const handle = this.#handle;
    const n = handle._serializedSize();
    if (nodeOnly !== null) return nodeOnly.serialize(ptr, n);
    const out = malloc(n);
    try {
      handle._serializeInto(out);
      return rt.heap.slice(out, out + n);
    } finally {
      free(out);
    }
  }

  dispose() {
    const handle = this.#handle;
    if (handle === null) return;
    this.#handle = null;
    this.#ptr = 0;
    if (finalizer !== null) finalizer.unregister(this);
    handle.delete();
  }

  [disposeSymbol]() {
    this.dispose();
  }

  get disposed() {
    return this.#ptr === 0;
  }

  get size() {
    this.#live('size');
    return this.#handle._size();
  }

  get slotCount() {
    this.#live('slotCount');
    return this.#handle._slotCount();
  }

  // Deprecated alias of slotCount: the number of slots, not the `capacity` option.
  get capacity() {
    return this.slotCount;
  }

  get loadFactor() {
    this.#live('loadFactor');
    return this.#handle._loadFactor();
  }

  get bitsPerItem() {
    this.#live('bitsPerItem');
    return this.#handle._bitsPerItem();
  }

  get byteLength() {
    this.#live('byteLength');
    return this.#handle._serializedSize();
  }

  get isFull() {
    this.#live('isFull');
    return this.#handle._isFull();
  }

  get bucketCount() {
    this.#live('bucketCount');
    return this.#handle._bucketCount();
  }

  get bucketSize() {
    this.#live('bucketSize');
    return this.#config.bucketSize;
  }

  get fingerprintBits() {
    this.#live('fingerprintBits');
    return this.#config.fingerprintBits;
  }

  get semiSort() {
    this.#live('semiSort');
    return this.#config.semiSort;
  }

  get maxKicks() {
    this.#live('maxKicks');
    return this.#config.maxKicks;
  }

  get seed() {
    this.#live('seed');
    return this.#config.seed;
  }

  get growable() {
    this.#live('growable');
    return this.#config.growable;
  }

  get maxMemoryBytes() {
    this.#live('maxMemoryBytes');
    const limit = this.#config.maxMemoryBytes;
    return limit === 0n ? Infinity : Number(limit);
  }

  get levels() {
    this.#live('levels');
    return this.#handle._levels();
  }

  // The false-positive bound of the filter as it is, its levels full (the core's false_positive_bound()):
  // 1 - (1 - 1/(2^f - 1))^(2b) for a fixed filter, the sum of that over the levels of a growing one.
  get fprBound() {
    this.#live('fprBound');
    return this.#handle._fprBound();
  }

  // JSON cannot hold a filter, and without this JSON.stringify writes `{}` (the fields are private): JSON
  // meant to store one would lose it without a trace. This writes a summary that says so instead, and
  // deserialize() of that summary names it. Throwing would be louder, but loggers and test runners
  // (pretty-format, behind Jest's and Vitest's output, calls toJSON) could then not print a filter at all.
  toJSON() {
    if (this.#ptr === 0) return { CuckooFilter: kSummaryNote, disposed: true };
    return {
      CuckooFilter: kSummaryNote,
      size: this.size,
      slotCount: this.slotCount,
      bucketSize: this.bucketSize,
      fingerprintBits: this.fingerprintBits,
      semiSort: this.semiSort,
      byteLength: this.byteLength,
      ...this.#growth(),
    };
  }

  get [Symbol.toStringTag]() {
    return 'CuckooFilter';
  }

  // What console.log and util.inspect print in Node: the filter's shape and fill, never its table.
  // (The fields are private, so without this a live filter would print as `CuckooFilter {}`.) Node (>= 16.14,
  // and the package needs 18) passes its inspect function as the third argument; the symbol is the
  // registered one, so nothing imports util.
  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    if (this.#ptr === 0) return 'CuckooFilter <disposed>';
    const summary = {
      size: this.size,
      slotCount: this.slotCount,
      loadFactor: this.loadFactor,
      bucketSize: this.bucketSize,
      fingerprintBits: this.fingerprintBits,
      semiSort: this.semiSort,
      byteLength: this.byteLength,
      isFull: this.isFull,
      ...this.#growth(),
    };
    return `CuckooFilter ${inspect(summary, options)}`;
  }

  // The summaries' extra fields for a growing filter (none for a fixed one, whose summary stays as it was).
  #growth() {
    return this.#config.growable ? { growable: true, levels: this.levels } : {};
  }
}

// The same promise as CuckooFilter.ready, as a function.
export function ready() {
  return CuckooFilter.ready;
}
