// js-tests/reader.test.js: the read-only entry (`cuckoo-wasm/reader`, js/reader.js) gives CuckooFilter's
// answers, properties and errors for the same bytes: the golden files (format versions 1 and 2), random
// filters of every shape written by both builds (the web flavour behind `import`, the node flavour behind
// `require`), and bad bytes (truncated, trailing, mutated with and without a repaired checksum).
// Filter counts scale with CUCKOO_TEST_SCALE.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { CuckooFilter } from '../js/index.js';
import { CuckooReader, FormatError } from '../js/reader.js';
import { rd, alloc, release } from '../js/reader_runtime.js';
import { rng } from './rng.js';

const require = createRequire(import.meta.url);
const nodeBuild = require('../js/index.cjs');
const readerCjs = require('../js/reader.cjs');
const scale = Number(process.env.CUCKOO_TEST_SCALE ?? 1);
const golden = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'testdata', 'golden');

const kProperties = [
  'size',
  'slotCount',
  'loadFactor',
  'bitsPerItem',
  'byteLength',
  'isFull',
  'bucketCount',
  'bucketSize',
  'fingerprintBits',
  'semiSort',
  'maxKicks',
  'seed',
  'growable',
  'maxMemoryBytes',
  'levels',
  'fprBound',
];

// Keys of every kind, most of them never inserted anywhere.
function probeKeys(rand, n) {
  const keys = [];
  for (let i = 0; i < n; i++) {
    const r = Math.floor(rand() * 2 ** 32);
    switch (i % 6) {
      case 0:
        keys.push(`k-${i}`);
        break;
      case 1:
        keys.push(r);
        break;
      case 2:
        keys.push(BigInt(r) * 4294967311n + 7n);
        break;
      case 3:
        keys.push(new Uint8Array([r & 255, (r >> 8) & 255, i & 255]));
        break;
      case 4:
        keys.push(`ü-${r}-${'x'.repeat(i % 300)}`);
        break;
      default:
        keys.push(2 ** 53 - 1 - i);
    }
  }
  return keys;
}

function assertSame(full, reader, keys, what) {
  for (const name of kProperties) assert.equal(reader[name], full[name], `${what}: ${name}`);
  for (const k of keys) {
    assert.equal(reader.has(k), full.has(k), `${what}: has(${String(k)})`);
    assert.equal(reader.count(k), full.count(k), `${what}: count(${String(k)})`);
  }
  assert.deepEqual(reader.hasMany(keys), full.hasMany(keys), `${what}: hasMany`);
}

test('the golden files: the same answers and properties as CuckooFilter', async () => {
  const files = readdirSync(golden)
    .filter((f) => f.endsWith('.json'))
    .sort();
  assert.ok(files.length > 0);
  for (const name of files) {
    const meta = JSON.parse(readFileSync(path.join(golden, name), 'utf8'));
    const bytes = new Uint8Array(readFileSync(path.join(golden, meta.file)));
    const toKey = (k) => (meta.intKeys ? BigInt(k) : k);
    const full = await CuckooFilter.deserialize(bytes);
    const reader = await CuckooReader.deserialize(bytes);
    for (const k of meta.present) assert.equal(reader.has(toKey(k)), true, `${meta.file}: present ${k}`);
    for (const k of meta.absent) assert.equal(reader.has(toKey(k)), false, `${meta.file}: absent ${k}`);
    const keys = [...meta.present, ...meta.absent].map(toKey).concat(probeKeys(rng(name.length), 400));
    assertSame(full, reader, keys, meta.file);
    assert.deepEqual(reader.serialize(), bytes);
    full.dispose();
    reader.dispose();
  }
});

// Shapes: every bucket size and fingerprint width, semi-sorted, fixed and growing.
function shapes(rand) {
  const out = [];
  for (const bucketSize of [2, 4, 8]) {
    for (let fingerprintBits = 4; fingerprintBits <= 32; fingerprintBits++) {
      out.push({ bucketSize, fingerprintBits, capacity: 50 + Math.floor(rand() * 400) });
      if (fingerprintBits <= 28) out.push({ bucketSize, fingerprintBits, capacity: 16 + Math.floor(rand() * 40), growable: true });
    }
  }
  for (let fingerprintBits = 4; fingerprintBits <= 32; fingerprintBits++) {
    out.push({ bucketSize: 4, fingerprintBits, semiSort: true, capacity: 50 + Math.floor(rand() * 400) });
    if (fingerprintBits <= 28) {
      out.push({ bucketSize: 4, fingerprintBits, semiSort: true, capacity: 16 + Math.floor(rand() * 40), growable: true });
    }
  }
  return out;
}

