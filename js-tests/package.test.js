// js-tests/package.test.js: the package as a consumer gets it. `npm pack` the repo (dist/ as built), install
// the tarball into a fresh temporary project (zero runtime dependencies: no network), then:
//   - the tarball holds the runtime files and nothing else (no tests, sources, benchmarks), at a sane size;
//   - `import { CuckooFilter } from 'cuckoo-wasm'` (ESM) and `require('cuckoo-wasm')` (CJS) resolve to the
//     installed copy and work: create, add, has, delete, serialize, deserialize, a native golden file; both
//     write the same bytes; in Node both give one module (the same class);
//   - a TypeScript file using the whole API type-checks with the repo's typescript against the installed
//     types (strict, module/moduleResolution nodenext), its `@ts-expect-error` lines are all real errors,
//     and, compiled and run, it checks that the runtime values have the declared types;
//   - a file with a wrong option type and no directive fails to type-check with the expected error;
//   - the CommonJS side of the types (.cts with require) type-checks too;
//   - the types also work with TypeScript 4.9.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
// By path, not node_modules/.bin/tsc: the typescript-4.9 alias installs a `tsc` too, and either may own .bin.
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const golden = path.join(root, 'testdata', 'golden', 'b4_f12_u64');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let work; // temporary directory: the tarball and the consumer project
let project; // the consumer project
let packed; // npm pack --json's entry for the tarball

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 60_000, ...options });
  if (r.error) throw r.error;
  return r;
}

function ok(r, what) {
  assert.equal(r.status, 0, `${what} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r;
}

before(() => {
  assert.ok(
    existsSync(path.join(root, 'dist', 'cuckoo_wasm_binary.mjs')) && existsSync(path.join(root, 'dist', 'cuckoo.cjs')),
    'dist/ is missing: run `npm run build` first (npm pack ships dist/ as built)',
  );
  work = realpathSync(mkdtempSync(path.join(tmpdir(), 'cuckoo-pack-')));
  // --ignore-scripts: the package has no pack scripts; make sure none would rebuild or alter dist/ here.
  const r = ok(run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: root }), 'npm pack');
  [packed] = JSON.parse(r.stdout);
  const tarball = path.join(work, packed.filename);
  assert.ok(existsSync(tarball), `npm pack wrote no ${tarball}`);

  project = path.join(work, 'consumer');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'cuckoo-consumer', version: '1.0.0', private: true, type: 'module' }, null, 2));
  // Zero runtime dependencies, so installing the tarball needs nothing from the registry.
  ok(
    run(npm, ['install', tarball, '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', '--loglevel=error'], { cwd: project }),
    'npm install <tarball>',
  );
  assert.ok(existsSync(path.join(project, 'node_modules', 'cuckoo-wasm', 'package.json')));
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test('package: the tarball holds the runtime files only, at a sane size', (t) => {
  const files = packed.files.map((f) => f.path).sort();
  t.diagnostic(
    `${packed.filename}: ${files.length} files, ${(packed.size / 1024).toFixed(1)} KiB packed, ` + `${(packed.unpackedSize / 1024).toFixed(1)} KiB unpacked`,
  );
  for (const f of packed.files) t.diagnostic(`  ${String(f.size).padStart(8)}  ${f.path}`);

  assert.equal(packed.name, 'cuckoo-wasm');
  assert.equal(packed.version, pkg.version);
  // What the entries need: both entry points, the types, the ESM sources, the module in both flavours.
  for (const needed of [
    'package.json',
    'README.md',
    'js/index.js',
    'js/index.cjs',
    'js/index.node.js',
    'js/index.d.ts',
    'js/cuckoo_filter.js',
    'js/runtime.js',
    'js/native.js',
    'dist/cuckoo_wasm_binary.mjs',
    'dist/cuckoo_wasm_node.wasm',
    'dist/cuckoo.cjs',
    'dist/index.d.cts',
    'js/reader.js',
    'js/reader.cjs',
    'js/reader.node.js',
    'dist/cuckoo_reader.wasm',
    'reader/package.json',
    'js/reader.d.ts',
    'dist/cuckoo_reader_binary.mjs',
    'dist/reader.cjs',
    'dist/reader.d.cts',
    'LICENSE',
  ]) {
    assert.ok(files.includes(needed), `the tarball lacks ${needed}`);
  }
  // Every entry of package.json points into the tarball.
  const targets = (c) => (typeof c === 'string' ? [c] : Object.values(c).flatMap(targets));
  const conditions = [...targets(pkg.exports['.']), ...targets(pkg.exports['./reader'])];
  for (const target of [pkg.main, pkg.module, pkg.types, ...conditions, ...Object.values(pkg.bin)]) {
    assert.ok(files.includes(path.posix.normalize(target)), `package.json points at ${target}, not in the tarball`);
  }
  // reader/package.json (for resolvers that ignore "exports") names the files the "./reader" export does.
  const proxy = JSON.parse(readFileSync(path.join(root, 'reader', 'package.json'), 'utf8'));
  for (const field of ['main', 'module', 'types']) {
    const target = path.posix.normalize(path.posix.join('reader', proxy[field]));
    assert.ok(files.includes(target) && conditions.includes(`./${target}`), `reader/package.json's ${field}: ${target}`);
  }
  // The specs the README links to (the binary format a server writes for a browser to read, and the
  // hash it depends on) ship with it, so those links work for a reader of the installed package.
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  for (const [, doc] of readme.matchAll(/\]\((docs\/[\w.-]+\.md)\)/g)) {
    assert.ok(files.includes(doc), `README.md links to ${doc}, not in the tarball`);
  }
  // Nothing else: no tests, fixtures, C++ sources, build trees, benchmarks, tools, source maps, tarballs.
  const allowed =
    /^(package\.json|reader\/package\.json|README\.md|LICENSE(\.\w+)?|docs\/[\w-]+\.md|js\/(cli\/)?[\w.-]+\.(js|cjs|d\.ts)|dist\/[\w.-]+\.(mjs|cjs|d\.cts|wasm))$/;
  const unexpected = files.filter((f) => !allowed.test(f));
  assert.deepEqual(unexpected, [], 'files in the tarball that a consumer does not need');
  for (const f of files) {
    assert.doesNotMatch(f, /(^|\/)(test|tests|js-tests|native-tests|bench|core|wasm|fuzz|tools|scripts|testdata|build[^/]*)\//);
  }
  // Sizes: the module ships twice, the node flavour as a .wasm file (~470 KB) and the web one deflated, as
  // base64 (~42 KB).
  assert.ok(packed.unpackedSize < 1.5 * 1024 * 1024, `unpacked size ${packed.unpackedSize} bytes > 1.5 MiB`);
  assert.ok(packed.size < 512 * 1024, `tarball ${packed.size} bytes > 512 KiB`);
});

