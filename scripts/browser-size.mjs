#!/usr/bin/env node
// scripts/browser-size.mjs: what a web page downloads for the package, measured the way a site would ship
// it: `import { CuckooFilter } from 'cuckoo-wasm'` bundled by esbuild (--bundle --minify --platform=browser
// --format=esm), every output file (JS, and any .wasm the bundle emits) compressed with gzip -9.
// js-tests/size.test.js holds it to the budget; `node scripts/browser-size.mjs` prints it.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The budgets for everything a browser downloads for the package, gzipped, in bytes: a page that imports
// the full entry, and one that imports only the read-only entry (`cuckoo-wasm/reader`).
export const kBrowserBudgetBytes = 38_000;
export const kReaderBudgetBytes = 12_000;

// What a page imports, per entry.
const pages = {
  full: "import { CuckooFilter } from 'cuckoo-wasm';\nglobalThis.CuckooFilter = CuckooFilter;\n",
  reader: "import { CuckooReader } from 'cuckoo-wasm/reader';\nglobalThis.CuckooReader = CuckooReader;\n",
};

// esbuild's build of `input` (its stdin or entryPoints, and any other options) as a site ships the package:
// bundled, minified, for the browser, as an ES module, kept in memory (outputFiles), quiet.
export async function bundleForBrowser(input) {
  const esbuild = await import('esbuild');
  return esbuild.build({
    bundle: true,
    minify: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    ...input,
  });
}

// { files: [{ path, bytes, gzipped }], bytes, gzipped, inputs } for the bundle of the package in `dir`
// (a checkout: 'cuckoo-wasm' resolves to it through package.json's self-reference), for a page that
// imports `entry` ('full' or 'reader').
export async function measureBrowserDownload(dir = root, entry = 'full') {
  const built = await bundleForBrowser({
    stdin: {
      contents: pages[entry],
      resolveDir: dir,
      sourcefile: 'page.js',
      loader: 'js',
    },
    metafile: true,
    outdir: path.join(dir, 'build-size'),
  });
  const files = built.outputFiles.map((f) => ({
    path: path.relative(dir, f.path),
    bytes: f.contents.length,
    gzipped: gzipSync(f.contents, { level: 9 }).length,
  }));
  return {
    files,
    bytes: files.reduce((sum, f) => sum + f.bytes, 0),
    gzipped: files.reduce((sum, f) => sum + f.gzipped, 0),
    inputs: Object.keys(built.metafile.inputs).filter((name) => name !== 'page.js'),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2] ? path.resolve(process.argv[2]) : root;
  for (const [entry, budget] of [
    ['full', kBrowserBudgetBytes],
    ['reader', kReaderBudgetBytes],
  ]) {
    const m = await measureBrowserDownload(dir, entry);
    console.log(`${entry} entry:`);
    for (const f of m.files) console.log(`  ${f.path}: ${f.bytes} bytes, ${f.gzipped} gzipped`);
    console.log(`  inputs: ${m.inputs.join(' ')}`);
    console.log(`  total: ${m.bytes} bytes minified, ${m.gzipped} bytes gzipped (budget ${budget})`);
  }
}
