// bench/js/run.mjs: cuckoo-wasm against its npm peers at 1 M string keys (issue 4, performance part).
//
//   npm run bench                      (= node bench/js/run.mjs)
//   node bench/js/run.mjs --n 100000 --reps 1 --no-write      (quick look)
//
// Options: --n N (keys, default 1000000)  --fpr 0.001,0.01  --reps R (timed passes per process for the
// fast filters, default 3)  --rounds K (processes per fast filter, alternating, default 2)  --slow-n N
// (keys for the slow peers, default = n)  --peers ours,ours-batch,ours-num,bloomfilter,bloom-filters,libp2p
// --no-write (stdout only).
//
// Keys: present "key-"+i for i < n, absent "key-"+(n+i) for i < n (the same shape, never inserted); the
// number-key row uses i and n+i. Every filter is sized for capacity n at the target fpr, the way its own
// docs say, then filled with all n present keys.
//
// Each (filter, fpr) runs in its own child process (node --expose-gc), one after another: a clean heap
// for the memory figures, and JIT feedback that no other filter has touched. The machine is shared and
// noisy, so fast filters are timed best of R passes in each of K processes run in alternation (ours,
// bloomfilter, ours, ...); the slow peers (~0.05-0.1 M ops/s, ~25-45 s each at 1 M keys) once.
//
// Per row:
//   add M/s        n adds / time of the adds (construction is timed apart and not included)
//   has M/s        n has() over present keys, and over absent keys
//   fpr            absent keys reported present / n
//   false neg      present keys reported absent (must be 0 for any correct filter)
//   add fails      adds that returned false (filter full); "-" when add() returns nothing
//   memory         JS heap delta (heapUsed + arrayBuffers, after gc) around construction + fill; for
//                  cuckoo-wasm the filter's bytes in WebAssembly memory (byteLength) plus the heap delta if
//                  positive (its wrapper is tiny, the delta is gc noise); for a peer whose state is one
//                  typed array (bloomfilter), at least that array's bytes, which the delta can undercount;
//                  bits/item = memory*8/n
//   serialized     bytes of the filter's own serialization; ms to serialize / deserialize (best of R)
//   round trip     false negatives of the deserialized copy over the present keys (all of them for the
//                  fast filters, the first 20000 for the slow ones)
//
// Results: a Markdown table on stdout and in bench/results/js/latest.md, raw numbers in latest.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative } from 'node:path';
import os from 'node:os';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

// name -> [module, export, slow]
const PEERS = {
  ours: ['./peers/ours.mjs', 'ours', false],
  'ours-batch': ['./peers/ours.mjs', 'oursBatch', false],
  'ours-num': ['./peers/ours.mjs', 'oursNum', false],
  bloomfilter: ['./peers/bloomfilter.mjs', 'bloomfilter', false],
  'bloom-filters': ['./peers/bloom-filters.mjs', 'bloomFiltersCuckoo', true],
  libp2p: ['./peers/libp2p.mjs', 'libp2p', true],
};

function parseArgs(argv) {
  const o = { n: 1_000_000, fpr: [0.001, 0.01], reps: 3, rounds: 2, h2hReps: 7, slowN: null, peers: Object.keys(PEERS), write: true, child: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--n') o.n = Number(v());
    else if (a === '--fpr') o.fpr = v().split(',').map(Number);
    else if (a === '--reps') o.reps = Number(v());
    else if (a === '--rounds') o.rounds = Number(v());
    else if (a === '--slow-n') o.slowN = Number(v());
    else if (a === '--peers') o.peers = v().split(',');
    else if (a === '--no-write') o.write = false;
    else if (a === '--child') o.child = v();
    else if (a === '--h2h-reps') o.h2hReps = Number(v());
    else throw new Error(`unknown option ${a} (see the header of bench/js/run.mjs)`);
  }
  for (const p of o.peers) if (!(p in PEERS)) throw new Error(`unknown peer ${p}; known: ${Object.keys(PEERS).join(', ')}`);
  if (!Number.isInteger(o.n) || o.n < 1) throw new Error('--n must be a positive integer');
  if (o.slowN === null) o.slowN = o.n;
  return o;
}

// ---------------------------------------------------------------- child: one filter at one fpr

const now = () => process.hrtime.bigint();
const msSince = (t) => Number(now() - t) / 1e6;
const mem = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
function collect() {
  // Two passes: the first can leave objects with finalizers for the second.
  globalThis.gc();
  globalThis.gc();
}