// The same operations through either entry; prints one JSON line. `lib` is the module namespace.
const consumerBody = (loadGolden) => `
const seen = {};
seen.resolved = RESOLVED;
const f = await CuckooFilter.create({ capacity: 1000, fpr: 0.01, seed: 42n });
seen.add = [f.add('alice'), f.add(42), f.add(2n ** 64n - 1n), f.add(new Uint8Array([1, 2, 3]))];
seen.has = [f.has('alice'), f.has(42n), f.has(2n ** 64n - 1n), f.has(Uint8Array.of(1, 2, 3))];
seen.addAll = f.addAll(['a', 'b', 'c']);
seen.hasMany = Array.from(f.hasMany(['a', 'b', 'c']));
seen.deleted = f.delete('alice');
seen.size = f.size;
const bytes = f.serialize();
seen.bytes = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const g = await CuckooFilter.deserialize(bytes);
seen.copyHas = [g.has(42), g.has('a'), g.size];
g.dispose();
f.dispose();
seen.disposed = f.disposed;
await ready();
const s = CuckooFilter.deserializeSync(${loadGolden}('${golden}.bin'));
const meta = JSON.parse(${loadGolden}('${golden}.json', 'utf8'));
seen.golden = meta.present.every((k) => s.has(BigInt(k))) && meta.absent.every((k) => !s.has(BigInt(k)));
s.dispose();
console.log(JSON.stringify(seen));
`;

