// scripts/quick-bench.mjs: a quick check of the per-key road (not the benchmark suite: see bench/js/).
// Measures has()/add() on 1M "key-"+i strings, plus addAll/hasMany and integer keys, in ops/s (best of 3).
//   node scripts/quick-bench.mjs [n]
import { CuckooFilter } from '../js/index.js';

const n = Number(process.argv[2] ?? 1_000_000);
const keys = Array.from({ length: n }, (_, i) => `key-${i}`);
const ints = Array.from({ length: n }, (_, i) => i * 7919);

function time(label, fn) {
  let best = Infinity;
  let result;
  for (let rep = 0; rep < 3; rep++) {
    const t0 = performance.now();
    result = fn(rep);
    best = Math.min(best, performance.now() - t0);
  }
  console.log(`${label.padEnd(34)} ${((n / best) * 1e3 / 1e6).toFixed(1).padStart(6)} M ops/s  (${best.toFixed(1)} ms)`);
  return result;
}

await CuckooFilter.ready;
const opts = { capacity: n, fpr: 0.001 };
let f;
time('add(string) into a fresh filter', () => {
  f?.dispose();
  f = new CuckooFilter(opts);
  for (let i = 0; i < n; i++) f.add(keys[i]);
});
time('has(string), all present', () => {
  let hits = 0;
  for (let i = 0; i < n; i++) hits += f.has(keys[i]);
  if (hits !== n) throw new Error('false negative');
});
time('addAll(strings) into a fresh filter', () => {
  f.dispose();
  f = new CuckooFilter(opts);
  if (f.addAll(keys) !== n) throw new Error('addAll stopped');
});
time('hasMany(strings)', () => f.hasMany(keys));
const g = new CuckooFilter(opts);
time('add(number)', (rep) => {
  if (rep === 0) for (let i = 0; i < n; i++) g.add(ints[i]);
  else for (let i = 0; i < n; i++) g.has(ints[i]);
});
time('has(number)', () => {
  for (let i = 0; i < n; i++) g.has(ints[i]);
});
// The road alone: a filter small enough to stay in L1/L2, so DRAM misses drop out.
const small = new CuckooFilter({ capacity: 1000, fpr: 0.001 });
for (let i = 0; i < 900; i++) small.add(keys[i]);
time('has(string), cache-resident filter', () => {
  for (let i = 0; i < n; i++) small.has(keys[i]);
});
time('has(number), cache-resident filter', () => {
  for (let i = 0; i < n; i++) small.has(ints[i]);
});
f.dispose();
g.dispose();
small.dispose();