for (const [build, lib] of [
  ['web flavour (import)', { CuckooFilter }],
  ['node flavour (require)', nodeBuild],
]) {
  test(`random filters of every shape from the ${build}: the same answers, properties and bytes`, async () => {
    await lib.CuckooFilter.ready;
    const rand = rng(build.length);
    for (let round = 0; round < scale; round++) {
      for (const options of shapes(rand)) {
        const seed = Math.floor(rand() * 1000);
        const writer = await lib.CuckooFilter.create({ ...options, seed });
        // Fill fixed filters to the brim now and then, so that victims get parked; growing ones to a few levels.
        const target = options.growable ? options.capacity * (4 + Math.floor(rand() * 30)) : options.capacity * (rand() < 0.3 ? 3 : 1);
        for (let i = 0; i < target; i++) writer.add(i % 5 === 0 ? i : `key-${seed}-${i}`);
        if (rand() < 0.3) for (let i = 0; i < target; i += 3) writer.delete(i % 5 === 0 ? i : `key-${seed}-${i}`);
        const bytes = writer.serialize();
        const full = CuckooFilter.deserializeSync(bytes);
        const reader = CuckooReader.deserializeSync(bytes);
        const inserted = [];
        for (let i = 0; i < Math.min(target, 300); i++) inserted.push(i % 5 === 0 ? i : `key-${seed}-${i}`);
        assertSame(full, reader, inserted.concat(probeKeys(rand, 300)), `${JSON.stringify(options)} seed ${seed}`);
        writer.dispose();
        full.dispose();
        reader.dispose();
      }
    }
  });
}

// XXH3 of bytes[0, n), through the read-only module: repairs the checksum of mutated bytes.
function checksum(bytes, n) {
  const p = alloc(n);
  rd.heap.set(bytes.subarray(0, n), p);
  const sum = rd.M.reader_checksum(p, n);
  release(p, n);
  return sum;
}

function repairChecksum(bytes) {
  const n = bytes.length - 8;
  if (n < 56) return;
  new DataView(bytes.buffer, bytes.byteOffset).setBigInt64(n, checksum(bytes, n), true);
}

function outcome(load, bytes) {
  try {
    const f = load(bytes);
    return { f };
  } catch (error) {
    return { error };
  }
}

// bytes as an async iterable of pieces of random sizes (some empty).
function piecesOf(bytes, rand) {
  const pieces = [];
  for (let at = 0; at < bytes.length;) {
    const n = Math.min(bytes.length - at, Math.floor(rand() * 80) * (rand() < 0.1 ? 0 : 1) + (rand() < 0.2 ? 1000 : 0));
    pieces.push(bytes.slice(at, at + n));
    at += n;
  }
  return (async function* () {
    yield* pieces;
  })();
}

async function streamOutcome(bytes, rand, C = CuckooReader) {
  try {
    return { f: await C.deserialize(piecesOf(bytes, rand)) };
  } catch (error) {
    return { error };
  }
}