function runConsumer(file, source) {
  writeFileSync(path.join(project, file), source);
  const r = ok(run(process.execPath, [file], { cwd: project }), `node ${file}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

function checkConsumer(seen, how) {
  const installed = path.join(project, 'node_modules', 'cuckoo-wasm') + path.sep;
  assert.ok(seen.resolved.startsWith(installed), `${how} resolved 'cuckoo-wasm' to ${seen.resolved}, not the installed copy`);
  assert.deepEqual(seen.add, [true, true, true, true], how);
  assert.deepEqual(seen.has, [true, true, true, true], how);
  assert.equal(seen.addAll, 3, how);
  assert.deepEqual(seen.hasMany, [1, 1, 1], how);
  assert.equal(seen.deleted, true, how);
  assert.equal(seen.size, 6, how);
  assert.deepEqual(seen.copyHas, [true, true, 6], how);
  assert.equal(seen.disposed, true, how);
  assert.equal(seen.golden, true, `${how}: the native golden file`);
}

let esmBytes = null;

test('package: import { CuckooFilter } from "cuckoo-wasm" (ESM)', () => {
  const seen = runConsumer(
    'esm.mjs',
    `import { CuckooFilter, ready } from 'cuckoo-wasm';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const RESOLVED = fileURLToPath(import.meta.resolve('cuckoo-wasm'));
${consumerBody('readFileSync')}`,
  );
  checkConsumer(seen, 'ESM');
  esmBytes = seen.bytes;
});

test('package: require("cuckoo-wasm") (CommonJS) gives the same filter bytes as ESM', () => {
  const seen = runConsumer(
    'cjs.cjs',
    `'use strict';
const { CuckooFilter, ready } = require('cuckoo-wasm');
const { readFileSync } = require('node:fs');
const RESOLVED = require.resolve('cuckoo-wasm');
if (require('cuckoo-wasm/package.json').name !== 'cuckoo-wasm') throw new Error('cuckoo-wasm/package.json');
(async () => {
${consumerBody('readFileSync')}
})().catch((e) => { console.error(e); process.exit(1); });
`,
  );
  checkConsumer(seen, 'CJS');
  if (esmBytes !== null) assert.equal(seen.bytes, esmBytes, 'ESM and CJS serialize the same filter differently');
});

// In Node, import and require() share one module (the "node" condition's ESM entry re-exports the CommonJS
// one): one WebAssembly instance, one class, so a filter from either side is an instanceof the other's.
test('package: in Node, import and require() give the same CuckooFilter class', () => {
  writeFileSync(
    path.join(project, 'both.mjs'),
    `import { CuckooFilter, ready } from 'cuckoo-wasm';
import { createRequire } from 'node:module';
const cjs = createRequire(import.meta.url)('cuckoo-wasm');
const f = await CuckooFilter.create({ capacity: 100 });
const g = await cjs.CuckooFilter.create({ capacity: 100 });
console.log(JSON.stringify([cjs.CuckooFilter === CuckooFilter, cjs.ready === ready, g instanceof CuckooFilter, f instanceof cjs.CuckooFilter]));
`,
  );
  const r = ok(run(process.execPath, ['both.mjs'], { cwd: project }), 'node both.mjs');
  assert.deepEqual(JSON.parse(r.stdout.trim()), [true, true, true, true]);
});

// The read-only entry, through import and require: it reads the filter the full entry wrote.
// A key argument that is not UTF-8 (a\xffb): npx and npm exec decode the arguments before the tool starts,
// so the tool cannot know the bytes; it exits 2 saying so rather than hash U+FFFD. Started directly (the
// bin, or node on main.js) it hashes the bytes given, as the native tool does.
test('package: a key argument that is not UTF-8 is refused through npx and npm exec, and found directly', () => {
  writeFileSync(path.join(project, 'keys.txt'), Buffer.from([0x61, 0xff, 0x62, 0x0a, 0x6f, 0x6b, 0x0a]));
  const bin = path.join('node_modules', '.bin', 'cuckoo-wasm');
  ok(run(bin, ['build', '-q', '-o', 'bytes.cf', '--capacity', '100', 'keys.txt'], { cwd: project }), 'cuckoo-wasm build');
  const before = readFileSync(path.join(project, 'bytes.cf'));
  // bash passes the argument's bytes as they are ($'\xff'); Node cannot pass bytes that are not UTF-8 itself.
  const withKey = (command) => run('bash', ['-c', `${command} $'a\\xffb'`], { cwd: project });
  for (const starter of [`npx --offline cuckoo-wasm`, `npm exec --offline -- cuckoo-wasm`]) {
    for (const command of ['query bytes.cf', 'add bytes.cf', 'delete bytes.cf']) {
      const r = withKey(`${starter} ${command}`);
      assert.equal(r.status, 2, `${starter} ${command}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, /argument \d+ holds U\+FFFD, which npm \(npx, npm exec\) puts in place of bytes that are not UTF-8/);
      assert.equal(r.stdout, '');
    }
    assert.equal(ok(run('bash', ['-c', `${starter} query bytes.cf ok`], { cwd: project }), starter).stdout, 'maybe\tok\n');
  }
  assert.deepEqual(readFileSync(path.join(project, 'bytes.cf')), before, 'the refused add and delete left the file as it was');
  for (const direct of [bin, `node node_modules/cuckoo-wasm/js/cli/main.js`]) {
    const r = withKey(`env npm_command=test ${direct} query bytes.cf`);
    assert.equal(r.status, 0, `${direct}: ${r.stderr}`);
    assert.equal(Buffer.from(r.stdout, 'latin1').subarray(0, 6).toString('latin1'), 'maybe\t');
  }
});

