// bench/js/cold_start.mjs: cold start, from import to the first answer, in Node and in headless Chromium.
//
//   node bench/js/cold_start.mjs [/path/to/other/checkout] [runs=15]
//
// Node: a fresh process per run imports the package's Node entry (js/index.node.js, what `import
// 'cuckoo-wasm'` resolves to in Node), creates a filter, adds and checks a key; medians of the import and
// of the first create() + add() + has(). The same for the first deserialize() + has() of a small filter
// (1,000 slots), through the full entry and through the read-only one (js/reader.node.js, `import
// 'cuckoo-wasm/reader'`). The runs alternate between the rows and a reference, the import of an empty ES
// module (Node's own cost of a first import()), so that a change in the machine's load hits all alike.
// Chromium: a fresh page per run (no cache) dynamic-imports an esbuild bundle of each entry (minified,
// platform browser: what a site ships) and does the same, the pages of the entries alternating.
// Chromium needs /usr/bin/chromium (or CHROMIUM_PATH) and the devDependencies.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleForBrowser } from '../../scripts/browser-size.mjs';
import { withChromium } from './chromium.mjs';

const here = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const args = process.argv.slice(2);
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 15);
const roots = [here, ...args.filter((a) => !/^\d+$/.test(a)).map((p) => path.resolve(p))];
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
// How the output names a checkout: this one, or the other one given (not by its path).
const treeName = (root) => (root === here ? 'this tree' : `other tree ${roots.indexOf(root)}`);

// A small filter holding 'first' (1,000 slots), as base64: what the deserialize rows load.
const { CuckooFilter: Writer } = await import(pathToFileURL(path.join(here, 'js', 'index.js')).href);
const small = await Writer.create({ capacity: 1000, fpr: 0.01 });
small.add('first');
const smallBase64 = Buffer.from(small.serialize()).toString('base64');
small.dispose();

// The first answer, in a page or a process: `op` 'create' (create + add + has) or 'deserialize' (of the
// small filter, then has), on the entry's class C.
const firstAnswer = (op) =>
  op === 'create'
    ? `const f = await C.create({ capacity: 1000, fpr: 0.01 }); if (!(f.add('first') && f.has('first'))) throw new Error('no answer');`
    : `const f = await C.deserialize(Uint8Array.from(atob('${smallBase64}'), (c) => c.charCodeAt(0))); if (!f.has('first')) throw new Error('no answer');`;

// One fresh process importing `entry`: [import ms, first answer ms]. An entry that exports no class (the
// reference) gets 0 for the second.
function nodeRun({ url: entry, op }) {
  const script = `
    const t0 = performance.now();
    const m = await import(${JSON.stringify(entry)});
    const C = m.CuckooReader ?? m.CuckooFilter;
    const t1 = performance.now();
    if (C !== undefined) { ${firstAnswer(op)} }
    const t2 = performance.now();
    console.log(JSON.stringify([t1 - t0, t2 - t1]));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

// Medians per row ({ url, op }), the runs of all rows interleaved.
function nodeColdStart(entries) {
  const samples = entries.map(() => ({ importMs: [], createMs: [] }));
  for (let i = 0; i < runs; i++) {
    entries.forEach((entry, j) => {
      const [a, b] = nodeRun(entry);
      samples[j].importMs.push(a);
      samples[j].createMs.push(b);
    });
  }
  return samples.map(({ importMs, createMs }) => ({
    importMs: median(importMs),
    createMs: median(createMs),
    totalMs: median(importMs.map((a, i) => a + createMs[i])),
  }));
}

// rows: [{ file (the entry in js/), op }]; medians per row, the rows' pages alternating.
async function chromiumColdStart(root, rows) {
  const files = {};
  for (const [i, row] of rows.entries()) {
    const built = await bundleForBrowser({ entryPoints: [path.join(root, 'js', row.file)] });
    files[`/bundle${i}.js`] = { type: 'text/javascript', body: built.outputFiles[0].contents };
    files[`/page${i}.html`] = {
      type: 'text/html',
      body: `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module">
    const t0 = performance.now();
    const m = await import('/bundle${i}.js');
    const C = m.CuckooReader ?? m.CuckooFilter;
    const t1 = performance.now();
    ${firstAnswer(row.op)}
    window.__result = { ok: true, importMs: t1 - t0, createMs: performance.now() - t1 };
  </script>`,
    };
  }
  const samples = rows.map(() => ({ importMs: [], createMs: [] }));
  await withChromium(files, async (context, origin) => {
    for (let i = 0; i < runs; i++) {
      for (const [j] of rows.entries()) {
        const p = await context.newPage();
        await p.goto(`${origin}/page${j}.html?${i}`);
        await p.waitForFunction(() => window.__result !== undefined);
        const r = await p.evaluate(() => window.__result);
        if (!r.ok) throw new Error('no answer in Chromium');
        samples[j].importMs.push(r.importMs);
        samples[j].createMs.push(r.createMs);
        await p.close();
      }
    }
  });
  return samples.map(({ importMs, createMs }) => ({
    importMs: median(importMs),
    createMs: median(createMs),
    totalMs: median(importMs.map((a, i) => a + createMs[i])),
  }));
}

// The rows: the full entry's first create, its first deserialize, and the read-only entry's first
// deserialize (where the checkout has one).
const rowsOf = (root) =>
  [
    { label: 'full entry, create', node: 'index.node.js', browser: 'index.js', op: 'create' },
    { label: 'full entry, deserialize', node: 'index.node.js', browser: 'index.js', op: 'deserialize' },
    { label: 'reader, deserialize', node: 'reader.node.js', browser: 'reader.js', op: 'deserialize' },
  ].filter((row) => existsSync(path.join(root, 'js', row.node)));

console.log(`cold start, medians of ${runs} runs, ms: import | first answer (create+add+has, or deserialize+has) | total`);
const emptyDir = mkdtempSync(path.join(tmpdir(), 'cuckoo-cold-empty-'));
const empty = path.join(emptyDir, 'empty.mjs');
writeFileSync(empty, 'export {};\n');
const nodeRows = roots.flatMap((root) =>
  rowsOf(root).map((row) => ({ label: `${treeName(root)}, Node, ${row.label}:`, url: pathToFileURL(path.join(root, 'js', row.node)).href, op: row.op })),
);
nodeRows.push({ label: 'Node, an empty module:', url: pathToFileURL(empty).href, op: 'create' });
try {
  nodeColdStart(nodeRows).forEach((n, j) => {
    console.log(`${nodeRows[j].label} ${n.importMs.toFixed(1)} | ${n.createMs.toFixed(1)} | ${n.totalMs.toFixed(1)}`);
  });
} finally {
  rmSync(emptyDir, { recursive: true, force: true });
}
for (const root of roots) {
  const rows = rowsOf(root);
  (
    await chromiumColdStart(
      root,
      rows.map((row) => ({ file: row.browser, op: row.op })),
    )
  ).forEach((c, j) => {
    console.log(`${treeName(root)}, Chromium, ${rows[j].label}: ${c.importMs.toFixed(1)} | ${c.createMs.toFixed(1)} | ${c.totalMs.toFixed(1)}`);
  });
}
