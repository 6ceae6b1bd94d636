// Exact replies of every CF.* command over raw RESP2 and RESP3: reply types, values and error texts
// (RedisBloom's, where the semantics are the same; docs/redis.md lists the differences).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, connect, plain, infoObject } from './helpers.js';

let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.kill();
});

async function client(protocol) {
  const c = await connect(server.port);
  if (protocol === 3) assert.equal((await c.send('HELLO', '3')).type, 'map');
  return c;
}

function check(reply, type, value) {
  assert.equal(reply.type, type, `expected ${type}, got ${JSON.stringify(reply)}`);
  if (value === undefined) return;
  if (type === 'bulk') assert.equal(reply.value.toString('latin1'), value);
  else if (type === 'error' && value instanceof RegExp) assert.match(reply.value, value);
  else assert.deepEqual(reply.value, value);
}

for (const protocol of [2, 3]) {
  const bool = (b) => (protocol === 3 ? ['bool', b] : ['integer', b ? 1 : 0]);
  const k = (name) => `p${protocol}:${name}`;

  test(`RESP${protocol}: replies of each command`, async () => {
    const c = await client(protocol);
    const r = (...args) => c.send(...args);
    check(await r('CF.RESERVE', k('f'), '1000'), 'simple', 'OK');
    check(await r('CF.ADD', k('f'), 'a'), ...bool(true));
    check(await r('CF.ADDNX', k('f'), 'a'), ...bool(false));
    check(await r('CF.ADDNX', k('f'), 'b'), ...bool(true));
    check(await r('CF.EXISTS', k('f'), 'a'), ...bool(true));
    check(await r('CF.EXISTS', k('f'), 'zzz'), ...bool(false));
    const m = await r('CF.MEXISTS', k('f'), 'a', 'zzz', 'b');
    check(m, 'array');
    assert.deepEqual(
      m.value,
      [bool(true), bool(false), bool(true)].map(([type, value]) => ({ type, value })),
    );
    check(await r('CF.COUNT', k('f'), 'a'), 'integer', 1);
    check(await r('CF.COUNT', k('f'), 'zzz'), 'integer', 0);
    // CF.INSERT: booleans in RESP3, 1 / -1 in RESP2; CF.INSERTNX: integers 1 / 0 / -1 in both.
    const ins = await r('CF.INSERT', k('f'), 'ITEMS', 'c', 'd');
    assert.deepEqual(
      ins.value,
      [bool(true), bool(true)].map(([type, value]) => ({ type, value })),
    );
    const nx = await r('CF.INSERTNX', k('f'), 'ITEMS', 'c', 'e');
    assert.deepEqual(nx.value, [
      { type: 'integer', value: 0 },
      { type: 'integer', value: 1 },
    ]);
    check(await r('CF.DEL', k('f'), 'a'), ...bool(true));
    check(await r('CF.DEL', k('f'), 'a'), ...bool(false));
    const info = await r('CF.INFO', k('f'));
    const names = [
      'Size',
      'Number of buckets',
      'Number of filters',
      'Number of items inserted',
      'Number of items deleted',
      'Bucket size',
      'Expansion rate',
      'Max iterations',
    ];
    if (protocol === 3) {
      check(info, 'map');
      assert.deepEqual(
        info.value.map(([name]) => name.value),
        names,
      );
      for (const [name, value] of info.value) {
        check(name, 'simple');
        check(value, 'integer');
      }
    } else {
      check(info, 'array');
      assert.equal(info.value.length, 16);
      assert.deepEqual(
        info.value.filter((_, i) => i % 2 === 0).map((x) => x.value),
        names,
      );
    }
    const fields = infoObject(info);
    assert.equal(fields['Number of items inserted'], 4); // b, c, d, e
    assert.equal(fields['Number of items deleted'], 1);
    assert.equal(fields['Number of filters'], 1);
    assert.equal(fields['Bucket size'], 4);
    assert.equal(fields['Expansion rate'], 2);
    assert.equal(fields['Max iterations'], 500);
    check(await r('CF.COMPACT', k('f')), 'simple', 'OK');
    // CF.ADD creates a growing filter with the defaults.
    check(await r('CF.ADD', k('auto'), 'x'), ...bool(true));
    const auto = infoObject(await r('CF.INFO', k('auto')));
    assert.equal(auto['Expansion rate'], 2);
    assert.equal(auto['Number of items inserted'], 1);
    c.close();
  });

  test(`RESP${protocol}: missing keys and keys of another type`, async () => {
    const c = await client(protocol);
    const r = (...args) => c.send(...args);
    const wrongType = 'WRONGTYPE Operation against a key holding the wrong kind of value';
    check(await r('SET', k('s'), 'v'), 'simple', 'OK');
    for (const key of [k('missing'), k('s')]) {
      // As RedisBloom: lookups on a missing key or another type answer "no", without an error.
      check(await r('CF.EXISTS', key, 'a'), ...bool(false));
      check(await r('CF.COUNT', key, 'a'), 'integer', 0);
      const m = await r('CF.MEXISTS', key, 'a', 'b');
      assert.deepEqual(
        m.value,
        [bool(false), bool(false)].map(([type, value]) => ({ type, value })),
      );
      check(await r('CF.DEL', key, 'a'), 'error', 'Not found');
      check(await r('CF.COMPACT', key), 'error', 'Cuckoo filter was not found');
    }
    check(await r('CF.INFO', k('missing')), 'error', 'ERR not found');
    check(await r('CF.SCANDUMP', k('missing'), '0'), 'error', 'ERR not found');
    check(await r('CF.EXPORT', k('missing')), 'error', 'ERR not found');
    check(await r('CF.INSERT', k('missing'), 'NOCREATE', 'ITEMS', 'a'), 'error', 'ERR not found');
    check(await r('CF.INSERTNX', k('missing'), 'NOCREATE', 'ITEMS', 'a'), 'error', 'ERR not found');
    for (const args of [
      ['CF.ADD', k('s'), 'a'],
      ['CF.ADDNX', k('s'), 'a'],
      ['CF.INSERT', k('s'), 'ITEMS', 'a'],
      ['CF.INSERTNX', k('s'), 'ITEMS', 'a'],
      ['CF.RESERVE', k('s'), '100'],
      ['CF.INFO', k('s')],
      ['CF.SCANDUMP', k('s'), '0'],
      ['CF.EXPORT', k('s')],
      ['CF.IMPORT', k('s'), 'x'],
      ['CF.LOADCHUNK', k('s'), '57', 'x'.repeat(56)],
    ]) {
      check(await r(...args), 'error', wrongType);
    }
    // A string command on a filter.
    check(await r('CF.ADD', k('cf'), 'a'), ...bool(true));
    check(await r('GET', k('cf')), 'error', wrongType);
    check(await r('TYPE', k('cf')), 'simple', 'cuckoo-cf');
    c.close();
  });

  test(`RESP${protocol}: argument errors`, async () => {
    const c = await client(protocol);
    const r = (...args) => c.send(...args);
    const arity = (cmd) => `ERR wrong number of arguments for '${cmd}' command`;
    check(await r('CF.RESERVE', k('r')), 'error', arity('cf.reserve'));
    check(await r('CF.RESERVE', k('r'), '100', 'BUCKETSIZE'), 'error', arity('cf.reserve'));
    check(await r('CF.ADD', k('r')), 'error', arity('cf.add'));
    check(await r('CF.ADD', k('r'), 'a', 'b'), 'error', arity('cf.add'));
    check(await r('CF.EXISTS', k('r'), 'a', 'b'), 'error', arity('cf.exists'));
    check(await r('CF.MEXISTS', k('r')), 'error', arity('cf.mexists'));
    check(await r('CF.INSERT', k('r'), 'ITEMS'), 'error', arity('cf.insert'));
    check(await r('CF.INSERT', k('r'), 'CAPACITY', '100', 'ITEMS'), 'error', arity('cf.insert'));
    check(await r('CF.INFO', k('r'), 'x'), 'error', arity('cf.info'));
    check(await r('CF.LOADCHUNK', k('r'), '1'), 'error', arity('cf.loadchunk'));

    check(await r('CF.RESERVE', k('r'), 'many'), 'error', 'Bad capacity');
    check(await r('CF.RESERVE', k('r'), '7'), 'error', 'Capacity must be in the range [2 * BUCKETSIZE, 1073741824]');
    check(await r('CF.RESERVE', k('r'), '1073741825'), 'error', 'Capacity must be in the range [2 * BUCKETSIZE, 1073741824]');
    check(await r('CF.RESERVE', k('r'), '100', 'BUCKETSIZE', 'x'), 'error', "Couldn't parse BUCKETSIZE");
    check(await r('CF.RESERVE', k('r'), '100', 'BUCKETSIZE', '0'), 'error', 'BUCKETSIZE: value must be in the range [1, 255]');
    check(await r('CF.RESERVE', k('r'), '100', 'BUCKETSIZE', '3'), 'error', 'BUCKETSIZE: value must be 2, 4 or 8');
    check(await r('CF.RESERVE', k('r'), '100', 'MAXITERATIONS', 'x'), 'error', "Couldn't parse MAXITERATIONS");
    check(await r('CF.RESERVE', k('r'), '100', 'MAXITERATIONS', '65536'), 'error', 'MAXITERATIONS: value must be in the range [1, 65535]');
    check(await r('CF.RESERVE', k('r'), '100', 'EXPANSION', 'x'), 'error', "Couldn't parse EXPANSION");
    check(await r('CF.RESERVE', k('r'), '100', 'EXPANSION', '32769'), 'error', 'EXPANSION: value must be in the range [0, 32768]');
    check(await r('CF.RESERVE', k('r'), '100', 'EXPANSION', '4'), 'error', /^EXPANSION: value must be 0 \(a fixed filter\), 1 or 2/);
    check(await r('CF.RESERVE', k('r'), '100', 'FPR', 'x'), 'error', "Couldn't parse FPR");
    check(await r('CF.RESERVE', k('r'), '100', 'FPR', '1'), 'error', 'FPR: value must be in the range (0, 1)');
    check(await r('CF.RESERVE', k('r'), '100', 'FPR', '1e-12'), 'error', /^ERR .*fpr/);
    check(await r('EXISTS', k('r')), 'integer', 0); // nothing was created by a refused RESERVE
    // Unknown option pairs are ignored; keywords in any case and order.
    check(await r('CF.RESERVE', k('r'), '100', 'expansion', '0', 'NOSUCH', 'x', 'bucketsize', '2', 'MaxIterations', '20', 'FPR', '0.001'), 'simple', 'OK');
    const info = infoObject(await r('CF.INFO', k('r')));
    assert.equal(info['Bucket size'], 2);
    assert.equal(info['Expansion rate'], 0);
    assert.equal(info['Max iterations'], 20);
    assert.equal(info['Number of filters'], 1);
    check(await r('CF.RESERVE', k('r'), '100'), 'error', 'ERR item exists');

    check(await r('CF.INSERT', k('r'), 'BOGUS', 'ITEMS', 'a'), 'error', 'Unknown argument received');
    check(await r('CF.INSERT', k('r'), 'CAPACITY', 'x', 'ITEMS', 'a'), 'error', 'Bad capacity');
    check(await r('CF.INSERT', k('r'), 'CAPACITY', '0', 'ITEMS', 'a'), 'error', 'Capacity must be in the range [2 * BUCKETSIZE, 1073741824]');
    check(await r('CF.INSERT', k('r'), 'NOCREATE', 'a', 'b'), 'error', 'Unknown argument received');
    check(await r('CF.INSERT', k('r'), 'FPR', '2', 'ITEMS', 'a'), 'error', 'FPR: value must be in the range (0, 1)');
    // Everything after ITEMS is an item, even a keyword.
    const kw = await r('CF.INSERT', k('kw'), 'capacity', '5000', 'fpr', '0.0001', 'items', 'NOCREATE', 'ITEMS');
    assert.equal(kw.value.length, 2);
    check(await r('CF.EXISTS', k('kw'), 'NOCREATE'), ...bool(true));
    // CAPACITY is ignored for an existing key.
    check((await r('CF.INSERT', k('kw'), 'CAPACITY', '100000', 'ITEMS', 'z')).value[0], ...bool(true));

    check(await r('CF.SCANDUMP', k('r'), '-1'), 'error', 'Invalid position');
    check(await r('CF.SCANDUMP', k('r'), 'x'), 'error', 'Invalid position');
    check(await r('CF.LOADCHUNK', k('new'), '0', 'x'), 'error', 'Invalid position');
    check(await r('CF.LOADCHUNK', k('new'), 'x', 'x'), 'error', 'Invalid position');
    c.close();
  });

  test(`RESP${protocol}: a full fixed filter refuses adds with RedisBloom's error and loses nothing`, async () => {
    const c = await client(protocol);
    const key = k('full');
    check(await c.send('CF.RESERVE', key, '64', 'EXPANSION', '0'), 'simple', 'OK');
    const added = [];
    let refused = null;
    for (let i = 0; i < 1000 && refused === null; i++) {
      const reply = await c.send('CF.ADD', key, `item-${i}`);
      if (reply.type === 'error') refused = reply.value;
      else added.push(`item-${i}`);
    }
    assert.ok(refused !== null, 'a 64-item fixed filter took 1000 items');
    assert.ok(refused === 'Filter is full' || refused.startsWith('Filter is full for this item'), refused);
    check(await c.send('CF.ADD', key, 'one-more'), 'error', /^Filter is full/);
    const ins = await c.send('CF.INSERT', key, 'ITEMS', 'x1', 'x2');
    assert.deepEqual(
      ins.value.map((x) => x.value),
      protocol === 3 ? [false, false] : [-1, -1],
    );
    const nx = await c.send('CF.INSERTNX', key, 'ITEMS', 'x1');
    assert.deepEqual(nx.value, [{ type: 'integer', value: -1 }]);
    const found = await c.pipeline(added.map((item) => ['CF.EXISTS', key, item]));
    assert.ok(
      found.every((x) => x.value === true || x.value === 1),
      'an added item is missing',
    );
    // A delete makes room again.
    check(await c.send('CF.DEL', key, added[0]), ...bool(true));
    check(await c.send('CF.ADD', key, added[0]), ...bool(true));
    c.close();
  });

  test(`RESP${protocol}: a key's repeated copies are refused alone`, async () => {
    const c = await client(protocol);
    const key = k('copies');
    check(await c.send('CF.RESERVE', key, '1000', 'EXPANSION', '0'), 'simple', 'OK');
    for (let i = 0; i < 8; i++) check(await c.send('CF.ADD', key, 'same'), ...bool(true));
    check(await c.send('CF.ADD', key, 'same'), 'error', /^Filter is full for this item/);
    check(await c.send('CF.ADD', key, 'other'), ...bool(true));
    check(await c.send('CF.COUNT', key, 'same'), 'integer', 8);
    c.close();
  });
}