test('package: import and require of "cuckoo-wasm/reader" read what "cuckoo-wasm" wrote', () => {
  const body = (RESOLVED) => `
const f = await CuckooFilter.create({ capacity: 1000, seed: 3n });
f.addAll(['alice', 42, 2n ** 64n - 1n]);
const r = await CuckooReader.deserialize(f.serialize());
let error = null;
try {
  CuckooReader.deserializeSync(new Uint8Array(64));
} catch (e) {
  error = [e.name, e instanceof FormatError, e.message];
}
console.log(JSON.stringify({
  resolved: ${RESOLVED},
  has: [r.has('alice'), r.has(42), r.has(2n ** 64n - 1n), r.has('bob') === f.has('bob')],
  many: Array.from(r.hasMany(['alice', 42])),
  size: [r.size, f.size, r.count('alice')],
  error,
}));
r.dispose();
f.dispose();
`;
  const check = (seen, how) => {
    const installed = path.join(project, 'node_modules', 'cuckoo-wasm') + path.sep;
    assert.ok(seen.resolved.startsWith(installed), `${how} resolved to ${seen.resolved}`);
    assert.deepEqual(seen.has, [true, true, true, true], how);
    assert.deepEqual(seen.many, [1, 1], how);
    assert.deepEqual(seen.size, [3, 3, 1], how);
    assert.deepEqual(seen.error, ['FormatError', true, 'cuckoo: bad magic: not a cuckoo filter'], how);
  };
  check(
    runConsumer(
      'reader.mjs',
      `import { CuckooReader, FormatError } from 'cuckoo-wasm/reader';
import { CuckooFilter } from 'cuckoo-wasm';
import { fileURLToPath } from 'node:url';
${body("fileURLToPath(import.meta.resolve('cuckoo-wasm/reader'))")}`,
    ),
    'ESM',
  );
  check(
    runConsumer(
      'reader.cjs',
      `'use strict';
const { CuckooReader, FormatError } = require('cuckoo-wasm/reader');
const { CuckooFilter } = require('cuckoo-wasm');
(async () => {
${body("require.resolve('cuckoo-wasm/reader')")}
})().catch((e) => { console.error(e); process.exit(1); });
`,
    ),
    'CJS',
  );
});

