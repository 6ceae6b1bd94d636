// The Redis module against a Redis set of the same keys, in one run on one server:
//   - throughput: redis-benchmark, pipelined, CF.ADD / CF.EXISTS beside SADD / SISMEMBER;
//   - memory per key: MEMORY USAGE of the filter and of the set, and the server's RSS growth;
//   - false-positive rate measured on absent keys, beside the rate asked for.
// Usage: node bench/redis/run.mjs [--keys 1000000,10000000] [--out bench/results/redis/latest.md]
// Needs the module built (build/redis/cuckoo_redis.so), redis-server and redis-benchmark.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, connect, plain, infoObject, repoRoot, modulePath } from '../../redis/test/helpers.js';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const keyCounts = opt('--keys', '1000000').split(',').map(Number);
const out = opt('--out', path.join(repoRoot, 'bench/results/redis/latest.md'));
const requests = Number(opt('--requests', '2000000'));
const pipeline = Number(opt('--pipeline', '64'));

const lines = [];
const say = (s = '') => {
  console.log(s);
  lines.push(s);
};

function benchmark(port, label, command) {
  // -r: __rand_int__ is a random number below 10^8 (each request's key, rarely repeated); -P: pipelined requests.
  const r = spawnSync(
    'redis-benchmark',
    ['-h', '127.0.0.1', '-p', String(port), '-n', String(requests), '-P', String(pipeline), '-r', '100000000', '-c', '4', '--threads', '1', '-q', ...command],
    { encoding: 'utf8' },
  );
  const m = /([\d.]+) requests per second/.exec(r.stdout.split('\r').pop() ?? '');
  if (!m) throw new Error(`redis-benchmark ${label}: ${r.stdout}${r.stderr}`);
  return Number(m[1]);
}

async function load(c, commands) {
  for (let i = 0; i < commands.length; i += 10_000) {
    const replies = await c.pipeline(commands.slice(i, i + 10_000));
    const bad = replies.find((x) => x.type === 'error');
    if (bad) throw new Error(bad.value);
  }
}

function rssBytes(infoText) {
  return Number(/used_memory_rss:(\d+)/.exec(infoText)[1]);
}
function usedBytes(infoText) {
  return Number(/used_memory:(\d+)/.exec(infoText)[1]);
}

const server = await startServer({ lifetimeSeconds: 3600 });
const c = await connect(server.port);
const version = plain(await c.send('INFO', 'server')).match(/redis_version:(\S+)/)[1];
say('# Redis module benchmark');
say();
say(
  `\`node bench/redis/run.mjs --keys ${keyCounts.join(',')} --requests ${requests} --pipeline ${pipeline}\`, ` +
    `${new Date().toISOString().slice(0, 10)}, Redis ${version}, ${os.cpus()[0].model}, ${os.cpus().length} cores (shared), ` +
    `module ${path.relative(repoRoot, modulePath)}.`,
);
say();

// Throughput: the adds go into a fixed filter sized for them, and into a set; the lookups that follow hit
// the ~2% of the 10^8 keys added.
say('## Throughput (redis-benchmark, 4 clients, pipeline ' + pipeline + ', random keys below 10^8)');
say();
await c.send('FLUSHALL');
await c.send('CF.RESERVE', 'bench:cf', String(2 * requests), 'EXPANSION', '0');
const rates = {
  'CF.ADD': benchmark(server.port, 'CF.ADD', ['CF.ADD', 'bench:cf', 'key:__rand_int__']),
  SADD: benchmark(server.port, 'SADD', ['SADD', 'bench:set', 'key:__rand_int__']),
  'CF.EXISTS': benchmark(server.port, 'CF.EXISTS', ['CF.EXISTS', 'bench:cf', 'key:__rand_int__']),
  SISMEMBER: benchmark(server.port, 'SISMEMBER', ['SISMEMBER', 'bench:set', 'key:__rand_int__']),
  "PING (the server's ceiling)": benchmark(server.port, 'PING', ['PING']),
};
say('| command | requests/s |');
say('|---|--:|');
for (const [name, rate] of Object.entries(rates)) say(`| ${name} | ${Math.round(rate).toLocaleString('en')} |`);
say();
say(`CF.ADD at ${(rates['CF.ADD'] / rates.SADD).toFixed(2)}x SADD, CF.EXISTS at ${(rates['CF.EXISTS'] / rates.SISMEMBER).toFixed(2)}x SISMEMBER.`);
say();

