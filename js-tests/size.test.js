// js-tests/size.test.js: what a web page downloads for the package stays within its budget, and the README
// states it as built. Measured by scripts/browser-size.mjs: `import { CuckooFilter } from 'cuckoo-wasm'`
// bundled by esbuild (--bundle --minify --platform=browser --format=esm), gzip -9 of every output file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { measureBrowserDownload, kBrowserBudgetBytes } from '../scripts/browser-size.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

let measured = null;
async function measure() {
  assert.ok(existsSync(new URL('../dist/cuckoo_wasm_binary.mjs', import.meta.url)), 'dist/ is missing: npm run build');
  measured ??= await measureBrowserDownload(root);
  return measured;
}

test(`a page's download for the package is at most ${kBrowserBudgetBytes / 1000} KB gzipped`, async (t) => {
  const m = await measure();
  for (const f of m.files) t.diagnostic(`${f.path}: ${f.bytes} bytes minified, ${f.gzipped} gzipped`);
  t.diagnostic(`bundled: ${m.inputs.join(' ')}`);
  // The package's browser path only: its ES modules and the web flavour of the module.
  for (const input of m.inputs) assert.match(input, /^(js\/[\w.-]+\.js|dist\/cuckoo_wasm_binary\.mjs)$/, input);
  assert.ok(
    m.gzipped <= kBrowserBudgetBytes,
    `the browser download is ${m.gzipped} bytes gzipped, over the budget of ${kBrowserBudgetBytes}`,
  );
});

test("the README's figure for the browser download is the built one's, within 3%", async () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const stated = /a page downloads (\d+(?:\.\d)?) KB gzipped for the package/.exec(readme);
  assert.ok(stated, 'README.md no longer states the browser download in the expected words');
  const kb = (await measure()).gzipped / 1000;
  assert.ok(Math.abs(Number(stated[1]) - kb) <= 0.03 * kb, `README says ${stated[1]} KB; built: ${kb.toFixed(1)} KB`);
});
