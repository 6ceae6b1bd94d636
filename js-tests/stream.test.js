// js-tests/stream.test.js: filters moved in pieces (js/stream.js, js/files.node.js). filter.save(path) /
// CuckooFilter.load(path) round-trip in a temporary directory and save atomically; deserialize() reads
// ReadableStreams, Node Readables, fetch Responses and async iterables in pieces of any size; for bad
// bytes every one of them throws deserialize()'s FormatError; serialize() writes the golden files' bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CuckooFilter, FormatError } from '../js/index.node.js';
import { CuckooFilter as BrowserCuckooFilter } from '../js/index.js';

const goldenDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'testdata', 'golden');
const goldenFiles = readdirSync(goldenDir)
  .filter((f) => f.endsWith('.bin'))
  .sort();

function pieces(bytes, size) {
  const out = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.slice(at, at + size));
  return out;
}

function readableStream(bytes, size) {
  const list = pieces(bytes, size);
  return new ReadableStream({
    pull(controller) {
      if (list.length === 0) controller.close();
      else controller.enqueue(list.shift());
    },
  });
}

// The sources deserialize() reads, each yielding `bytes` in pieces of `size`.
const sources = {
  ReadableStream: (bytes, size) => readableStream(bytes, size),
  'Node Readable': (bytes, size) => Readable.from(pieces(bytes, size)),
  'fetch Response': (bytes, size) => new Response(readableStream(bytes, size)),
  'async iterable': (bytes, size) =>
    (async function* () {
      yield* pieces(bytes, size);
    })(),
};

// deserialize()'s outcome for bytes: the filter's bytes, or the error's class and message.
async function outcome(load) {
  try {
    const f = await load();
    const bytes = f.serialize();
    f.dispose();
    return { bytes: Buffer.from(bytes).toString('hex') };
  } catch (error) {
    return { error: error.constructor.name, message: error.message };
  }
}

async function filled(options, keys) {
  const f = await CuckooFilter.create(options);
  for (let i = 0; i < keys; i++) if (!f.add(i)) break;
  return f;
}

