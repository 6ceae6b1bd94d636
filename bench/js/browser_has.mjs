// bench/js/browser_has.mjs: has() through the read-only entry (`cuckoo-wasm/reader`) against the full entry,
// in headless Chromium, side by side in one page.
//
//   node bench/js/browser_has.mjs [n=200000] [passes=9]
//
// Both entries are bundled by esbuild as a site would ship them (minified, platform browser). The page
// builds each filter with the full entry, loads its bytes into a CuckooFilter and a CuckooReader, and
// times has() over n string keys (half present) and n integer keys, alternating the two classes pass by
// pass (the order flipped each pass); each row is the median of the per-pass ratios reader / full (of keys
// per second: above 1 means the reader is faster) and the best ns per key of each. Filters: a fixed one
// (b = 4, 12 bits), a semi-sorted one and a growing one of several levels.
// Needs /usr/bin/chromium (or CHROMIUM_PATH) and the devDependencies, and a built dist/.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForBrowser } from '../../scripts/browser-size.mjs';
import { withChromium } from './chromium.mjs';

const root = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const n = Number(process.argv[2] ?? 200_000);
const passes = Number(process.argv[3] ?? 9);

const entry = `
import { CuckooFilter } from './js/index.js';
import { CuckooReader } from './js/reader.js';
const n = ${n};
const passes = ${passes};
const strings = Array.from({ length: n }, (_, i) => 'key-' + (i % 2 === 0 ? i : n * 4 + i));
const numbers = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? i : n * 4 + i));
// One loop per class, so that each call site stays monomorphic.
function loopFull(f, keys) { let hits = 0; for (let i = 0; i < keys.length; i++) hits += f.has(keys[i]) ? 1 : 0; return hits; }
function loopReader(f, keys) { let hits = 0; for (let i = 0; i < keys.length; i++) hits += f.has(keys[i]) ? 1 : 0; return hits; }
function time(loop, f, keys) { const t0 = performance.now(); const hits = loop(f, keys); return [performance.now() - t0, hits]; }
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
try {
  const rows = [];
  const shapes = [
    ['fixed, b = 4, 12 bits', { capacity: n, fingerprintBits: 12 }],
    ['semi-sorted, 13 bits', { capacity: n, fingerprintBits: 13, semiSort: true }],
    ['growing, fpr 0.01', { fpr: 0.01 }],
  ];
  for (const [label, options] of shapes) {
    const writer = await CuckooFilter.create(options);
    for (let i = 0; i < n; i += 2) { writer.add('key-' + i); writer.add(i); }
    const bytes = writer.serialize();
    writer.dispose();
    const full = await CuckooFilter.deserialize(bytes);
    const reader = await CuckooReader.deserialize(bytes);
    for (const [kind, keys] of [['strings', strings], ['integers', numbers]]) {
      const ratios = [];
      let bestFull = Infinity;
      let bestReader = Infinity;
      for (let p = 0; p < passes; p++) {
        const order = p % 2 === 0 ? ['full', 'reader'] : ['reader', 'full'];
        const ms = {};
        for (const which of order) {
          const [t, hits] = which === 'full' ? time(loopFull, full, keys) : time(loopReader, reader, keys);
          if (hits < n / 2) throw new Error(which + ' lost keys');
          ms[which] = t;
        }
        ratios.push(ms.full / ms.reader);
        bestFull = Math.min(bestFull, ms.full);
        bestReader = Math.min(bestReader, ms.reader);
      }
      rows.push({ label, kind, ratio: median(ratios), fullNs: (bestFull * 1e6) / n, readerNs: (bestReader * 1e6) / n, levels: full.levels });
    }
    full.dispose();
    reader.dispose();
  }
  window.__result = { rows };
} catch (e) {
  window.__result = { error: String(e && e.stack) };
}
`;

const built = await bundleForBrowser({
  stdin: { contents: entry, resolveDir: root, sourcefile: 'bench.js', loader: 'js' },
});
const bundle = built.outputFiles[0].contents;
const page = '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="/bench.js"></script>';
const files = { '/': { type: 'text/html', body: page }, '/bench.js': { type: 'text/javascript', body: bundle } };
await withChromium(files, async (context, origin) => {
  const p = await context.newPage();
  await p.goto(`${origin}/`);
  await p.waitForFunction(() => window.__result !== undefined, null, { timeout: 600_000 });
  const r = await p.evaluate(() => window.__result);
  if (r.error) throw new Error(r.error);
  console.log(`has() in headless Chromium, ${n} keys (half present), ${passes} alternating passes`);
  console.log('| filter | keys | full entry ns/key | reader ns/key | reader / full (speed, median of passes) |');
  console.log('|---|---|--:|--:|--:|');
  for (const row of r.rows) {
    const label = row.levels > 1 ? `${row.label} (${row.levels} levels)` : row.label;
    console.log(`| ${label} | ${row.kind} | ${row.fullNs.toFixed(1)} | ${row.readerNs.toFixed(1)} | ${row.ratio.toFixed(2)}x |`);
  }
});
