// js/keys.js: turns a JS key into the bytes the core hashes, written straight into wasm memory.
//
// Key types and how they hash (identical to the native API, so filters and files are interchangeable):
//   string              its UTF-8 bytes (TextEncoder semantics: a lone surrogate becomes U+FFFD, EF BF BD)
//   Uint8Array, any ArrayBuffer view, ArrayBuffer, SharedArrayBuffer
//                       their bytes (byteOffset/byteLength respected)
//   number              an integer in 0..2^53-1: its 8 little-endian bytes, like native insert(uint64_t)
//   bigint              0..2^64-1: the same 8 little-endian bytes
// So "abc" and Uint8Array [97, 98, 99] are the same key, and 7, 7n and [7,0,0,0,0,0,0,0] are the same key.
// Anything else is a TypeError (including non-integer numbers: 1.5, NaN, Infinity); integers outside
// the ranges above are a RangeError. A binary key with no bytes to read (a detached buffer, or a view
// outside a resizable buffer that shrank) is a TypeError too, not the empty key.
import { rt, ensureScratch, kKeptScratch, kMinScratch, malloc, free, callRawBatch, kInsertMany, kContainsMany } from './runtime.js';
import { lastError, lastErrorKind, kOutOfMemory } from './runtime.js';

const encoder = new TextEncoder();
const kTwo32 = 4294967296;
const kMaxU64 = (1n << 64n) - 1n;

// Set by stageKey() for integer keys: the two 32-bit halves, as int32 (wasm reads the same bits as u32).
export const staged = { lo: 0, hi: 0 };

// The current heap view (runtime.js keeps rt.heap in step with memory growth).
function heap() {
  return rt.heap;
}

function describe(key) {
  if (key === null) return 'null';
  if (typeof key === 'object') return key.constructor?.name ?? 'object';
  if (typeof key === 'string') return 'string';
  if (typeof key === 'bigint') return `${key}n`;
  if (typeof key === 'symbol') return 'symbol';
  return typeof key === 'function' ? 'function' : String(key);
}

// Errors about a key's type or value are made by keyError(), so that a batch can say which key it was.
const keyErrors = new WeakSet();
function keyError(error) {
  keyErrors.add(error);
  return error;
}

function typeError(key) {
  const message =
    'cuckoo-wasm: a key must be a string, a non-negative integer number, a bigint, an ArrayBuffer ' +
    `or an ArrayBuffer view (got ${describe(key)})`;
  return keyError(new TypeError(message));
}

// Brand checks: the byteLength getters throw for anything but a real (Shared)ArrayBuffer, from any realm
// (iframe, vm). Object.prototype.toString would also accept a plain object with Symbol.toStringTag.
const arrayBufferByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
const sharedByteLength =
  typeof SharedArrayBuffer === 'function'
    ? Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, 'byteLength').get
    : null;

function isArrayBuffer(key) {
  try {
    arrayBufferByteLength.call(key);
    return true;
  } catch {
    // not an ArrayBuffer; maybe a SharedArrayBuffer
  }
  if (sharedByteLength === null) return false;
  try {
    sharedByteLength.call(key);
    return true;
  } catch {
    return false;
  }
}

// A transferred ArrayBuffer reads as empty; hashing it as the empty key would be a silent wrong answer.
function isDetached(buffer) {
  let length;
  try {
    length = arrayBufferByteLength.call(buffer);
  } catch {
    return false; // a SharedArrayBuffer cannot be detached
  }
  if (length !== 0) return false;
  try {
    new Uint8Array(buffer); // throws TypeError for a detached buffer only
    return false;
  } catch {
    return true;
  }
}

function detachedError() {
  return keyError(new TypeError("cuckoo-wasm: the ArrayBuffer is detached (it was transferred), so it has no bytes"));
}

// Validates an integer number key and splits it; throws TypeError/RangeError.
function splitNumber(key) {
  if (!Number.isInteger(key)) {
    const message = `cuckoo-wasm: a number key must be an integer (got ${key}); hash floats as strings or bytes`;
    throw keyError(new TypeError(message));
  }
  if (key < 0 || key > Number.MAX_SAFE_INTEGER) {
    const message = `cuckoo-wasm: a number key must be in 0..2^53-1 (got ${key}); use a bigint for keys up to 2^64-1`;
    throw keyError(new RangeError(message));
  }
  // `| 0`, not `>>> 0`: the same 32 bits, but always a small integer, which V8 passes to wasm without
  // boxing (a uint32 above 2^31 would be a heap number and take the slow conversion path).
  staged.lo = key | 0;
  staged.hi = (key / kTwo32) | 0;
}

