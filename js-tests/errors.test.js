// js-tests/errors.test.js: every error the API throws: its class and its message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { CuckooFilter, FormatError } from '../js/index.js';
import { kOptions } from '../js/options.js';

const methods = ['add', 'has', 'delete', 'count'];

test('keys of the wrong type are a TypeError naming what was given', async () => {
  const f = await CuckooFilter.create({ capacity: 100 });
  const cases = [
    [null, /got null/],
    [undefined, /got undefined/],
    [true, /got true/],
    [{}, /got Object/],
    [[1, 2], /got Array/],
    [Symbol('s'), /got symbol/],
    [() => 1, /got function/],
    [new Date(0), /got Date/],
  ];
  for (const method of methods) {
    for (const [key, message] of cases) {
      assert.throws(() => f[method](key), { name: 'TypeError', message }, `${method}(${String(key)})`);
    }
  }
  for (const key of [1.5, NaN, Infinity, -Infinity, 0.1]) {
    assert.throws(() => f.add(key), { name: 'TypeError', message: /must be an integer/ }, String(key));
  }
  assert.equal(f.size, 0, 'nothing was added');
  f.dispose();
});

test('integers out of range are a RangeError', async () => {
  const f = await CuckooFilter.create({ capacity: 100 });
  for (const method of methods) {
    for (const key of [-1, -(2 ** 40), 2 ** 53, 2 ** 64, Number.MAX_VALUE]) {
      assert.throws(() => f[method](key), { name: 'RangeError', message: /0\.\.2\^53-1.*bigint/ }, `${method}(${key})`);
    }
    for (const key of [-1n, 2n ** 64n, -(2n ** 64n)]) {
      assert.throws(() => f[method](key), { name: 'RangeError', message: /0\.\.2\^64-1/ }, `${method}(${key}n)`);
    }
  }
  f.dispose();
});

test('addAll() checks every key before adding any; hasMany() throws on a bad key', async () => {
  const f = await CuckooFilter.create({ capacity: 100 });
  assert.throws(() => f.addAll(['a', 'b', null]), TypeError);
  assert.throws(() => f.addAll(['a', -1]), RangeError);
  assert.equal(f.size, 0, 'nothing added');
  assert.throws(() => f.hasMany(['a', {}]), TypeError);
  assert.throws(() => f.addAll('abc'), { name: 'TypeError', message: /array or an iterable.*not a string/ });
  assert.throws(() => f.addAll(42), TypeError);
  assert.throws(() => f.hasMany(undefined), TypeError);
  f.dispose();
});

test('a batch argument that is itself one key (string, bytes) is a TypeError, not split into keys', async () => {
  const f = await CuckooFilter.create({ capacity: 100 });
  const { runInNewContext } = await import('node:vm');
  const oneKeys = [new String('abc'), runInNewContext('new String("abc")'), new Uint8Array([1, 2]), new Uint32Array(2)];
  oneKeys.push(new DataView(new ArrayBuffer(2)), runInNewContext('new Uint8Array(2)'));
  if (typeof Buffer === 'function') oneKeys.push(Buffer.from('hello'));
  for (const key of oneKeys) {
    assert.throws(() => f.addAll(key), { name: 'TypeError', message: /addAll\(\) takes an array .*one key/ });
    assert.throws(() => f.hasMany(key), { name: 'TypeError', message: /hasMany\(\) takes an array .*one key/ });
  }
  assert.equal(f.size, 0);
  assert.equal(f.addAll(Array.from(new Uint8Array([1, 2]))), 2, 'its elements, asked for explicitly');
  assert.throws(
    () => f.addAll(new DataView(new ArrayBuffer(2))),
    (e) => !/Array\.from/.test(e.message),
    'no advice that adds nothing',
  );
  f.dispose();
});

