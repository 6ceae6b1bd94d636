// bench/js/node_ab.mjs: Node's build of this checkout against another checkout's, side by side in one
// process: add(), has() and hasMany() on string and number keys, ns per key, passes alternating between
// the builds (A B, then B A, ...), and the median of the paired ratios.
//
//   node bench/js/node_ab.mjs /path/to/other [n=1000000] [passes=7]
//
// Both are loaded through their CommonJS entry (js/index.cjs), which is what Node's `import` and
// `require('cuckoo-wasm')` resolve to: the package's "node" condition. The other checkout needs its dist/
// built. Each build gets its own filters; keys are made once and shared.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const other = process.argv[2];
if (!other) {
  console.error('usage: node bench/js/node_ab.mjs /path/to/other/checkout [n] [passes]');
  process.exit(2);
}
const n = Number(process.argv[3] ?? 1_000_000);
const passes = Number(process.argv[4] ?? 7);
const require = createRequire(import.meta.url);
const builds = [
  { name: 'this', CuckooFilter: require(path.join(here, 'js', 'index.cjs')).CuckooFilter },
  { name: 'other', CuckooFilter: require(path.join(path.resolve(other), 'js', 'index.cjs')).CuckooFilter },
];
for (const b of builds) await b.CuckooFilter.ready;

const keySets = {
  strings: Array.from({ length: n }, (_, i) => `key-${i}`),
  numbers: Array.from({ length: n }, (_, i) => i * 7919),
};

let sink = 0;
function time(run) {
  const t = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - t) / n;
}

// One pass of one build over one key set: ns per key for each operation.
function pass(CuckooFilter, keys) {
  const f = new CuckooFilter({ capacity: n, fpr: 0.001 });
  const add = time(() => {
    for (let i = 0; i < keys.length; i++) sink += f.add(keys[i]) ? 1 : 0;
  });
  const has = time(() => {
    for (let i = 0; i < keys.length; i++) sink += f.has(keys[i]) ? 1 : 0;
  });
  const hasMany = time(() => {
    sink += f.hasMany(keys)[0];
  });
  f.dispose();
  return { add, has, hasMany };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`n = ${n}, ${passes} paired passes, fpr 0.001; ns per key (median), and this/other time ratio (median of pairs)`);
console.log('| keys | op | this | other | this/other |');
console.log('|---|---|--:|--:|--:|');
for (const [label, keys] of Object.entries(keySets)) {
  const results = builds.map(() => []);
  for (let p = 0; p < passes; p++) {
    const order = p % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) results[i].push(pass(builds[i].CuckooFilter, keys));
  }
  for (const op of ['add', 'has', 'hasMany']) {
    const a = results[0].map((r) => r[op]);
    const b = results[1].map((r) => r[op]);
    const ratio = median(a.map((x, i) => x / b[i]));
    console.log(`| ${label} | ${op} | ${median(a).toFixed(1)} | ${median(b).toFixed(1)} | ${ratio.toFixed(3)} |`);
  }
}
if (sink === -1) console.log(sink);