test('save and load round-trip fixed and growing filters through a file', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cuckoo-stream-'));
  try {
    for (const options of [
      { capacity: 20_000, fpr: 0.01 },
      { capacity: 5_000, bucketSize: 4, semiSort: true, fingerprintBits: 13 },
      { capacity: 3_000, bucketSize: 2, fingerprintBits: 5 },
      { capacity: 3_000, bucketSize: 8, fingerprintBits: 17 },
      { fpr: 0.001 }, // growing
      { capacity: 1_000, growable: true, semiSort: true, bucketSize: 4 },
    ]) {
      const f = await filled(options, 20_000);
      const file = path.join(dir, 'filter.cuckoo');
      await f.save(file);
      assert.deepEqual(readFileSync(file), Buffer.from(f.serialize()), JSON.stringify(options));
      const g = await CuckooFilter.load(file);
      assert.ok(g instanceof CuckooFilter);
      assert.equal(g.size, f.size);
      assert.equal(g.levels, f.levels);
      for (let i = 0; i < 20_000; i++) if (f.has(i)) assert.ok(g.has(i), `key ${i} lost`);
      f.dispose();
      g.dispose();
    }
    assert.deepEqual(readdirSync(dir), ['filter.cuckoo'], 'no temporary file is left behind');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('save replaces a file atomically, keeps its permissions, and leaves nothing behind on failure', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cuckoo-stream-'));
  try {
    const f = await filled({ capacity: 1000 }, 500);
    const file = path.join(dir, 'f.cuckoo');
    writeFileSync(file, 'old');
    chmodSync(file, 0o640);
    await f.save(file);
    assert.equal(statSync(file).mode & 0o777, 0o640);
    assert.deepEqual(readFileSync(file), Buffer.from(f.serialize()));

    // The rename fails (the target is a directory): the error is thrown and no temporary file remains.
    const target = path.join(dir, 'a-directory');
    mkdirSync(target);
    await assert.rejects(f.save(target), (e) => e.code === 'EISDIR' || e.code === 'ENOTEMPTY' || e.code === 'EEXIST');
    assert.deepEqual(readdirSync(dir).sort(), ['a-directory', 'f.cuckoo']);
    // The directory does not exist: nothing is created.
    await assert.rejects(f.save(path.join(dir, 'missing', 'f.cuckoo')), { code: 'ENOENT' });
    f.dispose();
    await assert.rejects(f.save(file), /after dispose/);
    assert.deepEqual(readFileSync(file).length > 0, true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('load refuses a bad file as deserialize refuses its bytes', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cuckoo-stream-'));
  try {
    const bytes = readFileSync(path.join(goldenDir, 'b4_f12_u64.bin'));
    const file = path.join(dir, 'bad.cuckoo');
    for (const bad of [bytes.subarray(0, 10), bytes.subarray(0, bytes.length - 1), Buffer.concat([bytes, Buffer.from([0])])]) {
      writeFileSync(file, bad);
      const expected = await outcome(() => CuckooFilter.deserialize(bad));
      assert.equal(expected.error, 'FormatError');
      assert.deepEqual(await outcome(() => CuckooFilter.load(file)), expected);
    }
    await assert.rejects(CuckooFilter.load(path.join(dir, 'missing')), { code: 'ENOENT' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('deserialize reads every kind of stream, in pieces of any size', async () => {
  for (const name of goldenFiles) {
    const bytes = new Uint8Array(readFileSync(path.join(goldenDir, name)));
    const expected = await outcome(() => CuckooFilter.deserialize(bytes));
    assert.ok(expected.bytes, name);
    for (const [kind, make] of Object.entries(sources)) {
      for (const size of [1, 3, 7, 64, 1000, bytes.length]) {
        assert.deepEqual(await outcome(() => CuckooFilter.deserialize(make(bytes, size))), expected, `${name}, ${kind}, ${size}`);
      }
    }
  }
});

test('a bad stream throws the FormatError deserialize throws for its bytes', async () => {
  const bytes = new Uint8Array(readFileSync(path.join(goldenDir, 'grow_b4_strings.bin')));
  const cases = [new Uint8Array(0), bytes.subarray(0, 63), bytes.subarray(0, 64), bytes.subarray(0, bytes.length - 1)];
  cases.push(new Uint8Array([...bytes, 1, 2, 3]));
  for (let bit = 0; bit < bytes.length * 8; bit += 13) {
    const b = bytes.slice();
    b[bit >> 3] ^= 1 << (bit & 7);
    cases.push(b);
  }
  for (const b of cases) {
    const expected = await outcome(() => CuckooFilter.deserialize(b));
    assert.equal(expected.error, 'FormatError');
    for (const [kind, make] of Object.entries(sources)) {
      assert.deepEqual(await outcome(() => CuckooFilter.deserialize(make(b, 5))), expected, kind);
    }
  }
  // Pieces that are not bytes.
  await assert.rejects(CuckooFilter.deserialize(Readable.from(['text'])), TypeError);
  await assert.rejects(CuckooFilter.deserialize(Readable.from([[1, 2]])), TypeError);
  // An error of the stream itself passes through.
  const failing = new ReadableStream({ pull: (c) => c.error(new Error('network down')) });
  await assert.rejects(CuckooFilter.deserialize(failing), /network down/);
  assert.ok(new FormatError('x') instanceof Error);
});

test('a filter larger than the pieces moved at once round-trips', async () => {
  // js/stream.js hands over at most 4 MiB at a time: a 12 MB table takes several pieces each way.
  const f = await CuckooFilter.create({ capacity: 6_000_000, fpr: 0.01 });
  f.addMany(Array.from({ length: 10_000 }, (_, i) => i * 7919));
  const bytes = f.serialize();
  const g = await CuckooFilter.deserialize(Readable.from(pieces(bytes, 1 << 16)));
  assert.equal(Buffer.compare(g.serialize(), bytes), 0);
  for (let i = 0; i < 10_000; i++) assert.ok(g.has(i * 7919));
  f.dispose();
  g.dispose();
});

test('a load counts the entries of tables of every fingerprint width, whatever the pieces', async () => {
  // The loader counts a table's entries as its pieces arrive and refuses a file whose item count differs:
  // any miscount, at any width or piece boundary, would refuse these valid filters.
  for (let bits = 4; bits <= 32; bits++) {
    for (const bucketSize of [2, 4]) {
      const f = await CuckooFilter.create({ capacity: 3_000, fingerprintBits: bits, bucketSize });
      f.addMany(Array.from({ length: 1_000 + bits * 40 }, (_, i) => `${bits}:${i}`));
      const bytes = f.serialize();
      for (const size of [37, 4099]) {
        const g = await CuckooFilter.deserialize(Readable.from(pieces(bytes, size)));
        assert.equal(g.size, f.size, `${bits} bits, buckets of ${bucketSize}, pieces of ${size}`);
        g.dispose();
      }
      f.dispose();
    }
  }
});

test('a new table is empty where it reuses the memory of a disposed one', async () => {
  // Node's module zeroes a new table only below the heap's old end (core/src/aligned_buffer.cpp): a table
  // in freed memory, wholly or in part, must still start empty. A load's checks see any stray entry.
  for (const [first, second] of [
    [200_000, 200_000],
    [200_000, 500_000],
  ]) {
    const f = await CuckooFilter.create({ capacity: first, fpr: 0.01 });
    f.addMany(Array.from({ length: first * 0.9 }, (_, i) => i));
    f.dispose();
    const g = await CuckooFilter.create({ capacity: second, fpr: 0.01 });
    assert.equal(g.size, 0);
    assert.equal(g.has(1), false);
    const h = await CuckooFilter.deserialize(g.serialize());
    assert.equal(h.size, 0);
    g.dispose();
    h.dispose();
  }
});

test('serialize writes the golden files byte for byte', async () => {
  for (const name of goldenFiles) {
    const bytes = new Uint8Array(readFileSync(path.join(goldenDir, name)));
    const f = await CuckooFilter.deserialize(bytes);
    assert.deepEqual(f.serialize(), bytes, name);
    f.dispose();
  }
});

test('the browser entry leaves out files and chunks, and reads a fetch Response whole', async () => {
  assert.equal(BrowserCuckooFilter.load, undefined);
  assert.equal(BrowserCuckooFilter.fromChunks, undefined);
  const f = await BrowserCuckooFilter.create({ capacity: 1000 });
  assert.equal(f.save, undefined);
  assert.equal(f.chunks, undefined);
  f.add('x');
  const bytes = f.serialize();
  const g = await BrowserCuckooFilter.deserialize(new Response(readableStream(bytes, 7)));
  assert.deepEqual(g.serialize(), bytes);
  for (const bad of [bytes.subarray(0, 70), new Uint8Array([...bytes, 0])]) {
    assert.deepEqual(await outcome(() => BrowserCuckooFilter.deserialize(new Response(bad))), await outcome(() => CuckooFilter.deserialize(new Response(bad))));
  }
  f.dispose();
  g.dispose();
});
