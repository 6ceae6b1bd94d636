// bench/js/peers/bloomfilter.mjs: `bloomfilter` (Jason Davies), a plain Bloom filter over a Uint32Array.
// Sizing as its README says: BloomFilter.withTargetError(n, fpr) picks m bits and k hashes.
// Serialization: its state is the `buckets` Uint32Array plus k; we ship the raw bucket bytes (its own
// toJSON() would write the same buckets as a JSON number array, several times larger).
import { BloomFilter } from 'bloomfilter';

// This adapter's own add/has loops, not shared ones: shared loops would see every library's filter
// class and their call sites would go polymorphic (bench/js/README.md).
function add(f, keys) {
  for (let i = 0; i < keys.length; i++) f.add(keys[i]);
  return keys.length; // add() returns nothing and never fails
}
function has(f, keys) {
  let hits = 0;
  for (let i = 0; i < keys.length; i++) if (f.test(keys[i])) hits++;
  return hits;
}

export const bloomfilter = {
  name: 'bloomfilter',
  label: 'bloomfilter (Bloom)',
  package: 'bloomfilter',
  keys: 'string',
  async load() {},
  create(n, fpr) {
    return BloomFilter.withTargetError(n, fpr);
  },
  sizing(f) {
    return `m=${f.m} bits k=${f.k}`;
  },
  wasm() {
    return null;
  },
  // Its whole state is this array (plus k): the memory column counts at least its bytes.
  structureBytes(f) {
    return f.buckets.byteLength;
  },
  add,
  has,
  serialize(f) {
    const payload = new Uint8Array(f.buckets.buffer.slice(f.buckets.byteOffset, f.buckets.byteOffset + f.buckets.byteLength));
    return { payload: { k: f.k, bytes: payload }, bytes: payload.byteLength, format: 'raw buckets (Uint32Array bytes) + k' };
  },
  deserialize({ k, bytes }) {
    return new BloomFilter(new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2), k);
  },
  dispose() {},
};
