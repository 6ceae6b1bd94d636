// js-tests/if_absent.test.js: addIfAbsent() and addManyIfAbsent() against a model: every key handled
// (added or present) is found afterwards, only keys reported added are counted in size, present and
// refused keys change nothing, and the batch leaves the same bytes as the single call in a loop. Both
// builds of the module: the web one (js/index.js) and the node one (js/index.cjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as web from '../js/index.js';

const node = createRequire(import.meta.url)('../js/index.cjs');
const { CuckooFilter } = web;

// n distinct keys of mixed types, each repeated 1..copies times, shuffled (a seeded generator).
function repeatedKeys(n, copies, seed) {
  let state = seed >>> 0;
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0);
  const keys = [];
  for (let i = 0; i < n; i++) {
    const kind = i % 3;
    const key = kind === 0 ? `key-${seed}-${i}` : kind === 1 ? seed * 1e6 + i : new TextEncoder().encode(`b${seed}-${i}`);
    for (let c = 1 + (next() % copies); c > 0; c--) keys.push(key);
  }
  for (let i = keys.length - 1; i > 0; i--) {
    const j = next() % (i + 1);
    [keys[i], keys[j]] = [keys[j], keys[i]];
  }
  return keys;
}

const optionSets = [
  { bucketCount: 256, fingerprintBits: 12, seed: 1 },
  { bucketCount: 128, bucketSize: 2, fingerprintBits: 8, seed: 2 },
  { fpr: 0.001, seed: 3 },
];
for (const [flavour, { CuckooFilter }] of [
  ['web', web],
  ['node', node],
])
  for (const options of optionSets) {
    test(`addIfAbsent / addManyIfAbsent against a model (${flavour} module): ${JSON.stringify(options)}`, async () => {
      const single = await CuckooFilter.create(options);
      const batch = await CuckooFilter.create(options);
      const keys = repeatedKeys(options.fpr ? 20_000 : single.slotCount + 200, 5, 7);
      const handled = [];
      let stopped = keys.length;
      for (let i = 0; i < keys.length; i++) {
        const before = single.has(keys[i]);
        const size = single.size;
        const result = single.addIfAbsent(keys[i]);
        assert.equal(result === 'present', before, `key ${i}`);
        assert.equal(single.size, size + (result === 'added' ? 1 : 0), `key ${i}`);
        if (result === 'refused') {
          stopped = i;
          break;
        }
        handled.push(keys[i]);
      }
      if (options.fpr) assert.equal(stopped, keys.length, 'a growing filter takes every key');
      else assert.ok(stopped < keys.length, 'the fixed filter fills up');
      assert.ok(
        handled.every((k) => single.has(k)),
        'no false negative',
      );
      assert.deepEqual(Array.from(single.hasMany(handled)), new Array(handled.length).fill(1));

      let done = 0;
      while (done < keys.length) {
        const chunk = keys.slice(done, done + 1 + (done % 997));
        const n = batch.addManyIfAbsent(chunk);
        done += n;
        if (n < chunk.length) break;
      }
      assert.equal(done, stopped);
      assert.deepEqual(batch.serialize(), single.serialize());
      single.dispose();
      batch.dispose();
    });
  }

test('copies of keys fill a filter sized for the distinct keys, once each', async () => {
  const f = await CuckooFilter.create({ capacity: 5000, seed: 9 });
  const keys = repeatedKeys(5000, 20, 11);
  assert.equal(f.addManyIfAbsent(keys), keys.length);
  assert.ok(f.size <= 5000 && f.size >= 4950, `size ${f.size}`);
  const bytes = f.serialize();
  assert.equal(f.addManyIfAbsent(keys), keys.length, 'a second pass finds every key');
  assert.deepEqual(f.serialize(), bytes, 'and changes nothing');
  f.dispose();
});

for (const [flavour, { CuckooFilter }] of [
  ['web', web],
  ['node', node],
])
  test(`addIfAbsent / addManyIfAbsent: bad keys, bad batches and disposed filters as addMany (${flavour} module)`, async () => {
    const f = await CuckooFilter.create({ capacity: 100 });
    assert.throws(() => f.addIfAbsent(null), TypeError);
    assert.throws(() => f.addIfAbsent(-1), RangeError);
    assert.throws(() => f.addManyIfAbsent(['a', null]), { name: 'TypeError', message: /index 1/ });
    assert.throws(() => f.addManyIfAbsent('abc'), { name: 'TypeError', message: /addManyIfAbsent\(\) takes an array/ });
    assert.equal(f.size, 0, 'nothing added');
    f.dispose();
    assert.throws(() => f.addIfAbsent('a'), { message: /addIfAbsent\(\) called after dispose\(\)/ });
    assert.throws(() => f.addManyIfAbsent([]), { message: /addManyIfAbsent\(\) called after dispose\(\)/ });
  });
