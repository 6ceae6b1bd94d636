// js-tests/merge.test.js: filter.merge(other). Property: for random key sets A and B added to two filters
// of one shape and seed, after a.merge(b) every key of A and of B is found (no false negatives) and the
// size is the sum; when the union does not fit, merge throws and a's bytes are exactly as before. Many
// seeds and shapes. Mismatches are Errors naming the field; the argument is checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CuckooFilter } from '../js/index.js';
import { rng } from './rng.js';

// Whole numbers in [0, 2^32) from the tests' seeded generator (rng.js: its state over 2^32, so times 2^32
// is the state itself), so a failure names a reproducible seed.
function uint32s(seed) {
  const next = rng(seed);
  return () => next() * 2 ** 32;
}

// Adds keys until one is refused; returns the keys stored.
function fill(filter, keys) {
  const n = filter.addAll(keys);
  return keys.slice(0, n);
}

const shapes = [
  { bucketSize: 4, fingerprintBits: 12 },
  { bucketSize: 2, fingerprintBits: 8 },
  { bucketSize: 8, fingerprintBits: 16 },
  { bucketSize: 4, fingerprintBits: 13, semiSort: true },
  { bucketSize: 4, fingerprintBits: 5 },
];

test('merge: every key of either filter is found, or the target is unchanged', async () => {
  let merged = 0;
  let refused = 0;
  for (const shape of shapes) {
    for (let seed = 1; seed <= 40; seed++) {
      const next = uint32s(seed * 7919 + shape.bucketSize * 100 + shape.fingerprintBits);
      const options = { ...shape, bucketCount: 64 + (next() % 256), seed: (BigInt(seed) * 0x9e3779b97f4a7c15n) % (1n << 64n) };
      const a = await CuckooFilter.create(options);
      const b = await CuckooFilter.create(options);
      const slots = a.capacity;
      const total = Math.floor((slots * (30 + (next() % 90))) / 100);
      const share = Math.floor((total * (10 + (next() % 80))) / 100);
      const keysA = fill(
        a,
        Array.from({ length: share }, () => `a-${next()}-${next()}`),
      );
      const keysB = fill(
        b,
        Array.from({ length: total - share }, () => next() * 4096 + (next() % 4096)),
      );
      const before = a.serialize();
      const sizeA = a.size;
      const sizeB = b.size;
      const where = `seed ${seed}, ${JSON.stringify(shape)}`;
      try {
        a.merge(b);
      } catch (error) {
        refused++;
        assert.match(error.message, /does not fit.*unchanged/, where);
        assert.deepEqual(a.serialize(), before, `${where}: a refused merge changed the target`);
        a.dispose();
        b.dispose();
        continue;
      }
      merged++;
      assert.equal(a.size, sizeA + sizeB, where);
      assert.ok(
        a.hasMany(keysA).every((x) => x === 1),
        `${where}: lost a key of the target`,
      );
      assert.ok(
        a.hasMany(keysB).every((x) => x === 1),
        `${where}: lost a key of the source`,
      );
      assert.equal(b.size, sizeB, `${where}: the source changed`);
      const reloaded = await CuckooFilter.deserialize(a.serialize());
      assert.ok(
        reloaded.hasMany(keysB).every((x) => x === 1),
        where,
      );
      reloaded.dispose();
      a.dispose();
      b.dispose();
    }
  }
  assert.ok(merged > 50 && refused > 0, `merged ${merged}, refused ${refused}`);
});

test("merge: takes the source's parked victim", async () => {
  const options = { bucketCount: 64, fingerprintBits: 12, seed: 7n };
  const full = await CuckooFilter.create(options);
  const keys = fill(
    full,
    Array.from({ length: 10000 }, (_, i) => `k${i}`),
  );
  assert.ok(full.isFull);
  const empty = await CuckooFilter.create(options);
  empty.merge(full);
  assert.equal(empty.size, full.size);
  assert.ok(empty.hasMany(keys).every((x) => x === 1));
});

test('merge: a mismatch is an Error naming the field, and changes nothing', async () => {
  const base = { bucketCount: 1024, fingerprintBits: 12, seed: 9n };
  const target = await CuckooFilter.create(base);
  target.add('kept');
  const before = target.serialize();
  const cases = [
    [{ ...base, bucketSize: 2 }, /bucket sizes differ/],
    [{ ...base, fingerprintBits: 13 }, /fingerprint bits differ/],
    [{ ...base, fingerprintBits: 13, semiSort: true }, /semi-sorting differ/],
    [{ ...base, bucketCount: 2048 }, /bucket counts differ/],
    [{ ...base, seed: 10n }, /seeds differ/],
  ];
  for (const [options, message] of cases) {
    const source = await CuckooFilter.create(options);
    source.add('other');
    assert.throws(
      () => target.merge(source),
      { name: 'Error', message },
      JSON.stringify(options, (k, v) => (typeof v === 'bigint' ? `${v}` : v)),
    );
    assert.deepEqual(target.serialize(), before);
    source.dispose();
  }
});

test('merge: the argument must be a live CuckooFilter', async () => {
  const f = await CuckooFilter.create({ capacity: 100 });
  for (const bad of [null, undefined, {}, f.serialize(), 'filter']) {
    assert.throws(() => f.merge(bad), { name: 'TypeError', message: /merge\(\) takes a CuckooFilter/ });
  }
  const g = await CuckooFilter.create({ capacity: 100 });
  g.dispose();
  assert.throws(() => f.merge(g), /disposed/);
  assert.throws(() => g.merge(f), /disposed/);
  f.merge(f); // into itself: every entry twice
});
