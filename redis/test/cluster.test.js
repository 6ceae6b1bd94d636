// A three-primary Redis Cluster on loopback, the module loaded on each node: filters land on every shard
// and a cluster client (node-redis createCluster with @redis/bloom) gets every answer right.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createCluster } from '@redis/client';
import bloom from '@redis/bloom';
import { startServer, connect, plain, freePort } from './helpers.js';

// A port whose cluster bus port (port + 10000) is free too.
async function clusterPort() {
  for (let i = 0; i < 50; i++) {
    const port = await freePort();
    if (port + 10000 > 65535) continue;
    const free = await new Promise((resolve) => {
      const s = net.createServer();
      s.once('error', () => resolve(false));
      s.listen(port + 10000, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port pair');
}

async function waitFor(condition, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a three-primary cluster: filters on every shard, answers right through a cluster client', async () => {
  const nodes = [];
  let cluster;
  try {
    for (let i = 0; i < 3; i++) {
      nodes.push(await startServer({ port: await clusterPort(), extra: ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf'] }));
    }
    const conns = await Promise.all(nodes.map((n) => connect(n.port)));
    const ranges = [
      [0, 5460],
      [5461, 10922],
      [10923, 16383],
    ];
    for (let i = 0; i < 3; i++) {
      assert.equal(plain(await conns[i].send('CLUSTER', 'ADDSLOTSRANGE', String(ranges[i][0]), String(ranges[i][1]))), 'OK');
    }
    for (let i = 1; i < 3; i++) assert.equal(plain(await conns[0].send('CLUSTER', 'MEET', '127.0.0.1', String(nodes[i].port))), 'OK');
    await waitFor(async () => {
      for (const c of conns) if (!/cluster_state:ok/.test(plain(await c.send('CLUSTER', 'INFO')))) return false;
      return true;
    });

    cluster = createCluster({ rootNodes: [{ url: `redis://127.0.0.1:${nodes[0].port}` }], modules: bloom.default ?? bloom });
    cluster.on('error', () => {});
    await cluster.connect();
    const keys = Array.from({ length: 60 }, (_, i) => `filter:${i}`);
    for (const key of keys) {
      assert.equal(await cluster.cf.reserve(key, 1000, { BUCKETSIZE: 4 }), 'OK');
      assert.deepEqual(
        await cluster.cf.insert(
          key,
          Array.from({ length: 50 }, (_, j) => `${key}:item:${j}`),
        ),
        Array(50).fill(true),
      );
    }
    for (const key of keys) {
      assert.deepEqual(await cluster.cf.mExists(key, [`${key}:item:0`, `${key}:item:49`]), [true, true]);
      assert.equal(await cluster.cf.count(key, `${key}:item:7`), 1);
      assert.equal(await cluster.cf.del(key, `${key}:item:7`), true);
      assert.equal(await cluster.cf.exists(key, `${key}:item:8`), true);
    }
    // Every shard holds some of the filters.
    const sizes = await Promise.all(conns.map(async (c) => plain(await c.send('DBSIZE'))));
    assert.ok(
      sizes.every((n) => n > 0),
      `keys per shard: ${sizes}`,
    );
    assert.equal(
      sizes.reduce((a, b) => a + b, 0),
      keys.length,
    );
    // A node asked for a key of another shard redirects, as for any single-key command.
    const moved = (await Promise.all(conns.map((c) => c.send('CF.EXISTS', 'filter:0', 'filter:0:item:0')))).filter((r) => r.type === 'error');
    assert.equal(moved.length, 2);
    assert.ok(moved.every((r) => r.value.startsWith('MOVED ')));
    for (const c of conns) c.close();
  } finally {
    await cluster?.close().catch(() => {});
    for (const n of nodes) await n.kill();
  }
});
