// bench/js/cold_start.mjs: cold start, from import to the first answer, in Node and in headless Chromium.
//
//   node bench/js/cold_start.mjs [/path/to/other/checkout] [runs=15]
//
// Node: a fresh process per run imports the package's Node entry (js/index.node.js, what `import
// 'cuckoo-wasm'` resolves to in Node), creates a filter, adds and checks a key; medians of the import and
// of the first create() + add() + has(). The runs alternate between the checkouts and a reference, the
// import of an empty ES module (Node's own cost of a first import()), so that a change in the machine's
// load hits all alike. Chromium: a fresh page per run (no cache) dynamic-imports an esbuild bundle of the
// package (minified, platform browser: what a site ships) and does the same.
// Chromium needs /usr/bin/chromium (or CHROMIUM_PATH) and the devDependencies.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const args = process.argv.slice(2);
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 15);
const roots = [here, ...args.filter((a) => !/^\d+$/.test(a)).map((p) => path.resolve(p))];
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

// One fresh process importing `entry`: [import ms, first create + add + has ms]. An entry that exports no
// CuckooFilter (the reference) gets 0 for the second.
function nodeRun(entry) {
  const script = `
    const t0 = performance.now();
    const { CuckooFilter } = await import(${JSON.stringify(entry)});
    const t1 = performance.now();
    if (CuckooFilter !== undefined) {
      const f = await CuckooFilter.create({ capacity: 1000, fpr: 0.01 });
      if (!(f.add('first') && f.has('first'))) throw new Error('no answer');
    }
    const t2 = performance.now();
    console.log(JSON.stringify([t1 - t0, t2 - t1]));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

// Medians per entry (file URLs), the runs of all entries interleaved.
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

async function chromiumColdStart(root) {
  const esbuild = await import('esbuild');
  const { chromium } = await import('playwright-core');
  const built = await esbuild.build({
    entryPoints: [path.join(root, 'js', 'index.js')],
    bundle: true, minify: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent',
  });
  const bundle = built.outputFiles[0].contents;
  const page = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module">
    const t0 = performance.now();
    const { CuckooFilter } = await import('/bundle.js');
    const t1 = performance.now();
    const f = await CuckooFilter.create({ capacity: 1000, fpr: 0.01 });
    const ok = f.add('first') && f.has('first');
    window.__result = { ok, importMs: t1 - t0, createMs: performance.now() - t1 };
  </script>`;
  const server = createServer((req, res) => {
    const js = req.url === '/bundle.js';
    res.writeHead(200, { 'content-type': js ? 'text/javascript' : 'text/html', 'cache-control': 'no-store' });
    res.end(js ? bundle : page);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'cuckoo-cold-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const importMs = [];
  const createMs = [];
  try {
    for (let i = 0; i < runs; i++) {
      const p = await context.newPage();
      await p.goto(`http://127.0.0.1:${server.address().port}/?${i}`);
      await p.waitForFunction(() => window.__result !== undefined);
      const r = await p.evaluate(() => window.__result);
      if (!r.ok) throw new Error('no answer in Chromium');
      importMs.push(r.importMs);
      createMs.push(r.createMs);
      await p.close();
    }
  } finally {
    await context.close();
    server.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
  return { importMs: median(importMs), createMs: median(createMs), totalMs: median(importMs.map((a, i) => a + createMs[i])) };
}

console.log(`cold start, medians of ${runs} runs, ms: import | first create+add+has | total`);
const emptyDir = mkdtempSync(path.join(tmpdir(), 'cuckoo-cold-empty-'));
const empty = path.join(emptyDir, 'empty.mjs');
writeFileSync(empty, 'export {};\n');
const nodeEntries = [...roots.map((root) => path.join(root, 'js', 'index.node.js')), empty];
try {
  nodeColdStart(nodeEntries.map((file) => pathToFileURL(file).href)).forEach((n, j) => {
    const label = j < roots.length ? `${roots[j]} Node:    ` : 'Node, an empty module:';
    console.log(`${label} ${n.importMs.toFixed(1)} | ${n.createMs.toFixed(1)} | ${n.totalMs.toFixed(1)}`);
  });
} finally {
  rmSync(emptyDir, { recursive: true, force: true });
}
for (const root of roots) {
  const c = await chromiumColdStart(root);
  console.log(`${root} Chromium: ${c.importMs.toFixed(1)} | ${c.createMs.toFixed(1)} | ${c.totalMs.toFixed(1)}`);
}
