// js-tests/flavours.test.js: the two builds of the module agree. ES module imports (browsers, bundlers,
// and js/index.js here) run the small "web" module; Node's entries (js/index.cjs) the fast "node" one
// (wasm/CMakeLists.txt). Across bucket sizes, fingerprint widths (every width 4..32 at b = 4, the common
// ones at b = 2 and 8, semi-sorted ones) and seeds, both must return the same answer for every add, has,
// count and delete, write the same bytes, report the same properties, and reject bad options and bad bytes
// with the same error and message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as web from '../js/index.js';

const node = createRequire(import.meta.url)('../js/index.cjs');

function keysFor(seed, n) {
  const keys = [];
  for (let i = 0; i < n; i++) {
    const k = (seed * 7919 + i * 104729) % 1_000_003;
    keys.push(i % 3 === 0 ? `k${k}` : i % 3 === 1 ? k : Uint8Array.of(k & 255, (k >> 8) & 255, i & 255));
  }
  return keys;
}

function exercise(CuckooFilter, options, keys) {
  const f = new CuckooFilter(options);
  const seen = { adds: keys.map((k) => f.add(k)) };
  seen.has = keys.map((k) => f.has(k));
  seen.absent = keysFor(99, 500).map((k) => f.has(typeof k === 'string' ? `${k}x` : k));
  seen.count = keys.slice(0, 200).map((k) => f.count(k));
  seen.deletes = keys.filter((_, i) => i % 5 === 0).map((k) => f.delete(k));
  seen.hasMany = Array.from(f.hasMany(keys));
  seen.props = [
    f.size,
    f.capacity,
    f.loadFactor,
    f.bitsPerItem,
    f.byteLength,
    f.bucketCount,
    f.bucketSize,
    f.fingerprintBits,
    f.semiSort,
    f.maxKicks,
    String(f.seed),
    f.fprBound,
    f.isFull,
  ];
  seen.bytes = Buffer.from(f.serialize()).toString('base64');
  f.dispose();
  return seen;
}

function shapes() {
  const list = [];
  for (let f = 4; f <= 32; f++) list.push({ bucketSize: 4, fingerprintBits: f });
  for (const f of [4, 8, 12, 16, 32, 9, 13]) list.push({ bucketSize: 2, fingerprintBits: f }, { bucketSize: 8, fingerprintBits: f });
  for (const f of [5, 9, 13, 17, 20]) list.push({ bucketSize: 4, fingerprintBits: f, semiSort: true });
  list.push({ fpr: 0.01 }, { fpr: 0.001, bucketSize: 2 }, { fpr: 1e-6, bucketSize: 8 });
  return list;
}

test('the web and node modules give the same answers, properties and bytes for every shape', async () => {
  await Promise.all([web.CuckooFilter.ready, node.CuckooFilter.ready]);
  shapes().forEach((shape, i) => {
    // Small tables filled past their load, so that kicks, the victim and full filters are exercised too.
    const options = { capacity: 600, seed: (BigInt(i) * 0x9e3779b97f4a7c15n) % 2n ** 64n, maxKicks: 50, ...shape };
    const keys = keysFor(i, 900);
    assert.deepEqual(exercise(web.CuckooFilter, options, keys), exercise(node.CuckooFilter, options, keys), JSON.stringify(shape));
  });
});

function failure(make) {
  try {
    make().dispose();
    return null;
  } catch (e) {
    return `${e.constructor.name}: ${e.message}`;
  }
}

test('the web and node modules reject bad options and bad bytes with the same errors', async () => {
  await Promise.all([web.CuckooFilter.ready, node.CuckooFilter.ready]);
  const badOptions = [
    { capacity: 100, fpr: 1e-12 },
    { capacity: 100, targetLoad: 1.0000001 },
    { capacity: 100, targetLoad: 5e-324 },
    { capacity: 2 ** 53, targetLoad: 0.001 },
    { capacity: 2n ** 64n - 1n },
    { capacity: 100, fingerprintBits: 12, fpr: 0.01 },
    { capacity: 100, semiSort: true, bucketSize: 8 },
    { capacity: 100, maxKicks: 2 ** 21 },
    { capacity: 100, fpr: 0 },
    { capacity: 100, fpr: NaN },
    { capacity: 0, growable: true },
    { capacity: 100, bucketSize: 3 },
    { capacity: 100, fingerprintBits: 3 },
    { bucketCount: 0 },
    { bucketCount: 2n ** 33n, fingerprintBits: 12 },
  ];
  for (const options of badOptions) {
    const expected = failure(() => new node.CuckooFilter(options));
    assert.notEqual(
      expected,
      null,
      JSON.stringify(options, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)),
    );
    assert.equal(
      failure(() => new web.CuckooFilter(options)),
      expected,
    );
  }
  const good = new node.CuckooFilter({ capacity: 1000, seed: 5n });
  good.addAll(keysFor(1, 500));
  const bytes = good.serialize();
  good.dispose();
  const badBytes = [bytes.slice(0, 10), bytes.slice(0, bytes.length - 1), Uint8Array.of(...bytes, 0)];
  for (let i = 0; i < 64; i++) {
    const flipped = bytes.slice();
    flipped[(i * 37) % bytes.length] ^= 1 << (i % 8);
    badBytes.push(flipped);
  }
  for (const b of badBytes) {
    const expected = failure(() => node.CuckooFilter.deserializeSync(b));
    assert.equal(
      failure(() => web.CuckooFilter.deserializeSync(b)),
      expected,
    );
  }
});