test('bad bytes: the same errors as CuckooFilter.deserialize, and the same answers when they load', async () => {
  await CuckooFilter.ready;
  await CuckooReader.ready;
  const rand = rng(99);
  const bases = [];
  for (const options of [
    { capacity: 100, fingerprintBits: 12 },
    { capacity: 60, bucketSize: 2, fingerprintBits: 5 },
    { capacity: 40, bucketSize: 8, fingerprintBits: 29 },
    { capacity: 100, semiSort: true, fingerprintBits: 9 },
    { capacity: 100, semiSort: true, fingerprintBits: 17 },
    { capacity: 8, growable: true, fingerprintBits: 6 },
    { capacity: 8, growable: true, semiSort: true, fingerprintBits: 7, maxMemoryBytes: 4096 },
    { capacity: 8, growable: true, bucketSize: 2, fingerprintBits: 12 },
  ]) {
    const f = await CuckooFilter.create(options);
    const n = options.growable ? 200 : options.capacity * 3; // fixed: full, with a victim
    for (let i = 0; i < n; i++) f.add(`b-${i}`);
    bases.push(f.serialize());
    f.dispose();
  }
  const keys = probeKeys(rand, 60);
  let loaded = 0;
  let refused = 0;
  for (let round = 0; round < 400 * scale; round++) {
    const base = bases[round % bases.length];
    let bytes;
    const kind = Math.floor(rand() * 4);
    if (kind === 0) {
      bytes = base.slice(0, Math.floor(rand() * base.length));
    } else if (kind === 1) {
      bytes = new Uint8Array(base.length + 1 + Math.floor(rand() * 9));
      bytes.set(base);
    } else {
      bytes = base.slice();
      // Header fields most of the time (where the checks are), the tables otherwise.
      const header = rand() < 0.6;
      for (let m = 1 + Math.floor(rand() * 3); m-- > 0;) {
        const at = header ? Math.floor(rand() * Math.min(bytes.length, 56 + 32)) : Math.floor(rand() * bytes.length);
        bytes[at] = rand() < 0.5 ? bytes[at] ^ (1 << Math.floor(rand() * 8)) : Math.floor(rand() * 256);
      }
      if (kind === 3) repairChecksum(bytes);
    }
    const full = outcome((b) => CuckooFilter.deserializeSync(b), bytes);
    const reader = outcome((b) => CuckooReader.deserializeSync(b), bytes);
    // The same bytes as a stream of pieces: the same outcome as in one piece.
    const streamed = await streamOutcome(bytes, rand);
    assert.equal(streamed.error?.message, reader.error?.message, `round ${round}: streamed`);
    assert.equal(streamed.error?.constructor, reader.error?.constructor, `round ${round}: streamed`);
    // And what Node's CuckooFilter.deserialize makes of the same stream (its own streaming loader).
    const nodeStreamed = await streamOutcome(bytes, rand, nodeBuild.CuckooFilter);
    assert.equal(nodeStreamed.error?.message, streamed.error?.message, `round ${round}: Node's streamed deserialize`);
    nodeStreamed.f?.dispose();
    if (streamed.f) {
      assertSame(reader.f, streamed.f, keys.slice(0, 10), `round ${round}: streamed`);
      streamed.f.dispose();
    }
    if (full.error) {
      assert.ok(reader.error, `round ${round}: CuckooFilter refused (${full.error.message}), the reader loaded`);
      assert.equal(reader.error.constructor.name, full.error.constructor.name, `round ${round}: ${full.error.message}`);
      assert.equal(reader.error.message, full.error.message, `round ${round}`);
      if (full.error instanceof FormatError) assert.ok(reader.error instanceof FormatError);
      refused++;
    } else {
      assert.ok(!reader.error, `round ${round}: the reader refused (${reader.error?.message}), CuckooFilter loaded`);
      assertSame(full.f, reader.f, keys, `round ${round}`);
      full.f.dispose();
      reader.f.dispose();
      loaded++;
    }
  }
  assert.ok(refused > 100 * scale && loaded > 10 * scale, `refused ${refused}, loaded ${loaded}`);
});

test('errors: not bytes, disposed readers, bad keys, and the CommonJS entry', async () => {
  assert.throws(() => CuckooReader.deserializeSync({}), TypeError);
  assert.throws(() => new CuckooReader(), TypeError);
  await assert.rejects(
    CuckooReader.deserialize(new Uint8Array(10)),
    (e) => e instanceof FormatError && e instanceof Error && e.message === 'cuckoo: truncated input: 10 bytes is shorter than the 64-byte header and checksum',
  );
  const f = await CuckooFilter.create({ capacity: 100 });
  f.add('a');
  const reader = await CuckooReader.deserialize(f.serialize());
  assert.throws(() => reader.has(1.5), /must be an integer/);
  assert.throws(() => reader.hasMany(['a', null]), /\(the key at index 1\)/);
  assert.throws(() => reader.hasMany('ab'), /not a string/);
  assert.deepEqual(reader.hasMany(new Set(['a'])), new Uint8Array([1]));
  assert.equal(reader.has('x'.repeat(3 << 20)), f.has('x'.repeat(3 << 20))); // a key longer than the kept scratch buffer
  const summary = JSON.parse(JSON.stringify(reader));
  const { CuckooFilter: note, ...shape } = JSON.parse(JSON.stringify(f));
  assert.deepEqual(summary, { CuckooReader: note, ...shape });
  assert.throws(() => CuckooReader.deserializeSync(summary), /got the JSON summary of a filter/);
  assert.throws(() => CuckooReader.deserializeSync(JSON.parse(JSON.stringify(f))), /got the JSON summary of a filter/);
  reader.dispose();
  reader.dispose();
  assert.equal(reader.disposed, true);
  assert.deepEqual(JSON.parse(JSON.stringify(reader)), { CuckooReader: summary.CuckooReader, disposed: true });
  assert.throws(() => reader.has('a'), /CuckooReader.has\(\) called after dispose\(\)/);
  assert.throws(() => reader.size, /CuckooReader.size read after dispose\(\)/);
  const cjs = await readerCjs.CuckooReader.deserialize(f.serialize());
  assert.equal(cjs.has('a'), true);
  assert.throws(
    () => readerCjs.CuckooReader.deserializeSync(new Uint8Array(64)),
    (e) => e instanceof readerCjs.FormatError,
  );
  cjs.dispose();
  f.dispose();
});