async function child(opts) {
  if (typeof globalThis.gc !== 'function') throw new Error('the child needs --expose-gc');
  const [modPath, exportName, slow] = PEERS[opts.child];
  const peer = (await import(modPath))[exportName];
  await peer.load();
  const n = opts.n;
  const fpr = opts.fpr[0];
  const reps = slow ? 1 : opts.reps;

  const present = new Array(n);
  const absent = new Array(n);
  if (peer.keys === 'number') {
    for (let i = 0; i < n; i++) {
      present[i] = i;
      absent[i] = n + i;
    }
  } else {
    for (let i = 0; i < n; i++) {
      present[i] = 'key-' + i;
      absent[i] = 'key-' + (n + i);
    }
  }

  const r = { peer: peer.name, label: peer.label, package: peer.package, n, fpr, reps, slow };
  let checksum = 0;

  // Build: construct + fill, best of `reps`. Memory is measured around the first build only: later builds
  // start right after the previous filter was dropped, and V8 releases ArrayBuffer backing stores
  // concurrently, so their deltas under-count (bloomfilter's 1.8 MB Uint32Array showed as -0.4 MB).
  let f = null;
  r.addMs = Infinity;
  r.constructMs = Infinity;
  for (let rep = 0; rep < reps; rep++) {
    if (f !== null) peer.dispose(f);
    f = null;
    let m0 = 0;
    if (rep === 0) {
      collect();
      m0 = mem();
    }
    let t = now();
    f = peer.create(n, fpr);
    r.constructMs = Math.min(r.constructMs, msSince(t));
    t = now();
    const ok = peer.add(f, present);
    r.addMs = Math.min(r.addMs, msSince(t));
    if (rep === 0) {
      collect();
      r.heapDelta = mem() - m0;
      r.addOk = ok;
    } else if (ok !== r.addOk) {
      throw new Error(`${peer.name}: add() succeeded ${r.addOk} times, then ${ok} times on a fresh filter`);
    }
    checksum += ok;
  }
  r.sizing = peer.sizing(f);
  r.wasm = peer.wasm(f);
  // For cuckoo-wasm the JS side holds a small wrapper only, so its heap delta is gc noise of either sign
  // (±0.2 MB); count the filter's wasm bytes plus any positive heap delta. A peer that knows its exact
  // size (bloomfilter: its bit array) counts at least that: its delta came out 11% under it once.
  r.structureBytes = peer.structureBytes ? peer.structureBytes(f) : null;
  if (r.wasm) r.memoryBytes = r.wasm.filterBytes + Math.max(0, r.heapDelta);
  else r.memoryBytes = Math.max(r.heapDelta, r.structureBytes ?? 0);

  // Lookups: the hit counts give false negatives and the measured fpr; they must not change between reps.
  // Present and absent passes alternate, so both see the same stretch of a noisy machine.
  const hp = { best: Infinity, hits: -1 };
  const ha = { best: Infinity, hits: -1 };
  const timeHas = (keys, acc) => {
    const t = now();
    const h = peer.has(f, keys);
    acc.best = Math.min(acc.best, msSince(t));
    if (acc.hits !== -1 && h !== acc.hits) throw new Error(`${peer.name}: has() gave ${acc.hits} then ${h} hits on the same keys`);
    acc.hits = h;
  };
  for (let rep = 0; rep < reps; rep++) {
    timeHas(present, hp);
    timeHas(absent, ha);
  }
  checksum += hp.hits + ha.hits;
  r.hasPresentMs = hp.best;
  r.hasAbsentMs = ha.best;
  r.falseNegatives = n - hp.hits;
  r.falsePositives = ha.hits;
  r.measuredFpr = ha.hits / n;

  // Serialization.
  if (peer.serialize) {
    let s = null;
    r.serializeMs = Infinity;
    for (let rep = 0; rep < reps; rep++) {
      const t = now();
      s = peer.serialize(f);
      r.serializeMs = Math.min(r.serializeMs, msSince(t));
    }
    r.serializedBytes = s.bytes;
    r.serializedFormat = s.format;
    r.deserializeMs = Infinity;
    let g = null;
    for (let rep = 0; rep < reps; rep++) {
      if (g !== null) peer.dispose(g);
      const t = now();
      g = peer.deserialize(s.payload);
      r.deserializeMs = Math.min(r.deserializeMs, msSince(t));
    }
    const check = slow ? present.slice(0, Math.min(n, 20000)) : present;
    const expected = slow ? peer.has(f, check) : n - r.falseNegatives;
    const got = peer.has(g, check);
    r.roundTripChecked = check.length;
    // Keys the original found and the copy lost (the original's own false negatives are not counted twice).
    r.roundTripLost = expected - got;
    checksum += got;
    peer.dispose(g);
  } else {
    r.serializedBytes = null;
  }
  peer.dispose(f);
  r.checksum = checksum;
  process.stdout.write(JSON.stringify(r) + '\n');
}

