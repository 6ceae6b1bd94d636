// Persistence and the portable bytes: SAVE + restart, BGREWRITEAOF + restart and DEBUG RELOAD keep every
// key with the same bytes; CF.SCANDUMP / CF.LOADCHUNK round trips; the concatenated dump is a file the
// library reads; bad pieces are errors that leave no half-built filter and never crash the server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startServer, connect, plain, infoObject, tempDir, cuckooInfo, repoRoot } from './helpers.js';

// A few filters of different shapes, filled, with some deletes.
async function fill(c) {
  const keys = {
    fixed: ['CF.RESERVE', 'fixed', '5000', 'EXPANSION', '0', 'FPR', '0.001'],
    grown: ['CF.RESERVE', 'grown', '100', 'BUCKETSIZE', '2'],
    b8: ['CF.RESERVE', 'b8', '3000', 'BUCKETSIZE', '8', 'MAXITERATIONS', '50'],
    auto: null,
  };
  const items = {};
  for (const [key, reserve] of Object.entries(keys)) {
    if (reserve) assert.equal(plain(await c.send(...reserve)), 'OK');
    items[key] = Array.from({ length: 2000 }, (_, i) => `${key}-${i}`);
    const replies = await c.pipeline(items[key].map((item) => ['CF.ADD', key, item]));
    assert.ok(
      replies.every((r) => r.value === 1),
      `${key}: an add was refused`,
    );
    const removed = items[key].splice(0, 100);
    await c.pipeline(removed.map((item) => ['CF.DEL', key, item]));
  }
  assert.ok(infoObject(await c.send('CF.INFO', 'grown'))['Number of filters'] > 1, 'the growing filter did not grow');
  return items;
}

async function snapshot(c, keys) {
  const out = {};
  for (const key of keys) {
    out[key] = { bytes: (await c.send('CF.EXPORT', key)).value, info: infoObject(await c.send('CF.INFO', key)) };
  }
  return out;
}

async function assertSame(c, before, items, { deletesKept = true } = {}) {
  for (const [key, { bytes, info }] of Object.entries(before)) {
    const now = (await c.send('CF.EXPORT', key)).value;
    assert.ok(Buffer.compare(now, bytes) === 0, `${key}: the bytes changed`);
    const nowInfo = infoObject(await c.send('CF.INFO', key));
    if (!deletesKept) {
      nowInfo['Number of items deleted'] = info['Number of items deleted'];
    }
    nowInfo.Size = info.Size;
    assert.deepEqual(nowInfo, info, key);
    const found = await c.pipeline(items[key].map((item) => ['CF.EXISTS', key, item]));
    assert.ok(
      found.every((r) => r.value === 1),
      `${key}: an item was lost`,
    );
  }
}

test('SAVE + restart, DEBUG RELOAD, BGREWRITEAOF + restart keep every key and its bytes', async () => {
  const dir = tempDir();
  // Small pieces, so that the RDB holds each filter as many strings and the AOF as many CF.LOADCHUNKs.
  const moduleArgs = ['CHUNK_BYTES', '1000'];
  let server = await startServer({ dir, moduleArgs });
  try {
    let c = await connect(server.port);
    const items = await fill(c);
    const before = await snapshot(c, Object.keys(items));

    assert.equal(plain(await c.send('DEBUG', 'RELOAD')), 'OK');
    await assertSame(c, before, items);

    assert.equal(plain(await c.send('SAVE')), 'OK');
    c.close();
    await server.shutdown(false);
    server = await startServer({ dir, port: server.port, moduleArgs });
    c = await connect(server.port);
    await assertSame(c, before, items);
    c.close();
    await server.shutdown(false);
    rmRdb(dir);

    // AOF: the rewrite emits each filter as CF.LOADCHUNK pieces.
    server = await startServer({ dir, port: server.port, extra: ['--appendonly', 'yes', '--aof-use-rdb-preamble', 'no'], moduleArgs });
    c = await connect(server.port);
    assert.equal((await c.send('DBSIZE')).value, 0);
    await fill(c);
    assert.match(plain(await c.send('BGREWRITEAOF')), /rewriting started/);
    await waitFor(
      async () =>
        infoField(await c.send('INFO', 'persistence'), 'aof_rewrite_in_progress') === '0' &&
        infoField(await c.send('INFO', 'persistence'), 'aof_rewrite_scheduled') === '0',
    );
    c.close();
    await server.shutdown(false);
    server = await startServer({ dir, port: server.port, extra: ['--appendonly', 'yes'] });
    c = await connect(server.port);
    // The deletes counter is not in the portable bytes: an AOF rewrite does not keep it.
    await assertSame(c, before, items, { deletesKept: false });
    c.close();
  } finally {
    await server.kill();
  }
});

