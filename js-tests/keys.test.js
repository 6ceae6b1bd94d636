// js-tests/keys.test.js: every key type, and which keys are the same key (they hash the same bytes).
// Equality is checked on serialized bytes: two filters with the same options that received "the same key"
// must be byte-identical, which is far stronger than has() agreeing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CuckooFilter } from '../js/index.js';
import { rt } from '../js/memory.js'; // internals: to check that memory really grew

// Grows wasm memory (which replaces the views the key staging writes through) and checks that it did. A
// filter of memory/4 keys takes ~40% of the memory; freed space left by earlier tests may hold one or two.
// Returns the filters to dispose.
function growMemory() {
  const before = rt.heap.buffer.byteLength;
  const filters = [];
  while (rt.heap.buffer.byteLength === before && filters.length < 4) {
    filters.push(new CuckooFilter({ capacity: Math.ceil(before / 4) }));
  }
  assert.ok(rt.heap.buffer.byteLength > before, 'wasm memory grew');
  return filters;
}

const options = { capacity: 1000, seed: 11 };

// Serialized bytes of a fresh filter after add(key) for each key.
async function bytesAfter(...keys) {
  const f = await CuckooFilter.create(options);
  for (const k of keys) assert.equal(f.add(k), true);
  const bytes = f.serialize();
  f.dispose();
  return bytes;
}

function le64(big) {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, big, true);
  return b;
}

test('every key type can be added, found, counted and deleted', async () => {
  const f = await CuckooFilter.create({ capacity: 10_000 });
  const view = new Uint8Array([9, 9, 1, 2, 3, 9]).subarray(2, 5);
  const keys = [
    '',
    'a',
    'é',
    '🙂',
    '日本語',
    'x'.repeat(10_000), // longer than the scratch buffer
    'é'.repeat(5000), // long and non-ASCII
    new Uint8Array(0),
    new Uint8Array([1, 2, 3]),
    view,
    new Uint16Array([1, 2]),
    new DataView(new ArrayBuffer(4)),
    new ArrayBuffer(5),
    new Uint8Array(100_000).fill(7),
    0,
    1,
    2 ** 32,
    2 ** 53 - 1,
    0n,
    2n ** 63n,
    2n ** 64n - 1n,
  ];
  for (const k of keys) {
    assert.equal(f.add(k), true);
    assert.equal(f.has(k), true);
    assert.ok(f.count(k) >= 1);
  }
  assert.deepEqual(
    [...f.hasMany(keys)],
    keys.map(() => 1),
  );
  for (const k of keys) assert.equal(f.delete(k), true);
  f.dispose();
});

test('integers: number, bigint and 8 little-endian bytes are the same key', async () => {
  for (const n of [0, 1, 7, 255, 256, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 52 + 3, 2 ** 53 - 1]) {
    const big = BigInt(n);
    const expected = await bytesAfter(n);
    assert.deepEqual(await bytesAfter(big), expected, `${n} vs ${n}n`);
    assert.deepEqual(await bytesAfter(le64(big)), expected, `${n} vs its 8 LE bytes`);
  }
  for (const big of [2n ** 53n, 2n ** 63n, 2n ** 64n - 1n, 0x0123456789abcdefn]) {
    assert.deepEqual(await bytesAfter(big), await bytesAfter(le64(big)), `${big}n vs its 8 LE bytes`);
  }
  assert.notDeepEqual(await bytesAfter(7), await bytesAfter('7'), 'the number 7 is not the string "7"');
  assert.notDeepEqual(await bytesAfter(7), await bytesAfter(new Uint8Array([7])), '7 is 8 bytes, not 1');
  assert.deepEqual(await bytesAfter(-0), await bytesAfter(0), '-0 is 0');
});