// ---------------------------------------------------------------- child: head-to-head has()

// cuckoo-wasm and bloomfilter in one process, filled with the same keys, their has() passes alternating
// (order flipped every repetition): each pair of passes sees the same load, so the median of the paired
// ratios is the figure least disturbed by other jobs on the machine. Each adapter's loop has its own call
// sites, so sharing the process does not pollute either's JIT feedback.
async function headToHead(opts) {
  if (typeof globalThis.gc !== 'function') throw new Error('the child needs --expose-gc');
  const { ours, oursBatch } = await import('./peers/ours.mjs');
  const { bloomfilter } = await import('./peers/bloomfilter.mjs');
  await ours.load();
  const n = opts.n;
  const fpr = opts.fpr[0];
  const present = new Array(n);
  const absent = new Array(n);
  for (let i = 0; i < n; i++) {
    present[i] = 'key-' + i;
    absent[i] = 'key-' + (n + i);
  }
  const fo = ours.create(n, fpr);
  ours.add(fo, present);
  const fb = bloomfilter.create(n, fpr);
  bloomfilter.add(fb, present);
  collect();
  const runs = [
    ['ours', (k) => ours.has(fo, k)],
    ['bloomfilter', (k) => bloomfilter.has(fb, k)],
    ['oursBatch', (k) => oursBatch.has(fo, k)],
  ];
  const out = { n, fpr, reps: opts.h2hReps, present: {}, absent: {} };
  for (const set of ['present', 'absent']) for (const [name] of runs) out[set][name] = [];
  let checksum = 0;
  for (let rep = 0; rep < opts.h2hReps; rep++) {
    const order = rep % 2 === 0 ? runs : [...runs].reverse();
    for (const set of ['present', 'absent']) {
      const keys = set === 'present' ? present : absent;
      for (const [name, run] of order) {
        const t = now();
        checksum += run(keys);
        out[set][name].push(msSince(t));
      }
    }
  }
  fo.dispose();
  out.checksum = checksum;
  process.stdout.write(JSON.stringify(out) + '\n');
}

// ---------------------------------------------------------------- parent: run the children, report

const fmt = {
  mops: (n, ms) => (n / ms / 1e3).toFixed(ms > 0 && n / ms / 1e3 < 1 ? 3 : 2),
  ms: (ms) => (ms == null || !Number.isFinite(ms) ? 'n/a' : ms < 10 ? ms.toFixed(2) : ms.toFixed(0)),
  int: (x) => x.toLocaleString('en-US'),
  pct: (x) => (x * 100).toFixed(x < 0.001 ? 4 : 3) + '%',
  mb: (b) => (b / 1e6).toFixed(2),
};

function row(r) {
  if (r.error) return `| ${r.label ?? r.peer} | ${fmt.int(r.n)} | error: ${r.error.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |||||||||||`;
  const fails = r.peer === 'bloomfilter' ? '-' : fmt.int(r.n - r.addOk);
  const memory = `${fmt.mb(r.memoryBytes)} (${((r.memoryBytes * 8) / r.n).toFixed(1)})`;
  const heapWasm = r.wasm
    ? `${fmt.mb(r.heapDelta)} / ${fmt.mb(r.wasm.filterBytes)}${r.wasm.moduleBytes === null ? '' : ` (module ${fmt.mb(r.wasm.moduleBytes)})`}`
    : `${fmt.mb(r.heapDelta)} / -`;
  const ser = r.serializedBytes == null ? 'n/a' : fmt.int(r.serializedBytes);
  const rt =
    r.serializedBytes == null
      ? 'n/a'
      : r.roundTripLost === 0
        ? `ok (${fmt.int(r.roundTripChecked)})`
        : `**lost ${fmt.int(r.roundTripLost)} of ${fmt.int(r.roundTripChecked)}**`;
  const fn = r.falseNegatives === 0 ? '0' : `**${fmt.int(r.falseNegatives)}** (${fmt.pct(r.falseNegatives / r.n)})`;
  return (
    `| ${r.label} | ${fmt.int(r.n)} | ${fmt.mops(r.n, r.addMs)} | ${fmt.mops(r.n, r.hasPresentMs)} | ${fmt.mops(r.n, r.hasAbsentMs)} ` +
    `| ${fmt.pct(r.measuredFpr)} (${fmt.int(r.falsePositives)}) | ${fn} | ${fails} | ${memory} | ${heapWasm} | ${ser} | ${fmt.ms(r.serializeMs)} | ${fmt.ms(r.deserializeMs)} ` +
    `| ${rt} | ${r.reps === 1 ? '1' : `best of ${r.reps}×${r.rounds}`} | ${r.sizing} |`
  );
}