// Uses every member of the declared API. Type-checked, then compiled and run: the runtime checks below
// make sure the values have the types the declarations promise.
const typedConsumer = `
import { CuckooFilter, FormatError, ready } from 'cuckoo-wasm';
import { CuckooReader, FormatError as ReaderFormatError } from 'cuckoo-wasm/reader';
import type { CuckooFilterOptions, Key } from 'cuckoo-wasm';

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error('type/runtime mismatch: ' + what);
}

const options: CuckooFilterOptions = {
  capacity: 10_000,
  fpr: 0.001,
  bucketSize: 4,
  maxKicks: 500,
  seed: 7n,
  semiSort: false,
  targetLoad: 0.9,
};
const loaded: Promise<void> = ready();
await loaded;
const sameReady: Promise<void> = CuckooFilter.ready;
await sameReady;

const f: CuckooFilter = await CuckooFilter.create(options);
const keys: Key[] = ['alice', 42, 2n ** 64n - 1n, new Uint8Array([1, 2]), new DataView(new ArrayBuffer(3)), new ArrayBuffer(4)];
const added: boolean = f.add(keys[0]!);
const found: boolean = f.has('alice');
const copies: number = f.count('alice');
const removed: boolean = f.delete('alice');
check(added && found && copies === 1 && removed, 'add/has/count/delete');
const n: number = f.addAll(keys);
const fromIterable: number = f.addAll(new Set<Key>(['x', 'y']));
const many: Uint8Array = f.hasMany(keys);
const manyFromGenerator: Uint8Array = f.hasMany((function* (): Generator<Key> { yield 'x'; yield 1n; })());
check(n === keys.length && fromIterable === 2 && many instanceof Uint8Array && many.every((v) => v === 1), 'addAll/hasMany');
check(manyFromGenerator instanceof Uint8Array && manyFromGenerator[0] === 1, 'hasMany(iterable)');
const addedMany: number = f.addMany(new Set<Key>(['m1', 'm2']));
const slots: number = f.slotCount;
check(addedMany === 2 && slots === f.capacity && slots >= 10_000, 'addMany/slotCount');
const ifAbsent: 'added' | 'present' | 'refused' = f.addIfAbsent('m1');
const handledIfAbsent: number = f.addManyIfAbsent(['m1', 'm3', 'm3']);
check(ifAbsent === 'present' && handledIfAbsent === 3 && f.has('m3'), 'addIfAbsent/addManyIfAbsent');
// Generic helpers over batches type-check, and the results are plain-ArrayBuffer bytes (TypeScript >= 5.7
// types a bare Uint8Array's buffer as ArrayBufferLike, which a transfer list, Blob or Response rejects).
function addBatch<T extends readonly Key[]>(filter: CuckooFilter, batch: T): number {
  return filter.addAll(batch);
}
check(addBatch(f, ['g1', 'g2'] as const) === 2, 'generic addAll');
const plain: ArrayBuffer = f.serialize().buffer;
const plainResult: ArrayBuffer = f.hasMany(['g1']).buffer;
const transferable: Transferable[] = [plain, plainResult];
const blob: Blob = new Blob([f.serialize()]);
check(plain instanceof ArrayBuffer && transferable.length === 2 && blob.size === f.byteLength, 'plain ArrayBuffer results');

const numbers: number[] = [f.size, f.capacity, f.loadFactor, f.bitsPerItem, f.byteLength, f.bucketCount, f.fingerprintBits, f.maxKicks, f.fprBound];
check(numbers.every((v) => typeof v === 'number'), 'numeric properties are numbers');
const bucketSize: 2 | 4 | 8 = f.bucketSize;
check(bucketSize === 4, 'bucketSize');
const flags: boolean[] = [f.isFull, f.semiSort, f.disposed];
check(flags.every((v) => typeof v === 'boolean'), 'boolean properties are booleans');
const seed: bigint = f.seed;
check(seed === 7n, 'seed is a bigint');

const bytes: Uint8Array = f.serialize();
check(bytes instanceof Uint8Array && bytes.length === f.byteLength, 'serialize');
const g: CuckooFilter = await CuckooFilter.deserialize(bytes);
// bytes.buffer is an ArrayBufferLike since TypeScript 5.7 (it includes SharedArrayBuffer): accepted too.
const fromBuffer: CuckooFilter = CuckooFilter.deserializeSync(bytes.buffer);
check(fromBuffer.size === f.size, 'deserialize(bytes.buffer)');
const copy: ArrayBuffer = new ArrayBuffer(bytes.length);
new Uint8Array(copy).set(bytes);
const h: CuckooFilter = CuckooFilter.deserializeSync(copy);
const fromView: CuckooFilter = await CuckooFilter.deserialize(new DataView(bytes.buffer));
check(g.size === f.size && h.size === f.size && fromView.size === f.size, 'deserialize');
let badBytes: unknown = null;
try {
  CuckooFilter.deserializeSync(new Uint8Array(3));
} catch (error) {
  badBytes = error;
}
const formatError: FormatError | null = badBytes instanceof FormatError ? badBytes : null;
check(formatError !== null && formatError instanceof Error && formatError.name === 'FormatError', 'FormatError');
f.clear();
check(f.size === 0, 'clear');
const byBuckets = new CuckooFilter({ bucketCount: 64n, fingerprintBits: 12, bucketSize: 8, semiSort: false });
check(byBuckets.bucketCount === 64 && byBuckets.bucketSize === 8, 'constructor');
const semiSorted = new CuckooFilter({ capacity: 1000n, fingerprintBits: 13, semiSort: true });
check(semiSorted.semiSort, 'semiSort');
const growing = await CuckooFilter.create({ fpr: 0.001 });
const capped = new CuckooFilter({ capacity: 100, growable: true, maxMemoryBytes: 1n << 20n });
const levels: number = growing.levels;
const growable: boolean = growing.growable;
const limit: number = capped.maxMemoryBytes;
check(levels === 1 && growable && limit === 1 << 20 && growing.maxMemoryBytes === Infinity, 'growing filters');

let escaped: CuckooFilter;
{
  using scoped = await CuckooFilter.create({ capacity: 100 });
  scoped.add('scoped');
  escaped = scoped;
}
check(escaped.disposed, 'using disposes');
class Labelled extends CuckooFilter {
  label(): string {
    return 'labelled ' + this.size;
  }
}
const labelled: Labelled = await Labelled.create({ capacity: 100 });
labelled.add('l');
const relabelled: Labelled = await Labelled.deserialize(labelled.serialize());
const relabelledSync: Labelled = Labelled.deserializeSync(labelled.serialize());
check(relabelled.label() === 'labelled 1' && relabelledSync instanceof Labelled, 'subclass factories');
const { create: detachedCreate, deserializeSync: detachedDeserialize } = CuckooFilter;
const detached: CuckooFilter = await detachedCreate({ capacity: 10 });
const detachedCopy: CuckooFilter = detachedDeserialize(detached.serialize());

// The read-only entry: every member, on the bytes of a growing filter.
const readerBytes = growing.serialize();
const reader: CuckooReader = await CuckooReader.deserialize(readerBytes);
const streamed: CuckooReader = await CuckooReader.deserialize(new Response(readerBytes));
const fromBody: CuckooReader = await CuckooReader.deserialize(new Response(readerBytes).body!);
const fromPieces: CuckooReader = await CuckooReader.deserialize((async function* (): AsyncGenerator<Uint8Array> { yield readerBytes; })());
check(streamed.size === growing.size && fromBody.size === growing.size && fromPieces.size === growing.size, 'reader from streams');
for (const r of [streamed, fromBody, fromPieces]) r.dispose();
await CuckooReader.ready;
const readerSync: CuckooReader = CuckooReader.deserializeSync(readerBytes.buffer);
const readerFound: boolean = reader.has('alice');
const readerCount: number = reader.count(42n);
const readerMany: Uint8Array = reader.hasMany(new Set<Key>(['a', 1]));
const readerCopy: ArrayBuffer = reader.serialize().buffer;
const readerNumbers: number[] = [reader.size, reader.slotCount, reader.loadFactor, reader.bitsPerItem, reader.byteLength,
  reader.bucketCount, reader.fingerprintBits, reader.maxKicks, reader.maxMemoryBytes, reader.levels, reader.fprBound];
const readerFlags: boolean[] = [reader.isFull, reader.semiSort, reader.growable, reader.disposed];
const readerSeed: bigint = reader.seed;
const readerBucketSize: 2 | 4 | 8 = reader.bucketSize;
check(!readerFound && readerCount === 0 && readerMany.length === 2 && readerCopy.byteLength === growing.byteLength, 'reader');
check(readerNumbers.every((v) => typeof v === 'number') && readerFlags.every((v) => typeof v === 'boolean'), 'reader properties');
check(readerSeed === growing.seed && readerBucketSize === 4 && reader.fprBound === growing.fprBound, 'reader shape');
let readerError: unknown = null;
try {
  CuckooReader.deserializeSync(new Uint8Array(3));
} catch (error) {
  readerError = error;
}
check(readerError instanceof ReaderFormatError && readerError.name === 'FormatError', 'reader FormatError');
readerSync[Symbol.dispose]();
reader.dispose();
check(reader.disposed && readerSync.disposed, 'reader dispose');
// @ts-expect-error readers come from deserialize()
void (() => new CuckooReader());
// @ts-expect-error a reader cannot add
void (() => reader.add('x'));

f[Symbol.dispose]();
for (const x of [g, h, fromView, byBuckets, semiSorted, labelled, relabelled, relabelledSync, detached, detachedCopy]) x.dispose();
check(f.disposed, 'dispose');

// Each line below must be a type error (tsc reports an unused directive otherwise).
// @ts-expect-error bucketSize is 2 | 4 | 8
void (() => new CuckooFilter({ capacity: 10, bucketSize: 3 }));
// @ts-expect-error fpr is a number, not a string
void (() => new CuckooFilter({ capacity: 10, fpr: '0.01' }));
// @ts-expect-error capacity is a number or a bigint
void (() => CuckooFilter.create({ capacity: '10' }));
// @ts-expect-error unknown option
void (() => CuckooFilter.create({ capacity: 10, buckets: 4 }));
// @ts-expect-error a boolean is not a key
void (() => escaped.has(true));
// @ts-expect-error null is not a key
void (() => escaped.add(null));
// @ts-expect-error a string is not binary data
void (() => CuckooFilter.deserialize('bytes'));
// @ts-expect-error properties are read-only
void (() => { escaped.size = 3; });
// @ts-expect-error a string is one key, not a batch of its characters
void (() => escaped.addAll('abc'));
// @ts-expect-error a string is one key, not a batch of its characters
void (() => escaped.hasMany('abc'));
// @ts-expect-error a Uint8Array is one key, not a batch of its bytes
void (() => escaped.hasMany(new Uint8Array([1, 2])));
// @ts-expect-error any typed array is one key
void (() => escaped.addAll(new Float64Array(2)));
const oneKey: string = 'abc';
// @ts-expect-error a string variable is one key too
void (() => escaped.addAll(oneKey));
// @ts-expect-error serialize() returns a Uint8Array, not a string
void ((): string => escaped.serialize());
console.log('typed consumer ok');
`;

