// bench/js/peers/bloom-filters.mjs: `bloom-filters` (Minier & Grall), its CuckooFilter class.
// Sizing as its docs say: CuckooFilter.create(size, errorRate) (bucket size 4, 500 kicks). Its
// fingerprint is a prefix of a hex string of ceil(f/8) characters, i.e. 4*ceil(f/8) bits, not f bits.
// Serialization: its documented saveAsJSON() / CuckooFilter.fromJSON(), through JSON.stringify/parse.
import bloomFilters from 'bloom-filters';

const { CuckooFilter } = bloomFilters;

// This adapter's own add/has loops, not shared ones: shared loops would see every library's filter
// class and their call sites would go polymorphic (bench/js/README.md).
function add(f, keys) {
  let ok = 0;
  for (let i = 0; i < keys.length; i++) if (f.add(keys[i])) ok++;
  return ok;
}
function has(f, keys) {
  let hits = 0;
  for (let i = 0; i < keys.length; i++) if (f.has(keys[i])) hits++;
  return hits;
}

export const bloomFiltersCuckoo = {
  name: 'bloom-filters',
  label: 'bloom-filters CuckooFilter',
  package: 'bloom-filters',
  keys: 'string',
  async load() {},
  create(n, fpr) {
    return CuckooFilter.create(n, fpr);
  },
  sizing(f) {
    return `b=${f.bucketSize} fp=${f.fingerprintLength} hex chars buckets=${f.size}`;
  },
  wasm() {
    return null;
  },
  add,
  has,
  serialize(f) {
    const json = JSON.stringify(f.saveAsJSON());
    return { payload: json, bytes: Buffer.byteLength(json), format: 'JSON (saveAsJSON)' };
  },
  deserialize(json) {
    return CuckooFilter.fromJSON(JSON.parse(json));
  },
  dispose() {},
};