const HEADER =
  '| filter | keys | add M/s | has present M/s | has absent M/s | measured fpr | false neg | add fails | memory MB (bits/item) | heap Δ / wasm MB | serialized bytes | serialize ms | deserialize ms | round trip | timing | sizing |\n' +
  '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|---|';

const rate = (r, which) => r.n / r[which];
function ratioLine(ours, other, which) {
  if (!ours || !other || ours.error || other.error) return 'n/a';
  return (rate(ours, which) / rate(other, which)).toFixed(2) + 'x';
}

function verdict(ok) {
  return ok ? 'met' : '**not met**';
}

const median = (xs) => {
  const a = [...xs].sort((x, y) => x - y);
  return a.length % 2 ? a[(a.length - 1) / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
};
// Head-to-head figures for one key set: M/s (best pass) of each, and the median over repetitions of
// the paired ratio bloomfilter ms / ours ms (= ours calls/s over bloomfilter calls/s).
function h2hStats(h, set) {
  const t = h[set];
  const best = (xs) => Math.min(...xs);
  return {
    ours: h.n / best(t.ours) / 1e3,
    bloomfilter: h.n / best(t.bloomfilter) / 1e3,
    batch: h.n / best(t.oursBatch) / 1e3,
    ratio: median(t.bloomfilter.map((b, i) => b / t.ours[i])),
    batchRatio: median(t.bloomfilter.map((b, i) => b / t.oursBatch[i])),
    minRatio: Math.min(...t.bloomfilter.map((b, i) => b / t.ours[i])),
    maxRatio: Math.max(...t.bloomfilter.map((b, i) => b / t.ours[i])),
  };
}

function report(results, opts, meta, h2h = {}) {
  const out = [];
  out.push(`# JS benchmark: cuckoo-wasm vs npm peers`);
  out.push('');
  out.push(
    `${meta.date}, Node ${process.version}, ${meta.cpu} (${meta.cores} cores, shared with other jobs: expect noise), ` +
      `\`${meta.command}\`. Keys: present "key-"+i, absent "key-"+(n+i). Fast filters: best of ${opts.reps} passes × ${opts.rounds} alternating processes; slow peers timed once.`,
  );
  for (const fpr of opts.fpr) {
    out.push('');
    out.push(`## target fpr ${fpr * 100}%, capacity ${fmt.int(opts.n)}`);
    out.push('');
    out.push(HEADER);
    for (const r of results.filter((x) => x.fpr === fpr)) out.push(row(r));
  }
  out.push('');
  out.push('## Ratios (this run) and targets');
  out.push('');
  out.push('From the tables above (separate processes, best times; ratios of calls per second):');
  out.push('');
  out.push(
    '| fpr | ours has() / bloomfilter (present, absent) | ours / bloom-filters CF | ours / @libp2p/utils | ours hasMany() / bloomfilter test() | ours memory per 1 M items | ours false negatives |',
  );
  out.push('|---|---|---|---|---|---|---|');
  const checks = [];
  for (const fpr of opts.fpr) {
    const at = (p) => results.find((x) => x.fpr === fpr && x.peer === p);
    const ours = at('ours');
    const pairOf = (mine, other) => `${ratioLine(mine, other, 'hasPresentMs')}, ${ratioLine(mine, other, 'hasAbsentMs')}`;
    const pair = (other) => pairOf(ours, other);
    const memPerM = ours && !ours.error ? (ours.memoryBytes / ours.n) * 1e6 : null;
    const fnOurs = ['ours', 'ours-batch', 'ours-num']
      .map(at)
      .filter((x) => x && !x.error)
      .reduce((s, x) => s + x.falseNegatives + (x.roundTripLost ?? 0), 0);
    out.push(
      `| ${fpr * 100}% | ${pair(at('bloomfilter'))} | ${pair(at('bloom-filters'))} | ${pair(at('libp2p'))} | ` +
        `${pairOf(at('ours-batch'), at('bloomfilter'))} | ` +
        `${memPerM == null ? 'n/a' : fmt.mb(memPerM) + ' MB'} | ${fnOurs} |`,
    );
    const min = (other) =>
      ours && other && !ours.error && !other.error
        ? Math.min(rate(ours, 'hasPresentMs') / rate(other, 'hasPresentMs'), rate(ours, 'hasAbsentMs') / rate(other, 'hasAbsentMs'))
        : null;
    const h = h2h[fpr] && !h2h[fpr].error ? h2h[fpr] : null;
    const bf = h ? Math.min(h2hStats(h, 'present').ratio, h2hStats(h, 'absent').ratio) : min(at('bloomfilter'));
    const bfHow = h ? 'head-to-head median, worse of present/absent' : 'separate processes, worse of present/absent';
    const cf = min(at('bloom-filters'));
    if (bf != null) checks.push(`- fpr ${fpr * 100}%: ours has() >= 1.5x bloomfilter: ${bf.toFixed(2)}x (${bfHow}): ${verdict(bf >= 1.5)}`);
    if (cf != null) checks.push(`- fpr ${fpr * 100}%: ours has() >= 100x bloom-filters CuckooFilter: ${cf.toFixed(0)}x: ${verdict(cf >= 100)}`);
    if (fpr === 0.01 && memPerM != null) checks.push(`- fpr 1%: ours memory <= 2 MB per million items: ${fmt.mb(memPerM)} MB: ${verdict(memPerM <= 2e6)}`);
    checks.push(`- fpr ${fpr * 100}%: ours zero false negatives (add/has, batch, number keys, round trip): ${verdict(fnOurs === 0)}`);
  }
  if (Object.keys(h2h).length) {
    out.push('');
    out.push(
      `Head-to-head (string keys, ${fmt.int(opts.n)} of each): cuckoo-wasm and bloomfilter filled with the same keys in ONE process, ` +
        `their passes alternating ${opts.h2hReps} times (order flipped each time), so each pair shares the machine's load. ` +
        'M/s = best pass; ratio = median over repetitions of the paired ratio (range in brackets).',
    );
    out.push('');
    out.push('| fpr | keys | ours has() M/s | bloomfilter test() M/s | ours hasMany() M/s | has() / test() median [min, max] | hasMany() / test() median |');
    out.push('|---|---|--:|--:|--:|---|---|');
    for (const fpr of opts.fpr) {
      const h = h2h[fpr];
      if (!h) continue;
      if (h.error) {
        out.push(`| ${fpr * 100}% | error: ${h.error.replace(/\|/g, '\\|')} ||||||`);
        continue;
      }
      for (const set of ['present', 'absent']) {
        const x = h2hStats(h, set);
        out.push(
          `| ${fpr * 100}% | ${set} | ${x.ours.toFixed(2)} | ${x.bloomfilter.toFixed(2)} | ${x.batch.toFixed(2)} | ` +
            `${x.ratio.toFixed(2)}x [${x.minRatio.toFixed(2)}, ${x.maxRatio.toFixed(2)}] | ${x.batchRatio.toFixed(2)}x |`,
        );
      }
    }
  }
  out.push('');
  out.push('Targets:');
  out.push(...checks);
  out.push('');
  out.push(
    'Columns: add/has M/s = million calls per second (construction not included); memory = JS heap delta ' +
      "(heapUsed + arrayBuffers after gc) around construction + fill; for cuckoo-wasm, the filter's bytes in " +
      "WebAssembly memory (`byteLength`) plus the heap delta when positive (the module's whole linear memory, " +
      'which only grows, is shown as "module"); for bloomfilter, at least its bit array\'s bytes (the heap delta ' +
      'can undercount it); measured fpr = absent keys reported present (count); round trip = keys ' +
      'the deserialized copy lost that the original found. Ratios are of calls per second within this run.',
  );
  return out.join('\n');
}

async function parent(opts) {
  const self = fileURLToPath(import.meta.url);
  const started = Date.now();
  const runChild = (p, fpr) => {
    const slow = p !== 'h2h' && PEERS[p][2];
    const n = slow ? opts.slowN : opts.n;
    const args = ['--expose-gc', self, '--child', p, '--fpr', String(fpr), '--n', String(n), '--reps', String(opts.reps), '--h2h-reps', String(opts.h2hReps)];
    const t = Date.now();
    process.stderr.write(`[bench] ${p} fpr=${fpr} n=${n} ... `);
    const c = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
    const line = c.stdout.trim().split('\n').pop();
    let r;
    try {
      if (c.status !== 0) throw new Error();
      r = JSON.parse(line);
    } catch {
      const why = (c.stderr || '').trim().split('\n').slice(-3).join(' ') || `exit ${c.status} signal ${c.signal}`;
      r = { peer: p, label: p, n, fpr, error: why };
    }
    process.stderr.write(`${((Date.now() - t) / 1000).toFixed(1)} s${r.error ? ' ERROR ' + r.error : ''}\n`);
    return r;
  };
  // Fast filters: `rounds` rounds, each running every fast (filter, fpr) once, so cuckoo-wasm and
  // bloomfilter alternate through the same stretches of a shared machine's load; times are the best over
  // rounds, memory and counts come from the first round (and must agree across rounds).
  const byKey = new Map();
  const fast = opts.peers.filter((p) => !PEERS[p][2]);
  const slowPeers = opts.peers.filter((p) => PEERS[p][2]);
  for (let round = 0; round < opts.rounds; round++) {
    for (const fpr of opts.fpr) {
      for (const p of fast) {
        const r = runChild(p, fpr);
        const key = `${p}@${fpr}`;
        const prev = byKey.get(key);
        if (!prev) {
          r.rounds = 1;
          byKey.set(key, r);
        } else if (prev.error || r.error) {
          if (r.error && !prev.error) byKey.set(key, { ...r, rounds: prev.rounds + 1 });
        } else {
          for (const k of ['falseNegatives', 'falsePositives', 'addOk', 'roundTripLost']) {
            if (prev[k] !== r[k]) prev.note = `${k} differs between rounds: ${prev[k]} vs ${r[k]}`;
          }
          for (const k of ['constructMs', 'addMs', 'hasPresentMs', 'hasAbsentMs', 'serializeMs', 'deserializeMs']) {
            if (r[k] != null) prev[k] = Math.min(prev[k], r[k]);
          }
          prev.rounds++;
        }
      }
    }
  }
  // Head-to-head has(): cuckoo-wasm and bloomfilter alternating in one process (when both are selected).
  const h2h = {};
  if (opts.peers.includes('ours') && opts.peers.includes('bloomfilter') && opts.h2hReps > 0) {
    for (const fpr of opts.fpr) h2h[fpr] = runChild('h2h', fpr);
  }
  // Slow peers: once per fpr.
  for (const fpr of opts.fpr) for (const p of slowPeers) byKey.set(`${p}@${fpr}`, { ...runChild(p, fpr), rounds: 1 });
  const results = [];
  for (const fpr of opts.fpr) for (const p of opts.peers) results.push(byKey.get(`${p}@${fpr}`));
  const meta = {
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    cpu: os.cpus()[0]?.model ?? 'unknown CPU',
    cores: os.cpus().length,
    command: 'node bench/js/run.mjs ' + process.argv.slice(2).join(' '),
    totalSeconds: (Date.now() - started) / 1000,
    node: process.version,
  };
  meta.command = meta.command.trim();
  const md = report(results, opts, meta, h2h);
  process.stdout.write(md + '\n');
  if (opts.write) {
    const dir = join(root, 'bench', 'results', 'js');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'latest.md'), md + '\n');
    let versions = {};
    for (const name of ['bloom-filters', '@libp2p/utils', 'bloomfilter']) {
      try {
        versions[name] = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
      } catch {
        versions[name] = null;
      }
    }
    writeFileSync(join(dir, 'latest.json'), JSON.stringify({ meta, options: opts, versions, results, headToHead: h2h }, null, 2) + '\n');
    process.stderr.write(`[bench] wrote ${relative(process.cwd(), join(dir, 'latest.md'))} and latest.json (${meta.totalSeconds.toFixed(0)} s)\n`);
  }
}

const opts = parseArgs(process.argv.slice(2));
if (opts.child === 'h2h') await headToHead(opts);
else if (opts.child) await child(opts);
else await parent(opts);
