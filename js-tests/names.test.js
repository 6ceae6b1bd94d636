// js-tests/names.test.js: the settled names (addMany/hasMany, slotCount, FormatError) and the deprecated
// aliases that keep the old ones working (addAll, capacity).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { CuckooFilter, FormatError } from '../js/index.js';
import * as nodeEntry from '../js/index.node.js';

const require = createRequire(import.meta.url);

test('addMany() adds as addAll() does: the same bytes, the same count', async () => {
  const keys = Array.from({ length: 3000 }, (_, i) => `key-${i}`);
  const a = await CuckooFilter.create({ capacity: 2000, seed: 3 });
  const b = await CuckooFilter.create({ capacity: 2000, seed: 3 });
  const n = a.addMany(keys);
  assert.equal(b.addAll(keys), n);
  assert.ok(n < keys.length, 'the batch stops at the first key refused');
  assert.deepEqual(a.serialize(), b.serialize());
  assert.deepEqual(Array.from(a.hasMany(keys.slice(0, n))), new Array(n).fill(1));
  assert.throws(() => a.addMany('abc'), { name: 'TypeError', message: /addMany\(\) takes an array/ });
  a.dispose();
  b.dispose();
});

test('slotCount is bucketCount * bucketSize; capacity is its alias', async () => {
  for (const options of [{ capacity: 1000 }, { capacity: 1000, bucketSize: 8 }, { fpr: 0.01 }]) {
    const f = await CuckooFilter.create(options);
    assert.equal(f.slotCount, f.bucketCount * f.bucketSize);
    assert.equal(f.capacity, f.slotCount);
    assert.equal(JSON.parse(JSON.stringify(f)).slotCount, f.slotCount);
    f.dispose();
  }
});

test('bad bytes are a FormatError, an Error, from every entry', async () => {
  const cjs = require('../js/index.cjs');
  assert.equal(nodeEntry.FormatError, cjs.FormatError, "Node's import and require() share one class");
  for (const lib of [{ CuckooFilter, FormatError }, cjs]) {
    await assert.rejects(lib.CuckooFilter.deserialize(new Uint8Array(10)), (error) => {
      assert.ok(error instanceof lib.FormatError);
      assert.ok(error instanceof Error);
      assert.equal(error.name, 'FormatError');
      assert.match(error.message, /^cuckoo: truncated input/);
      assert.match(String(error), /^FormatError: cuckoo: /);
      return true;
    });
  }
  // Other failures are not FormatErrors.
  assert.throws(
    () => new CuckooFilter({ capacity: 10, bucketSize: 3 }),
    (e) => e instanceof RangeError && !(e instanceof FormatError),
  );
});
