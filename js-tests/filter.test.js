// js-tests/filter.test.js: the CuckooFilter API and every property, through the ESM entry (and the CJS one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CuckooFilter, ready } from '../js/index.js';

test('create(): add/has/delete/count on a fresh filter', async () => {
  const f = await CuckooFilter.create({ capacity: 1000, fpr: 0.001 });
  assert.equal(f.size, 0);
  assert.equal(f.has('alice'), false);
  assert.equal(f.add('alice'), true);
  assert.equal(f.has('alice'), true);
  assert.equal(f.count('alice'), 1);
  assert.equal(f.add('alice'), true, 'a second copy');
  assert.equal(f.count('alice'), 2);
  assert.equal(f.size, 2);
  assert.equal(f.delete('alice'), true, 'removes one copy');
  assert.equal(f.count('alice'), 1);
  assert.equal(f.delete('alice'), true);
  assert.equal(f.has('alice'), false);
  assert.equal(f.delete('alice'), false, 'nothing left to delete');
  assert.equal(f.size, 0);
  f.dispose();
});

test('properties describe the resolved configuration', async () => {
  const f = await CuckooFilter.create({ capacity: 1_000_000, fpr: 0.001, seed: 42 });
  assert.equal(f.bucketSize, 4);
  assert.equal(f.fingerprintBits, 13, '2b/(2^f-1) <= 0.001 needs 13 bits at b=4');
  assert.equal(f.semiSort, false);
  assert.equal(f.maxKicks, 500);
  assert.equal(f.seed, 42n);
  assert.equal(f.bucketCount % 2, 0);
  assert.equal(f.capacity, f.bucketCount * f.bucketSize, 'capacity is the slot count');
  assert.ok(f.capacity >= 1_000_000, 'at least the requested capacity');
  assert.equal(f.byteLength, 64 + Math.ceil((f.bucketCount * 4 * 13) / 8), 'header + table + checksum');
  assert.equal(f.byteLength, f.serialize().length);
  assert.equal(f.loadFactor, 0);
  assert.equal(f.bitsPerItem, Infinity, 'empty');
  assert.equal(f.isFull, false);
  assert.ok(f.fprBound > 0 && f.fprBound <= 0.001 * 1.01);
  for (let i = 0; i < 1000; i++) f.add(i);
  assert.equal(f.size, 1000);
  assert.equal(f.loadFactor, 1000 / f.capacity);
  assert.equal(f.bitsPerItem, ((f.byteLength - 64) * 8) / 1000);
  assert.equal(Object.prototype.toString.call(f), '[object CuckooFilter]');
  f.dispose();
});

test('fprBound is the native false_positive_bound, bit for bit', async () => {
  // The same table as native-tests/options_test.cpp (FalsePositiveBoundIsTheSameDoubleEverywhere): the
  // core computed in WebAssembly, with its libc, must give the native doubles.
  const cases = [
    [2, 4, 0.24116543209876543],
    [4, 5, 0.23073409005615597],
    [4, 12, 0.0019519330235979807],
    [8, 8, 0.060933000395866077],
    [8, 32, 3.7252902928240628e-9],
    [2, 32, 9.313225745070583e-10],
  ];
  for (const [bucketSize, fingerprintBits, bound] of cases) {
    const f = await CuckooFilter.create({ bucketCount: 2, bucketSize, fingerprintBits });
    assert.equal(f.fprBound, bound, `b ${bucketSize} f ${fingerprintBits}`);
    f.dispose();
  }
});

test('properties are read-only', async () => {
  const f = await CuckooFilter.create({ capacity: 10 });
  for (const name of ['size', 'capacity', 'loadFactor', 'bitsPerItem', 'byteLength', 'seed', 'isFull']) {
    assert.throws(
      () => {
        f[name] = 5;
      },
      TypeError,
      name,
    );
  }
  f.dispose();
});