// Memory and false positives at each key count.
say('## Memory per key and false-positive rate');
say();
say('Keys `user:<i>`, added with pipelined CF.ADD / SADD (10,000 per batch); 200,000 absent keys probed.');
say("MEMORY USAGE is the module's own count (mem_usage: tables + fixed overhead); the filter's tables are");
say("allocated outside Redis's allocator, so `used_memory` does not see them and the RSS growth is shown too.");
say();
say('| keys | structure | MEMORY USAGE (bytes/key) | used_memory growth (bytes/key) | RSS growth (bytes/key) | fpr asked | fpr bound | fpr measured |');
say('|--:|---|--:|--:|--:|--:|--:|--:|');
const probes = 200_000;
for (const n of keyCounts) {
  const shapes = [
    ['fixed, FPR 0.01', ['CF.RESERVE', 'f', String(n), 'EXPANSION', '0', 'FPR', '0.01'], 0.01],
    ['fixed, FPR 0.001', ['CF.RESERVE', 'f', String(n), 'EXPANSION', '0', 'FPR', '0.001'], 0.001],
    ["growing from 1024, FPR 0.01 (CF.ADD's default)", null, 0.01],
    ['Redis set (SADD)', 'set', null],
  ];
  for (const [label, reserve, fpr] of shapes) {
    await c.send('FLUSHALL');
    await new Promise((r) => setTimeout(r, 200));
    const before = plain(await c.send('INFO', 'memory'));
    const isSet = reserve === 'set';
    if (reserve && !isSet) await c.send(...reserve);
    const cmd = isSet ? 'SADD' : 'CF.ADD';
    for (let i = 0; i < n; i += 100_000) {
      await load(
        c,
        Array.from({ length: Math.min(100_000, n - i) }, (_, j) => [cmd, isSet ? 's' : 'f', `user:${i + j}`]),
      );
    }
    const after = plain(await c.send('INFO', 'memory'));
    const usage = plain(await c.send('MEMORY', 'USAGE', isSet ? 's' : 'f', 'SAMPLES', '0'));
    let measured = '',
      bound = '';
    if (!isSet) {
      let hits = 0;
      for (let i = 0; i < probes; i += 10_000) {
        const replies = await c.pipeline(Array.from({ length: 10_000 }, (_, j) => ['CF.EXISTS', 'f', `absent:${i + j}`]));
        hits += replies.filter((x) => x.value === 1).length;
      }
      measured = `${((100 * hits) / probes).toFixed(3)}%`;
      const bytes = (await c.send('CF.EXPORT', 'f')).value;
      bound = boundFromInfo(bytes);
    }
    say(
      `| ${n.toLocaleString('en')} | ${label} | ${(usage / n).toFixed(2)} | ${((usedBytes(after) - usedBytes(before)) / n).toFixed(2)} | ` +
        `${((rssBytes(after) - rssBytes(before)) / n).toFixed(2)} | ${fpr ? `${fpr * 100}%` : ''} | ${bound} | ${measured} |`,
    );
  }
}
say();
say("RedisBloom's cuckoo filter stores 8-bit fingerprints: its bound is 2b/255 per sub-filter, 1.57% at its");
say('default bucket size 2 (0.78% at bucket size 1), and each sub-filter added by growth adds its own rate.');

// The bound as `cuckoo info` prints it, from the exported bytes (the CLI reads them from a file).
function boundFromInfo(bytes) {
  const file = path.join(os.tmpdir(), `cuckoo-bench-${process.pid}.cuckoo`);
  writeFileSync(file, bytes);
  const r = spawnSync(path.join(repoRoot, 'build/tools/cli/cuckoo'), ['info', file], { encoding: 'utf8' });
  const m = /false-positive bound:\s*([\d.]+%)/.exec(r.stdout);
  return m ? m[1] : '';
}

c.close();
await server.kill();
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, lines.join('\n') + '\n');
console.error(`wrote ${path.relative(repoRoot, out)}`);
