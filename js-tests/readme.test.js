// js-tests/readme.test.js: the README's Node examples, run as written, so that the quick start cannot go
// stale. It imports 'cuckoo-wasm'; run with the repository root as its directory, Node resolves the
// package's own name to this checkout (a package may import itself through its "exports").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

test("README's big-filter example (save, load, a stream, chunks) runs as written", () => {
  const code = exampleAfter('## Node', 2);
  assert.match(code, /f\.save\('big\.cuckoo'\)/);
  const dir = mkdtempSync(path.join(tmpdir(), 'cuckoo-readme-'));
  try {
    // As written, but with its file in a temporary directory; then what its comments promise.
    const file = JSON.stringify(path.join(dir, 'big.cuckoo'));
    const checks = `
      const same = (x) => x.byteLength === f.byteLength && x.size === f.size && x.capacity === f.capacity;
      console.log(same(g), same(h), same(k), chunks.every((c) => c.length <= 512 * 1024));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', code.replaceAll("'big.cuckoo'", file) + checks], {
      cwd: root,
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), 'true true true true');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