test('options: bucket sizes, fingerprint bits, semiSort, targetLoad, bucketCount, bigint seed', async () => {
  const cases = [
    { capacity: 5000, bucketSize: 2 },
    { capacity: 5000, bucketSize: 8, fingerprintBits: 16 },
    { capacity: 5000, fingerprintBits: 13, semiSort: true },
    { capacity: 5000, fingerprintBits: 7, targetLoad: 0.5 },
    { bucketCount: 1001, fingerprintBits: 32, maxKicks: 20 },
    { capacity: 5000n, seed: 2n ** 64n - 1n },
  ];
  for (const options of cases) {
    const f = await CuckooFilter.create(options);
    if (options.bucketSize) assert.equal(f.bucketSize, options.bucketSize);
    if (options.fingerprintBits) assert.equal(f.fingerprintBits, options.fingerprintBits);
    if (options.bucketCount) assert.equal(f.bucketCount, 1002, 'rounded up to even');
    if (options.seed !== undefined) assert.equal(f.seed, BigInt(options.seed));
    assert.equal(f.semiSort, options.semiSort === true);
    const n = Math.min(4000, Math.floor(f.capacity * 0.8));
    const keys = Array.from({ length: n }, (_, i) => `k${i}`);
    assert.equal(
      f.addAll(keys),
      n,
      JSON.stringify(options, (k, v) => (typeof v === 'bigint' ? `${v}` : v)),
    );
    assert.ok(
      f.hasMany(keys).every((x) => x === 1),
      'no false negatives',
    );
    f.dispose();
  }
});

test('targetLoad trades memory: lower load, more buckets', async () => {
  const dense = await CuckooFilter.create({ capacity: 10000 });
  const sparse = await CuckooFilter.create({ capacity: 10000, targetLoad: 0.5 });
  assert.ok(sparse.capacity > dense.capacity * 1.7);
  dense.dispose();
  sparse.dispose();
});

test('clear() empties the filter and keeps the configuration', async () => {
  const f = await CuckooFilter.create({ capacity: 100, seed: 7 });
  const empty = f.serialize();
  f.addAll(['a', 'b', 'c']);
  f.clear();
  assert.equal(f.size, 0);
  assert.equal(f.has('a'), false);
  assert.equal(f.seed, 7n);
  // The kick RNG state is part of the bytes and is not reset by clear(); the table and count are.
  assert.deepEqual(f.serialize().subarray(56, -8), empty.subarray(56, -8));
  f.dispose();
});

test('addAll()/hasMany(): batches agree with single calls, accept iterables', async () => {
  const f = await CuckooFilter.create({ capacity: 100_000, seed: 3 });
  const g = await CuckooFilter.create({ capacity: 100_000, seed: 3 });
  const keys = [];
  for (let i = 0; i < 50_000; i++) keys.push(i % 3 === 0 ? `key-${i}` : i % 3 === 1 ? i : new Uint8Array([i & 255, i >> 8, 1]));
  assert.equal(f.addAll(keys), keys.length);
  for (const k of keys) assert.equal(g.add(k), true);
  assert.deepEqual(f.serialize(), g.serialize(), 'same bytes: same hashing and same order');
  const probe = [...keys.slice(0, 1000), ...Array.from({ length: 1000 }, (_, i) => `absent-${i}`)];
  const got = f.hasMany(probe);
  assert.ok(got instanceof Uint8Array);
  assert.equal(got.length, probe.length);
  probe.forEach((k, i) => assert.equal(got[i], f.has(k) ? 1 : 0));
  assert.ok(got.subarray(0, 1000).every((x) => x === 1));
  assert.equal(f.addAll(new Set(['s1', 's2'])), 2);
  assert.deepEqual([...f.hasMany(new Set(['s1', 's2']))], [1, 1]);
  assert.equal(f.addAll([]), 0);
  assert.deepEqual(f.hasMany([]), new Uint8Array(0));
  f.dispose();
  g.dispose();
});

