// js-tests/golden.test.js: cross-platform identity against the native golden files in testdata/golden/
// (written by tools/make_golden.cpp; format of the JSON sidecars in testdata/golden/README.md).
// For each file: WASM loads the native bytes and gets the recorded answers, re-serializes them byte for
// byte, and rebuilds the same filter from the sidecar's options and keys, one by one and in a batch, to
// exactly the native bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { CuckooFilter } from '../js/index.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'testdata', 'golden');
const sidecars = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).sort() : [];

// u64 keys are decimal strings in the sidecar (JSON numbers lose precision above 2^53).
function keysOf(meta, list) {
  return meta.intKeys ? list.map((k) => BigInt(k)) : list;
}

// The same u64 key as its 8 little-endian bytes.
function le64(k) {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, k, true);
  return bytes;
}

test('golden files are present', () => {
  assert.ok(sidecars.length > 0, `no *.json sidecars in ${dir}`);
});

for (const name of sidecars) {
  const meta = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
  const bytes = new Uint8Array(readFileSync(path.join(dir, meta.file)));
  const present = keysOf(meta, meta.present);
  const absent = keysOf(meta, meta.absent);

  test(`${meta.file}: loads with the recorded answers`, async () => {
    assert.equal(meta.formatVersion, 1);
    assert.equal(bytes.length, meta.fileBytes);
    const f = await CuckooFilter.deserialize(bytes);
    assert.equal(f.size, meta.size);
    assert.equal(f.isFull, meta.isFull);
    assert.equal(f.bucketCount, meta.options.bucketCount);
    assert.equal(f.bucketSize, meta.options.bucketSize);
    assert.equal(f.fingerprintBits, meta.options.fingerprintBits);
    assert.equal(f.semiSort, meta.options.semiSort);
    assert.equal(f.maxKicks, meta.options.maxKicks);
    assert.equal(f.seed, BigInt(meta.options.seed));
    for (const k of present) assert.equal(f.has(k), true, `present ${k}`);
    for (const k of absent) assert.equal(f.has(k), false, `absent ${k}`);
    assert.deepEqual([...f.hasMany(present)], present.map(() => 1));
    assert.deepEqual([...f.hasMany(absent)], absent.map(() => 0));
    if (meta.intKeys) {
      // The same keys as numbers (when exact) and as 8 little-endian bytes give the same answers.
      for (const k of present) {
        if (k <= BigInt(Number.MAX_SAFE_INTEGER)) assert.equal(f.has(Number(k)), true);
        assert.equal(f.has(le64(k)), true);
      }
    } else {
      // Strings hash as their UTF-8 bytes.
      const utf8 = new TextEncoder();
      for (const k of present) assert.equal(f.has(utf8.encode(k)), true);
    }
    f.dispose();
  });

  test(`${meta.file}: re-serializes byte for byte`, async () => {
    const f = await CuckooFilter.deserialize(bytes);
    assert.deepEqual(f.serialize(), bytes);
    f.dispose();
  });

  test(`${meta.file}: rebuilt in JS from the sidecar gives the native bytes`, async () => {
    const one = await CuckooFilter.create(meta.options);
    for (const k of present) assert.equal(one.add(k), true, `add ${k}`);
    assert.equal(one.size, meta.size);
    assert.equal(one.isFull, meta.isFull);
    assert.deepEqual(one.serialize(), bytes, 'add() one by one');
    one.dispose();

    const batch = await CuckooFilter.create(meta.options);
    assert.equal(batch.addAll(present), present.length);
    assert.deepEqual(batch.serialize(), bytes, 'addAll()');
    batch.dispose();

    if (meta.intKeys) {
      const asBytes = await CuckooFilter.create(meta.options);
      for (const k of present) asBytes.add(le64(k));
      assert.deepEqual(asBytes.serialize(), bytes, 'u64 keys as 8 little-endian bytes');
      asBytes.dispose();
    }
  });
}