function tscArgs(...files) {
  return [
    '--noEmit',
    '--strict',
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
    '--target',
    'es2022',
    '--lib',
    'es2022,esnext.disposable,dom',
    '--types',
    '',
    ...files,
  ];
}

test('package: a TypeScript consumer of the whole API type-checks against the installed types, and runs', (t) => {
  assert.ok(existsSync(tsc), `no ${tsc}: npm ci (typescript is a devDependency)`);
  t.diagnostic(run(tsc, ['--version']).stdout.trim());
  writeFileSync(path.join(project, 'consumer.mts'), typedConsumer);
  ok(run(tsc, tscArgs('consumer.mts'), { cwd: project }), 'tsc --noEmit consumer.mts');

  // Compiled and run: the runtime agrees with the declared types.
  const emit = tscArgs('--outDir', 'out', 'consumer.mts').filter((a) => a !== '--noEmit');
  ok(run(tsc, emit, { cwd: project }), 'tsc consumer.mts');
  const r = ok(run(process.execPath, [path.join('out', 'consumer.mjs')], { cwd: project }), 'node out/consumer.mjs');
  assert.match(r.stdout, /typed consumer ok/);
});

test('package: a wrong option type without @ts-expect-error fails to type-check', () => {
  writeFileSync(
    path.join(project, 'wrong.mts'),
    `import { CuckooFilter } from 'cuckoo-wasm';
export const f = await CuckooFilter.create({ capacity: 10, bucketSize: 3 });
`,
  );
  const r = run(tsc, tscArgs('wrong.mts'), { cwd: project });
  const out = r.stdout + r.stderr;
  assert.notEqual(r.status, 0, `tsc accepted bucketSize: 3:\n${out}`);
  assert.match(out, /wrong\.mts\(2,\d+\): error TS2322: Type '3' is not assignable to type '2 \| 4 \| 8( \| undefined)?'/);
});

