// js/classify.js: what a key is. classify() is the one classifier of keys: the per-key calls (stage.js),
// the batch calls (batch.js) and addMany's check of a whole batch before inserting (checkKeys) all go
// through it, so a key is valid, and hashes as the same bytes, on every path.
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

// What classify() returns.
export const kString = 0;
export const kNumber = 1; // its two 32-bit halves are in `classified`
export const kBigInt = 2;
export const kBytes = 3; // its bytes are in `classified.bytes`

const kTwo32 = 4294967296;
const kMaxU64 = (1n << 64n) - 1n;

// What classify() found besides the kind: an integer number's halves, as int32 (wasm reads the same bits
// as u32), and a binary key's bytes.
export const classified = { lo: 0, hi: 0, bytes: null };

// Classifies and validates a key; throws TypeError/RangeError (made by keyError()) for an invalid one.
// Small enough for V8 to inline into its callers, which branch on the kind it returns.
export function classify(key) {
  if (typeof key === 'string') return kString;
  if (typeof key === 'number') {
    // `| 0`, not `>>> 0`: the same 32 bits, but always a small integer, which V8 passes to wasm without
    // boxing (a uint32 above 2^31 would be a heap number and take the slow conversion path).
    if (!(key >= 0 && key <= Number.MAX_SAFE_INTEGER && Math.floor(key) === key)) throw numberError(key);
    classified.lo = key | 0;
    classified.hi = (key / kTwo32) | 0;
    return kNumber;
  }
  if (typeof key === 'bigint') {
    if (key < 0n || key > kMaxU64) {
      throw keyError(new RangeError(`cuckoo-wasm: a bigint key must be in 0..2^64-1 (got ${key}n)`));
    }
    return kBigInt;
  }
  const bytes = bytesOf(key);
  if (bytes === null) throw typeError(key);
  classified.bytes = bytes;
  return kBytes;
}

// classify() over keys[start..end): the first invalid key throws, its message ending with its index (an
// error of any other kind, e.g. one a getter throws itself, passes through untouched).
export function checkKeys(keys, start, end) {
  for (let i = start; i < end; i++) {
    try {
      classify(keys[i]);
    } catch (e) {
      if (isKeyError(e)) e.message += ` (the key at index ${i})`;
      throw e;
    }
  }
  classified.bytes = null; // holds no key's buffer alive
}

// Errors about a key's type or value are made by keyError(), so that a batch can say which key it was.
const keyErrors = new WeakSet();
function keyError(error) {
  keyErrors.add(error);
  return error;
}

export function isKeyError(error) {
  return keyErrors.has(error);
}

function describe(key) {
  if (key === null) return 'null';
  if (typeof key === 'object') return key.constructor?.name ?? 'object';
  if (typeof key === 'string') return 'string';
  if (typeof key === 'bigint') return `${key}n`;
  if (typeof key === 'symbol') return 'symbol';
  return typeof key === 'function' ? 'function' : String(key);
}

function typeError(key) {
  const message =
    'cuckoo-wasm: a key must be a string, a non-negative integer number, a bigint, an ArrayBuffer ' + `or an ArrayBuffer view (got ${describe(key)})`;
  return keyError(new TypeError(message));
}

// The error for a number that is not a valid key.
function numberError(key) {
  if (!Number.isInteger(key)) {
    const message = `cuckoo-wasm: a number key must be an integer (got ${key}); hash floats as strings or bytes`;
    return keyError(new TypeError(message));
  }
  const message = `cuckoo-wasm: a number key must be in 0..2^53-1 (got ${key}); use a bigint for keys up to 2^64-1`;
  return keyError(new RangeError(message));
}

// Brand checks: the byteLength getters throw for anything but a real (Shared)ArrayBuffer, from any realm
// (iframe, vm). Object.prototype.toString would also accept a plain object with Symbol.toStringTag.
const arrayBufferByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
const sharedByteLength = typeof SharedArrayBuffer === 'function' ? Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, 'byteLength').get : null;

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
  return keyError(new TypeError('cuckoo-wasm: the ArrayBuffer is detached (it was transferred), so it has no bytes'));
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
  const message = 'cuckoo-wasm: the view lies outside its ArrayBuffer, which was resized smaller, so it has no bytes';
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
// deserialize() reads its argument through it too.
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

// A String object, from any realm (a brand check: instanceof would miss one made in another realm).
function isStringObject(value) {
  if (typeof value !== 'object' || value === null) return false;
  try {
    String.prototype.valueOf.call(value);
    return true;
  } catch {
    return false;
  }
}

// A batch is an array or any iterable of keys, but not a value that is itself one key and happens to be
// iterable: a string would be split into its characters, and bytes (Uint8Array, Buffer, any view) into
// their element values taken as number keys, both silently.
export function toArray(keys, method) {
  if (Array.isArray(keys)) return keys;
  const usage = `cuckoo-wasm: ${method}() takes an array or an iterable of keys`;
  if (typeof keys === 'string' || isStringObject(keys)) {
    throw new TypeError(`${usage}, not a string, which is one key: ${method}([key])`);
  }
  if (ArrayBuffer.isView(keys)) {
    const elements = keys instanceof DataView ? '' : `; for its elements as number keys, ${method}(Array.from(view))`;
    throw new TypeError(`${usage}, not a ${keys.constructor?.name ?? 'view'}, which is one key (its bytes): ${method}([key])${elements}`);
  }
  if (keys != null && typeof keys[Symbol.iterator] === 'function') return Array.from(keys);
  throw new TypeError(usage);
}