test('memory: disposed readers give their memory back', async () => {
  const f = await CuckooFilter.create({ capacity: 200_000 });
  const bytes = f.serialize();
  f.dispose();
  const first = await CuckooReader.deserialize(bytes);
  first.dispose();
  const before = rd.M.memory.buffer.byteLength;
  for (let i = 0; i < 50; i++) {
    const a = CuckooReader.deserializeSync(bytes);
    const b = CuckooReader.deserializeSync(bytes);
    a.dispose();
    b.dispose();
  }
  assert.ok(rd.M.memory.buffer.byteLength <= before + bytes.length + 65536, 'memory grew across load/dispose cycles');
});

test('streams: a Response, its body, a ReadableStream, a Node Readable and async iterables load as bytes do', async () => {
  const f = await CuckooFilter.create({ fpr: 0.001 });
  for (let i = 0; i < 20_000; i++) f.add(`s-${i}`);
  const bytes = f.serialize();
  const keys = probeKeys(rng(5), 200).concat(['s-1', 's-19999']);
  const rand = rng(11);
  const sources = [
    ['Response', () => new Response(bytes)],
    ['Response body', () => new Response(bytes).body],
    [
      'ReadableStream of small pieces',
      () =>
        new ReadableStream({
          start(controller) {
            for (let at = 0; at < bytes.length; at += 777) controller.enqueue(bytes.slice(at, at + 777));
            controller.close();
          },
        }),
    ],
    ['Node Readable', () => Readable.from([bytes.slice(0, 10), bytes.slice(10, 70), bytes.slice(70)])],
    ['async iterable of random pieces', () => piecesOf(bytes, rand)],
  ];
  for (const [what, source] of sources) {
    const reader = await CuckooReader.deserialize(source());
    assertSame(f, reader, keys, what);
    assert.deepEqual(reader.serialize(), bytes, what);
    reader.dispose();
  }
  await assert.rejects(CuckooReader.deserialize(Readable.from(['text'])), /read a string from the stream/);
  await assert.rejects(CuckooReader.deserialize(Readable.from([[1, 2, 3]])), /a stream of Uint8Array pieces/);
  await assert.rejects(CuckooReader.deserialize(new Response(bytes.slice(0, 100))), /^FormatError: cuckoo: truncated input: expected \d+ bytes, got 100$/);
  const longer = new Uint8Array(bytes.length + 5);
  longer.set(bytes);
  await assert.rejects(
    CuckooReader.deserialize(new Response(longer)),
    (e) => e.message === `cuckoo: trailing bytes: expected ${bytes.length} bytes, got ${bytes.length + 5}`,
  );
  await assert.rejects(CuckooReader.deserialize(new Response(new Uint8Array(0))), /0 bytes is shorter than the 64-byte header/);
  // A source that fails midway: its error, and the block given back.
  const failing = (async function* () {
    yield bytes.slice(0, 5000);
    throw new Error('network down');
  })();
  await assert.rejects(CuckooReader.deserialize(failing), /network down/);
  f.dispose();
});

test("reader: verify: false runs a view's checks only: a changed table answers, a bad header still throws", async () => {
  const f = await CuckooFilter.create({ capacity: 2000, fpr: 0.01, seed: 5 });
  for (let i = 0; i < 1500; i++) f.add(`k${i}`);
  const bytes = f.serialize();
  f.dispose();
  const changed = bytes.slice();
  for (let i = 70; i < changed.length - 8; i += 7) changed[i] ^= 0xff;
  await assert.rejects(CuckooReader.deserialize(changed), { message: 'cuckoo: checksum mismatch: the bytes are corrupted' });
  for (const source of [changed, Readable.from([changed.subarray(0, 100), changed.subarray(100)])]) {
    const r = await CuckooReader.deserialize(source, { verify: false });
    assert.equal(r.size, 1500); // the header's count, not checked against the entries
    assert.equal(typeof r.has('k1'), 'boolean');
    r.dispose();
  }
  const intact = await CuckooReader.deserialize(bytes, { verify: false });
  assert.equal(intact.has('k7'), true);
  intact.dispose();
  const bad = bytes.slice();
  bad[5] = 3; // bucket size 3: a structural check
  const expected = { name: 'FormatError', message: /bucket/ };
  assert.throws(() => CuckooReader.deserializeSync(bad, { verify: false }), expected);
  await assert.rejects(CuckooReader.deserialize(bad, { verify: false }), expected);
});