test('strings hash as UTF-8: "é", emoji and CJK match their encoded bytes', async () => {
  const utf8 = new TextEncoder();
  for (const s of ['', 'abc', 'é', 'e\u0301', '🙂', '日本語', 'naïve café', '\u0000', '\u007f\u0080\u07ff\u0800\uffff']) {
    assert.deepEqual(await bytesAfter(s), await bytesAfter(utf8.encode(s)), JSON.stringify(s));
  }
  assert.deepEqual([...utf8.encode('é')], [0xc3, 0xa9]);
  assert.deepEqual(await bytesAfter('é'), await bytesAfter(new Uint8Array([0xc3, 0xa9])));
  assert.notDeepEqual(await bytesAfter('é'), await bytesAfter('e\u0301'), 'no Unicode normalization');
  assert.deepEqual(await bytesAfter(''), await bytesAfter(new Uint8Array(0)), 'empty string = empty bytes');
});

test('lone surrogates are encoded as U+FFFD, like TextEncoder', async () => {
  const replacement = await bytesAfter('\ufffd');
  assert.deepEqual(await bytesAfter('\ud800'), replacement);
  assert.deepEqual(await bytesAfter('\udfff'), replacement);
  assert.deepEqual(await bytesAfter('a\ud800b'), await bytesAfter('a\ufffdb'));
  assert.deepEqual(await bytesAfter('\ud83d\ude42'), await bytesAfter('🙂'), 'a valid pair is one code point');
});

test('binary keys: views respect byteOffset/byteLength; ArrayBuffer and any view are their bytes', async () => {
  const backing = new Uint8Array([0xaa, 1, 2, 3, 4, 0xbb]);
  const expected = await bytesAfter(new Uint8Array([1, 2, 3, 4]));
  assert.deepEqual(await bytesAfter(backing.subarray(1, 5)), expected);
  assert.deepEqual(await bytesAfter(new DataView(backing.buffer, 1, 4)), expected);
  assert.deepEqual(await bytesAfter(new Uint8Array([1, 2, 3, 4]).buffer), expected);
  assert.deepEqual(await bytesAfter(new Uint32Array(new Uint8Array([1, 2, 3, 4]).buffer)), expected);
  assert.deepEqual(await bytesAfter(new Uint8Array(backing.buffer, 1, 4)), expected);
  if (typeof Buffer === 'function') assert.deepEqual(await bytesAfter(Buffer.from([1, 2, 3, 4])), expected);
  assert.deepEqual(await bytesAfter(new Uint8Array([97, 98, 99])), await bytesAfter('abc'), 'bytes = string');
});

test('batches pack every key type like single calls', async () => {
  const keys = ['', 'é', '🙂', 'x'.repeat(300_000), new Uint8Array([1, 2]), 0, 2 ** 53 - 1, 2n ** 64n - 1n, new ArrayBuffer(3)];
  const one = await CuckooFilter.create(options);
  for (const k of keys) one.add(k);
  const many = await CuckooFilter.create(options);
  assert.equal(many.addAll(keys), keys.length);
  assert.deepEqual(many.serialize(), one.serialize());
  assert.deepEqual(
    [...many.hasMany(keys)],
    keys.map(() => 1),
  );
  one.dispose();
  many.dispose();
});

test('batches larger than one chunk (16384 keys, 256 KiB) agree with single calls', async () => {
  const keys = Array.from({ length: 40_000 }, (_, i) => (i % 2 ? `key-${i}-${'y'.repeat(i % 40)}` : i * 3));
  const one = await CuckooFilter.create({ capacity: 50_000, seed: 5 });
  for (const k of keys) one.add(k);
  const many = await CuckooFilter.create({ capacity: 50_000, seed: 5 });
  assert.equal(many.addAll(keys), keys.length);
  assert.deepEqual(many.serialize(), one.serialize());
  const probe = [...keys, ...keys.map((k) => `absent-${k}`)];
  const got = many.hasMany(probe);
  probe.forEach((k, i) => assert.equal(got[i], one.has(k) ? 1 : 0));
  one.dispose();
  many.dispose();
});

