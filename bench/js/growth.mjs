// bench/js/growth.mjs: a growing filter against a fixed one sized right, through the JS API (issue 26).
//
//   node bench/js/growth.mjs                          (2 M keys, 3 passes each; writes bench/results/js/growth.txt)
//   node bench/js/growth.mjs --n 200000 --passes 1 --no-write     (quick look)
//
// The two filters: `create({ fpr })` (growing from the default first level, 1024 items) and
// `create({ capacity: n, fpr })` (fixed, sized for all n keys), loaded as Node loads `cuckoo-wasm`
// (js/index.node.js, the node module). Keys: present "key-"+i for i < n, absent "key-"+(n+i) (same shape,
// never added); lookups query them in a shuffled order, as a service sees them: in insertion order,
// consecutive keys sit in the same level of the growing filter, and its early exit would be predicted
// better than real traffic lets it be. Passes alternate (growing, fixed, growing, ...) in one process, so
// that both meet the same machine; each rate is the best of the passes. Per pass and filter:
//   add        n add() calls into a new filter (growth included: the amortized rate)
//   addAll     addAll() of all n keys into another new filter
//   has +/-    n has() over present / absent keys, on the filter add() built
//   hasMany +/-  the same through hasMany(), in chunks of 65536 keys
// and, once: bits per item (table bytes * 8 / n), levels, fprBound, the measured false-positive rate
// (absent keys found / n) and false negatives (present keys not found: must be 0).
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { CuckooFilter } from '../../js/index.node.js';

function parseArgs(argv) {
  const o = { n: 2_000_000, fpr: 0.001, passes: 3, write: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--n') o.n = Number(argv[++i]);
    else if (a === '--fpr') o.fpr = Number(argv[++i]);
    else if (a === '--passes') o.passes = Number(argv[++i]);
    else if (a === '--no-write') o.write = false;
    else throw new Error(`growth.mjs: unknown argument ${a}`);
  }
  return o;
}

const opts = parseArgs(process.argv.slice(2));
const { n, fpr } = opts;
const present = Array.from({ length: n }, (_, i) => `key-${i}`);
const absent = Array.from({ length: n }, (_, i) => `key-${n + i}`);