test('package: the types also serve a CommonJS TypeScript consumer (require)', () => {
  writeFileSync(
    path.join(project, 'consumer.cts'),
    `import cuckoo = require('cuckoo-wasm');
import reader = require('cuckoo-wasm/reader');
import { CuckooFilter } from 'cuckoo-wasm';
import { CuckooReader } from 'cuckoo-wasm/reader';
export async function main(): Promise<boolean> {
  const f: CuckooFilter = await cuckoo.CuckooFilter.create({ capacity: 10 });
  const found: boolean = f.add('a') && f.has('a');
  const r: CuckooReader = await reader.CuckooReader.deserialize(f.serialize());
  const read: boolean = r.has('a');
  r.dispose();
  f.dispose();
  return found && read;
}
`,
  );
  ok(run(tsc, tscArgs('consumer.cts'), { cwd: project }), 'tsc --noEmit consumer.cts');
});

// The package is "type": "module", so TypeScript reads a .d.ts as an ES module; a CommonJS TypeScript project
// on Node 18 (module node16) would get TS1471 for `require('cuckoo-wasm')` unless the `require` condition has
// its own CommonJS declarations (dist/index.d.cts, written by the build from js/index.d.ts).
test('package: the types serve a CommonJS TypeScript consumer under module node16 (Node 18)', () => {
  const r = run(
    tsc,
    tscArgs('consumer.cts').map((a) => (a === 'nodenext' ? 'node16' : a)),
    { cwd: project },
  );
  assert.equal(r.status, 0, `tsc --module node16 consumer.cts:\n${r.stdout}${r.stderr}`);
});