test('MEMORY USAGE reports the filter, CF.INFO its size', async () => {
  const c = await connect(server.port);
  assert.equal(plain(await c.send('CF.RESERVE', 'mem', '1000000', 'FPR', '0.001')), 'OK');
  const usage = plain(await c.send('MEMORY', 'USAGE', 'mem'));
  const size = infoObject(await c.send('CF.INFO', 'mem')).Size;
  const bytes = (await c.send('CF.EXPORT', 'mem')).value.length;
  assert.ok(usage >= bytes && usage < bytes * 1.1 + 4096, `MEMORY USAGE ${usage} for ${bytes} bytes of filter`);
  assert.ok(size >= bytes && size <= usage, `CF.INFO Size ${size}`);
  c.close();
});

test('the module refuses MODULE UNLOAD (it has a data type) and keeps serving', async () => {
  const c = await connect(server.port);
  const list = plain(await c.send('MODULE', 'LIST'));
  assert.ok(JSON.stringify(list).includes('cuckoo'));
  const reply = await c.send('MODULE', 'UNLOAD', 'cuckoo');
  check(reply, 'error', /data types/);
  assert.equal(plain(await c.send('CF.ADD', 'after-unload', 'a')), 1);
  c.close();
});

test('MAX_FILTER_BYTES caps growing filters: "Maximum expansions reached", nothing lost', async () => {
  const capped = await startServer({ moduleArgs: ['MAX_FILTER_BYTES', '200000'] });
  try {
    const c = await connect(capped.port);
    const added = [];
    let refused = null;
    for (let i = 0; i < 400_000 && refused === null; i += 1000) {
      const replies = await c.pipeline(Array.from({ length: 1000 }, (_, j) => ['CF.ADD', 'capped', `c${i + j}`]));
      replies.forEach((r, j) => {
        if (r.type === 'error') refused ??= r.value;
        else added.push(`c${i + j}`);
      });
    }
    assert.equal(refused, 'Maximum expansions reached');
    const info = infoObject(await c.send('CF.INFO', 'capped'));
    assert.ok(info['Number of filters'] > 1 && info['Number of items inserted'] === added.length);
    const found = await c.pipeline(added.map((item) => ['CF.EXISTS', 'capped', item]));
    assert.ok(
      found.every((r) => r.value === 1),
      'an added item is missing',
    );
    // A fixed filter is not capped by it; a growing one whose first level alone is larger is refused.
    assert.equal(plain(await c.send('CF.RESERVE', 'big-fixed', '1000000', 'EXPANSION', '0')), 'OK');
    assert.match((await c.send('CF.RESERVE', 'big-growing', '1000000')).value, /^ERR .*max_memory_bytes/);
    c.close();
  } finally {
    await capped.kill();
  }
});