// A fixed-seed Fisher-Yates shuffle (splitmix32 steps), so that every run queries in the same order.
function shuffled(keys, seed) {
  const out = keys.slice();
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = next() % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
const presentQueries = shuffled(present, 1);
const absentQueries = shuffled(absent, 2);
const kChunk = 65536;

const kinds = {
  growing: { options: { fpr }, label: `create({ fpr: ${fpr} })` },
  fixed: { options: { capacity: n, fpr }, label: `create({ capacity: ${n}, fpr: ${fpr} })` },
};

function time(run) {
  const t0 = process.hrtime.bigint();
  const result = run();
  return { seconds: Number(process.hrtime.bigint() - t0) / 1e9, result };
}

function hasLoop(f, keys) {
  let found = 0;
  for (let i = 0; i < keys.length; i++) if (f.has(keys[i])) found++;
  return found;
}

function hasManyLoop(f, keys) {
  let found = 0;
  for (let i = 0; i < keys.length; i += kChunk) {
    const out = f.hasMany(keys.slice(i, i + kChunk));
    for (let j = 0; j < out.length; j++) found += out[j];
  }
  return found;
}

// One pass for one kind: rates in M keys/s, and the filter's figures.
async function pass(kind) {
  const { options } = kinds[kind];
  const rates = {};
  const f = await CuckooFilter.create(options);
  const add = time(() => {
    let refused = 0;
    for (let i = 0; i < n; i++) if (!f.add(present[i])) refused++;
    return refused;
  });
  rates.add = n / add.seconds / 1e6;
  const hasPos = time(() => hasLoop(f, presentQueries));
  rates.hasPositive = n / hasPos.seconds / 1e6;
  const hasNeg = time(() => hasLoop(f, absentQueries));
  rates.hasNegative = n / hasNeg.seconds / 1e6;
  const manyPos = time(() => hasManyLoop(f, presentQueries));
  rates.hasManyPositive = n / manyPos.seconds / 1e6;
  const manyNeg = time(() => hasManyLoop(f, absentQueries));
  rates.hasManyNegative = n / manyNeg.seconds / 1e6;
  const figures = {
    refused: add.result,
    falseNegatives: n - hasPos.result,
    falseNegativesBatch: n - manyPos.result,
    fpr: hasNeg.result / n,
    fprBatch: manyNeg.result / n,
    fprBound: f.fprBound,
    levels: f.levels,
    bitsPerItem: ((f.byteLength - 64) * 8) / n,
    byteLength: f.byteLength,
  };
  f.dispose();

  const g = await CuckooFilter.create(options);
  const addAll = time(() => g.addAll(present));
  rates.addAll = n / addAll.seconds / 1e6;
  figures.addAllStored = addAll.result;
  g.dispose();
  return { rates, figures };
}

const best = { growing: {}, fixed: {} };
const figures = {};
const perPass = [];
for (let p = 0; p < opts.passes; p++) {
  for (const kind of ['growing', 'fixed']) {
    const r = await pass(kind);
    perPass.push({ pass: p, kind, ...r.rates });
    for (const [k, v] of Object.entries(r.rates)) best[kind][k] = Math.max(best[kind][k] ?? 0, v);
    figures[kind] = r.figures; // identical every pass (same keys, same seed)
  }
}

const rows = [
  ['add (amortized)', 'add'],
  ['addAll', 'addAll'],
  ['has, present keys', 'hasPositive'],
  ['has, absent keys', 'hasNegative'],
  ['hasMany, present keys', 'hasManyPositive'],
  ['hasMany, absent keys', 'hasManyNegative'],
];
const pad = (s, w) => String(s).padEnd(w);
const num = (x, d = 2) => x.toFixed(d);
const lines = [];
lines.push(`# bench/js/growth.mjs: ${n} string keys, fpr ${fpr}, ${opts.passes} alternating passes (best of each)`);
lines.push(`# ${new Date().toISOString()}  node ${process.version}  ${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length}`);
lines.push(`# growing: ${kinds.growing.label}    fixed: ${kinds.fixed.label}`);
lines.push('');
lines.push(`${pad('M keys/s', 24)}${pad('growing', 10)}${pad('fixed', 10)}growing/fixed`);
for (const [label, key] of rows) {
  const g = best.growing[key];
  const x = best.fixed[key];
  lines.push(`${pad(label, 24)}${pad(num(g), 10)}${pad(num(x), 10)}${num(g / x)}x`);
}
lines.push('');
lines.push(`${pad('', 24)}${pad('growing', 12)}${pad('fixed', 12)}`);
const fig = (label, f) => lines.push(`${pad(label, 24)}${pad(f(figures.growing), 12)}${pad(f(figures.fixed), 12)}`);
fig('levels', (x) => x.levels);
fig('bits per item', (x) => num(x.bitsPerItem));
fig('bytes', (x) => x.byteLength);
fig('measured FPR (has)', (x) => x.fpr.toExponential(3));
fig('measured FPR (hasMany)', (x) => x.fprBatch.toExponential(3));
fig('fprBound', (x) => x.fprBound.toExponential(3));
fig('false negatives', (x) => `${x.falseNegatives}/${x.falseNegativesBatch}`);
fig('adds refused', (x) => x.refused);
fig('addAll stored', (x) => x.addAllStored);
lines.push('');
lines.push('# per pass (M keys/s):');
for (const p of perPass) {
  lines.push(`#   pass ${p.pass} ${pad(p.kind, 8)} ${rows.map(([, k]) => `${k} ${num(p[k])}`).join('  ')}`);
}
const text = `${lines.join('\n')}\n`;
process.stdout.write(text);
if (opts.write) {
  const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'results', 'js', 'growth.txt');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  console.log(`wrote ${out}`);
}