test('a bad key in a batch: the error says its index; an error thrown by a getter passes through untouched', async () => {
  const f = await CuckooFilter.create({ capacity: 100 });
  assert.throws(() => f.addAll(['a', 'b', null]), { name: 'TypeError', message: /\(got null\) \(the key at index 2\)$/ });
  assert.throws(() => f.addAll(new Set([1, -1])), { name: 'RangeError', message: /\(the key at index 1\)$/ });
  assert.throws(() => f.hasMany(['a', , 'b']), { name: 'TypeError', message: /\(got undefined\) \(the key at index 1\)$/ });
  const many = Array.from({ length: 40_000 }, (_, i) => `k${i}`);
  many[33_000] = 1.5; // in the third chunk of 16384 keys
  assert.throws(() => f.hasMany(many), { name: 'TypeError', message: /\(the key at index 33000\)$/ });
  const own = new Error('from a getter');
  const keys = ['a'];
  Object.defineProperty(keys, 0, {
    get: () => {
      throw own;
    },
  });
  assert.throws(
    () => f.hasMany(keys),
    (e) => e === own && e.message === 'from a getter',
  );
  assert.throws(() => f.has(null), { message: /\(got null\)$/ }, 'single calls have no index');
  f.dispose();
});

test('options out of range are a RangeError naming the option', async () => {
  const cases = [
    [{ capacity: 0 }, /^cuckoo: capacity must be at least 1 \(got 0\)$/],
    [{ capacity: 0, growable: true }, /^cuckoo: capacity must be at least 1 \(got 0\)$/],
    [{ capacity: -5 }, /options\.capacity/],
    [{ capacity: 1.5 }, /options\.capacity must be an integer/],
    [{ capacity: 2 ** 60 }, /options\.capacity.*bigint/],
    [{ capacity: 100, fpr: 0 }, /^cuckoo: fpr must be in \(0, 1\) \(got 0\)$/],
    [{ capacity: 100, fpr: 1 }, /^cuckoo: fpr must be in \(0, 1\) \(got 1\)$/],
    [{ capacity: 100, fpr: NaN }, /^cuckoo: fpr must be in \(0, 1\) \(got nan\)$/],
    [{ capacity: 100, fingerprintBits: 3 }, /^cuckoo: fingerprintBits must be in 4\.\.32 \(got 3\)$/],
    [{ capacity: 100, fingerprintBits: 33 }, /^cuckoo: fingerprintBits must be in 4\.\.32 \(got 33\)$/],
    [{ capacity: 100, fingerprintBits: 2 ** 32 }, /^cuckoo-wasm: options\.fingerprintBits must be an integer in 0\.\.4294967295 \(got 4294967296\)$/],
    [{ capacity: 100, bucketSize: 3 }, /^cuckoo: bucketSize must be 2, 4 or 8 \(got 3\)$/],
    [{ capacity: 100, bucketSize: 16 }, /^cuckoo: bucketSize must be 2, 4 or 8 \(got 16\)$/],
    [{ capacity: 100, bucketSize: 4.5 }, /^cuckoo-wasm: options\.bucketSize must be an integer \(got 4\.5\)$/],
    [{ capacity: 100, maxKicks: -1 }, /options\.maxKicks/],
    [{ capacity: 100, maxKicks: 2 ** 21 }, /^cuckoo: maxKicks must be at most 1048576 \(got 2097152\)$/],
    [{ capacity: 100, seed: -1 }, /^cuckoo-wasm: options\.seed must be an integer in 0\.\.18446744073709551615 \(got -1\)$/],
    [{ capacity: 100, seed: 2n ** 64n }, /options\.seed/],
    [{ capacity: 100, targetLoad: 0 }, /^cuckoo: targetLoad must be in \(0, 1\] \(got 0\)$/],
    [{ capacity: 100, targetLoad: 1.5 }, /^cuckoo: targetLoad must be in \(0, 1\] \(got 1\.5\)$/],
    [{ bucketCount: 0 }, /^cuckoo: bucketCount must be at least 1 \(got 0\)$/],
    [{ bucketCount: 2 ** 32 + 2 }, /^cuckoo: bucketCount must be at most 2\^32 \(got 4294967298\)$/],
    [{ capacity: 100, fpr: 0.01, fingerprintBits: 8 }, /^cuckoo: set either fpr or fingerprintBits, not both \(got fpr 0\.01 and fingerprintBits 8\)$/],
    [{ capacity: 100, semiSort: true, bucketSize: 8 }, /^cuckoo: semiSort requires bucketSize 4 \(got 8\)$/],
    // The ranges are the core's: its std::invalid_argument message comes through as a RangeError, naming
    // the option as JS spells it. JS refuses only what the binding's types cannot hold (cuckoo-wasm: ...).
    [
      { capacity: 2n ** 40n },
      /^cuckoo: capacity \d+ needs more than 2\^32 buckets \(with bucketSize 4 and the default targetLoad, the most is about 1\.6\d*e\+10\)$/,
    ],
    [{ bucketCount: 2 ** 32, fingerprintBits: 32 }, /^cuckoo: a table of 4294967296 buckets \(\d+ bytes\) exceeds the 4 GiB of WebAssembly memory$/],
    [{ capacity: 100, fpr: 1e-12 }, /^cuckoo: fpr 1e-12 needs more than 32 fingerprint bits$/],
    [{ maxMemoryBytes: -1 }, /^cuckoo-wasm: options\.maxMemoryBytes must be an integer in 0\.\.18446744073709551615 \(got -1\)$/],
    // The growth options' ranges are the core's.
    [{ capacity: 100, maxMemoryBytes: 1e6 }, /^cuckoo: maxMemoryBytes applies to growable filters only$/],
    [{ maxMemoryBytes: 100 }, /^cuckoo: maxMemoryBytes 100 is less than the first level's \d+-byte table$/],
    [{ fpr: 1e-9 }, /^cuckoo: fpr 1e-09 is too small for a growable filter/],
    [{ growable: true, capacity: 10, fingerprintBits: 29 }, /^cuckoo: a growable filter's fingerprintBits must be at most 28 \(got 29\)/],
    [{ fpr: 1e-7 }, /^cuckoo: fpr 1e-07 is too small for a growable filter, which must have room for 16 levels/],
  ];
  for (const [options, message] of cases) {
    const shown = JSON.stringify(options, (k, v) => (typeof v === 'bigint' ? `${v}n` : v));
    await assert.rejects(CuckooFilter.create(options), { name: 'RangeError', message }, shown);
    assert.throws(() => new CuckooFilter(options), { name: 'RangeError', message }, shown);
  }
});

test('in Node, an option the core refuses is a RangeError saying which option and which value', async () => {
  // Node's entry (the node module, js/errors.node.js); pages' errors carry the message only.
  const node = createRequire(import.meta.url)('../js/index.cjs');
  await node.CuckooFilter.ready;
  const cases = [
    [{ capacity: 100, bucketSize: 3 }, 'bucketSize', '3'],
    [{ capacity: 100, fpr: 0 }, 'fpr', '0'],
    [{ capacity: 100, fpr: 1e-12 }, 'fpr', '1e-12'],
    [{ capacity: 100, fingerprintBits: 33 }, 'fingerprintBits', '33'],
    [{ capacity: 100, maxKicks: 2 ** 21 }, 'maxKicks', '2097152'],
    [{ capacity: 100, targetLoad: 1.5 }, 'targetLoad', '1.5'],
    [{ bucketCount: 0 }, 'bucketCount', '0'],
    [{ capacity: 100, fpr: 0.01, fingerprintBits: 8 }, 'fingerprintBits', '8'],
    [{ capacity: 100, semiSort: true, bucketSize: 8 }, 'semiSort', 'true'],
    [{ capacity: 2n ** 40n }, 'capacity', '1099511627776'],
    [{ capacity: 100, maxMemoryBytes: 1e6 }, 'maxMemoryBytes', '1000000'],
    [{ growable: true, capacity: 0 }, 'capacity', '0'],
  ];
  const names = Object.keys(kOptions);
  for (const [options, option, value] of cases) {
    const shown = JSON.stringify(options, (k, v) => (typeof v === 'bigint' ? `${v}n` : v));
    let webMessage;
    try {
      new CuckooFilter(options);
    } catch (error) {
      webMessage = error.message;
    }
    const expected = (error) => {
      assert.ok(error instanceof RangeError, shown);
      assert.deepEqual([error.option, error.value], [option, value], shown);
      // The message with the options' names at odd indices: the same text as the web module's.
      assert.equal(error.messageParts.join(''), error.message, shown);
      assert.equal(error.message, webMessage, shown);
      error.messageParts.forEach((part, i) => assert.equal(names.includes(part), i % 2 === 1, `${shown}: ${part}`));
      assert.ok(error.messageParts.includes(option), shown);
      return true;
    };
    await assert.rejects(node.CuckooFilter.create(options), expected);
    assert.throws(() => new node.CuckooFilter(options), expected);
  }
  // The binding's own checks, bad bytes and a refused merge say nothing of the kind.
  assert.throws(
    () => new node.CuckooFilter({ capacity: 100, bucketSize: 4.5 }),
    (e) => e instanceof RangeError && !('option' in e),
  );
  assert.throws(
    () => node.CuckooFilter.deserializeSync(new Uint8Array(8)),
    (e) => !('option' in e),
  );
  const a = new node.CuckooFilter({ capacity: 100 });
  const b = new node.CuckooFilter({ capacity: 100, bucketSize: 8 });
  assert.throws(
    () => a.merge(b),
    (e) => !('option' in e),
  );
  a.dispose();
  b.dispose();
});

test('options of the wrong type, unknown or missing are a TypeError', async () => {
  const cases = [
    [undefined, /options must be an object/],
    [null, /options must be an object/],
    [1000, /options must be an object/],
    [{ growable: false }, /options\.capacity is required when options\.growable is false/],
    [{ growable: 1 }, /options\.growable must be a boolean \(got number\)/],
    [{ growable: null }, /options\.growable must be a boolean \(got null\)/],
    [{ maxMemoryBytes: '1e6' }, /options\.maxMemoryBytes must be an integer \(number or bigint\) \(got string\)/],
    [{ capacity: '1000' }, /options\.capacity must be an integer \(number or bigint\) \(got string\)/],
    [{ capacity: 100, fpr: '0.1' }, /options\.fpr must be a number/],
    [{ capacity: 100, bucketSize: '4' }, /options\.bucketSize must be a number \(got string\)/],
    [{ capacity: 100, bucketSize: 4n }, /options\.bucketSize must be a number \(got bigint\)/],
    [{ capacity: 100, semiSort: 1 }, /options\.semiSort must be a boolean/],
    [{ capacity: 100, fingerprintbits: 8 }, /unknown option 'fingerprintbits'/],
  ];
  for (const [options, message] of cases) {
    await assert.rejects(CuckooFilter.create(options), { name: 'TypeError', message }, String(options));
  }
});

test('a table larger than WebAssembly memory is a RangeError, not an abort', async () => {
  // A table of 4 GiB - 8 MiB (one byte per bucket at b=2, f=4): within wasm32's address space, so the core
  // accepts the configuration, but it cannot fit next to the 16 MiB the heap starts with, so the allocation
  // fails before touching any page (std::bad_alloc -> RangeError).
  await assert.rejects(CuckooFilter.create({ bucketCount: 2 ** 32 - 2 ** 23, bucketSize: 2, fingerprintBits: 4 }), {
    name: 'RangeError',
    message: /^cuckoo: not enough memory for this filter's 4088\.00 MiB table \(WebAssembly memory is 4 GiB at most/,
  });
  // One table is limited to just under 2 GiB (the allocator's largest block on wasm32), even with the
  // memory empty: 2 billion keys at fpr 1% would take 2.5 GiB. Refused before memory grows.
  await assert.rejects(CuckooFilter.create({ capacity: 2e9, fpr: 0.01 }), {
    name: 'RangeError',
    message: /^cuckoo: not enough memory for this filter's 2536\.59 MiB table .* and a table under 2 GiB\)$/,
  });
  // Limits found by the core's sizing name the option as JS spells it.
  await assert.rejects(CuckooFilter.create({ capacity: 1e6, targetLoad: 1e-9 }), {
    name: 'RangeError',
    message: /at targetLoad 1e-09 needs more than 2\^32 buckets/,
  });
  // The module still works afterwards.
  const f = await CuckooFilter.create({ capacity: 10 });
  assert.equal(f.add('alive'), true);
  f.dispose();
});

test('running out of memory in the first batch call loses nothing and leaves later batches working', () => {
  // A fresh process, so that this is the first batch call: its buffers are allocated then. Memory is made
  // to run out after one more allocation (the allocator stubbed), then comes back. Before, the second of
  // two buffers failing left the answers' address at 0, and every later hasMany() wrote over the start of
  // WebAssembly memory, which broke the module for good.
  const index = fileURLToPath(new URL('../js/index.js', import.meta.url));
  const runtime = fileURLToPath(new URL('../js/memory.js', import.meta.url));
  const script = `
    import { CuckooFilter } from ${JSON.stringify(index)};
    import { rt } from ${JSON.stringify(runtime)};
    await CuckooFilter.ready;
    const keys = Array.from({ length: 3000 }, (_, i) => 'key-' + i);
    const f = new CuckooFilter({ capacity: 10_000 });
    for (const k of keys) f.add(k);
    const low = rt.M.HEAPU8.slice(0, 4096);
    const malloc = rt.M._malloc;
    let calls = 0;
    rt.M._malloc = (n) => (++calls >= 2 ? 0 : malloc(n));
    let error = null;
    try { f.addAll(['new-key']); } catch (e) { error = e; }
    rt.M._malloc = malloc;
    const answers = f.hasMany(keys);
    console.log(JSON.stringify({
      error: error && error.name + ': ' + error.message,
      size: f.size,
      found: answers.reduce((a, x) => a + x, 0),
      lowIntact: rt.M.HEAPU8.slice(0, 4096).every((b, i) => b === low[i]),
      later: [f.addAll(['new-key']), f.has('new-key'), new CuckooFilter({ capacity: 10 }).add(1)],
    }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.match(out.error, /^RangeError: cuckoo-wasm: out of WebAssembly memory allocating \d+ bytes/);
  assert.deepEqual(out, { ...out, size: 3000, found: 3000, lowIntact: true, later: [1, true, true] });
});

test('with WebAssembly memory exhausted, create() and deserialize() are RangeErrors, and freeing recovers', () => {
  // A fresh process whose wasm memory is taken, down to the last block, by malloc (which, unlike a filter,
  // touches no page), then given back a block at a time, smallest first, with a create() and a
  // deserialize() tried at each step. Before, a C++ allocation that failed there could not allocate its
  // std::bad_alloc either: std::terminate() recursed until the JS stack overflowed ("Maximum call stack
  // size exceeded"), or an exception escaped embind as a bare WebAssembly.Exception with no message.
  const index = fileURLToPath(new URL('../js/index.js', import.meta.url));
  const runtime = fileURLToPath(new URL('../js/memory.js', import.meta.url));
  const script = `
    import { CuckooFilter } from ${JSON.stringify(index)};
    import { rt } from ${JSON.stringify(runtime)};
    await CuckooFilter.ready;
    const kept = new CuckooFilter({ capacity: 100 });
    kept.add('kept');
    const bytes = new CuckooFilter({ capacity: 20_000 }).serialize();
    const blocks = [];
    for (let size = 2 ** 31; size >= 1; ) {
      const p = rt.M._malloc(size);
      if (p === 0) size = Math.floor(size / 2);
      else blocks.push(p);
    }
    const messages = new Set();
    const attempt = (make) => {
      try {
        make().dispose();
        return true;
      } catch (e) {
        messages.add(Object.prototype.toString.call(e) + ' ' + e.constructor.name + ': ' + e.message);
        return false;
      }
    };
    let created = false;
    while (blocks.length > 0 && !created) {
      created = attempt(() => new CuckooFilter({ capacity: 1e6 }));
      attempt(() => CuckooFilter.deserializeSync(bytes));
      attempt(() => new CuckooFilter({ capacity: 100, fpr: 1e-12 })); // only the core checks it
      rt.M._free(blocks.pop());
    }
    const stillThere = kept.has('kept');
    for (const p of blocks) rt.M._free(p);
    const after = new CuckooFilter({ capacity: 10 });
    console.log(JSON.stringify({ messages: [...messages], created, stillThere, after: [after.add('x'), after.has('x')] }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const expected = [
    /^\[object Error\] RangeError: cuckoo-wasm: out of WebAssembly memory allocating 2\d{4} bytes \(the limit is 4 GiB\)$/,
    /^\[object Error\] RangeError: cuckoo-wasm: not enough WebAssembly memory left for a filter \(all filters share at most 4 GiB; dispose\(\) the ones no longer needed\)$/,
    // (deserialize() names no table size: it learns the size while it reads the bytes)
    /^\[object Error\] RangeError: cuckoo: not enough memory for this filter(?:'s (1\.27 MiB|\d+\.\d\d KiB) table)? \(WebAssembly memory is 4 GiB at most, for all filters, and a table under 2 GiB\)$/,
    /^\[object Error\] RangeError: cuckoo: fpr 1e-12 needs more than 32 fingerprint bits$/,
  ];
  for (const message of out.messages)
    assert.ok(
      expected.some((re) => re.test(message)),
      message,
    );
  // Every kind of failure was met on the way, the core's own out-of-memory error included.
  assert.ok(
    out.messages.some((m) => m.includes('1.27 MiB table')),
    out.messages.join('\n'),
  );
  assert.deepEqual(out, { ...out, created: true, stillThere: true, after: [true, true] });
});

test('bad bytes: a FormatError (an Error) carrying the C++ FormatError message', async () => {
  const f = await CuckooFilter.create({ capacity: 100, seed: 1 });
  f.addAll(['a', 'b', 'c']);
  const good = f.serialize();
  f.dispose();
  const flipped = good.slice();
  flipped[100] ^= 0x10;
  const badMagic = good.slice();
  badMagic[0] = 0x58;
  const badVersion = good.slice();
  badVersion[4] = 3; // 1 and 2 (growing filters) are known
  const badFlags = good.slice();
  badFlags[7] = 0x80;
  const cases = [
    [new Uint8Array(0), /^cuckoo: truncated input: 0 bytes is shorter than the 64-byte header and checksum$/],
    [good.subarray(0, 10), /^cuckoo: truncated input: 10 bytes/],
    [good.subarray(0, good.length - 1), new RegExp(`^cuckoo: truncated input: expected ${good.length} bytes, got ${good.length - 1}$`)],
    [new Uint8Array([...good, 0]), new RegExp(`^cuckoo: trailing bytes: expected ${good.length} bytes, got ${good.length + 1}$`)],
    [flipped, /^cuckoo: checksum mismatch: the bytes are corrupted$/],
    [badMagic, /^cuckoo: bad magic: not a cuckoo filter$/],
    [badVersion, /^cuckoo: unsupported format version 3/],
    [badFlags, /^cuckoo: unknown flag bits/],
  ];
  for (const [bytes, message] of cases) {
    await assert.rejects(CuckooFilter.deserialize(bytes), (err) => {
      assert.equal(err.constructor, FormatError);
      assert.ok(err instanceof Error);
      assert.match(err.message, message);
      return true;
    });
    assert.throws(() => CuckooFilter.deserializeSync(bytes), { name: 'FormatError', message });
  }
});

test('every single-bit flip of a serialized filter is rejected', async () => {
  const f = await CuckooFilter.create({ bucketCount: 8, fingerprintBits: 8, seed: 4 });
  f.addAll(['p', 'q', 'r']);
  const good = f.serialize();
  f.dispose();
  for (let bit = 0; bit < good.length * 8; bit++) {
    const bad = good.slice();
    bad[bit >> 3] ^= 1 << (bit & 7);
    assert.throws(() => CuckooFilter.deserializeSync(bad), { name: 'FormatError', message: /^cuckoo: / }, `bit ${bit}`);
  }
});

test('deserialize() of something that is not bytes is a TypeError', async () => {
  for (const value of [null, undefined, 'CKOO', 42, [1, 2, 3], {}]) {
    await assert.rejects(CuckooFilter.deserialize(value), TypeError);
  }
});

test('JSON.stringify() of a filter writes a summary that says it is not the filter; deserialize() of it says so', async () => {
  const f = await CuckooFilter.create({ capacity: 100, seed: 1 });
  f.add('a');
  const stored = JSON.stringify({ filter: f });
  const summary = JSON.parse(stored).filter;
  assert.match(summary.CuckooFilter, /not the filter.*serialize\(\)/);
  assert.deepEqual(
    { size: summary.size, slotCount: summary.slotCount, byteLength: summary.byteLength },
    { size: 1, slotCount: f.slotCount, byteLength: f.byteLength },
  );
  await assert.rejects(CuckooFilter.deserialize(summary), { name: 'TypeError', message: /JSON summary of a filter/ });
  assert.equal(f.has('a'), true, 'the filter is untouched');
  f.dispose();
  assert.deepEqual(JSON.parse(JSON.stringify(f)), { CuckooFilter: summary.CuckooFilter, disposed: true });
});

test('after dispose(), every call throws an Error saying so', async () => {
  const f = await CuckooFilter.create({ capacity: 100 });
  f.dispose();
  assert.throws(() => f.add('a'), {
    name: 'Error',
    message: 'cuckoo-wasm: CuckooFilter.add() called after dispose(): the filter was disposed',
  });
  assert.throws(() => f.bitsPerItem, /CuckooFilter\.bitsPerItem read after dispose/);
  // Whatever the key: the filter's state is the first thing wrong.
  for (const method of methods) {
    for (const key of [null, 1.5, -1, 'ok']) assert.throws(() => f[method](key), /called after dispose\(\)/, `${method}(${key})`);
  }
});

test('a key whose reading disposes the filter: the call throws instead of using freed memory', async () => {
  for (const method of methods) {
    const g = await CuckooFilter.create({ capacity: 100 });
    // The bytes are read through the intrinsic getters, but bytesOf() still reads `length` as the key
    // spells it (to spot a subclass that redefines it), and that runs the key's own code.
    class Disposing extends Uint8Array {
      get length() {
        g.dispose();
        return 4;
      }
    }
    assert.throws(() => g[method](new Disposing(4)), /after dispose\(\)/, method);
  }
});

test('ready retries after a failed load, as create() does', () => {
  const index = fileURLToPath(new URL('../js/index.js', import.meta.url));
  const script = `
    import { CuckooFilter } from ${JSON.stringify(index)};
    const wasm = globalThis.WebAssembly;
    globalThis.WebAssembly = undefined;
    try { await CuckooFilter.ready; console.log('resolved'); } catch (e) { console.log('rejected'); }
    globalThis.WebAssembly = wasm;
    await CuckooFilter.ready;
    console.log(new CuckooFilter({ capacity: 10 }).add('ok'));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n'), ['rejected', 'true']);
});

test('the synchronous API before the module is loaded throws an Error that says what to do', () => {
  const index = fileURLToPath(new URL('../js/index.js', import.meta.url));
  const script = `
    import { CuckooFilter } from ${JSON.stringify(index)};
    try { new CuckooFilter({ capacity: 10 }); console.log('no error'); }
    catch (e) { console.log(e.constructor.name + ': ' + e.message); }
    try { CuckooFilter.deserializeSync(new Uint8Array(64)); console.log('no error'); }
    catch (e) { console.log(e.constructor.name + ': ' + e.message); }
    await CuckooFilter.ready;
    console.log(new CuckooFilter({ capacity: 10 }).add('ok'));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.match(lines[0], /^Error: cuckoo-wasm: the WebAssembly module is not loaded yet: `await CuckooFilter.ready`/);
  assert.match(lines[1], /^Error: cuckoo-wasm: the WebAssembly module is not loaded yet/);
  assert.equal(lines[2], 'true');
});

test('without WebAssembly (node --jitless), ready and create() reject with an Error that says so', () => {
  const index = fileURLToPath(new URL('../js/index.js', import.meta.url));
  const script = `
    import { CuckooFilter } from ${JSON.stringify(index)};
    let ready;
    try { ready = CuckooFilter.ready; } catch (e) { console.log('threw synchronously: ' + e.message); }
    try { await ready; console.log('resolved'); } catch (e) { console.log(e.constructor.name + ': ' + e.message); }
    try { await CuckooFilter.create({ capacity: 10 }); console.log('resolved'); }
    catch (e) { console.log(e.constructor.name + ': ' + e.message); }
  `;
  const r = spawnSync(process.execPath, ['--jitless', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 2, r.stdout);
  for (const line of lines) assert.match(line, /^Error: cuckoo-wasm: this JavaScript engine has no WebAssembly/);
});