test('COPY, RENAME, DEBUG DIGEST-VALUE and OBJECT ENCODING work on filters', async () => {
  const c = await connect(server.port);
  await c.pipeline(Array.from({ length: 500 }, (_, i) => ['CF.ADD', 'orig', `o${i}`]));
  assert.equal(plain(await c.send('COPY', 'orig', 'copied')), 1);
  const bytes = (await c.send('CF.EXPORT', 'orig')).value;
  assert.ok(Buffer.compare((await c.send('CF.EXPORT', 'copied')).value, bytes) === 0);
  // The copy is its own filter: a write to one leaves the other as it was.
  assert.equal(plain(await c.send('CF.ADD', 'copied', 'only-in-copy')), 1);
  assert.ok(Buffer.compare((await c.send('CF.EXPORT', 'orig')).value, bytes) === 0);
  const [a, b] = plain(await c.send('DEBUG', 'DIGEST-VALUE', 'orig', 'copied'));
  assert.notEqual(a, b);
  assert.equal(plain(await c.send('CF.DEL', 'copied', 'only-in-copy')), 1);
  const [a2, b2] = plain(await c.send('DEBUG', 'DIGEST-VALUE', 'orig', 'copied'));
  assert.equal(a2, b2);
  assert.equal(plain(await c.send('RENAME', 'copied', 'renamed')), 'OK');
  assert.equal(plain(await c.send('CF.EXISTS', 'renamed', 'o7')), 1);
  c.close();
});