function checkBigInt(key) {
  if (key < 0n || key > kMaxU64) {
    throw keyError(new RangeError(`cuckoo-wasm: a bigint key must be in 0..2^64-1 (got ${key}n)`));
  }
}

// Stores a valid bigint key as its 8 little-endian bytes at rt.scratch, through a BigUint64Array: unlike
// BigInt.asIntN() and `>> 32n`, that allocates nothing (has() with bigint keys took ~2.5x a number's time).
function storeBigInt(key) {
  if (rt.scratchCap < 8) ensureScratch(8);
  rt.heap64[rt.scratch >>> 3] = key; // malloc'ed, so 8-aligned
}

function splitBigInt(key) {
  checkBigInt(key);
  storeBigInt(key);
  const q = rt.scratch >>> 2;
  staged.lo = rt.heap32[q] | 0;
  staged.hi = rt.heap32[q + 1] | 0;
}

// The typed arrays' own getters: a subclass (or an instance property) may redefine `length`, but the copy
// into wasm memory (TypedArray.prototype.set) uses the real one, so sizing by a lying `length` would write
// past the buffer sized for it. The same holds for DataView's getters.
const typedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const intrinsicGetter = (name) => Object.getOwnPropertyDescriptor(typedArrayPrototype, name).get;
const typedArrayLength = intrinsicGetter('length');
const typedArrayBuffer = intrinsicGetter('buffer');
const typedArrayByteOffset = intrinsicGetter('byteOffset');
const typedArrayByteLength = intrinsicGetter('byteLength');
const typedArraySet = typedArrayPrototype.set;
const dataViewGetter = (name) => Object.getOwnPropertyDescriptor(DataView.prototype, name).get;
const dataViewBuffer = dataViewGetter('buffer');
const dataViewByteOffset = dataViewGetter('byteOffset');
const dataViewByteLength = dataViewGetter('byteLength');
const noBytes = new Uint8Array(0);

// The true length of something that inherits from Uint8Array. A Proxy around a Uint8Array, or
// Object.create(Uint8Array.prototype), passes instanceof but is no typed array: the intrinsic getter
// throws V8's "called on incompatible receiver", which would not say what was wrong with the key.
function uint8Length(key) {
  try {
    return typedArrayLength.call(key);
  } catch {
    const message =
      'cuckoo-wasm: an object that inherits from Uint8Array but is not one (a Proxy, or an object made ' +
      'with Object.create) has no bytes of its own; pass the Uint8Array itself';
    throw keyError(new TypeError(message));
  }
}

// A view past the end of a resizable ArrayBuffer that was resized smaller (ES2024, Node >= 20).
function outOfBoundsError() {
  const message =
    'cuckoo-wasm: the view lies outside its ArrayBuffer, which was resized smaller, so it has no bytes';
  return keyError(new TypeError(message));
}

// A typed array reads as empty (length 0 at offset 0) both when it is and when its buffer was detached
// or shrank below it; hashing the last two as the empty key would be a silent wrong answer.
function checkEmptyTypedArray(view, buffer) {
  if (isDetached(buffer)) throw detachedError();
  try {
    typedArraySet.call(noBytes, view); // copies nothing, but throws for a source that is out of bounds
  } catch {
    throw outOfBoundsError();
  }
}

// The bytes of a DataView; its getters throw once the view is out of bounds.
function dataViewBytes(view) {
  const buffer = dataViewBuffer.call(view);
  if (isDetached(buffer)) throw detachedError();
  let offset, length;
  try {
    offset = dataViewByteOffset.call(view);
    length = dataViewByteLength.call(view);
  } catch {
    throw outOfBoundsError();
  }
  return new Uint8Array(buffer, offset, length);
}