test('mixed key types in one hot loop (V8 11.3 JS-to-Wasm inlining crash regression)', async () => {
  // Before the megamorphic call site in js/runtime.js, this loop segfaulted Node 20 once optimized.
  const f = await CuckooFilter.create({ capacity: 100_000, seed: 3 });
  const keys = [];
  for (let i = 0; i < 50_000; i++) keys.push(i % 3 === 0 ? `key-${i}` : i % 3 === 1 ? i : new Uint8Array([i & 255, i >> 8, 1]));
  for (let round = 0; round < 3; round++) {
    for (const k of keys) f.add(k);
    for (const k of keys) assert.equal(f.has(k), true);
    for (const k of keys) f.delete(k);
  }
  assert.equal(f.size, 0);
  f.dispose();
});

test('memory growth between calls does not lose key bytes', async () => {
  const f = await CuckooFilter.create({ capacity: 1000 });
  f.add('before-growth');
  const grown = growMemory();
  assert.equal(f.has('before-growth'), true);
  assert.equal(f.add('after-growth'), true);
  assert.equal(f.has('after-growth'), true);
  for (const g of grown) g.dispose();
  f.dispose();
});

// Strings up to 16 characters (24 in batches) are copied by a loop, longer or non-ASCII ones by
// TextEncoder.encodeInto (js/keys.js): every length on both sides of those switches, single and batched,
// must hash exactly the string's UTF-8 bytes.
test('strings of every length, ASCII or not, hash as their UTF-8 bytes, single and batched', async () => {
  const utf8 = new TextEncoder();
  const flat = (s) => JSON.parse(JSON.stringify(s)); // a flat string, where concatenation makes a rope
  const strings = [];
  for (let n = 0; n <= 70; n++) {
    const ascii = Array.from({ length: n }, (_, i) => String.fromCharCode(33 + ((i * 7 + n) % 90))).join('');
    strings.push(ascii, flat(ascii));
    if (n > 0) {
      strings.push('é' + ascii.slice(1), ascii.slice(1) + '\u0800', ascii.slice(1) + '\ud800');
      strings.push(ascii.slice(0, n - 1) + '\u007f', ascii.slice(0, n - 1) + '\u0080');
    }
  }
  const single = await CuckooFilter.create({ capacity: 2 * strings.length, seed: 9 });
  const bytes = await CuckooFilter.create({ capacity: 2 * strings.length, seed: 9 });
  const batched = await CuckooFilter.create({ capacity: 2 * strings.length, seed: 9 });
  for (const s of strings) {
    assert.equal(single.add(s), true);
    assert.equal(bytes.add(utf8.encode(s)), true);
    assert.equal(single.count(s), bytes.count(utf8.encode(s)), JSON.stringify(s));
  }
  assert.equal(batched.addAll(strings), strings.length);
  assert.deepEqual(single.serialize(), bytes.serialize());
  assert.deepEqual(batched.serialize(), bytes.serialize());
  assert.deepEqual(
    [...batched.hasMany(strings.map((s) => utf8.encode(s)))],
    strings.map(() => 1),
  );
  for (const f of [single, bytes, batched]) f.dispose();
});

test('memory growth between calls: long strings and bigints still hash their own bytes', async () => {
  const utf8 = new TextEncoder();
  const long = `https://example.com/${'path/'.repeat(12)}?q=${'é'.repeat(3)}`;
  const bigKey = 0xfedcba9876543210n;
  const f = await CuckooFilter.create({ capacity: 1000, seed: 4 });
  const g = await CuckooFilter.create({ capacity: 1000, seed: 4 });
  assert.equal(f.add(long), true);
  assert.equal(f.add(bigKey), true);
  const grown = growMemory();
  assert.equal(f.has(long), true);
  assert.equal(f.has(bigKey), true);
  assert.equal(f.add(`${long}!`), true);
  assert.equal(f.add(bigKey + 1n), true);
  for (const k of [long, le64(bigKey), `${long}!`, le64(bigKey + 1n)]) g.add(typeof k === 'string' ? utf8.encode(k) : k);
  assert.deepEqual(f.serialize(), g.serialize());
  for (const x of [...grown, f, g]) x.dispose();
});
