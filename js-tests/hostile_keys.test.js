// js-tests/hostile_keys.test.js: keys a careful user (or an attacker feeding keys) might pass that stress
// how keys reach wasm memory: very long keys, detached buffers, look-alike objects, and arrays whose
// getters call back into the package while a batch is being packed. None may lose a stored key, corrupt
// wasm memory or leave the module unusable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CuckooFilter } from '../js/index.js';
import { rt, malloc, kKeptScratch, kMinScratch } from '../js/memory.js'; // internals: scratch size and the allocator

const nextTask = () => new Promise((resolve) => setImmediate(resolve));

// A filter holding 'k0'..'k{n-1}', and a check that every one is still there.
async function stocked(n = 5000) {
  const f = await CuckooFilter.create({ capacity: 2 * n });
  for (let i = 0; i < n; i++) assert.equal(f.add(`k${i}`), true);
  const intact = () => {
    for (let i = 0; i < n; i++) if (!f.has(`k${i}`)) return false;
    return true;
  };
  return { f, intact };
}

test('long keys hash their exact bytes, and their scratch memory is given back after the task', async () => {
  const { f, intact } = await stocked();
  const ascii = 'a'.repeat(8 << 20);
  const wide = 'é'.repeat(3 << 20); // 2 UTF-8 bytes per code unit
  const bytes = new Uint8Array(9 << 20).fill(7);
  for (const key of [ascii, wide, bytes]) assert.equal(f.add(key), true);
  assert.ok(rt.scratchCap > kKeptScratch, 'a long key gets a scratch buffer of its size');
  await nextTask();
  assert.ok(rt.scratchCap <= kKeptScratch, `scratch still ${rt.scratchCap} bytes after the task`);
  assert.ok(rt.scratchCap >= kMinScratch, 'the per-key road for short strings needs the minimum scratch size');
  assert.equal(f.add('short key'), true);
  assert.equal(f.has('short key'), true);
  // The same keys as bytes and in a batch: the same answers.
  assert.equal(f.has(new TextEncoder().encode(wide)), true);
  assert.deepEqual([...f.hasMany([ascii, wide, bytes, 'absent'.repeat(1 << 20)])], [1, 1, 1, 0]);
  assert.equal(f.count(ascii), 1);
  assert.ok(intact());
  // Repeated long keys do not ratchet memory up: the module's memory stays put after the first round.
  const memory = () => rt.heap.buffer.byteLength;
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 5; i++) f.has(`${i}`.repeat(6 << 20));
    f.hasMany([`${round}`.repeat(6 << 20)]);
    await nextTask();
  }
  const settled = memory();
  for (let round = 0; round < 5; round++) {
    for (let i = 0; i < 5; i++) f.has(`${i}`.repeat(6 << 20));
    f.hasMany([`${round}`.repeat(6 << 20)]);
    await nextTask();
  }
  assert.equal(memory(), settled, 'wasm memory grew over rounds of long keys');
  f.dispose();
});

test('the allocator refuses sizes wasm32 cannot express instead of wrapping them to malloc(0)', async () => {
  await CuckooFilter.ready;
  for (const bytes of [2 ** 32, 2 ** 32 + 16, 2 ** 40, -1, NaN]) {
    assert.throws(() => malloc(bytes), { name: 'RangeError', message: /cannot allocate/ }, String(bytes));
  }
});

test('a key whose ArrayBuffer was transferred is a TypeError, in single calls, batches and deserialize', async () => {
  const { f, intact } = await stocked(100);
  // A view (or buffer) made first, whose buffer is then transferred away.
  const detached = (View) => {
    const buffer = new ArrayBuffer(16);
    const key = View === null ? buffer : new View(buffer);
    structuredClone(buffer, { transfer: [buffer] });
    return key;
  };
  const message = /the ArrayBuffer is detached/;
  for (const make of [() => detached(Uint8Array), () => detached(DataView), () => detached(Float64Array), () => detached(null)]) {
    for (const method of ['add', 'has', 'delete', 'count']) {
      assert.throws(() => f[method](make()), { name: 'TypeError', message }, method);
    }
    assert.throws(() => f.hasMany(['k0', make()]), { name: 'TypeError', message });
  }
  // addAll checks every key first: a detached one far into the list means nothing is added.
  const keys = Array.from({ length: 20000 }, (_, i) => `new${i}`);
  keys.push(detached(Uint8Array));
  assert.throws(() => f.addAll(keys), { name: 'TypeError', message });
  assert.equal(f.has('new0'), false);
  assert.throws(() => CuckooFilter.deserializeSync(detached(Uint8Array)), { name: 'TypeError', message });
  // An empty key that is not detached is still the empty key.
  assert.equal(f.add(new Uint8Array(0)), true);
  assert.equal(f.has(''), true);
  assert.ok(f.delete(new ArrayBuffer(0)));
  assert.ok(intact());
  f.dispose();
});

