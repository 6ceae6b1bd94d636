// Random adds, deletes and lookups against a model (a Map of item -> copies), pipelined: no false negative
// ever, CF.COUNT at least the model's count, the item count exact. Then a client killed mid-pipeline: every
// acknowledged add is still found. Operation counts scale with CUCKOO_TEST_SCALE.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startServer, connect, plain, infoObject, scale } from './helpers.js';
import { rng } from '../../js-tests/rng.js';

let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.kill();
});

async function run(c, key, reserve, ops, seed) {
  if (reserve) assert.equal(plain(await c.send(...reserve)), 'OK');
  const random = rng(seed);
  const model = new Map();
  const present = []; // items with copies, for picking deletes (only inserted items may be deleted)
  let done = 0;
  let falseNegatives = 0;
  let absentChecks = 0;
  let falsePositives = 0;
  const batch = 2000;
  while (done < ops) {
    const commands = [];
    const expect = [];
    for (let i = 0; i < batch && done < ops; i++, done++) {
      const r = random();
      if (r < 0.5) {
        // Add: a new item mostly, sometimes another copy of a present one.
        const item = r < 0.45 || present.length === 0 ? `i${Math.floor(random() * 1e9)}` : present[Math.floor(random() * present.length)];
        commands.push(['CF.ADD', key, item]);
        expect.push(['add', item]);
      } else if (r < 0.7 && present.length > 0) {
        const at = Math.floor(random() * present.length);
        const item = present[at];
        commands.push(['CF.DEL', key, item]);
        expect.push(['del', item]);
        // The model changes once the reply is in; keep `present` consistent now.
        const copies = (model.get(item) ?? 0) - 1;
        model.set(item, copies);
        if (copies === 0) {
          present[at] = present[present.length - 1];
          present.pop();
          model.delete(item);
        }
      } else if (r < 0.9 && present.length > 0) {
        const item = present[Math.floor(random() * present.length)];
        commands.push([r < 0.85 ? 'CF.EXISTS' : 'CF.COUNT', key, item]);
        expect.push([r < 0.85 ? 'present' : 'count', item]);
      } else {
        const item = `absent-${Math.floor(random() * 1e9)}`;
        commands.push(['CF.EXISTS', key, item]);
        expect.push(['absent', item]);
      }
      // Apply adds to the model optimistically; undone below if refused.
      const [kind, item] = expect[expect.length - 1];
      if (kind === 'add') {
        const copies = (model.get(item) ?? 0) + 1;
        model.set(item, copies);
        if (copies === 1) present.push(item);
      }
    }
    const replies = await c.pipeline(commands);
    replies.forEach((reply, i) => {
      const [kind, item] = expect[i];
      if (kind === 'add' && reply.type === 'error') {
        // Refused: nothing stored (only the 9th copy of an item can be, in a growing filter).
        assert.match(reply.value, /^Filter is full/);
        const copies = model.get(item) - 1;
        model.set(item, copies);
        if (copies === 0) {
          model.delete(item);
          present.splice(present.indexOf(item), 1);
        }
      } else if (kind === 'del') {
        assert.equal(reply.value, 1, `CF.DEL of an inserted item ${item} found nothing`);
      } else if (kind === 'present') {
        if (reply.value !== 1) falseNegatives++;
      } else if (kind === 'count') {
        assert.ok(reply.value >= 1, `CF.COUNT ${item} = ${reply.value}`);
      } else if (kind === 'absent') {
        absentChecks++;
        if (reply.value === 1) falsePositives++;
      }
    });
  }
  assert.equal(falseNegatives, 0, 'false negatives');
  // Every item of the model, at the end.
  const items = [...model.keys()];
  for (let i = 0; i < items.length; i += 5000) {
    const found = await c.pipeline(items.slice(i, i + 5000).map((item) => ['CF.EXISTS', key, item]));
    assert.ok(
      found.every((r) => r.value === 1),
      'an item of the model is missing at the end',
    );
  }
  let total = 0;
  for (const copies of model.values()) total += copies;
  assert.equal(infoObject(await c.send('CF.INFO', key))['Number of items inserted'], total);
  return { falsePositives, absentChecks, items: total };
}

test('random adds, deletes and lookups against a model: no false negatives (growing filter)', async () => {
  const c = await connect(server.port);
  const ops = Math.round(150_000 * scale);
  const { falsePositives, absentChecks } = await run(c, 'prop-grow', ['CF.RESERVE', 'prop-grow', '1000', 'FPR', '0.001'], ops, 1);
  assert.ok(infoObject(await c.send('CF.INFO', 'prop-grow'))['Number of filters'] > 1);
  assert.ok(falsePositives <= absentChecks * 0.001 * 3 + 5, `${falsePositives} false positives of ${absentChecks}`);
  c.close();
});

test('random adds, deletes and lookups against a model: no false negatives (fixed filter, bucket size 2)', async () => {
  const c = await connect(server.port);
  const ops = Math.round(100_000 * scale);
  await run(c, 'prop-fixed', ['CF.RESERVE', 'prop-fixed', '200000', 'BUCKETSIZE', '2', 'EXPANSION', '0'], ops, 2);
  c.close();
});

test('a client killed mid-pipeline leaves the filter consistent: every acknowledged add is found', async () => {
  const key = 'killed';
  const c = await connect(server.port);
  assert.equal(plain(await c.send('CF.RESERVE', key, '1000')), 'OK');
  // 300,000 CF.ADDs in one write; the connection is cut as soon as the first replies arrive.
  const n = 300_000;
  let text = '';
  for (let i = 0; i < n; i++) {
    const item = `k${i}`;
    text += `*3\r\n$6\r\nCF.ADD\r\n$${key.length}\r\n${key}\r\n$${item.length}\r\n${item}\r\n`;
  }
  const socket = net.createConnection({ port: server.port, host: '127.0.0.1' });
  let received = '';
  await new Promise((resolve) => {
    socket.on('error', () => {});
    socket.on('close', resolve);
    socket.on('connect', () => socket.write(text));
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (received.length >= 400) socket.destroy();
    });
  });
  // Every reply is ":1\r\n" (a growing filter takes distinct items); a partial last reply is not an ack.
  const acknowledged = Math.floor(received.length / 4);
  assert.equal(received.slice(0, acknowledged * 4), ':1\r\n'.repeat(acknowledged));
  assert.ok(acknowledged > 0 && acknowledged < n, `${acknowledged} acknowledged`);
  const found = await c.pipeline(Array.from({ length: acknowledged }, (_, i) => ['CF.EXISTS', key, `k${i}`]));
  assert.ok(
    found.every((r) => r.value === 1),
    'an acknowledged add is missing',
  );
  // The server applied the commands it had read, a prefix: at least the acknowledged ones, all found.
  const stored = infoObject(await c.send('CF.INFO', key))['Number of items inserted'];
  assert.ok(stored >= acknowledged && stored <= n, `${stored} stored`);
  const all = await c.pipeline(Array.from({ length: stored }, (_, i) => ['CF.EXISTS', key, `k${i}`]));
  assert.ok(
    all.every((r) => r.value === 1),
    'an applied add is missing',
  );
  c.close();
});