// The bytes of a binary key, or null if key is not binary. Throws TypeError for a view or buffer with no
// bytes to read (detached, or outside its shrunken buffer). The result's `length` is always its true length.
export function bytesOf(key) {
  if (key instanceof Uint8Array) {
    const n = uint8Length(key);
    if (n === 0) checkEmptyTypedArray(key, typedArrayBuffer.call(key));
    if (key.length === n) return key;
    return new Uint8Array(typedArrayBuffer.call(key), typedArrayByteOffset.call(key), n);
  }
  if (ArrayBuffer.isView(key)) {
    // ArrayBuffer.isView admits only typed arrays and DataViews; the typed-array getter throws for the latter.
    let buffer;
    try {
      buffer = typedArrayBuffer.call(key);
    } catch {
      return dataViewBytes(key);
    }
    const length = typedArrayByteLength.call(key);
    if (length === 0) checkEmptyTypedArray(key, buffer);
    return new Uint8Array(buffer, typedArrayByteOffset.call(key), length);
  }
  if (isArrayBuffer(key)) {
    if (isDetached(key)) throw detachedError();
    return new Uint8Array(key);
  }
  return null;
}

// Strings are written as UTF-8 in one of two ways (Node 20, ns per key; has() by key length and shape:
// bench/js/key_shapes.mjs):
// - a charCodeAt loop storing byte by byte: ~17 ns for 8 ASCII characters, but ~1.7 ns more per character
//   (over 4 for a concatenated or sliced string), so ~160 ns at 64;
// - TextEncoder.encodeInto: ~37-55 ns whatever the length up to 256, and it handles non-ASCII, when it
//   writes into a view kept over the scratch buffer (rt.scratchView). A batch writes at changing offsets,
//   and the view it makes per key costs more, so there the loop pays up to 24 characters.
const kLoopMaxChars = 16;
if (kMinScratch < 3 * kLoopMaxChars) throw new Error('cuckoo-wasm: internal error: the scratch buffer is too small');
const kBatchLoopMaxChars = 24;

// UTF-8 of s into `view` (room for 3 bytes per code unit guaranteed by the caller); returns the byte count.
function encodeInto(s, view) {
  const result = encoder.encodeInto(s, view);
  // Cannot happen (the caller made room): a stale or short view would hash a truncated key instead.
  if (result.read !== s.length) throw new Error('cuckoo-wasm: internal error: a key did not fit its buffer');
  return result.written;
}

// Writes string s as UTF-8 at address p of h (rt.heap, or a view detached by memory growth during a
// batch, whose writes are lost and redone), with room for 3 bytes per code unit; returns the byte count.
// Up to loopMax characters it tries the loop; `view` is the encodeInto target at p if the caller keeps one
// (the scratch buffer), else null. The loop tests for non-ASCII once at the end (then encodeInto rewrites
// the bytes): a test per character made it ~1.35x slower (19.8 vs 14.6 ns for 10 characters).
function writeString(h, p, s, loopMax, view) {
  const n = s.length;
  if (n <= loopMax) {
    let seen = 0;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      seen |= c;
      h[p + i] = c;
    }
    if (seen < 0x80) return n;
  }
  // A batch's view from rt.heap, not h: if reading a key grew memory, h is detached (subarray would throw),
  // and pack() repacks the chunk anyway once it sees the new heap.
  return encodeInto(s, view === null ? rt.heap.subarray(p, p + 3 * n) : view);
}

// A string into the scratch buffer.
function stageString(s) {
  return writeString(rt.heap, rt.scratch, s, kLoopMaxChars, rt.scratchView);
}

// Stages one key for a hot_path.cpp call: returns its byte length (the bytes are at rt.scratch), or -1
// for an integer number key (its halves are in `staged`). Throws TypeError/RangeError for invalid keys.
export function stageKey(key) {
  if (typeof key === 'string') {
    const n = key.length;
    if (n <= kLoopMaxChars) {
      // The most common key, inlined here rather than through writeString(): V8 then compiles has() and
      // add() as one function (1.0x-1.1x on 11-character keys, bench/js/key_shapes.mjs). The scratch
      // buffer always has room (kMinScratch >= 3 * kLoopMaxChars).
      const h = rt.heap;
      const p = rt.scratch;
      let seen = 0;
      for (let i = 0; i < n; i++) {
        const c = key.charCodeAt(i);
        seen |= c;
        h[p + i] = c;
      }
      return seen < 0x80 ? n : encodeInto(key, rt.scratchView);
    }
    if (3 * n > rt.scratchCap) return stageLongString(key);
    return stageString(key);
  }
  if (typeof key === 'number') {
    // Inline fast path for valid keys; splitNumber() throws the right error for the rest.
    if (key >= 0 && key <= Number.MAX_SAFE_INTEGER && Math.floor(key) === key) {
      staged.lo = key | 0;
      staged.hi = (key / kTwo32) | 0;
    } else {
      splitNumber(key);
    }
    return -1;
  }
  if (typeof key === 'bigint') {
    // As 8 bytes, which hash exactly like the u64 overloads.
    checkBigInt(key);
    storeBigInt(key);
    return 8;
  }
  const bytes = bytesOf(key);
  if (bytes === null) throw typeError(key);
  return stageBytes(bytes);
}

