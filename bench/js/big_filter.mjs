// bench/js/big_filter.mjs: saving and loading a big filter in Node, the streamed way (filter.save(path),
// CuckooFilter.load(path), deserialize(fs.createReadStream(path))) against the whole-buffer way
// (serialize() + writeFileSync, readFileSync + deserialize()), each in a fresh process: wall time and
// the process's peak RSS (process.resourceUsage().maxRSS), beside the table's size.
//
//   node bench/js/big_filter.mjs [--keys N] [--fill M] [--fpr P] [--dir DIR] [--baseline /other/checkout]
//                                [--repeat R]
//
// Defaults: a filter sized for 600,000,000 keys at fpr 0.01 (a 761 MB table), filled with all of them
// (--fill M: the integers 0..M-1 only, for a quicker build; loading checks every bucket whatever the
// fill), files in the system's temporary directory. The filter is built once (addMany) and saved; every
// row then starts from that file, which the page cache holds after the first read, so the times are the
// library's and the kernel's copies, not the disk's (save's include its fsync). --baseline runs every
// row with another checkout's build too (its js/index.node.js, built), side by side in one run: e.g. the
// commit before a change to loading or saving, or the one before streaming, whose serialize() and
// deserialize() copy the table inside wasm memory. --repeat R runs each row R times (in turn with the
// baseline's) and prints the fastest, the median and the slowest time. Before each run the file system's
// dirty pages are written out (`sync`), so that a run does not pay for the writeback of the one before.
//
// The rows "load floor" and "save floor" are what any load or save of these bytes pays in Node: the file
// read into a new, untouched buffer in the same pieces, and those bytes written to a new file, flushed and
// renamed; no WebAssembly, checksum or checks.
//
// A row's time is measured inside its process: from just before the operation (the module already
// compiled and instantiated) to its end. Node's start (about 0.1 s), the import and the exit (unmapping
// the table) are outside it; on a busy machine, the time the process waited for a core is inside it
// (compare the CPU time). A whole process's time, as a user sees it, is the row's plus 0.2-0.3 s.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};

// ---- child: one operation, printing one JSON line
if (args[0] === '--child') {
  const [, op, root, file, keys, fpr, fillText] = args;
  const fill = Number(fillText);
  const { CuckooFilter } = await import(pathToFileURL(path.join(root, 'js', 'index.node.js')).href);
  const fs = await import('node:fs');
  await CuckooFilter.ready;
  const mb = () => (process.resourceUsage().maxRSS * 1024) / 1e6; // maxRSS is in KiB; MB as the table's
  const out = { op };
  const start = performance.now();
  const lap = () => Math.round(performance.now() - start);
  // CPU time (user + system) of this process since `since`: on a shared machine, less noisy than the wall.
  const cpu = (since) => {
    const now = process.cpuUsage(since);
    return Math.round((now.user + now.system) / 1000);
  };
  let cpuStart = process.cpuUsage();
  let f;
  if (op === 'build') {
    f = await CuckooFilter.create({ capacity: Number(keys), fpr: Number(fpr) });
    const batch = 1 << 20;
    const list = new Array(batch);
    for (let at = 0; at < fill; at += batch) {
      const n = Math.min(batch, fill - at);
      list.length = n;
      for (let i = 0; i < n; i++) list[i] = at + i;
      if (f.addMany(list) !== n) throw new Error(`the filter refused a key after ${at}`);
    }
    out.buildMs = lap();
    const t = performance.now();
    cpuStart = process.cpuUsage();
    await f.save(file);
    out.ms = Math.round(performance.now() - t);
  } else if (op === 'load') {
    f = await CuckooFilter.load(file);
    out.ms = lap();
  } else if (op === 'load floor' || op === 'save floor') {
    // What any load pays: the file read into memory never touched before (untouched pages of a new
    // buffer), in the loader's pieces, with no checksum, count or WebAssembly. What any save pays: those
    // bytes written to a new file in the same pieces, flushed to disk and renamed, as save() does.
    let fd = fs.openSync(file, 'r');
    const size = fs.fstatSync(fd).size;
    const bytes = Buffer.allocUnsafeSlow(size);
    for (let at = 0; at < size;) at += fs.readSync(fd, bytes, at, Math.min(1 << 18, size - at), null);
    fs.closeSync(fd);
    if (op === 'save floor') {
      const t = performance.now();
      cpuStart = process.cpuUsage();
      fd = fs.openSync(`${file}.tmp`, 'wx', 0o600);
      for (let at = 0; at < size;) at += fs.writeSync(fd, bytes, at, Math.min(1 << 18, size - at));
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      fs.renameSync(`${file}.tmp`, `${file}.out`);
      out.ms = Math.round(performance.now() - t);
    } else {
      out.ms = lap();
    }
    out.cpuMs = cpu(cpuStart);
    out.peakRssMB = Math.round(mb());
    if (op === 'save floor') fs.rmSync(`${file}.out`);
    console.log(JSON.stringify(out));
    process.exit(0);
  } else if (op === 'stream') {
    f = await CuckooFilter.deserialize(fs.createReadStream(file, { highWaterMark: 1 << 20 }));
    out.ms = lap();
  } else if (op === 'readFile+deserialize') {
    f = await CuckooFilter.deserialize(fs.readFileSync(file));
    out.ms = lap();
  } else if (op === 'save' || op === 'serialize+writeFile') {
    // A build without load() (the baseline) reads the file whole.
    f = CuckooFilter.load ? await CuckooFilter.load(file) : await CuckooFilter.deserialize(fs.readFileSync(file));
    out.loadRssMB = Math.round(mb());
    const t = performance.now();
    cpuStart = process.cpuUsage();
    if (op === 'save') await f.save(`${file}.out`);
    else fs.writeFileSync(`${file}.out`, f.serialize());
    out.ms = Math.round(performance.now() - t);
    out.cpuMs = cpu(cpuStart);
    fs.rmSync(`${file}.out`);
  }
  out.cpuMs ??= cpu(cpuStart);
  if (fill > 0 && !(f.has(0) && f.has(fill - 1))) throw new Error('a key went missing');
  out.tableMB = Math.round(f.byteLength / 1e6);
  out.peakRssMB = Math.round(mb());
  console.log(JSON.stringify(out));
  process.exit(0);
}

