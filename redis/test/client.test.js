// node-redis with @redis/bloom, unchanged, against the module: every client.cf.* call and argument form
// the client offers, over RESP2 and RESP3.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, RESP_TYPES } from '@redis/client';
import bloom from '@redis/bloom';
import { startServer } from './helpers.js';

let server;
before(async () => {
  server = await startServer({ moduleArgs: ['CHUNK_BYTES', '2048'] });
});
after(async () => {
  await server?.kill();
});

for (const RESP of [2, 3]) {
  test(`node-redis client.cf.* over RESP${RESP}`, async () => {
    const client = createClient({ url: `redis://127.0.0.1:${server.port}`, RESP, modules: bloom.default ?? bloom });
    client.on('error', () => {});
    await client.connect();
    try {
      const k = (name) => `client${RESP}:${name}`;
      assert.equal(await client.cf.reserve(k('r'), 1000), 'OK');
      assert.equal(await client.cf.reserve(k('opts'), 1000, { BUCKETSIZE: 2, MAXITERATIONS: 20, EXPANSION: 0 }), 'OK');
      await assert.rejects(client.cf.reserve(k('r'), 1000), /ERR item exists/);
      await assert.rejects(client.cf.reserve(k('bad'), 1000, { BUCKETSIZE: 3 }), /BUCKETSIZE: value must be 2, 4 or 8/);

      assert.equal(await client.cf.add(k('r'), 'a'), true);
      assert.equal(await client.cf.addNX(k('r'), 'a'), false);
      assert.equal(await client.cf.addNX(k('r'), 'b'), true);
      assert.equal(await client.cf.exists(k('r'), 'a'), true);
      assert.equal(await client.cf.exists(k('r'), 'nope'), false);
      assert.deepEqual(await client.cf.mExists(k('r'), ['a', 'nope', 'b']), [true, false, true]);
      assert.equal(await client.cf.count(k('r'), 'a'), 1);
      assert.deepEqual(await client.cf.insert(k('r'), ['c', 'd']), [true, true]);
      assert.deepEqual(await client.cf.insert(k('ins'), 'one', { CAPACITY: 5000 }), [true]);
      await assert.rejects(client.cf.insert(k('none'), ['x'], { NOCREATE: true }), /ERR not found/);
      assert.deepEqual(await client.cf.insertNX(k('r'), ['c', 'e']), [0, 1]);
      assert.deepEqual(await client.cf.insertNX(k('insnx'), ['p', 'p'], { CAPACITY: 100, NOCREATE: false }), [1, 0]);
      assert.equal(await client.cf.del(k('r'), 'a'), true);
      assert.equal(await client.cf.del(k('r'), 'a'), false);
      await assert.rejects(client.cf.del(k('none'), 'a'), /Not found/);

      const info = await client.cf.info(k('r'));
      const get = (name) => (info instanceof Map ? info.get(name) : info[name]);
      assert.equal(get('Number of items inserted'), 4);
      assert.equal(get('Number of items deleted'), 1);
      assert.equal(get('Number of filters'), 1);
      assert.equal(get('Bucket size'), 4);
      assert.equal(get('Expansion rate'), 2);
      assert.equal(get('Max iterations'), 500);
      assert.ok(get('Size') > 0 && get('Number of buckets') > 0);
      const opts = await client.cf.info(k('opts'));
      const getOpt = (name) => (opts instanceof Map ? opts.get(name) : opts[name]);
      assert.equal(getOpt('Bucket size'), 2);
      assert.equal(getOpt('Expansion rate'), 0);
      assert.equal(getOpt('Max iterations'), 20);

      // SCANDUMP / LOADCHUNK, the documented loop, with binary chunks as Buffers.
      const binary = client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
      for (let i = 0; i < 3000; i++) await client.cf.add(k('big'), `item-${i}`);
      const chunks = [];
      for (let iterator = 0, n = 0; n < 10_000; n++) {
        const { iterator: next, chunk } = await binary.cf.scanDump(k('big'), iterator);
        if (next === 0) break;
        chunks.push({ iterator: next, chunk });
        iterator = next;
      }
      assert.ok(chunks.length > 2);
      for (const { iterator, chunk } of chunks) assert.equal(await binary.cf.loadChunk(k('big-copy'), iterator, chunk), 'OK');
      for (let i = 0; i < 3000; i += 97) assert.equal(await client.cf.exists(k('big-copy'), `item-${i}`), true);
      const a = await binary.sendCommand(['CF.EXPORT', k('big')]);
      const b = await binary.sendCommand(['CF.EXPORT', k('big-copy')]);
      assert.ok(Buffer.compare(a, b) === 0);

      // Wrong type: a CF command on a string, a string command on a filter.
      await client.set(k('str'), 'v');
      await assert.rejects(client.cf.add(k('str'), 'a'), /WRONGTYPE/);
      await assert.rejects(client.get(k('r')), /WRONGTYPE/);
    } finally {
      await client.quit();
    }
  });
}
