// bench/js/peers/libp2p.mjs: @libp2p/utils' cuckoo filter (exported from the package root; the
// package's exports map has no ./filters subpath). createCuckooFilter(maxItems, errorRate) is the
// fixed-size filter sized by its optimize(): bucket size 2 or 4 by errorRate, filterSize =
// maxItems / max load *buckets*, fingerprintSize in *bytes* (of which only the 4 bytes of a 32-bit FNV-1a
// hash are ever non-zero). createScalableCuckooFilter wraps the same filter and calls has() before every
// add(); at 1 M items it never grows a second filter, so the plain one is measured.
// Serialization: none in the API (n/a).
import { createCuckooFilter } from '@libp2p/utils';

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

export const libp2p = {
  name: 'libp2p',
  label: '@libp2p/utils CuckooFilter',
  package: '@libp2p/utils',
  keys: 'string',
  async load() {},
  create(n, fpr) {
    return createCuckooFilter(n, fpr);
  },
  sizing(f) {
    return `b=${f.bucketSize} fp=${f.fingerprintSize} bytes buckets=${f.filterSize}`;
  },
  wasm() {
    return null;
  },
  add,
  has,
  serialize: null,
  deserialize: null,
  dispose() {},
};