function stageBytes(bytes) {
  if (bytes.length > rt.scratchCap) ensureScratch(bytes.length);
  heap().set(bytes, rt.scratch);
  return bytes.length;
}

// A string whose worst case (3 bytes per code unit) exceeds the scratch buffer. Up to kKeptScratch it is
// written in place as usual; a longer one is encoded to its exact bytes first, so that a 100 MB string
// takes 100 MB of wasm memory, not 300 (or 512, rounded up).
function stageLongString(key) {
  const room = 3 * key.length;
  if (room > kKeptScratch) return stageBytes(encoder.encode(key));
  ensureScratch(room);
  return stageString(key);
}

// Throws the TypeError/RangeError stageKey would, without writing anything (addAll checks first, so that
// an invalid key never leaves a batch half inserted).
export function checkKey(key) {
  switch (typeof key) {
    case 'string':
      return;
    case 'number':
      return splitNumber(key);
    case 'bigint':
      return checkBigInt(key);
    default:
      if (bytesOf(key) === null) throw typeError(key);
  }
}

// checkKey() over keys[start..end): the first invalid key throws, its message ending with its index (an
// error of any other kind, e.g. one a getter throws itself, passes through untouched).
export function checkKeys(keys, start, end) {
  for (let i = start; i < end; i++) {
    try {
      checkKey(keys[i]);
    } catch (e) {
      if (keyErrors.has(e)) e.message += ` (the key at index ${i})`;
      throw e;
    }
  }
}

// ---- Batches: many keys packed into one buffer, one wasm call per chunk. ----
//
// Layout in wasm memory: data bytes (key i = data[off[i], off[i + 1])), n + 1 u32 offsets, n result bytes.
// Integer keys are packed as their 8 little-endian bytes, which hash exactly like the u64 overloads.
const kBatchKeys = 16384;
const kBatchData = 256 * 1024; // the data buffer's usual size; only a single longer key makes it larger
const batch = { data: 0, dataCap: 0, offsets: 0, out: 0, busy: false }; // allocated on first use, then reused

// Makes the data buffer hold at least `dataBytes` (a key that does not fit an empty buffer gets exactly
// its size). Throws RangeError, changing nothing, if memory is short.
function ensureBatch(dataBytes) {
  if (batch.offsets === 0) {
    // One block for both, so that running out of memory leaves neither set: with two mallocs, a failed
    // second one left `out` at address 0 for good, and every later hasMany() wrote its answers over the
    // module's own data there.
    const offsetsBytes = 4 * (kBatchKeys + 1);
    const block = malloc(offsetsBytes + kBatchKeys);
    batch.offsets = block;
    batch.out = block + offsetsBytes;
  }
  if (batch.data === 0 || dataBytes > batch.dataCap) {
    const cap = Math.max(dataBytes, kBatchData);
    const ptr = malloc(cap);
    if (batch.data !== 0) free(batch.data);
    batch.data = ptr;
    batch.dataCap = cap;
  }
}

// Packs keys[start..] into the batch buffer, as many as fit (at least one); returns how many.
// Throws TypeError/RangeError on an invalid key.
// Reading keys[i] can run user code (a getter, a Proxy) that grows wasm memory with a call of its own,
// detaching the heap view this loop writes through (writes to it would be silently dropped). Re-reading the
// view per key costs ~10% of hasMany(), so the loop keeps it and pack() checks once at the end, packing
// the chunk again with the current view until memory stayed put (it only grows, so this ends; such a
// getter runs once more per repack).
let packedHeap = null; // the view packInto() last wrote through

function pack(keys, start) {
  for (;;) {
    let j;
    try {
      j = packInto(keys, start);
    } catch (e) {
      // Which key it was: found by checking the chunk again, off the hot loop (keeping the index for a catch
      // there made hasMany() ~8% slower). A getter runs once more here; if it now returns a valid key, the
      // error goes out without an index.
      if (keyErrors.has(e)) checkKeys(keys, start, Math.min(keys.length, start + kBatchKeys));
      throw e;
    }
    if (packedHeap === rt.heap) return j;
  }
}