test('addAll() stops at the first key that does not fit and loses nothing', async () => {
  const f = await CuckooFilter.create({ bucketCount: 16, bucketSize: 4, fingerprintBits: 16, maxKicks: 50 });
  const keys = Array.from({ length: 1000 }, (_, i) => `item-${i}`);
  const added = f.addAll(keys);
  assert.ok(added > 0 && added < keys.length, `added ${added} of ${keys.length}`);
  assert.ok(added <= f.capacity + 1);
  assert.equal(f.isFull, true);
  assert.equal(f.size, added);
  for (let i = 0; i < added; i++) assert.equal(f.has(keys[i]), true, `keys[${i}] must still be found`);
  assert.equal(f.add('one-more'), false, 'full: add() returns false');
  assert.equal(f.size, added, 'a failed add changes nothing');
  assert.equal(f.addAll(['x', 'y']), 0);
  // Erasing makes room again, and still nothing is lost.
  assert.equal(f.delete(keys[0]), true);
  assert.equal(f.isFull, false);
  for (let i = 1; i < added; i++) assert.equal(f.has(keys[i]), true);
  f.dispose();
});

test('add() on a full filter returns false and keeps every stored key', async () => {
  const f = await CuckooFilter.create({ bucketCount: 8, bucketSize: 2, fingerprintBits: 12, maxKicks: 10 });
  const stored = [];
  for (let i = 0; ; i++) {
    if (!f.add(i)) break;
    stored.push(i);
  }
  assert.equal(f.size, stored.length);
  for (const k of stored) assert.equal(f.has(k), true);
  f.dispose();
});

test('synchronous road: await ready, then new CuckooFilter() and deserializeSync()', async () => {
  await CuckooFilter.ready;
  await ready();
  assert.equal(CuckooFilter.ready, CuckooFilter.ready, 'one promise');
  const f = new CuckooFilter({ capacity: 100 });
  f.add('sync');
  const g = CuckooFilter.deserializeSync(f.serialize());
  assert.equal(g.has('sync'), true);
  f.dispose();
  g.dispose();
});

test('the static factories called on a subclass make that subclass; called detached, a CuckooFilter', async () => {
  class Tagged extends CuckooFilter {
    constructor(options) {
      super(options);
      this.tag = 'tagged';
    }
    label() {
      return `${this.tag}:${this.size}`;
    }
  }
  class Inherited extends CuckooFilter {}
  const a = await Tagged.create({ capacity: 100 });
  a.add('x');
  const bytes = a.serialize();
  const made = [a, await Tagged.deserialize(bytes), Tagged.deserializeSync(bytes)];
  for (const f of made) {
    assert.ok(f instanceof Tagged);
    assert.equal(f.label(), 'tagged:1');
    assert.equal(f.has('x'), true);
  }
  made.push(await Inherited.create({ capacity: 10 }), Inherited.deserializeSync(bytes));
  assert.ok(made.at(-2) instanceof Inherited && made.at(-1) instanceof Inherited && made.at(-1).has('x'));
  const { create, deserialize, deserializeSync } = CuckooFilter;
  made.push(await create({ capacity: 10 }), await deserialize(bytes), deserializeSync(bytes));
  made.push(await CuckooFilter.create.call({}, { capacity: 10 })); // not a class: a CuckooFilter
  for (const f of made.slice(-4)) assert.equal(f.constructor, CuckooFilter);
  for (const f of made) f.dispose();

  // A subclass that does not pass its first argument on to super() cannot wrap deserialized bytes: a
  // TypeError, not a filter silently empty (and the deserialized table is freed).
  class Fixed extends CuckooFilter {
    constructor() {
      super({ capacity: 10 });
    }
  }
  assert.throws(() => Fixed.deserializeSync(bytes), {
    name: 'TypeError',
    message: 'cuckoo-wasm: Fixed.deserialize(): its constructor must pass its first argument on to super()',
  });
  await assert.rejects(Fixed.deserialize(bytes), { name: 'TypeError' });
  const fixed = await Fixed.create({ capacity: 1e6 }); // its constructor's business
  assert.ok(fixed instanceof Fixed);
  fixed.dispose();
});