// The oldest TypeScript the types are kept working with: 4.9 (a devDependency alias, typescript-4.9), in
// its three ways of resolving a package: module nodenext (exports, ESM and CJS), and the older node10
// resolution that reads the top-level "types". skipLibCheck is off, so the .d.ts itself is checked: a
// newer-only construct in it (e.g. `Uint8Array<ArrayBuffer>`, `Symbol.dispose` without the lib) fails here.
test('package: the types also work with TypeScript 4.9 (nodenext ESM and CJS, node10)', () => {
  const tsc49 = path.join(root, 'node_modules', 'typescript-4.9', 'bin', 'tsc');
  assert.ok(existsSync(tsc49), `no ${tsc49}: npm ci (typescript-4.9 is a devDependency)`);
  // One file, read as ESM (.mts), CommonJS (.cts) and, under node10 resolution, a plain .ts.
  const source = `import { CuckooFilter, type Key } from 'cuckoo-wasm';
import { CuckooReader } from 'cuckoo-wasm/reader';
export async function readerMain(bytes: Uint8Array): Promise<number> {
  const r: CuckooReader = await CuckooReader.deserialize(bytes);
  const n: number = r.size + r.count('a') + r.hasMany(['a', 1]).length + (r.has(2n) ? 1 : 0);
  r.dispose();
  return n;
}
export async function main(): Promise<number> {
  const f = await CuckooFilter.create({ capacity: 1000, fpr: 0.01, bucketSize: 4 });
  const keys: Key[] = ['a', 1, 2n, new Uint8Array([1])];
  const added: number = f.addAll(keys);
  const hits: Uint8Array = f.hasMany(new Set<Key>(keys));
  const found: boolean = f.add('x') && f.has('x') && f.delete('x') && f.count(7) >= 0;
  const g: CuckooFilter = CuckooFilter.deserializeSync(f.serialize());
  const shape: number = f.size + f.capacity + f.loadFactor + f.bitsPerItem + f.byteLength + g.size;
  f.dispose();
  g.dispose();
  return added + hits.length + shape + (found ? 1 : 0);
}
`;
  for (const file of ['ts49.mts', 'ts49.cts', 'ts49_node10.ts']) writeFileSync(path.join(project, file), source);
  const base = ['--noEmit', '--strict']; // no --types '': 4.9 rejects an empty list (the project has no @types)
  const nodenext = [...base, '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022'];
  ok(run(process.execPath, [tsc49, ...nodenext, 'ts49.mts'], { cwd: project }), 'tsc 4.9 ts49.mts');
  ok(run(process.execPath, [tsc49, ...nodenext, 'ts49.cts'], { cwd: project }), 'tsc 4.9 ts49.cts');
  const node10 = [...base, '--module', 'commonjs', '--moduleResolution', 'node', '--target', 'es2020'];
  ok(run(process.execPath, [tsc49, ...node10, 'ts49_node10.ts'], { cwd: project }), 'tsc 4.9 ts49_node10.ts');
});

// From a bundler: esbuild (a devDependency) bundles an ES module importing 'cuckoo-wasm' from the installed
// tarball for the browser platform, where a Node built-in import would be an error. The bundle must come
// from the package's ES modules only, with no warning, and work when run.
test('package: esbuild bundles it for the browser (platform browser, ESM) and the bundle works', async (t) => {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch (e) {
    const reason = `esbuild is not installed (npm ci): ${e.message}`;
    if (process.env.CI) assert.fail(reason);
    t.skip(reason);
    return;
  }
  writeFileSync(
    path.join(project, 'bundle-entry.mjs'),
    `import { CuckooFilter } from 'cuckoo-wasm';
const f = await CuckooFilter.create({ capacity: 100, seed: 1 });
const result = { added: f.add('bundled'), has: f.has('bundled'), size: f.size, bytes: f.serialize().length };
f.dispose();
console.log(JSON.stringify(result));
`,
  );
  const built = await esbuild.build({
    absWorkingDir: project,
    entryPoints: ['bundle-entry.mjs'],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    outfile: 'bundle.mjs',
    metafile: true,
    logLevel: 'silent',
  });
  assert.deepEqual(built.errors, []);
  assert.deepEqual(
    built.warnings.map((w) => w.text),
    [],
    'esbuild warnings',
  );
  const inputs = Object.keys(built.metafile.inputs).sort();
  t.diagnostic(`bundle inputs: ${inputs.join(' ')}`);
  for (const input of inputs) {
    if (input === 'bundle-entry.mjs') continue;
    assert.match(input, /^node_modules\/cuckoo-wasm\/(js\/[\w.-]+\.js|dist\/[\w.-]+\.mjs)$/, `bundled ${input}`);
  }
  const output = built.metafile.outputs['bundle.mjs'];
  t.diagnostic(`bundle.mjs: ${(output.bytes / 1024).toFixed(1)} KiB`);
  const r = ok(run(process.execPath, ['bundle.mjs'], { cwd: project }), 'node bundle.mjs');
  const seen = JSON.parse(r.stdout.trim());
  assert.equal(seen.added, true);
  assert.equal(seen.has, true);
  assert.equal(seen.size, 1);
  assert.ok(seen.bytes > 64);
});
