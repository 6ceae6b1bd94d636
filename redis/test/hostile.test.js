// Hostile bytes into the server: randomly corrupted, truncated and extended dumps through CF.IMPORT and
// CF.LOADCHUNK. Each is an error or a filter that answers; the server never crashes and no partial key
// stays behind after an error. (scripts/test.sh runs this against the module built with ASan+UBSan too.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, connect, plain, scale } from './helpers.js';
import { rng } from '../../js-tests/rng.js';

let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.kill();
});

test('corrupted dumps are refused or load as working filters; the server survives every one', async () => {
  const c = await connect(server.port);
  const sources = [];
  for (const [key, reserve] of [
    ['h-fixed', ['CF.RESERVE', 'h-fixed', '300', 'EXPANSION', '0']],
    ['h-grow', ['CF.RESERVE', 'h-grow', '64', 'BUCKETSIZE', '2']],
    ['h-b8', ['CF.RESERVE', 'h-b8', '500', 'BUCKETSIZE', '8', 'FPR', '0.0001']],
  ]) {
    assert.equal(plain(await c.send(...reserve)), 'OK');
    await c.pipeline(Array.from({ length: 250 }, (_, i) => ['CF.ADD', key, `v${i}`]));
    sources.push((await c.send('CF.EXPORT', key)).value);
  }
  const random = rng(7);
  const rounds = Math.round(400 * scale);
  let loaded = 0;
  for (let round = 0; round < rounds; round++) {
    const source = sources[round % sources.length];
    let bytes = Buffer.from(source);
    const kind = Math.floor(random() * 4);
    if (kind === 0) {
      // flip bits, mostly in the headers, where lengths and shapes live
      for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
        const at = random() < 0.7 ? Math.floor(random() * Math.min(bytes.length, 120)) : Math.floor(random() * bytes.length);
        bytes[at] ^= 1 << Math.floor(random() * 8);
      }
    } else if (kind === 1) {
      // truncated
      bytes = bytes.subarray(0, Math.floor(random() * bytes.length));
    } else if (kind === 2) {
      // extended
      bytes = Buffer.concat([bytes, Buffer.alloc(1 + Math.floor(random() * 64), Math.floor(random() * 256))]);
    } else {
      // a random header field set to a random 64-bit value
      const at = 4 + Math.floor(random() * 52);
      for (let i = 0; i < 8 && at + i < bytes.length; i++) bytes[at + i] = Math.floor(random() * 256);
    }
    const key = `hostile:${round}`;
    const imported = await c.send('CF.IMPORT', key, bytes);
    if (imported.type === 'error') {
      assert.match(imported.value, /^ERR cuckoo: /);
      assert.equal((await c.send('EXISTS', key)).value, 0);
    } else {
      loaded++;
      const add = await c.send('CF.ADD', key, 'new');
      assert.ok(add.type === 'integer' || /^(Filter is full|Maximum expansions reached)/.test(add.value), JSON.stringify(add));
      assert.equal((await c.send('CF.EXISTS', key, 'v1')).type, 'integer');
    }
    // The same bytes in pieces.
    const pieceKey = `hostile-pieces:${round}`;
    const replies = [];
    for (let start = 0; start < bytes.length;) {
      const size = start === 0 ? Math.max(56, Math.floor(random() * 200)) : 1 + Math.floor(random() * 300);
      const end = Math.min(bytes.length, start + size);
      const reply = await c.send('CF.LOADCHUNK', pieceKey, String(end + 1), bytes.subarray(start, end));
      replies.push(reply);
      if (reply.type === 'error') break;
      start = end;
    }
    const lastReply = replies[replies.length - 1];
    if (lastReply?.type === 'error') {
      assert.equal((await c.send('EXISTS', pieceKey)).value, 0, `round ${round}: ${lastReply.value} left a key`);
    }
    await c.send('DEL', key, pieceKey);
  }
  assert.equal(plain(await c.send('PING')), 'PONG');
  assert.ok(loaded < rounds, 'no corruption was refused');
  c.close();
});