test('dispose(): idempotent, Symbol.dispose, and every later call throws', async () => {
  const f = await CuckooFilter.create({ capacity: 100 });
  assert.equal(f.disposed, false);
  f.dispose();
  f.dispose();
  assert.equal(f.disposed, true);
  const calls = {
    add: () => f.add('a'),
    has: () => f.has('a'),
    delete: () => f.delete('a'),
    count: () => f.count('a'),
    addAll: () => f.addAll(['a']),
    hasMany: () => f.hasMany(['a']),
    clear: () => f.clear(),
    serialize: () => f.serialize(),
    size: () => f.size,
    capacity: () => f.capacity,
    loadFactor: () => f.loadFactor,
    bitsPerItem: () => f.bitsPerItem,
    byteLength: () => f.byteLength,
    seed: () => f.seed,
  };
  for (const [name, call] of Object.entries(calls)) {
    assert.throws(call, { name: 'Error', message: /disposed/ }, name);
  }
  const g = await CuckooFilter.create({ capacity: 100 });
  const dispose = Symbol.dispose ?? Symbol.for('Symbol.dispose');
  assert.equal(typeof g[dispose], 'function');
  g[dispose]();
  assert.throws(() => g.has('x'), /disposed/);
});

test('util.inspect / console.log show the shape and fill, and a disposed filter says so', async () => {
  const { inspect } = await import('node:util');
  const f = await CuckooFilter.create({ capacity: 1000, fpr: 0.01 });
  f.addAll(['a', 'b', 'c']);
  const shown = inspect(f);
  assert.match(shown, /^CuckooFilter \{/);
  assert.match(shown, /size: 3/);
  assert.match(shown, new RegExp(`slotCount: ${f.slotCount}`));
  assert.match(shown, /bucketSize: 4/);
  assert.match(shown, new RegExp(`fingerprintBits: ${f.fingerprintBits}`));
  assert.match(shown, /isFull: false/);
  f.dispose();
  assert.equal(inspect(f), 'CuckooFilter <disposed>');
});

test('memory is reused: create/dispose many filters without growth', async () => {
  // Warm up, then check that 200 more cycles do not grow the heap (the C++ object and table are freed).
  for (let i = 0; i < 5; i++) (await CuckooFilter.create({ capacity: 100_000 })).dispose();
  const { rt } = await import('../js/memory.js');
  const before = rt.M.HEAPU8.length;
  for (let i = 0; i < 200; i++) {
    const f = new CuckooFilter({ capacity: 100_000 });
    f.add(i);
    f.dispose();
  }
  assert.equal(rt.M.HEAPU8.length, before);
});

test('CommonJS entry: require() gives a working CuckooFilter with the same bytes', async () => {
  const require = createRequire(import.meta.url);
  const cjs = require('../js/index.cjs');
  assert.equal(typeof cjs.CuckooFilter, 'function');
  assert.equal(typeof cjs.ready, 'function');
  const a = await cjs.CuckooFilter.create({ capacity: 100, seed: 9 });
  const b = await CuckooFilter.create({ capacity: 100, seed: 9 });
  for (const k of ['x', 7, 2n ** 63n]) {
    a.add(k);
    b.add(k);
  }
  assert.deepEqual(a.serialize(), b.serialize());
  a.dispose();
  b.dispose();
});

test('filters never disposed are freed after garbage collection (FinalizationRegistry)', () => {
  const index = fileURLToPath(new URL('../js/index.js', import.meta.url));
  const runtime = fileURLToPath(new URL('../js/memory.js', import.meta.url));
  // 100 filters of ~1 MiB each, dropped without dispose(): without the registry the heap would grow by
  // ~100 MiB; with it, collected filters give their memory back and later ones reuse it.
  const script = `
    import { CuckooFilter } from ${JSON.stringify(index)};
    import { rt } from ${JSON.stringify(runtime)};
    await CuckooFilter.ready;
    const tick = () => new Promise((r) => setTimeout(r, 0));
    for (let i = 0; i < 100; i++) {
      new CuckooFilter({ capacity: 600_000 }).add(i);
      if (i % 5 === 4) { globalThis.gc(); await tick(); }
    }
    console.log(rt.M.HEAPU8.length);
  `;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const heapBytes = Number(r.stdout.trim());
  assert.ok(heapBytes < 40 * 2 ** 20, `heap grew to ${heapBytes} bytes`);
});
