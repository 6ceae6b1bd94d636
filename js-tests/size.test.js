// js-tests/size.test.js: what a web page downloads for the package stays within its budget, for the full
// entry and for the read-only one, and the README states both as built. Measured by
// scripts/browser-size.mjs: `import { CuckooFilter } from 'cuckoo-wasm'` (or `import { CuckooReader } from
// 'cuckoo-wasm/reader'`) bundled by esbuild (--bundle --minify --platform=browser --format=esm), gzip -9 of
// every output file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { measureBrowserDownload, kBrowserBudgetBytes, kReaderBudgetBytes } from '../scripts/browser-size.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

const measured = {};
async function measure(entry = 'full') {
  assert.ok(existsSync(new URL('../dist/cuckoo_reader_binary.mjs', import.meta.url)), 'dist/ is missing: npm run build');
  measured[entry] ??= await measureBrowserDownload(root, entry);
  return measured[entry];
}

test(`a page's download for the package is at most ${kBrowserBudgetBytes / 1000} KB gzipped`, async (t) => {
  const m = await measure('full');
  for (const f of m.files) t.diagnostic(`${f.path}: ${f.bytes} bytes minified, ${f.gzipped} gzipped`);
  t.diagnostic(`bundled: ${m.inputs.join(' ')}`);
  // The package's browser path only: its ES modules and the web flavour of the module.
  for (const input of m.inputs) assert.match(input, /^(js\/[\w.-]+\.js|dist\/cuckoo_wasm_binary\.mjs)$/, input);
  assert.ok(m.gzipped <= kBrowserBudgetBytes, `the browser download is ${m.gzipped} bytes gzipped, over the budget of ${kBrowserBudgetBytes}`);
});

test(`a page that imports only the reader downloads at most ${kReaderBudgetBytes / 1000} KB gzipped`, async (t) => {
  const m = await measure('reader');
  for (const f of m.files) t.diagnostic(`${f.path}: ${f.bytes} bytes minified, ${f.gzipped} gzipped`);
  t.diagnostic(`bundled: ${m.inputs.join(' ')}`);
  // The reader's own modules, the key rules and stream reading it shares, and its module: none of the full
  // entry's machinery.
  for (const input of m.inputs) {
    assert.match(input, /^(js\/(reader\w*|classify|errors|memory|stream_source)\.js|dist\/cuckoo_reader_binary\.mjs)$/, input);
  }
  assert.ok(m.gzipped <= kReaderBudgetBytes, `the reader's browser download is ${m.gzipped} bytes gzipped, over the budget of ${kReaderBudgetBytes}`);
});

test("the README's figures for the browser downloads are the built ones', within 3%", async () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const stated = /a page downloads (\d+(?:\.\d)?) KB gzipped for the reader and (\d+(?:\.\d)?) KB\s+gzipped for the full entry/.exec(readme);
  assert.ok(stated, 'README.md no longer states the browser downloads in the expected words');
  for (const [entry, figure] of [
    ['reader', stated[1]],
    ['full', stated[2]],
  ]) {
    const kb = (await measure(entry)).gzipped / 1000;
    assert.ok(Math.abs(Number(figure) - kb) <= 0.03 * kb, `README says ${figure} KB for the ${entry} entry; built: ${kb.toFixed(1)} KB`);
  }
});