// Resizable ArrayBuffers (ES2024) arrived in Node 20; Node 18 ignores maxByteLength and has no resize().
const canResize = typeof ArrayBuffer.prototype.resize === 'function';

test(
  'a view left outside its resizable ArrayBuffer when it shrank is a TypeError, never the empty key',
  { skip: !canResize && 'no resizable ArrayBuffer in this Node' },
  async () => {
    const { f, intact } = await stocked(100);
    assert.equal(f.add(new Uint8Array(0)), true, 'the empty key is in: a view read as empty would match it');
    const makers = [
      (buffer) => new Uint8Array(buffer, 4, 4),
      (buffer) => new Uint8Array(buffer, 4), // length-tracking
      (buffer) => new Uint32Array(buffer, 4, 1),
      (buffer) => new Uint16Array(buffer, 4),
      (buffer) => new DataView(buffer, 4, 4),
      (buffer) => new DataView(buffer, 4),
    ];
    const message = /the view lies outside its ArrayBuffer, which was resized smaller/;
    for (const make of makers) {
      const buffer = new ArrayBuffer(8, { maxByteLength: 16 });
      new Uint8Array(buffer).set([1, 2, 3, 4, 5, 6, 7, 8]);
      const view = make(buffer);
      // In bounds, a view of a resizable buffer is its bytes like any other.
      assert.equal(f.has(view), f.has(new Uint8Array([5, 6, 7, 8])), `${view.constructor.name} in bounds`);
      buffer.resize(2);
      for (const method of ['add', 'has', 'delete', 'count']) {
        assert.throws(() => f[method](view), { name: 'TypeError', message }, `${method}(${view.constructor.name})`);
      }
      assert.throws(() => f.hasMany(['k0', view]), { name: 'TypeError', message: /\(the key at index 1\)/ });
      assert.throws(() => f.addAll(['new-a', view]), { name: 'TypeError', message });
      assert.throws(() => CuckooFilter.deserializeSync(view), { name: 'TypeError', message });
    }
    assert.equal(f.has('new-a'), false, 'addAll added nothing');
    assert.equal(f.count(new Uint8Array(0)), 1);
    assert.ok(intact());
    f.dispose();
  },
);

test('a view whose length lies (Uint8Array or DataView subclass, own property) is hashed by its real bytes', async () => {
  const { f, intact } = await stocked();
  class Short extends Uint8Array {
    get length() {
      return 0;
    }
  }
  const liar = new Short(200000).fill(3);
  const shadowed = new Uint8Array(200000).fill(4);
  Object.defineProperty(shadowed, 'length', { value: 1 });
  for (const key of [liar, shadowed]) {
    assert.equal(f.add(key), true);
    assert.equal(f.has(new Uint8Array(key.buffer)), true, 'the same bytes, honest length');
    assert.deepEqual([...f.hasMany([key, 'k1'])], [1, 1]);
  }
  assert.equal(f.addAll([liar, shadowed]), 2);
  class LongDataView extends DataView {
    get byteLength() {
      return 100;
    }
  }
  const dataView = new LongDataView(new Uint8Array([9, 8, 7]).buffer);
  assert.equal(f.add(dataView), true);
  assert.equal(f.has(new Uint8Array([9, 8, 7])), true);
  assert.deepEqual([...f.hasMany([dataView])], [1]);
  assert.ok(intact(), 'no key lost: nothing was written past the scratch buffer');
  f.dispose();
});

test('objects posing as an ArrayBuffer (Symbol.toStringTag) are a TypeError', async () => {
  const f = await CuckooFilter.create({ capacity: 100 });
  const fake = { [Symbol.toStringTag]: 'ArrayBuffer', length: 3, 0: 97, 1: 98, 2: 99 };
  assert.throws(() => f.add(fake), { name: 'TypeError', message: /a key must be/ });
  assert.throws(() => f.addAll([fake]), { name: 'TypeError' });
  assert.throws(() => CuckooFilter.deserializeSync(fake), { name: 'TypeError' });
  assert.equal(f.size, 0);
  f.dispose();
});

