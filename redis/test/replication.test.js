// A replica (a second redis-server --replicaof the first): after a full sync and a stream of adds,
// deletes, inserts and loads on the primary, every filter's bytes on the replica equal the primary's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, connect, plain } from './helpers.js';

async function waitFor(condition, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('a replica holds the same bytes as its primary', async () => {
  const primary = await startServer();
  let replica;
  try {
    const p = await connect(primary.port);
    // Before the replica exists: it gets these through the full sync (RDB).
    assert.equal(plain(await p.send('CF.RESERVE', 'before', '100', 'BUCKETSIZE', '2')), 'OK');
    await p.pipeline(Array.from({ length: 3000 }, (_, i) => ['CF.ADD', 'before', `b${i}`]));
    await p.pipeline(Array.from({ length: 300 }, (_, i) => ['CF.DEL', 'before', `b${i}`]));

    replica = await startServer({ extra: ['--replicaof', '127.0.0.1', String(primary.port)] });
    const r = await connect(replica.port);
    await waitFor(async () => /master_link_status:up/.test(plain(await r.send('INFO', 'replication'))));

    // After: the replication stream.
    assert.equal(plain(await p.send('CF.RESERVE', 'fixed', '20000', 'EXPANSION', '0', 'FPR', '0.0001')), 'OK');
    const commands = [];
    for (let i = 0; i < 20_000; i++) {
      commands.push(['CF.ADD', 'auto', `a${i}`], ['CF.ADDNX', 'fixed', `f${i % 15000}`]);
      if (i % 3 === 0) commands.push(['CF.DEL', 'auto', `a${i - 3 < 0 ? 0 : i - 3}`]);
      if (i % 100 === 0) commands.push(['CF.INSERT', 'ins', 'CAPACITY', '500', 'ITEMS', `x${i}`, `y${i}`], ['CF.INSERTNX', 'ins', 'ITEMS', `x${i}`]);
      if (i % 7 === 0) commands.push(['CF.ADD', 'before', `b${i}`]);
    }
    await p.pipeline(commands);
    const dump = (await p.send('CF.EXPORT', 'fixed')).value;
    assert.equal(plain(await p.send('CF.LOADCHUNK', 'loaded', String(dump.length + 1), dump)), 'OK');
    // A failed load deletes its partial key on the replica too.
    assert.equal(plain(await p.send('CF.LOADCHUNK', 'broken', '57', dump.subarray(0, 56))), 'OK');
    assert.match((await p.send('CF.LOADCHUNK', 'broken', '1000', dump.subarray(500, 999))).value, /^Couldn't load chunk!/);

    const offset = (await p.send('WAIT', '1', '10000')).value;
    assert.equal(offset, 1, 'the replica did not acknowledge');
    for (const key of ['before', 'auto', 'fixed', 'ins', 'loaded']) {
      const a = (await p.send('CF.EXPORT', key)).value;
      const b = (await r.send('CF.EXPORT', key)).value;
      assert.ok(Buffer.isBuffer(a) && Buffer.compare(a, b) === 0, `${key}: the replica's bytes differ`);
    }
    assert.equal((await r.send('EXISTS', 'broken')).value, 0);
    assert.equal(plain(await p.send('DBSIZE')), plain(await r.send('DBSIZE')));
    // The replica refuses writes, as for any command flagged "write".
    assert.match((await r.send('CF.ADD', 'auto', 'z')).value, /^READONLY/);
    p.close();
    r.close();
  } finally {
    await replica?.kill();
    await primary.kill();
  }
});
