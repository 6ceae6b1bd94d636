// js-tests/stress.test.js: random operations against a JS Map model (a multiset of keys).
//
// Invariants checked after every operation, for every key the model holds:
//   has(k) is true and count(k) >= the model's count (no false negatives, ever);
//   add() of a key returns true while the filter is not full; delete() of a held key returns true;
//   size equals the model's total.
// A seeded PRNG makes failures reproducible: the seed is in the test name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CuckooFilter } from '../js/index.js';
import { rng } from './rng.js';

// A key pool mixing every key type; equal keys (same bytes) appear only once.
function makePool(random, n) {
  const pool = [];
  for (let i = 0; i < n; i++) {
    switch (i % 5) {
      case 0:
        pool.push(`user:${i}:${Math.floor(random() * 1e9)}`);
        break;
      case 1:
        pool.push(i * 104729 + 2 ** 40);
        break;
      case 2:
        pool.push((BigInt(i) * 0x9e3779b97f4a7c15n) % 2n ** 64n);
        break;
      case 3:
        pool.push(new TextEncoder().encode(`bytes-${i}`));
        break;
      default:
        pool.push(`é-${i}-🙂`);
    }
  }
  return pool;
}

const kOps = 1_000_000;
const kSeed = 20240601;

test(`${kOps} random operations against a Map model, zero false negatives (seed ${kSeed})`, async () => {
  const random = rng(kSeed);
  const pool = makePool(random, 50_000);
  // Room for the whole pool twice over: add() must never fail here.
  const f = await CuckooFilter.create({ capacity: 120_000, seed: kSeed });
  const model = new Map(); // pool index -> copies
  const held = []; // pool indices with copies > 0 (may hold stale entries; checked on use)
  let total = 0;
  let checks = 0;
  let performed = 0; // iterations that skip (a key at 2 copies, nothing to delete) do not count

  for (let op = 0; performed < kOps; op++) {
    performed++;
    const r = random();
    if (r < 0.4) {
      // add: up to 2 copies per key, so a key never needs more than its two buckets can hold
      const i = Math.floor(random() * pool.length);
      const copies = model.get(i) ?? 0;
      if (copies >= 2) {
        performed--;
        continue;
      }
      assert.equal(f.add(pool[i]), true, `op ${op}: add`);
      model.set(i, copies + 1);
      if (copies === 0) held.push(i);
      total++;
    } else if (r < 0.6) {
      // delete a held key (deleting keys never added may remove a colliding fingerprint: not allowed)
      if (held.length === 0) {
        performed--;
        continue;
      }
      const slot = Math.floor(random() * held.length);
      const i = held[slot];
      const copies = model.get(i) ?? 0;
      if (copies === 0) {
        held[slot] = held[held.length - 1];
        held.pop();
        performed--;
        continue;
      }
      assert.equal(f.delete(pool[i]), true, `op ${op}: delete`);
      if (copies === 1) {
        model.delete(i);
        held[slot] = held[held.length - 1];
        held.pop();
      } else {
        model.set(i, copies - 1);
      }
      total--;
    } else if (r < 0.95) {
      // lookup of any pool key: a held key must be found
      const i = Math.floor(random() * pool.length);
      const copies = model.get(i) ?? 0;
      if (copies > 0) {
        assert.equal(f.has(pool[i]), true, `op ${op}: false negative`);
        checks++;
      } else {
        f.has(pool[i]); // may be a false positive: allowed
      }
    } else {
      const i = Math.floor(random() * pool.length);
      const copies = model.get(i) ?? 0;
      assert.ok(f.count(pool[i]) >= copies, `op ${op}: count`);
    }
    if ((op & 0xffff) === 0) assert.equal(f.size, total, `op ${op}: size`);
  }

  // Final sweep: every held key, one by one and in a batch; then a serialize round trip.
  const heldKeys = [...model.keys()].map((i) => pool[i]);
  for (const [i, copies] of model) assert.ok(f.count(pool[i]) >= copies);
  assert.ok(
    f.hasMany(heldKeys).every((x) => x === 1),
    'batch: no false negatives',
  );
  assert.equal(f.size, total);
  const g = CuckooFilter.deserializeSync(f.serialize());
  assert.ok(
    g.hasMany(heldKeys).every((x) => x === 1),
    'after a round trip',
  );
  assert.ok(checks > 100_000);
  f.dispose();
  g.dispose();
});

test('filling to failure, then churning at the edge: a failed add never loses a stored key', async () => {
  const random = rng(kSeed + 1);
  const pool = makePool(random, 6000);
  const f = await CuckooFilter.create({ bucketCount: 512, bucketSize: 4, fingerprintBits: 12, maxKicks: 100, seed: 3 });
  const stored = new Map(); // pool index -> copies
  let fails = 0;
  for (let op = 0; op < 200_000; op++) {
    const i = Math.floor(random() * pool.length);
    if (random() < 0.6) {
      if ((stored.get(i) ?? 0) >= 2) continue;
      if (f.add(pool[i])) stored.set(i, (stored.get(i) ?? 0) + 1);
      else fails++;
    } else if (stored.has(i)) {
      assert.equal(f.delete(pool[i]), true);
      const c = stored.get(i) - 1;
      if (c === 0) stored.delete(i);
      else stored.set(i, c);
    }
    if ((op & 1023) === 0) {
      for (const j of stored.keys()) assert.equal(f.has(pool[j]), true, `op ${op}: lost key ${j}`);
    }
  }
  assert.ok(fails > 0, 'the filter was driven to full');
  for (const j of stored.keys()) assert.equal(f.has(pool[j]), true);
  f.dispose();
});
