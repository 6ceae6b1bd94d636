// js-tests/chunks.test.js: filter.chunks() / CuckooFilter.fromChunks() (js/chunks.js). The chunks are the
// ones C++ writes (testdata/chunks/, written by native-tests/chunks_test.cpp), rebuild the same filter for
// fixed and growing filters and any chunk size, and a missing, repeated, reordered, truncated or corrupt
// chunk is refused with C++'s message naming it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { CuckooFilter, FormatError } from '../js/index.node.js';

const testdata = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'testdata');

function split(joined, chunkBytes) {
  const out = [];
  for (let at = 0; at < joined.length;) {
    const n = new DataView(joined.buffer, joined.byteOffset + at).getUint32(12, true) + 40;
    assert.ok(n <= chunkBytes);
    out.push(joined.slice(at, at + n));
    at += n;
  }
  return out;
}

async function message(chunks) {
  try {
    (await CuckooFilter.fromChunks(chunks)).dispose();
    return '';
  } catch (error) {
    assert.ok(error instanceof FormatError, `${error}`);
    return error.message;
  }
}

test('chunks are the ones C++ writes', async () => {
  const bin = new Uint8Array(readFileSync(path.join(testdata, 'golden', 'b4_f12_u64.bin')));
  const f = await CuckooFilter.deserialize(bin);
  for (const size of [100, 1000]) {
    const golden = new Uint8Array(readFileSync(path.join(testdata, 'chunks', `b4_f12_u64.${size}.chunks`)));
    const chunks = [...f.chunks(size)];
    assert.deepEqual(chunks, split(golden, size), `chunk size ${size}`);
    const g = await CuckooFilter.fromChunks(chunks);
    assert.deepEqual(g.serialize(), bin);
    g.dispose();
  }
  f.dispose();
});

test('chunks of any size rebuild the same filter, fixed or growing, from arrays and async iterables', async () => {
  for (const options of [{ capacity: 3000, fpr: 0.01 }, { capacity: 500, semiSort: true, bucketSize: 4 }, { fpr: 0.01 }]) {
    const f = await CuckooFilter.create(options);
    for (let i = 0; i < 5000; i++) if (!f.add(`key-${i}`)) break;
    const bytes = f.serialize();
    for (const size of [41, 47, 100, 4096, bytes.length + 40, bytes.length + 1000]) {
      const chunks = [...f.chunks(size)];
      assert.equal(chunks.length, Math.ceil(bytes.length / (size - 40)));
      for (const c of chunks) assert.ok(c.length <= size);
      const g = await CuckooFilter.fromChunks(chunks);
      assert.deepEqual(g.serialize(), bytes);
      g.dispose();
      const h = await CuckooFilter.fromChunks(
        (async function* () {
          yield* chunks;
        })(),
      );
      assert.deepEqual(h.serialize(), bytes);
      h.dispose();
    }
    f.dispose();
  }
});

test('a bad chunk is refused naming it, with the message C++ gives', async () => {
  const f = await CuckooFilter.create({ fpr: 0.01 });
  for (let i = 0; i < 1500; i++) f.add(i);
  const chunks = [...f.chunks(200)];
  const n = chunks.length;
  assert.ok(n >= 6);
  const without = (k) => chunks.filter((_, i) => i !== k);
  assert.equal(await message(without(2)), 'cuckoo: chunk 2 is missing (chunk 3 arrived in its place)');
  assert.equal(await message(without(n - 1)), `cuckoo: chunk ${n - 1} is missing (got ${n - 1} of ${n} chunks)`);
  assert.equal(await message([]), 'cuckoo: no chunks');
  const repeated = [...chunks.slice(0, 3), chunks[2], ...chunks.slice(3)];
  assert.equal(await message(repeated), 'cuckoo: chunk 2: repeated or out of order (chunk 3 was expected next)');
  const swapped = [...chunks];
  [swapped[1], swapped[2]] = [swapped[2], swapped[1]];
  assert.equal(await message(swapped), 'cuckoo: chunk 1 is missing (chunk 2 arrived in its place)');
  for (let i = 0; i < chunks[3].length; i += 5) {
    const corrupt = chunks.map((c) => c.slice());
    corrupt[3][i] ^= 0x10;
    assert.match(await message(corrupt), /^cuckoo: chunk 3: /, `byte ${i}`);
  }
  const payload = chunks.map((c) => c.slice());
  payload[3][50] ^= 1;
  assert.equal(await message(payload), 'cuckoo: chunk 3: checksum mismatch: the chunk is corrupted');
  const short = [...chunks];
  short[3] = chunks[3].subarray(0, chunks[3].length - 1);
  assert.equal(await message(short), `cuckoo: chunk 3: truncated: its framing says ${chunks[3].length} bytes, got ${chunks[3].length - 1}`);
  short[3] = chunks[3].subarray(0, 10);
  assert.equal(await message(short), 'cuckoo: chunk 3: 10 bytes is shorter than the 40-byte chunk framing');
  const other = await CuckooFilter.create({ capacity: 200 });
  const foreign = [...chunks];
  foreign[1] = [...other.chunks(200)][1];
  assert.match(await message(foreign), /^cuckoo: chunk 1: from another filter or chunk size/);
  other.dispose();
  f.dispose();
});

test('chunks() checks its size and its filter', async () => {
  const f = await CuckooFilter.create({ capacity: 100 });
  assert.throws(() => f.chunks(40), RangeError);
  assert.throws(() => f.chunks('100'), RangeError);
  const it = f.chunks(41);
  it.next();
  f.dispose();
  assert.throws(() => it.next(), /after dispose/);
  assert.throws(() => f.chunks(100), /after dispose/);
  await assert.rejects(CuckooFilter.fromChunks('abc'), TypeError);
  await assert.rejects(CuckooFilter.fromChunks([[1, 2, 3]]), TypeError);
});