test('a Proxy around a Uint8Array, or an object that only inherits from one, is a TypeError that says so', async () => {
  const f = await CuckooFilter.create({ capacity: 100 });
  const posers = [new Proxy(new Uint8Array([97, 98, 99]), {}), Object.create(Uint8Array.prototype)];
  for (const poser of posers) {
    for (const call of [() => f.add(poser), () => f.has(poser), () => f.delete(poser), () => f.count(poser)]) {
      assert.throws(call, { name: 'TypeError', message: /inherits from Uint8Array but is not one/ });
    }
    assert.throws(() => f.addAll(['a', poser]), { name: 'TypeError', message: /not one.*\(the key at index 1\)$/ });
    assert.throws(() => f.hasMany([poser]), { name: 'TypeError', message: /\(the key at index 0\)$/ });
  }
  assert.equal(f.size, 0, 'addAll() added nothing');
  const bytes = f.serialize();
  for (const poser of [new Proxy(bytes, {}), Object.create(Uint8Array.prototype)]) {
    assert.throws(() => CuckooFilter.deserializeSync(poser), { name: 'TypeError', message: /inherits from Uint8Array/ });
  }
  f.dispose();
});

test('a key getter that calls back into the package cannot corrupt a batch', async () => {
  const { f, intact } = await stocked();
  const other = await CuckooFilter.create({ capacity: 1000 });
  const keys = Array.from({ length: 10 }, (_, i) => `k${i}`);
  const withGetter = (get) => {
    const list = keys.slice();
    Object.defineProperty(list, 5, { get });
    return list;
  };
  // A nested batch (any filter) would overwrite this one's keys: it throws instead.
  const nested = withGetter(() => (other.hasMany(['x', 'y']), 'k5'));
  assert.throws(() => f.hasMany(nested), { name: 'Error', message: /hasMany\(\) called while another/ });
  assert.throws(() => other.addAll(nested), { name: 'Error', message: /while another/ });
  assert.deepEqual(
    [...f.hasMany(keys)],
    keys.map(() => 1),
    'batches work again afterwards',
  );
  // A single call that grows wasm memory mid-batch: the batch still sees every key's bytes.
  const grown = [];
  const growing = withGetter(() => {
    grown.push(new CuckooFilter({ capacity: 3_000_000 }));
    other.add('z'.repeat(4 << 20));
    return 'k5';
  });
  const fresh = await CuckooFilter.create({ capacity: 1000 });
  assert.equal(fresh.addAll(growing), 10);
  assert.deepEqual(
    [...fresh.hasMany(keys)],
    keys.map(() => 1),
  );
  assert.deepEqual(
    [...f.hasMany(growing)],
    keys.map(() => 1),
  );
  // A getter that grows memory on each of its first three reads (each repack reads it again): still
  // every key's bytes. A filter of memory/4 keys takes ~40% of the memory, more than any growth leaves free.
  let reads = 0;
  const everyRead = withGetter(() => {
    if (reads++ < 3) {
      const before = rt.heap.buffer.byteLength;
      grown.push(new CuckooFilter({ capacity: Math.ceil(before / 4) }));
      assert.ok(rt.heap.buffer.byteLength > before, 'the getter grew memory');
    }
    return 'k5';
  });
  assert.deepEqual(
    [...f.hasMany(everyRead)],
    keys.map(() => 1),
  );
  assert.ok(reads >= 3);
  // Disposing the filter from inside its own batch: the batch stops with the disposed error.
  const disposing = withGetter(() => (fresh.dispose(), 'k5'));
  const target = fresh;
  assert.throws(() => target.hasMany(disposing), { message: /after dispose\(\)/ });
  assert.ok(intact());
  for (const g of grown) g.dispose();
  other.dispose();
  f.dispose();
});

// A getter that grows memory detaches the view a batch packs through; strings the packing loop then hands
// to encodeInto (long or non-ASCII ones) must not throw on it, and the chunk is packed again.
test('a getter that grows memory, then long and non-ASCII strings in the same chunk: the batch is right', async () => {
  const tail = ['k'.repeat(30), 'u'.repeat(100), 'é'.repeat(5), 'x'.repeat(20)];
  const grown = [];
  const growOnFirstRead = () => {
    const list = ['a', 'b', ...tail];
    let reads = 0;
    Object.defineProperty(list, 1, {
      get() {
        if (reads++ === 0) {
          const before = rt.heap.buffer.byteLength;
          while (rt.heap.buffer.byteLength === before) grown.push(new CuckooFilter({ capacity: Math.ceil(before / 4) }));
        }
        return 'b';
      },
    });
    return list;
  };
  const plain = ['a', 'b', ...tail];
  const f = await CuckooFilter.create({ capacity: 1000, seed: 3 });
  const reference = await CuckooFilter.create({ capacity: 1000, seed: 3 });
  assert.equal(f.addAll(growOnFirstRead()), plain.length);
  for (const k of plain) reference.add(k);
  assert.deepEqual(f.serialize(), reference.serialize());
  assert.deepEqual(
    [...reference.hasMany(growOnFirstRead())],
    plain.map(() => 1),
  );
  for (const x of [...grown, f, reference]) x.dispose();
});
