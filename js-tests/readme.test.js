// js-tests/readme.test.js: the README's Node example, run as written, so that the quick start cannot go
// stale. It imports 'cuckoo-wasm'; run with the repository root as its directory, Node resolves the
// package's own name to this checkout (a package may import itself through its "exports").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// The first ```js block after the given heading.
function exampleAfter(heading) {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf(`\n${heading}\n`);
  assert.notEqual(start, -1, `README.md has no '${heading}' heading`);
  const block = /```js\n([\s\S]*?)```/.exec(readme.slice(start));
  assert.ok(block, `no \`\`\`js block after '${heading}'`);
  return block[1];
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
