// js-tests/readme.test.js: the README's Node example, run as written, so that the quick start cannot go
// stale. It imports 'cuckoo-wasm'; run with the repository root as its directory, Node resolves the
// package's own name to this checkout (a package may import itself through its "exports").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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
