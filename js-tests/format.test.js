// js-tests/format.test.js: serialize()/deserialize() round trips (docs/format.md is the byte layout).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CuckooFilter } from '../js/index.js';

const shapes = [
  { capacity: 5000, seed: 1 },
  { capacity: 5000, bucketSize: 2, fingerprintBits: 8, seed: 2 },
  { capacity: 5000, bucketSize: 8, fingerprintBits: 16, seed: 3n },
  { capacity: 5000, fingerprintBits: 13, semiSort: true, seed: 4 },
  { capacity: 5000, fingerprintBits: 32, seed: 2n ** 64n - 1n },
  { capacity: 5000, fingerprintBits: 5, seed: 6 },
];

test('round trip: same answers, same bytes, same properties, and it keeps working', async () => {
  for (const options of shapes) {
    const f = await CuckooFilter.create(options);
    const keys = Array.from({ length: 3000 }, (_, i) => (i % 2 ? `k${i}` : i));
    f.addAll(keys);
    for (let i = 0; i < 500; i++) f.delete(keys[i]);
    const bytes = f.serialize();
    assert.equal(bytes.length, f.byteLength);
    assert.deepEqual([...bytes.subarray(0, 4)], [0x43, 0x4b, 0x4f, 0x4f], 'magic "CKOO"');
    assert.equal(bytes[4], 1, 'format version 1');

    const g = await CuckooFilter.deserialize(bytes);
    for (const name of [
      'size',
      'capacity',
      'bucketCount',
      'bucketSize',
      'fingerprintBits',
      'semiSort',
      'maxKicks',
      'seed',
      'loadFactor',
      'bitsPerItem',
      'byteLength',
      'isFull',
    ]) {
      assert.equal(g[name], f[name], name);
    }
    const probe = [...keys, ...Array.from({ length: 2000 }, (_, i) => `absent-${i}`)];
    assert.deepEqual(g.hasMany(probe), f.hasMany(probe));
    for (let i = 500; i < keys.length; i++) assert.equal(g.has(keys[i]), true);
    assert.deepEqual(g.serialize(), bytes, 'same bytes back');

    // Both continue identically: same inserts and deletes give the same bytes (the kick RNG state is
    // part of the format, so relocations replay the same way).
    for (const h of [f, g]) {
      for (let i = 0; i < 1000; i++) h.add(`more-${i}`);
      for (let i = 500; i < 800; i++) h.delete(keys[i]);
    }
    assert.deepEqual(g.serialize(), f.serialize());
    f.dispose();
    g.dispose();
  }
});

test('deserialize accepts a Uint8Array at an offset, an ArrayBuffer and other views', async () => {
  const f = await CuckooFilter.create({ capacity: 100, seed: 8 });
  f.add('x');
  const bytes = f.serialize();
  const padded = new Uint8Array(bytes.length + 7);
  padded.set(bytes, 3);
  for (const input of [bytes, padded.subarray(3, 3 + bytes.length), bytes.slice().buffer, new DataView(padded.buffer, 3, bytes.length)]) {
    const g = CuckooFilter.deserializeSync(input);
    assert.equal(g.has('x'), true);
    assert.deepEqual(g.serialize(), bytes);
    g.dispose();
  }
  if (typeof Buffer === 'function') {
    const g = await CuckooFilter.deserialize(Buffer.from(bytes));
    assert.equal(g.has('x'), true);
    g.dispose();
  }
  f.dispose();
});

test('deserialize() reads a SharedArrayBuffer (bytes shared with a worker)', async () => {
  const f = await CuckooFilter.create({ capacity: 100 });
  f.add('shared');
  const bytes = f.serialize();
  const shared = new SharedArrayBuffer(bytes.length);
  new Uint8Array(shared).set(bytes);
  const g = await CuckooFilter.deserialize(shared);
  assert.equal(g.has('shared'), true);
  assert.deepEqual(g.serialize(), bytes);
  g.dispose();
  f.dispose();
});

test('serialize() returns a copy that does not change with the filter', async () => {
  const f = await CuckooFilter.create({ capacity: 100 });
  const before = f.serialize();
  const copy = before.slice();
  f.add('y');
  assert.deepEqual(before, copy);
  assert.notDeepEqual(f.serialize(), before);
  assert.ok(!(before.buffer instanceof SharedArrayBuffer));
  f.dispose();
});

test('same options, seed and operations give the same bytes; another seed gives other bytes', async () => {
  async function build(seed) {
    const f = await CuckooFilter.create({ capacity: 2000, seed });
    for (let i = 0; i < 1900; i++) f.add(`item-${i}`); // near full: relocations happen
    const bytes = f.serialize();
    f.dispose();
    return bytes;
  }
  assert.deepEqual(await build(5), await build(5));
  assert.notDeepEqual(await build(5), await build(6));
  assert.deepEqual(await build(5), await build(5n));
});

test('a full filter with a parked victim round-trips and stays full', async () => {
  const f = await CuckooFilter.create({ bucketCount: 8, fingerprintBits: 12, maxKicks: 20, seed: 9 });
  const stored = [];
  for (let i = 0; f.add(`v${i}`); i++) stored.push(`v${i}`);
  assert.equal(f.isFull, true);
  const g = CuckooFilter.deserializeSync(f.serialize());
  assert.equal(g.isFull, true);
  assert.equal(g.size, stored.length);
  for (const k of stored) assert.equal(g.has(k), true);
  assert.equal(g.add('more'), false);
  assert.equal(g.delete(stored[0]), true);
  assert.equal(g.isFull, false);
  for (const k of stored.slice(1)) assert.equal(g.has(k), true);
  f.dispose();
  g.dispose();
});

test('a large filter (several MiB) round-trips', async () => {
  const f = await CuckooFilter.create({ capacity: 1_000_000, fpr: 0.001, seed: 12 });
  const keys = Array.from({ length: 500_000 }, (_, i) => `key-${i}`);
  assert.equal(f.addAll(keys), keys.length);
  const bytes = f.serialize();
  assert.ok(bytes.length > 1_500_000);
  const g = await CuckooFilter.deserialize(bytes);
  assert.ok(g.hasMany(keys).every((x) => x === 1));
  assert.deepEqual(g.serialize(), bytes);
  f.dispose();
  g.dispose();
});
