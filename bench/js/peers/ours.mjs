// bench/js/peers/ours.mjs: adapters for cuckoo-wasm (this repo), imported from the source tree.
//
// Every adapter owns its timing loops (add, has), so each loop's call site only ever sees one filter
// class and one key type: no peer pays for another's inline-cache pollution. Three variants:
//   ours        per-key add()/has() with string keys (the headline row)
//   ours-batch  addAll()/hasMany() with the same string keys (one wasm call per chunk of keys)
//   ours-num    per-key add()/has() with number keys (8 little-endian bytes in the core)
// Node's entry (the "node" condition: the fast node module), not js/index.js, whose ES modules carry the
// small web module meant for browsers.
import { CuckooFilter } from '../../../js/index.node.js';

const base = {
  package: 'cuckoo-wasm (this repo)',
  async load() {
    await CuckooFilter.ready;
  },
  create(n, fpr) {
    return new CuckooFilter({ capacity: n, fpr });
  },
  sizing(f) {
    return `b=${f.bucketSize} f=${f.fingerprintBits} buckets=${f.bucketCount} load=${f.loadFactor.toFixed(3)}`;
  },
  // Bytes the filter itself holds in wasm memory (the module's whole linear memory is internal to the
  // CommonJS bundle Node loads, so it is not reported).
  wasm(f) {
    return { filterBytes: f.byteLength, moduleBytes: null };
  },
  serialize(f) {
    const bytes = f.serialize();
    return { payload: bytes, bytes: bytes.length, format: 'binary (docs/format.md)' };
  },
  deserialize(bytes) {
    return CuckooFilter.deserializeSync(bytes);
  },
  dispose(f) {
    f.dispose();
  },
};

// Per-key calls: loops return the number of true results (also the checksum that keeps them live).
function addEach(f, keys) {
  let ok = 0;
  for (let i = 0; i < keys.length; i++) if (f.add(keys[i])) ok++;
  return ok;
}
function hasEach(f, keys) {
  let hits = 0;
  for (let i = 0; i < keys.length; i++) if (f.has(keys[i])) hits++;
  return hits;
}

// The same loops, duplicated so the number-key variant gets call sites of its own.
function addEachNum(f, keys) {
  let ok = 0;
  for (let i = 0; i < keys.length; i++) if (f.add(keys[i])) ok++;
  return ok;
}
function hasEachNum(f, keys) {
  let hits = 0;
  for (let i = 0; i < keys.length; i++) if (f.has(keys[i])) hits++;
  return hits;
}

function addBatch(f, keys) {
  return f.addAll(keys);
}
function hasBatch(f, keys) {
  const r = f.hasMany(keys);
  let hits = 0;
  for (let i = 0; i < r.length; i++) hits += r[i];
  return hits;
}

export const ours = { ...base, name: 'ours', label: 'cuckoo-wasm add/has', keys: 'string', add: addEach, has: hasEach };
export const oursBatch = { ...base, name: 'ours-batch', label: 'cuckoo-wasm addAll/hasMany', keys: 'string', add: addBatch, has: hasBatch };
export const oursNum = { ...base, name: 'ours-num', label: 'cuckoo-wasm add/has (number keys)', keys: 'number', add: addEachNum, has: hasEachNum };