function rmRdb(dir) {
  const file = path.join(dir, 'dump.rdb');
  if (existsSync(file)) writeFileSync(file, '');
}

function infoField(reply, name) {
  const m = plain(reply).match(new RegExp(`^${name}:(.*)\\r?$`, 'm'));
  return m ? m[1].trim() : undefined;
}

async function waitFor(condition, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function scandump(c, key) {
  const pieces = [];
  for (let position = 0, n = 0; n < 100_000; n++) {
    const [next, piece] = (await c.send('CF.SCANDUMP', key, String(position))).value;
    if (next.value === 0) {
      assert.equal(piece.type, 'null');
      return pieces;
    }
    pieces.push({ position: next.value, bytes: piece.value });
    position = next.value;
  }
  throw new Error('CF.SCANDUMP did not end');
}

test('CF.SCANDUMP pieces are the portable bytes; CF.LOADCHUNK rebuilds the filter; bad pieces leave nothing', async () => {
  const server = await startServer({ moduleArgs: ['CHUNK_BYTES', '4096'] });
  try {
    const c = await connect(server.port);
    const items = await fill(c);
    for (const key of Object.keys(items)) {
      const pieces = await scandump(c, key);
      assert.equal(pieces[0].bytes.length, 56, 'the first piece is the header');
      assert.ok(pieces.length > 2, `${key}: ${pieces.length} pieces`);
      const dump = Buffer.concat(pieces.map((p) => p.bytes));
      const exported = (await c.send('CF.EXPORT', key)).value;
      assert.ok(Buffer.compare(dump, exported) === 0, `${key}: the dump differs from CF.EXPORT`);
      for (const p of pieces) assert.equal(plain(await c.send('CF.LOADCHUNK', `${key}:copy`, String(p.position), p.bytes)), 'OK');
      assert.ok(Buffer.compare((await c.send('CF.EXPORT', `${key}:copy`)).value, exported) === 0);
      const found = await c.pipeline(items[key].map((item) => ['CF.EXISTS', `${key}:copy`, item]));
      assert.ok(
        found.every((r) => r.value === 1),
        `${key}:copy lost an item`,
      );

      // The concatenated dump is a file the library reads.
      const file = path.join(tempDir(), `${key}.cuckoo`);
      writeFileSync(file, dump);
      const text = cuckooInfo(file);
      assert.match(text, new RegExp(`items\\s*:?\\s*${items[key].length}\\b`), text);
    }

    // CF.IMPORT takes the same bytes; a copy through it is the same filter.
    const exported = (await c.send('CF.EXPORT', 'grown')).value;
    assert.equal(plain(await c.send('CF.IMPORT', 'imported', exported)), 'OK');
    assert.ok(Buffer.compare((await c.send('CF.EXPORT', 'imported')).value, exported) === 0);
    assert.equal((await c.send('CF.IMPORT', 'imported', exported)).value, 'ERR item exists');
    assert.match((await c.send('CF.IMPORT', 'bad', exported.subarray(0, 100))).value, /^ERR cuckoo: truncated input/);
    const flipped = Buffer.from(exported);
    flipped[200] ^= 1;
    assert.match((await c.send('CF.IMPORT', 'bad', flipped)).value, /^ERR cuckoo: checksum mismatch/);
    assert.equal((await c.send('EXISTS', 'bad')).value, 0);

    // Bad pieces: each is an error, and no key is left behind.
    const pieces = await scandump(c, 'fixed');
    const load = (key, list) => c.pipeline(list.map((p) => ['CF.LOADCHUNK', key, String(p.position), p.bytes]));
    const last = (replies) => replies[replies.length - 1];
    const gone = async (key) => assert.equal((await c.send('EXISTS', key)).value, 0, `${key} was left behind`);

    // Reordered: the third piece before the second.
    let replies = await load('reordered', [pieces[0], pieces[2]]);
    assert.match(last(replies).value, /^Couldn't load chunk! Expected the chunk at byte 56, got one at byte \d+ \(the partial filter was deleted\)$/);
    await gone('reordered');
    // Missing: a piece skipped.
    replies = await load('missing', [pieces[0], pieces[1], pieces[3]]);
    assert.match(last(replies).value, /^Couldn't load chunk! Expected the chunk/);
    await gone('missing');
    // Corrupt: one bit flipped in a middle piece fails the checksum when the last piece arrives.
    const corrupt = pieces.map((p) => ({ ...p, bytes: Buffer.from(p.bytes) }));
    corrupt[1].bytes[10] ^= 0x40;
    replies = await load('corrupt', corrupt);
    assert.ok(replies.slice(0, -1).every((r) => r.value === 'OK'));
    assert.match(last(replies).value, /^ERR cuckoo: checksum mismatch.*\(the partial filter was deleted\)$/);
    await gone('corrupt');
    // Truncated piece: shorter than its position says.
    replies = await load('truncated', [pieces[0], { ...pieces[1], bytes: pieces[1].bytes.subarray(0, 100) }]);
    assert.match(last(replies).value, /^Couldn't load chunk! Expected the chunk/);
    await gone('truncated');
    // A piece before the header, and a bad header.
    assert.equal((await c.send('CF.LOADCHUNK', 'nohead', String(pieces[1].position), pieces[1].bytes)).value, 'ERR not found');
    assert.equal((await c.send('CF.LOADCHUNK', 'badhead', '57', Buffer.alloc(56, 7))).value, 'Invalid header');
    assert.equal((await c.send('CF.LOADCHUNK', 'badhead', '11', Buffer.alloc(10, 7))).value, 'Invalid header');
    await gone('nohead');
    await gone('badhead');
    // A dump that stops early leaves a key that says it is incomplete, and nothing pretends to be a filter.
    await load('partial', pieces.slice(0, 2));
    assert.match((await c.send('CF.EXISTS', 'partial', 'x')).value, /^ERR filter is incomplete: CF.LOADCHUNK has \d+ of its \d+ bytes$/);
    assert.match((await c.send('CF.ADD', 'partial', 'x')).value, /^ERR filter is incomplete/);
    assert.match((await c.send('CF.INFO', 'partial')).value, /^ERR filter is incomplete/);
    // ... which the rest of the dump completes, even after a DEBUG RELOAD.
    assert.equal(plain(await c.send('DEBUG', 'RELOAD')), 'OK');
    replies = await load('partial', pieces.slice(2));
    assert.ok(
      replies.every((r) => r.value === 'OK'),
      JSON.stringify(replies.map(plain)),
    );
    assert.ok(Buffer.compare((await c.send('CF.EXPORT', 'partial')).value, Buffer.concat(pieces.map((p) => p.bytes))) === 0);
    // A piece asked for again, out of turn, is the same bytes.
    const again = (await c.send('CF.SCANDUMP', 'fixed', String(pieces[1].position))).value;
    assert.equal(again[0].value, pieces[2].position);
    assert.ok(Buffer.compare(again[1].value, pieces[2].bytes) === 0);
    // A write in the middle of a scan: the pieces mix two states, and the load refuses them.
    const mixed = [];
    for (let position = 0; ;) {
      const [next, piece] = (await c.send('CF.SCANDUMP', 'fixed', String(position))).value;
      if (next.value === 0) break;
      mixed.push({ position: next.value, bytes: piece.value });
      if (mixed.length === 2) assert.equal((await c.send('CF.ADD', 'fixed', 'written-mid-scan')).value, 1);
      position = next.value;
    }
    replies = await load('mixed', mixed);
    assert.match(last(replies).value, /^ERR cuckoo: checksum mismatch/);
    await gone('mixed');
    // Loading onto an existing filter.
    assert.equal((await c.send('CF.LOADCHUNK', 'fixed', String(pieces[0].position), pieces[0].bytes)).value, 'ERR item exists');
    assert.equal(plain(await c.send('PING')), 'PONG');
    c.close();
  } finally {
    await server.kill();
  }
});

test('a filter built by the library loads into Redis; a Redis filter loads in JS', async (t) => {
  const server = await startServer();
  try {
    const c = await connect(server.port);
    for (let i = 0; i < 500; i++) await c.send('CF.ADD', 'web', `host-${i}.example`);
    const bytes = (await c.send('CF.EXPORT', 'web')).value;
    const dist = path.join(repoRoot, 'dist');
    if (!existsSync(path.join(dist, 'cuckoo.cjs'))) {
      t.diagnostic('dist/ is not built (npm run build): the JS half is not checked');
    } else {
      const { CuckooFilter } = await import(path.join(repoRoot, 'js/index.node.js'));
      const f = await CuckooFilter.deserialize(new Uint8Array(bytes));
      for (let i = 0; i < 500; i++) assert.equal(f.has(`host-${i}.example`), true);
      const back = f.serialize();
      assert.ok(Buffer.compare(Buffer.from(back), bytes) === 0, 'JS serialized the filter to other bytes');
      f.dispose();
    }
    // And the other way: a filter file read back in, imported.
    const file = path.join(tempDir(), 'web.cuckoo');
    writeFileSync(file, bytes);
    assert.equal(plain(await c.send('CF.IMPORT', 'web2', readFileSync(file))), 'OK');
    assert.equal((await c.send('CF.EXISTS', 'web2', 'host-7.example')).value, 1);
    c.close();
  } finally {
    await server.kill();
  }
});