// ---- parent
const keys = Number(option('keys', 600_000_000));
const fpr = Number(option('fpr', 0.01));
const fill = Number(option('fill', keys));
const baseline = option('baseline', null);
const dir = mkdtempSync(path.join(option('dir', tmpdir()), 'cuckoo-big-'));
const file = path.join(dir, 'big.cuckoo');

function runOnce(op, root) {
  spawnSync('sync');
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', op, root, file, String(keys), String(fpr), String(fill)], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0)
    return {
      op,
      error: (
        r.stderr
          .trim()
          .split('\n')
          .find((l) => /Error/.test(l)) ?? r.stderr.trim()
      ).slice(0, 200),
    };
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

const repeat = Math.max(1, Number(option('repeat', 1)));
const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1];

// One row: the operation run `repeat` times, with its times as fastest / median / slowest, its CPU
// time's median and the largest peak RSS.
function summarize(runs) {
  const failed = runs.find((r) => r.error);
  if (failed) return failed;
  const row = { ...runs[0] };
  const ms = runs.map((r) => r.ms);
  row.ms = repeat === 1 ? `${ms[0]}` : `${median(ms)} (${Math.min(...ms)}-${Math.max(...ms)})`;
  row.cpuMs = median(runs.map((r) => r.cpuMs));
  row.peakRssMB = Math.max(...runs.map((r) => r.peakRssMB));
  if (row.loadRssMB !== undefined) row.loadRssMB = Math.max(...runs.map((r) => r.loadRssMB));
  return row;
}

try {
  const rows = [];
  const built = runOnce('build', here);
  if (built.error) throw new Error(`build: ${built.error}`);
  console.log(
    `filter: sized for ${keys.toLocaleString('en')} keys at fpr ${fpr}, ${fill.toLocaleString('en')} added: ` +
      `${statSync(file).size.toLocaleString('en')} bytes serialized, built in ${(built.buildMs / 1000).toFixed(1)} s`,
  );
  rows.push({ ...built, op: 'save (build process)' });
  // With a baseline, each operation runs in both builds back to back, so that both see the same load of a
  // shared machine. A baseline without streaming has only the whole-buffer rows (its save and load fail).
  const floors = ['load floor', 'save floor'];
  for (const op of ['save', 'save floor', 'load', 'load floor', 'stream', 'serialize+writeFile', 'readFile+deserialize']) {
    const mine = [];
    const theirs = [];
    for (let i = 0; i < repeat; i++) {
      mine.push(runOnce(op, here));
      if (baseline !== null && !floors.includes(op)) theirs.push(runOnce(op, path.resolve(baseline)));
    }
    rows.push({ ...summarize(mine), who: 'this' });
    if (theirs.length !== 0) rows.push({ ...summarize(theirs), who: 'baseline' });
  }
  const table = built.tableMB;
  const timeHead = repeat === 1 ? 'time' : `time, median (fastest-slowest) of ${repeat}`;
  const cpuHead = repeat === 1 ? 'CPU time' : 'CPU time, median';
  console.log(`\n| operation | build | ${timeHead} | ${cpuHead} | peak RSS | peak RSS - table | peak RSS after the load before it |`);
  console.log(`|---|---|---:|---:|---:|---:|---:|`);
  for (const r of rows) {
    if (r.error) {
      console.log(`| ${r.op} | ${r.who ?? 'this'} | failed: ${r.error} | | | | |`);
      continue;
    }
    const before = r.loadRssMB === undefined ? '' : `${r.loadRssMB} MB`;
    console.log(`| ${r.op} | ${r.who ?? 'this'} | ${r.ms} ms | ${r.cpuMs} ms | ${r.peakRssMB} MB | ${r.peakRssMB - table} MB | ${before} |`);
  }
  console.log(`\ntable: ${table} MB; Node ${process.version}; peak RSS includes Node and the module themselves (about 50 MB before any filter).`);
  console.log('load floor: the file read into a new, untouched Buffer in the same pieces, nothing else: what any load pays.');
  console.log('save floor: those bytes written to a new file in the same pieces, fsync, rename: what any save pays.');
  console.log('save and serialize+writeFile load the file first (the baseline reads it whole): their peak RSS');
  console.log("is the larger of that load's and their own; the last column is the load's alone.");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
