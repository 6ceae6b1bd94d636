// js-tests/golden.test.js: cross-platform identity against the golden files in testdata/golden/ (written
// by tools/make_golden.cpp, and js_grow_strings by js-tests/make_golden.mjs; format of the JSON sidecars in
// testdata/golden/README.md). For each file, fixed (format version 1) or growing (version 2): WASM loads
// the bytes and gets the recorded answers, re-serializes them byte for byte, and rebuilds the same filter
// from the sidecar's options and keys, one by one and in a batch, to exactly the same bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { CuckooFilter } from '../js/index.js';
import { makeGolden } from './make_golden.mjs';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'testdata', 'golden');
const sidecars = existsSync(dir)
  ? readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
  : [];

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
    const growable = meta.options.growable === true;
    assert.equal(meta.formatVersion, growable ? 2 : 1);
    assert.equal(bytes[4], meta.formatVersion);
    assert.equal(bytes.length, meta.fileBytes);
    const f = await CuckooFilter.deserialize(bytes);
    assert.equal(f.size, meta.size);
    assert.equal(f.isFull, meta.isFull);
    assert.equal(f.growable, growable);
    // The shape, as far as the options give it. A growing filter's bucketCount counts every level; the
    // option is its first level's.
    const o = meta.options;
    if (o.bucketCount !== undefined && !growable) assert.equal(f.bucketCount, o.bucketCount);
    if (o.bucketSize !== undefined) assert.equal(f.bucketSize, o.bucketSize);
    if (o.fingerprintBits !== undefined) assert.equal(f.fingerprintBits, o.fingerprintBits);
    if (o.semiSort !== undefined) assert.equal(f.semiSort, o.semiSort);
    if (o.maxKicks !== undefined) assert.equal(f.maxKicks, o.maxKicks);
    if (o.seed !== undefined) assert.equal(f.seed, BigInt(o.seed));
    assert.equal(f.maxMemoryBytes, o.maxMemoryBytes || Infinity); // 0: no limit
    if (meta.levels !== undefined) assert.equal(f.levels, meta.levels);
    for (const k of present) assert.equal(f.has(k), true, `present ${k}`);
    for (const k of absent) assert.equal(f.has(k), false, `absent ${k}`);
    assert.deepEqual(
      [...f.hasMany(present)],
      present.map(() => 1),
    );
    assert.deepEqual(
      [...f.hasMany(absent)],
      absent.map(() => 0),
    );
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

test('js_grow_strings is what js-tests/make_golden.mjs writes today', async () => {
  // Like the native generator's --check: the committed file is regenerated in memory and compared.
  const made = await makeGolden();
  for (const [name, content] of Object.entries(made)) {
    const file = path.join(dir, name);
    assert.ok(existsSync(file), `${name} is missing: run node js-tests/make_golden.mjs`);
    const committed = readFileSync(file);
    assert.ok(committed.equals(Buffer.from(content)), `${name} differs from what js-tests/make_golden.mjs writes now`);
  }
});