function packInto(keys, start) {
  ensureBatch(0);
  const end = Math.min(keys.length, start + kBatchKeys);
  let h = rt.heap;
  const offBase = batch.offsets >>> 2;
  let pos = 0;
  let j = 0;
  rt.heap32[offBase] = 0;
  for (let i = start; i < end; i++, j++) {
    const key = keys[i];
    if (typeof key === 'string') {
      const room = 3 * key.length;
      if (pos + room > batch.dataCap) {
        if (j > 0) break;
        // Alone in the buffer: make room for it. A long string goes in as its exact UTF-8 bytes, so that
        // it is not allotted 3 bytes per code unit.
        if (room > kKeptScratch) {
          const bytes = encoder.encode(key);
          ensureBatch(bytes.length);
          h = rt.heap;
          h.set(bytes, batch.data);
          pos = bytes.length;
          rt.heap32[offBase + 1] = pos;
          continue;
        }
        ensureBatch(room);
        h = rt.heap;
        pos = 0;
      }
      pos += writeString(h, batch.data + pos, key, kBatchLoopMaxChars, null);
    } else if (typeof key === 'number' || typeof key === 'bigint') {
      if (pos + 8 > batch.dataCap) break; // dataCap >= 256 KiB, so j > 0 here
      if (typeof key === 'number') splitNumber(key);
      else splitBigInt(key);
      const q = batch.data + pos; // little-endian, byte by byte: q need not be 4-aligned
      h[q] = staged.lo;
      h[q + 1] = staged.lo >>> 8;
      h[q + 2] = staged.lo >>> 16;
      h[q + 3] = staged.lo >>> 24;
      h[q + 4] = staged.hi;
      h[q + 5] = staged.hi >>> 8;
      h[q + 6] = staged.hi >>> 16;
      h[q + 7] = staged.hi >>> 24;
      pos += 8;
    } else {
      const bytes = bytesOf(key);
      if (bytes === null) throw typeError(key);
      if (pos + bytes.length > batch.dataCap) {
        if (j > 0) break;
        ensureBatch(bytes.length);
        h = rt.heap;
        pos = 0;
      }
      h.set(bytes, batch.data + pos);
      pos += bytes.length;
    }
    rt.heap32[offBase + j + 1] = pos;
  }
  packedHeap = h;
  return j;
}

// Runs a batch operation on the shared batch buffers. A batch started from inside another's key (a
// getter or a Proxy calling addAll()/hasMany()) would overwrite the outer one's keys: it throws instead.
// Afterwards, a data buffer grown for one huge key is given back.
function withBatch(method, run) {
  if (batch.busy) {
    throw new Error(`cuckoo-wasm: ${method}() called while another addAll()/hasMany() was reading its keys`);
  }
  batch.busy = true;
  try {
    return run();
  } finally {
    batch.busy = false;
    if (batch.dataCap > kBatchData) {
      free(batch.data);
      batch.data = 0;
      batch.dataCap = 0;
    }
  }
}

// insert_many over all keys in chunks; stops at the first key that is refused.
// Returns the number inserted (keys[0..n) are in, keys[n] was refused, later keys were not tried).
// When a growing filter's new level does not fit in wasm memory, throws that RangeError instead, saying
// how many keys went in first (they stay in, as does everything stored before).
// filterAddress() gives the filter's address, or throws if it was disposed (by a key's getter, even).
export function insertAll(filterAddress, keys) {
  return withBatch('addAll', () => {
    let done = 0;
    while (done < keys.length) {
      const m = pack(keys, done);
      const inserted = callRawBatch(kInsertMany, filterAddress(), batch.data, batch.offsets, m) >>> 0;
      done += inserted;
      if (inserted < m) {
        if (lastErrorKind() === kOutOfMemory) {
          const error = lastError();
          error.message += `; addAll() added keys[0..${done}) of ${keys.length} before that, and no others`;
          throw error;
        }
        break;
      }
    }
    return done;
  });
}

// contains_many over all keys in chunks; out[i] = 1 if keys[i] may be in the set.
export function containsAll(filterAddress, keys) {
  return withBatch('hasMany', () => {
    const out = new Uint8Array(keys.length);
    let done = 0;
    while (done < keys.length) {
      const m = pack(keys, done);
      callRawBatch(kContainsMany, filterAddress(), batch.data, batch.offsets, m, batch.out);
      out.set(rt.heap.subarray(batch.out, batch.out + m), done);
      done += m;
    }
    return out;
  });
}
