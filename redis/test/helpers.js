// Starts redis-server processes with the module loaded, on loopback ports, and talks RESP to them.
//
// Every server is started under `timeout` (killed after 5 minutes whatever happens to the test), and is
// killed with its `timeout` when the test file's process exits, passes or fails.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const modulePath = path.resolve(process.env.CUCKOO_REDIS_MODULE ?? path.join(repoRoot, 'build/redis/cuckoo_redis.so'));
export const cliPath = path.resolve(process.env.CUCKOO_CLI ?? path.join(repoRoot, 'build/tools/cli/cuckoo'));
export const scale = Number(process.env.CUCKOO_TEST_SCALE ?? 1);

const serverLifetimeSeconds = 300;
const live = new Set();
// `timeout` runs redis-server in a process group of its own: killing the group stops both.
function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}
function killAll() {
  for (const child of live) killGroup(child);
}
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    killAll();
    process.exit(1);
  });
}

if (!existsSync(modulePath)) throw new Error(`the module is not built: ${modulePath} (cmake --build build --target cuckoo_redis)`);

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export function tempDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cuckoo-redis-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// A redis-server with the module loaded. options: port, dir, extra (more arguments), moduleArgs,
// lifetimeSeconds (300 by default). CUCKOO_REDIS_PRELOAD sets its LD_PRELOAD (for a sanitizer build).
export async function startServer(options = {}) {
  const port = options.port ?? (await freePort());
  const dir = options.dir ?? tempDir();
  const args = [
    String(options.lifetimeSeconds ?? serverLifetimeSeconds),
    'redis-server',
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'no',
    '--enable-debug-command',
    'local',
    '--enable-module-command',
    'local',
    ...(options.extra ?? []),
    '--loadmodule',
    modulePath,
    ...(options.moduleArgs ?? []),
  ];
  const env = { ...process.env };
  if (process.env.CUCKOO_REDIS_PRELOAD) env.LD_PRELOAD = process.env.CUCKOO_REDIS_PRELOAD;
  const child = spawn('timeout', ['-s', 'KILL', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  live.add(child);
  let log = '';
  child.stdout.on('data', (d) => {
    log += d;
  });
  child.stderr.on('data', (d) => {
    log += d;
  });
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    }),
  );
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`redis-server exited at start:\n${log}`);
    if (/Ready to accept connections/.test(log)) break;
    if (Date.now() > deadline) {
      killGroup(child);
      throw new Error(`redis-server did not start in 10 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    port,
    dir,
    child,
    exited,
    log: () => log,
    // Stops the server: SHUTDOWN (with or without saving) and waits for it to exit.
    async shutdown(save = false) {
      const c = await connect(port);
      c.socket.on('error', () => {});
      c.send('SHUTDOWN', save ? 'SAVE' : 'NOSAVE').catch(() => {});
      const result = await exited;
      c.close();
      return result;
    },
    kill() {
      killGroup(child);
      return exited;
    },
  };
}

// ---- A small RESP2/RESP3 client that keeps reply types, for exact checks. ----
// Replies: {type: 'simple'|'error'|'integer'|'bulk'|'null'|'array'|'map'|'bool'|'double'|'set'|'verbatim', value}
// (bulk values are Buffers; a map's value is an array of [key, value] pairs).

function encode(args) {
  const parts = [Buffer.from(`*${args.length}\r\n`)];
  for (const a of args) {
    const b = Buffer.isBuffer(a) || a instanceof Uint8Array ? Buffer.from(a) : Buffer.from(String(a));
    parts.push(Buffer.from(`$${b.length}\r\n`), b, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

// Parses one reply at buf[pos]; returns [reply, nextPos] or null when more bytes are needed.
function parse(buf, pos) {
  const eol = buf.indexOf('\r\n', pos);
  if (eol < 0) return null;
  const tag = String.fromCharCode(buf[pos]);
  const line = buf.toString('latin1', pos + 1, eol);
  let next = eol + 2;
  const aggregate = (type, count) => {
    const items = [];
    for (let i = 0; i < count; i++) {
      const r = parse(buf, next);
      if (r === null) return null;
      items.push(r[0]);
      next = r[1];
    }
    return [{ type, value: items }, next];
  };
  switch (tag) {
    case '+':
      return [{ type: 'simple', value: line }, next];
    case '-':
      return [{ type: 'error', value: line }, next];
    case ':':
      return [{ type: 'integer', value: Number(line) }, next];
    case '#':
      return [{ type: 'bool', value: line === 't' }, next];
    case ',':
      return [{ type: 'double', value: Number(line) }, next];
    case '_':
      return [{ type: 'null', value: null }, next];
    case '$':
    case '=': {
      const n = Number(line);
      if (n < 0) return [{ type: 'null', value: null }, next];
      if (buf.length < next + n + 2) return null;
      return [{ type: tag === '$' ? 'bulk' : 'verbatim', value: buf.subarray(next, next + n) }, next + n + 2];
    }
    case '*': {
      const n = Number(line);
      if (n < 0) return [{ type: 'null', value: null }, next];
      return aggregate('array', n);
    }
    case '~':
      return aggregate('set', Number(line));
    case '%': {
      const r = aggregate('map', 2 * Number(line));
      if (r === null) return null;
      const pairs = [];
      for (let i = 0; i < r[0].value.length; i += 2) pairs.push([r[0].value[i], r[0].value[i + 1]]);
      return [{ type: 'map', value: pairs }, r[1]];
    }
    case '>':
      return aggregate('push', Number(line));
    default:
      throw new Error(`unexpected RESP byte ${JSON.stringify(tag)}`);
  }
}

export async function connect(port) {
  const socket = net.createConnection({ port, host: '127.0.0.1' });
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.setNoDelay(true);
  let buf = Buffer.alloc(0);
  const waiting = [];
  socket.on('data', (chunk) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    let pos = 0;
    while (waiting.length) {
      const r = parse(buf, pos);
      if (r === null) break;
      pos = r[1];
      if (r[0].type === 'push') continue;
      waiting.shift().resolve(r[0]);
    }
    buf = buf.subarray(pos);
  });
  const failAll = (err) => {
    while (waiting.length) waiting.shift().reject(err);
  };
  socket.on('error', failAll);
  socket.on('close', () => failAll(new Error('connection closed')));
  const client = {
    socket,
    // One command; resolves to its typed reply.
    send(...args) {
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        socket.write(encode(args));
      });
    },
    // Many commands written at once; resolves to their replies in order.
    pipeline(commands) {
      const promises = commands.map(() => new Promise((resolve, reject) => waiting.push({ resolve, reject })));
      socket.write(Buffer.concat(commands.map(encode)));
      return Promise.all(promises);
    },
    close() {
      socket.destroy();
    },
  };
  return client;
}

// Plain values from typed replies: integers, booleans, strings (bulk as latin1), arrays; errors throw.
export function plain(reply) {
  switch (reply.type) {
    case 'error':
      throw new Error(reply.value);
    case 'bulk':
    case 'verbatim':
      return reply.value.toString('latin1');
    case 'array':
    case 'set':
      return reply.value.map(plain);
    case 'map':
      return Object.fromEntries(reply.value.map(([k, v]) => [plain(k), plain(v)]));
    default:
      return reply.value;
  }
}

// Runs `cuckoo info <file>` (the native CLI) and returns its output.
export function cuckooInfo(file) {
  const r = spawnSync(cliPath, ['info', file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cuckoo info failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

// CF.INFO's reply (a RESP3 map or a RESP2 flat array of name, value) as an object.
export function infoObject(reply) {
  const value = plain(reply);
  if (!Array.isArray(value)) return value;
  const out = {};
  for (let i = 0; i < value.length; i += 2) out[value[i]] = value[i + 1];
  return out;
}
