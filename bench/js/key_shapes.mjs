// bench/js/key_shapes.mjs: ns per key of has() and hasMany() by key shape (string length, how the string
// was made, non-ASCII, bytes, number, bigint), on one filter of 1 M keys at fpr 1% (FPR=0.001 for 0.1%).
//
//   node bench/js/key_shapes.mjs                  this checkout
//   node bench/js/key_shapes.mjs /path/to/other   also another checkout (its js/ and built dist/), timed
//                                                 in the same process, passes alternating, with ratios
//
// The main benchmark (run.mjs) uses short keys ("key-"+i); this one shows what other keys cost, e.g.
// URLs, which are copied into wasm memory by a different road (js/keys.js).
// It loads js/index.js, the ES module entry, which carries the small web module (what browsers run); for
// Node's build, side by side with another checkout, see node_ab.mjs.
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const here = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const roots = [here, ...process.argv.slice(2).map((p) => path.resolve(p))];
const builds = [];
for (const root of roots) {
  const { CuckooFilter } = await import(pathToFileURL(path.join(root, 'js/index.js')).href);
  await CuckooFilter.ready;
  builds.push({ root, CuckooFilter });
}

const fpr = Number(process.env.FPR ?? 0.01);
const n = 200_000; // queries per shape (a pass); the filter holds 1 M other keys
const passes = 7;
const flat = (list) => JSON.parse(JSON.stringify(list)); // concatenation makes ropes; JSON.parse does not
const padded = (length) => (i) => `${'x'.repeat(Math.max(0, length - 7))}${1_000_000 + i}`;
const shapes = [
  ['string 11 ("key-"+i)', Array.from({ length: n }, (_, i) => `key-${1_000_000 + i}`)],
  ...[16, 24, 32, 64, 128].map((len) => [`string ${len}, concatenated`, Array.from({ length: n }, padded(len))]),
  ['string 64, flat', flat(Array.from({ length: n }, padded(64)))],
  ['URL ~60', Array.from({ length: n }, (_, i) => `https://example.com/assets/img/${i}/thumbnail.png?v=2`)],
  ['non-ASCII 7 ("ключ-"+i)', Array.from({ length: n }, (_, i) => `ключ-${i}`)],
  ['Uint8Array 11', Array.from({ length: n }, (_, i) => new TextEncoder().encode(`key-${1_000_000 + i}`))],
  ['number', Array.from({ length: n }, (_, i) => i * 7919)],
  ['bigint', Array.from({ length: n }, (_, i) => BigInt.asUintN(64, BigInt(i) * 0x9e3779b97f4a7c15n))],
];

for (const b of builds) {
  b.filter = new b.CuckooFilter({ capacity: 1_000_000, fpr });
  for (let i = 0; i < 1_000_000; i++) b.filter.add(`member-${i}`);
}

function nsPerKey(run) {
  const t = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - t) / n;
}

let sink = 0;
const timers = {
  has: (f, keys) =>
    nsPerKey(() => {
      for (let i = 0; i < keys.length; i++) sink += f.has(keys[i]) ? 1 : 0;
    }),
  hasMany: (f, keys) =>
    nsPerKey(() => {
      sink += f.hasMany(keys)[0];
    }),
};

const header = ['key shape', ...builds.flatMap((_, i) => [`has() #${i}`, `hasMany() #${i}`])];
if (builds.length > 1) header.push('has() #0 speed-up', 'hasMany() #0 speed-up');
console.log(`ns per key at fpr ${fpr}, best of ${passes} passes; #0 = ${builds[0].root}; speed-up = #1 ns / #0 ns`);
builds.slice(1).forEach((b, i) => console.log(`#${i + 1} = ${b.root}`));
console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
for (const [name, keys] of shapes) {
  const best = builds.map(() => ({ has: Infinity, hasMany: Infinity }));
  for (let pass = 0; pass < passes; pass++) {
    const order = pass % 2 ? builds.map((_, i) => builds.length - 1 - i) : builds.map((_, i) => i);
    for (const i of order) {
      for (const [what, time] of Object.entries(timers)) best[i][what] = Math.min(best[i][what], time(builds[i].filter, keys));
    }
  }
  const cells = best.flatMap((b) => [b.has.toFixed(1), b.hasMany.toFixed(1)]);
  if (builds.length > 1) cells.push((best[1].has / best[0].has).toFixed(2), (best[1].hasMany / best[0].hasMany).toFixed(2));
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
if (sink < 0) console.log(sink);
