// js-tests/readme.test.js: the README's Node example, run as written, so that the quick start cannot go
// stale. It imports 'cuckoo-wasm'; run with the repository root as its directory, Node resolves the
// package's own name to this checkout (a package may import itself through its "exports").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// The (index + 1)-th ```js block after the given heading.
function exampleAfter(heading, index = 0) {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf(`\n${heading}\n`);
  assert.notEqual(start, -1, `README.md has no '${heading}' heading`);
  const blocks = [...readme.slice(start).matchAll(/```js\n([\s\S]*?)```/g)];
  assert.ok(blocks.length > index, `no \`\`\`js block ${index + 1} after '${heading}'`);
  return blocks[index][1];
}

test("README's Node example runs as written and prints what it says", () => {
  const code = exampleAfter('## Node');
  assert.match(code, /from 'cuckoo-wasm'/);
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  // console.log(f.size, f.loadFactor, f.bitsPerItem, f.byteLength): 6 keys remain (7 added, 1 deleted).
  const [size, loadFactor, bitsPerItem, byteLength] = run.stdout.trim().split(' ').map(Number);
  assert.equal(size, 6);
  assert.ok(loadFactor > 0 && loadFactor < 1e-4, run.stdout);
  assert.equal(bitsPerItem, ((byteLength - 64) * 8) / size);
});

test("README's growing-filter example runs as written and prints what its comment says", () => {
  const code = exampleAfter('## Node', 1);
  assert.match(code, /CuckooFilter\.create\(\{ fpr: 0\.001 \}\)/);
  const printed = /console\.log\(.*\/\/ (.+)$/m.exec(code)[1];
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout.trim(), printed);
});

// The README's size of the WebAssembly and of the gzipped download, against the built package: both went
// stale once (238 KiB, 131 KB) while the module grew.
test("README's size of the WebAssembly module is the built one's, within 3%", async () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const stated = /the (\d+) KiB of\s+WebAssembly ship as base64 inside a JS module: ~(\d+) KB gzipped with the JS/.exec(readme);
  assert.ok(stated, 'README.md no longer states the module size in the expected words');
  const { default: base64 } = await import('../dist/cuckoo_wasm_binary.mjs');
  const wasmKiB = Math.round((base64.length * 3) / 4 / 1024);
  const files = ['dist/cuckoo_wasm_binary.mjs', 'dist/cuckoo_wasm.mjs', ...readdirSync(new URL('../js', import.meta.url))
    .filter((name) => name.endsWith('.js'))
    .map((name) => `js/${name}`)];
  const gzippedKB = gzipSync(Buffer.concat(files.map((f) => readFileSync(new URL(`../${f}`, import.meta.url)))), { level: 9 }).length / 1000;
  assert.ok(Math.abs(Number(stated[1]) - wasmKiB) <= 0.03 * wasmKiB, `README says ${stated[1]} KiB of WebAssembly; built: ${wasmKiB} KiB`);
  assert.ok(Math.abs(Number(stated[2]) - gzippedKB) <= 0.03 * gzippedKB, `README says ~${stated[2]} KB gzipped; built: ${gzippedKB.toFixed(1)} KB`);
});
