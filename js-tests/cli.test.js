// js-tests/cli.test.js: the package's CLI (js/cli/main.js, `npx cuckoo-wasm`) end to end: the same filter
// bytes as the native tool for the same input and options (CRLF, empty lines, non-ASCII bytes, several
// files, standard input), exit statuses, atomic add/delete, errors that leave no output.
// The native comparison needs the native build's tool: $CUCKOO_CLI, or build/tools/cli/cuckoo (what
// scripts/test.sh builds); without one those tests are skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const main = path.join(root, 'js', 'cli', 'main.js');
const nativeCli = path.resolve(process.env.CUCKOO_CLI ?? path.join(root, 'build', 'tools', 'cli', 'cuckoo'));
const haveNative = existsSync(nativeCli);
const work = mkdtempSync(path.join(tmpdir(), 'cuckoo-cli-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

const at = (name) => path.join(work, name);

function run(command, args, input) {
  const r = spawnSync(command, args, { cwd: work, input, encoding: 'buffer' });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout.toString('latin1'), stderr: r.stderr.toString() };
}
const js = (args, input) => run(process.execPath, [main, ...args], input);
const native = (args, input) => run(nativeCli, args, input);

// Inputs that exercise the line rules: CRLF, empty lines, a lone '\r', no final newline, bytes that are
// not UTF-8 (hashed as they are, never decoded), a '\r' inside a key.
const inputs = {
  'lf.txt': Buffer.from('alpha\nbeta\n\ngamma\n'),
  'crlf.txt': Buffer.from('alpha\r\nbeta\r\n\r\n\r\ngamma'),
  'edge.txt': Buffer.from('a\r\n\r\n\r\rb\r\nc\rd\n\r'),
  'bytes.txt': Buffer.from([0xc3, 0xa9, 0x74, 0xe9, 0x0a, 0xff, 0xfe, 0x0d, 0x0a, 0x41, 0x0a]),
};
for (const [name, bytes] of Object.entries(inputs)) writeFileSync(at(name), bytes);
writeFileSync(at('many.txt'), Array.from({ length: 20000 }, (_, i) => `key-${i}${i % 3 ? '' : '\r'}`).join('\n'));

test('cli: CRLF and LF inputs, files and standard input give the same filter', () => {
  assert.equal(js(['build', '-o', 'lf.cf', '--capacity', '100', '--seed', '7', 'lf.txt']).status, 0);
  assert.equal(js(['build', '-o', 'crlf.cf', '--capacity', '100', '--seed', '7', 'crlf.txt']).status, 0);
  assert.equal(js(['build', '-o', 'stdin.cf', '--capacity', '100', '--seed', '7'], inputs['crlf.txt']).status, 0);
  assert.deepEqual(readFileSync(at('crlf.cf')), readFileSync(at('lf.cf')));
  assert.deepEqual(readFileSync(at('stdin.cf')), readFileSync(at('lf.cf')));
  assert.equal(js(['build', '-o', 'sized.cf', 'edge.txt']).status, 0);
  assert.match(js(['info', 'sized.cf']).stdout, /^items: 3$/m);
});

test('cli: native and npx write identical bytes for the same input and options', { skip: !haveNative && `no native tool at ${nativeCli}` }, () => {
  const cases = [
    ['edge.txt'],
    ['bytes.txt', '--seed', '0xdeadbeef'],
    ['many.txt', '--fpr', '0.001'],
    ['many.txt', '--capacity', '30000', '--bucket-size', '8', '--seed', '18446744073709551615'],
    ['many.txt', '--fpr', '0.0001', '--semi-sort', '--capacity', '25000'],
    ['lf.txt', 'bytes.txt', 'crlf.txt'],
    ['many.txt', '--growable', '--fpr', '0.001'],
    ['many.txt', '--growable', '--capacity', '64', '--bucket-size', '2'],
  ];
  for (const args of cases) {
    const n = native(['build', '-o', 'n.cf', ...args]);
    const j = js(['build', '-o', 'j.cf', ...args]);
    assert.equal(n.status, 0, n.stderr);
    assert.equal(j.status, 0, j.stderr);
    assert.deepEqual(readFileSync(at('j.cf')), readFileSync(at('n.cf')), args.join(' '));
  }
  // Each reads the other's file, and merge gives the same bytes.
  native(['build', '-o', 'p1.cf', '--capacity', '30000', 'lf.txt']);
  js(['build', '-o', 'p2.cf', '--capacity', '30000', 'many.txt']);
  assert.equal(native(['merge', '-o', 'mn.cf', 'p1.cf', 'p2.cf']).status, 0);
  assert.equal(js(['merge', '-o', 'mj.cf', 'p1.cf', 'p2.cf']).status, 0);
  assert.deepEqual(readFileSync(at('mj.cf')), readFileSync(at('mn.cf')));
  assert.equal(js(['info', 'mn.cf']).stdout.replace('mn.cf', ''), native(['info', 'mn.cf']).stdout.replace('mn.cf', ''));
  js(['build', '-o', 'g.cf', '--growable', '--capacity', '64', 'many.txt']);
  assert.equal(js(['info', 'g.cf']).stdout, native(['info', 'g.cf']).stdout);
});

test('cli: info prints the same digits as the native tool, exact ties included', { skip: !haveNative && `no native tool at ${nativeCli}` }, () => {
  // 1 key in 32 slots is a load of exactly 3.125%: half up, 3.13% (printf would round the tie to even).
  writeFileSync(at('one.txt'), 'a\n');
  assert.equal(js(['build', '-q', '-b', '8', '-o', 'one.cf', 'one.txt']).status, 0);
  assert.match(js(['info', 'one.cf']).stdout, /^load: 3\.13%$/m);
  assert.equal(js(['info', 'one.cf']).stdout, native(['info', 'one.cf']).stdout);
  const shapes = [
    ['-b', '2', '-f', '4'],
    ['-b', '4', '-f', '7'],
    ['-b', '4', '-f', '5', '--semi-sort'],
    ['-b', '8', '-f', '5'],
    ['-b', '4', '-g', '-f', '9'],
  ];
  for (const [i, keys] of [1, 3, 5, 24, 40, 77, 100].entries()) {
    writeFileSync(at('k.txt'), Array.from({ length: keys }, (_, k) => `k${k}`).join('\n'));
    const shape = shapes[i % shapes.length];
    assert.equal(js(['build', '-q', '-n', '128', ...shape, '-o', 'k.cf', 'k.txt']).status, 0, shape.join(' '));
    assert.equal(js(['info', 'k.cf']).stdout, native(['info', 'k.cf']).stdout, `${keys} keys, ${shape.join(' ')}`);
  }
});

// A full filter: every slot taken and one fingerprint parked in the victim slot. Its load, the slots in
// use, is 100%, not 9/8 of it: the victim is in no slot (items counts it; full says it is parked).
test('cli: info of a full filter shows a load of at most 100%, the victim apart, alike in both tools', async () => {
  const { CuckooFilter } = await import('../js/index.js');
  const f = await CuckooFilter.create({ bucketCount: 2, bucketSize: 4, fingerprintBits: 16, seed: 5 });
  for (let i = 0; !f.isFull; i++) f.add(`k${i}`);
  assert.equal(f.size, f.slotCount + 1);
  assert.equal(f.loadFactor, 1);
  writeFileSync(at('full.cf'), f.serialize());
  f.dispose();
  const info = js(['info', 'full.cf']).stdout;
  assert.match(info, /^items: 9$/m);
  assert.match(info, /^load: 100\.00%$/m);
  assert.match(info, /^full: yes \(a fingerprint is parked in the victim slot/m);
  if (haveNative) assert.equal(native(['info', 'full.cf']).stdout, info);
});

// Runs command with args followed by key arguments given as bytes (bash's $'\xNN'): Node cannot pass
// arguments that are not UTF-8 to a child itself.
function runWithByteArgs(command, args, byteArgs) {
  const script = `exec "$@" ${byteArgs.map((b) => `$'${[...b].map((c) => `\\x${c.toString(16).padStart(2, '0')}`).join('')}'`).join(' ')}`;
  return run('bash', ['-c', script, 'bash', command, ...args]);
}

test('cli: key arguments that are not UTF-8 are hashed as their bytes, as natively', { skip: !haveNative && `no native tool at ${nativeCli}` }, () => {
  const keys = [Buffer.from([0xff]), Buffer.from([0x63, 0x61, 0x66, 0xc3]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('\ufffd')];
  writeFileSync(at('ff.txt'), Buffer.concat([keys[0], Buffer.from('\n'), keys[3], Buffer.from('\n')]));
  assert.equal(native(['build', '-q', '-o', 'ff.cf', 'ff.txt']).status, 0);
  const n = runWithByteArgs(nativeCli, ['query', 'ff.cf'], keys);
  const j = runWithByteArgs(process.execPath, [main, 'query', 'ff.cf'], keys);
  if (process.platform !== 'linux') {
    // No /proc/self/cmdline: the bytes are unknown, and the key is refused rather than hashed wrong.
    assert.equal(j.status, 2);
    assert.match(j.stderr, /argument 3 holds U\+FFFD.*standard input/);
    return;
  }
  assert.equal(n.stdout, `maybe\t\xff\nno\tcaf\xc3\nno\t\xed\xa0\x80\nmaybe\t\xef\xbf\xbd\n`);
  assert.deepEqual(j, n);
  // add and delete take the same bytes; a file name that is not UTF-8 is refused, not mangled.
  assert.equal(runWithByteArgs(process.execPath, [main, 'add', 'ff.cf'], [keys[1]]).status, 0);
  assert.equal(runWithByteArgs(nativeCli, ['query', 'ff.cf'], [keys[1]]).stdout, 'maybe\tcaf\xc3\n');
  const bad = runWithByteArgs(process.execPath, [main, 'build', '-o'], [keys[0]]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--output is not valid UTF-8/);
});

test('cli: delete names a missing key by its bytes, as natively', { skip: !haveNative && `no native tool at ${nativeCli}` }, () => {
  assert.equal(native(['build', '-q', '-o', 'del.cf', '--capacity', '100', 'lf.txt']).status, 0);
  const raw = (command, args, input) => spawnSync(command, args, { cwd: work, input }).stderr;
  for (const key of [Buffer.from('café'), Buffer.from([0x78, 0xff, 0xfe]), Buffer.alloc(300, 'é')]) {
    const input = Buffer.concat([key, Buffer.from('\n')]);
    const n = raw(nativeCli, ['delete', '-o', 'out.cf', 'del.cf'], input);
    assert.deepEqual(raw(process.execPath, [main, 'delete', '-o', 'out.cf', 'del.cf'], input), n);
    assert.ok(n.includes(key.subarray(0, 200)), n.toString());
  }
  assert.equal(js(['delete', '-o', 'out.cf', 'del.cf', 'café']).stderr, native(['delete', '-o', 'out.cf', 'del.cf', 'café']).stderr);
});

test('cli: --capacity 0 is refused alike, with or without --growable', { skip: !haveNative && `no native tool at ${nativeCli}` }, () => {
  for (const args of [
    ['-n', '0'],
    ['-g', '-n', '0'],
    ['-g', '--capacity=0x0'],
  ]) {
    const n = native(['build', '-q', '-o', 'zero.cf', ...args, 'lf.txt']);
    assert.deepEqual(js(['build', '-q', '-o', 'zero.cf', ...args, 'lf.txt']), n, args.join(' '));
    assert.equal(n.status, 2);
    assert.match(n.stderr, /^cuckoo: build: --capacity must be at least 1 \(got 0\)$/m);
  }
  assert.ok(!existsSync(at('zero.cf')));
});

test(
  'cli: option errors name the options as the command line spells them, alike in both tools',
  { skip: !haveNative && `no native tool at ${nativeCli}` },
  () => {
    const cases = [
      [['-b', '3'], /^cuckoo: build: --bucket-size must be 2, 4 or 8 \(got 3\)$/m],
      [['-b', '9999999999'], /^cuckoo: build: --bucket-size must be an integer in 0\.\.2\^32-1, decimal or 0x hex \(got '9999999999'\)$/m],
      [['--fingerprint-bits', '4294967296'], /--fingerprint-bits must be an integer in 0\.\.2\^32-1/],
      [['--fingerprint-bits', '4294967295'], /^cuckoo: build: --fingerprint-bits must be in 4\.\.32 \(got 4294967295\)$/m],
      [['--fpr', '0.01', '-f', '8'], /^cuckoo: build: set either --fpr or --fingerprint-bits, not both \(got --fpr 0\.01 and --fingerprint-bits 8\)$/m],
      [['--semi-sort', '-b', '8'], /^cuckoo: build: --semi-sort requires --bucket-size 4 \(got 8\)$/m],
      [['-g', '-f', '30'], /^cuckoo: build: a growable filter's --fingerprint-bits must be at most 28 \(got 30\)/m],
      [['--fpr', '1e-12'], /^cuckoo: build: --fpr 1e-12 needs more than 32 fingerprint bits$/m],
      [['-g', '--fpr', '1e-9'], /^cuckoo: build: --fpr 1e-09 is too small for a growable filter/m],
      [
        ['-b', '2', '-n', '100000000000000000'],
        /^cuckoo: build: --capacity 100000000000000000 needs more than 2\^32 buckets \(with --bucket-size 2 and the default target load, the most is about 7\.04353e\+09\)$/m,
      ],
    ];
    for (const [args, message] of cases) {
      const sized = args.includes('-n') ? args : ['--capacity', '100', ...args];
      const n = native(['build', '-q', '-o', 'bad.cf', ...sized, 'lf.txt']);
      const j = js(['build', '-q', '-o', 'bad.cf', ...sized, 'lf.txt']);
      const firstLine = (r) => r.stderr.split('\n')[0]; // a usage line follows, naming each program
      assert.equal(firstLine(j), firstLine(n), args.join(' '));
      assert.deepEqual([n.status, j.status], [2, 2], args.join(' '));
      assert.match(n.stderr, message);
    }
    assert.ok(!existsSync(at('bad.cf')));
  },
);

test('cli: a reader that goes away ends the output quietly, by SIGPIPE as natively', { skip: !haveNative && `no native tool at ${nativeCli}` }, () => {
  assert.equal(js(['build', '-q', '-o', 'pipe.cf', '--capacity', '100', 'lf.txt']).status, 0);
  // `true` reads nothing: the 280 KB of answers overflow the pipe, and the next write finds no reader.
  const script = '"$@" < many.txt | true; echo "${PIPESTATUS[0]}"';
  for (const tool of [[nativeCli], [process.execPath, main]]) {
    const r = run('bash', ['-c', script, 'bash', ...tool, 'query', 'pipe.cf']);
    assert.deepEqual([r.stdout, r.stderr], ['141\n', ''], tool.at(-1));
  }
});

test('cli: a failed build erases its progress line before the error', () => {
  // stderr passes for a terminal (a preload sets isTTY), so the progress line is drawn.
  writeFileSync(at('tty.cjs'), 'process.stderr.isTTY = true;\n');
  writeFileSync(at('big.txt'), Array.from({ length: 2_500_000 }, (_, i) => `k${i}`).join('\n'));
  const r = run(process.execPath, ['-r', at('tty.cjs'), main, 'build', '-o', 'big.cf', '--capacity', '2000000', 'big.txt']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^\r {2}\d/, 'no progress line was drawn');
  assert.match(r.stderr, /\r\x1b\[Kcuckoo: build: the filter is full after \d+ keys/);
});

test('cli: errors are worded as natively', { skip: !haveNative && `no native tool at ${nativeCli}` }, () => {
  assert.equal(native(['build', '-q', '-o', 'w.cf', '--capacity', '100', 'lf.txt']).status, 0);
  writeFileSync(at('w-short.cf'), readFileSync(at('w.cf')).subarray(0, 70));
  mkdirSync(at('w-dir'), { recursive: true });
  const cases = [
    ['info', 'missing.cf'],
    ['info', 'w-short.cf'],
    ['query', 'w-dir', 'x'],
    ['build', '-o', 'w-dir', 'lf.txt'],
    ['build', '-o', 'no-dir/x.cf', 'lf.txt'],
    ['build', '-o', 'x.cf', 'missing.txt'],
    ['build', '-o', 'x.cf', '--capacity', '5', 'missing.txt'],
    ['build', '-o', 'x.cf', '--capacity', '5', 'w-dir'],
    ['merge', '-o', 'm.cf', 'w.cf', 'missing.cf'],
    ['delete', 'w.cf', 'nope'],
    ['build', '--bogus'],
    ['build', '-o', 'x.cf', '--fpr', 'abc', 'lf.txt'],
    ['query', '-p', '-a', 'w.cf', 'x'],
  ];
  for (const args of cases) {
    const j = js(args);
    assert.deepEqual({ ...j, stderr: j.stderr.replaceAll('cuckoo-wasm ', 'cuckoo ') }, native(args), args.join(' '));
  }
});

test('cli: a symbolic link is replaced, never followed; a device is written into', { skip: !haveNative && `no native tool at ${nativeCli}` }, () => {
  mkdirSync(at('linked'), { recursive: true });
  for (const [name, tool] of [
    ['n', native],
    ['j', js],
  ]) {
    assert.equal(tool(['build', '-q', '-o', `linked/${name}.cf`, '--capacity', '100', 'lf.txt']).status, 0);
    const before = readFileSync(at(`linked/${name}.cf`));
    symlinkSync(`linked/${name}.cf`, at(`${name}-link.cf`));
    assert.equal(tool(['add', `${name}-link.cf`, 'through-link']).status, 0);
    assert.ok(lstatSync(at(`${name}-link.cf`)).isFile(), `${name}: the link was followed`);
    assert.deepEqual(readFileSync(at(`linked/${name}.cf`)), before, `${name}: the file the link named changed`);
    assert.equal(native(['query', `${name}-link.cf`, 'through-link']).status, 0, `${name}: the new file lacks the key`);
    assert.deepEqual(
      readdirSync(at('linked')).filter((f) => f.includes('.tmp-')),
      [],
      'temporary files left behind',
    );
    // Through a link of its own, so that a tool that replaced the device would only replace the link.
    symlinkSync('/dev/null', at(`${name}-null`));
    const r = tool(['add', '-o', `${name}-null`, `linked/${name}.cf`, 'x']);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(lstatSync(at(`${name}-null`)).isSymbolicLink(), `${name}: the device was replaced`);
  }
  assert.deepEqual(readFileSync(at('linked/j.cf')), readFileSync(at('linked/n.cf')));
});

test('cli: -o /dev/stdout writes where the shell sent standard output', { skip: !haveNative && `no native tool at ${nativeCli}` }, () => {
  const quote = (s) => `'${s.replaceAll("'", "'\\''")}'`;
  const outputs = {};
  for (const [name, command] of [
    ['n', quote(nativeCli)],
    ['j', `${quote(process.execPath)} ${quote(main)}`],
  ]) {
    writeFileSync(at(`${name}-appended.bin`), 'old\n');
    const script =
      `${command} build -q -o /dev/stdout lf.txt >> ${name}-appended.bin && ` +
      `{ ${command} build -q -o /dev/stdout lf.txt; echo TRAILER; } > ${name}-trailed.bin`;
    const r = spawnSync('sh', ['-c', script], { cwd: work, encoding: 'buffer' });
    assert.equal(r.status, 0, r.stderr.toString());
    const appended = readFileSync(at(`${name}-appended.bin`));
    const trailed = readFileSync(at(`${name}-trailed.bin`));
    assert.equal(appended.subarray(0, 4).toString(), 'old\n', `${name}: the file >> appends to was replaced`);
    assert.equal(trailed.subarray(-8).toString(), 'TRAILER\n', `${name}: the next command's output was lost`);
    assert.deepEqual(appended.subarray(4), trailed.subarray(0, -8));
    outputs[name] = trailed;
  }
  assert.deepEqual(outputs.j, outputs.n);
});

test('cli: long output names fit, and a file the user may not write is refused', { skip: !haveNative && `no native tool at ${nativeCli}` }, () => {
  const long = `${'x'.repeat(250)}.cf`; // the most a name may have, less a little: no room for a suffix
  for (const [name, tool] of [
    ['n', native],
    ['j', js],
  ]) {
    const file = `${name}${long.slice(1)}`;
    assert.equal(tool(['build', '-q', '-o', file, '--capacity', '100', 'lf.txt']).status, 0, name);
    assert.equal(tool(['add', file, 'delta']).status, 0, name);
  }
  assert.deepEqual(readFileSync(at(`j${long.slice(1)}`)), readFileSync(at(`n${long.slice(1)}`)));
  if (process.getuid?.() === 0) return; // root may write any file
  js(['build', '-q', '-o', 'ro.cf', '--capacity', '100', 'lf.txt']);
  chmodSync(at('ro.cf'), 0o444);
  const before = readFileSync(at('ro.cf'));
  for (const tool of [native, js]) {
    const r = tool(['add', 'ro.cf', 'delta']);
    assert.deepEqual([r.status, r.stderr], [2, 'cuckoo: add: ro.cf: cannot write: Permission denied\n']);
    assert.deepEqual(readFileSync(at('ro.cf')), before);
  }
});

test('cli: --keep-duplicates: a key repeated past 2 x bucket size is skipped with a note, not a full filter', () => {
  writeFileSync(at('repeated.txt'), ['same', ...Array(20).fill('same'), 'other'].join('\n'));
  const r = js(['build', '-o', 'rep.cf', '--capacity', '100', '--keep-duplicates', 'repeated.txt']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /13 keys not added again: each is already present, and a key is stored at most 8 times/);
  assert.match(js(['info', 'rep.cf']).stdout, /^items: 9$/m);
  const g = js(['build', '-o', 'grow.cf', '--growable', '--keep-duplicates', 'many.txt']);
  assert.equal(g.status, 0, g.stderr);
  assert.match(js(['info', 'grow.cf']).stdout, /^format version: 2$/m);
  assert.match(js(['info', 'grow.cf']).stdout, /^items: 20000$/m);
});

// A key file that repeats keys, as logs and merged lists do: 500,000 distinct keys, each on 3 lines,
// shuffled. Both tools store each distinct key once, in a filter sized for the distinct keys.
test('cli: a key file that repeats every key builds the filter of its distinct keys, in both tools', () => {
  const distinct = 500_000;
  const keys = Array.from({ length: distinct }, (_, i) => `user-${i}@example.org`);
  const lines = [...keys, ...keys, ...keys];
  let state = 12345;
  for (let i = lines.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [lines[i], lines[j]] = [lines[j], lines[i]];
  }
  writeFileSync(at('dup3.txt'), lines.join('\n') + '\n');
  writeFileSync(at('distinct.txt'), keys.join('\n') + '\n');
  for (const sizing of [[], ['--capacity', `${distinct}`]]) {
    const how = sizing.join(' ') || 'sized from the input';
    assert.equal(js(['build', '-q', '-o', 'ref.cf', ...sizing, 'distinct.txt']).status, 0, how);
    const j = js(['build', '-q', '-o', 'dup3.cf', ...sizing, 'dup3.txt']);
    assert.equal(j.status, 0, `${how}: ${j.stderr}`);
    const bytes = readFileSync(at('dup3.cf'));
    const reference = readFileSync(at('ref.cf')).length;
    assert.ok(bytes.length <= 1.1 * reference, `${how}: ${bytes.length} bytes against ${reference} for the distinct keys`);
    const info = js(['info', 'dup3.cf']).stdout;
    const items = Number(/^items: (\d+)$/m.exec(info)[1]);
    assert.ok(items <= distinct && items >= 0.99 * distinct, `${how}: ${items} items`);
    const missing = js(['query', '-a', 'dup3.cf'], readFileSync(at('distinct.txt')));
    assert.equal(missing.stdout, '', `${how}: keys missing from the filter`);
    if (haveNative) {
      const n = native(['build', '-q', '-o', 'dup3-native.cf', ...sizing, 'dup3.txt']);
      assert.equal(n.status, 0, `${how}: ${n.stderr}`);
      assert.deepEqual(readFileSync(at('dup3-native.cf')), bytes, `${how}: native and npx differ`);
    }
  }
});

test('cli: a key the filter refuses and does not hold fails the build, in both tools', { skip: !haveNative && `no native tool at ${nativeCli}` }, () => {
  // 40 distinct keys: a relocation walk fails at the 28th in this 72-slot filter of 2-entry buckets. The
  // filter refuses that key alone (below its capacity); left out, it would be missing from the filter.
  writeFileSync(at('jam.txt'), Array.from({ length: 40 }, (_, i) => `key-8365-${i}\n`).join(''));
  for (const tool of [native, js]) {
    const r = tool(['build', '-o', 'jam.cf', '--bucket-size', '2', '--fpr', '0.001', 'jam.txt']);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /the filter is full after 27 keys \(72 slots\) for 40 keys/);
    assert.equal(existsSync(at('jam.cf')), false, 'a failed build left its output');
  }
});

test('cli: query answers, passes lines through, and exits 0 / 1 / 2', () => {
  js(['build', '-o', 'q.cf', '--capacity', '100', 'lf.txt']);
  let r = js(['query', 'q.cf', 'alpha', 'nothing-like-this']);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^maybe\talpha$/m);
  assert.equal(js(['query', 'q.cf', 'absent-1', 'absent-2']).status, 1);
  assert.equal(js(['query', '--all', 'q.cf', 'alpha', 'absent-1']).status, 1);
  assert.equal(js(['query', '--all', 'q.cf', 'alpha', 'beta', 'gamma']).status, 0);
  r = js(['query', '-p', 'q.cf'], Buffer.from('alpha\r\nzzz\n\ngamma\n'));
  assert.equal(r.stdout, 'alpha\ngamma\n');
  assert.equal(js(['query', 'q.cf', '']).status, 2);
  assert.equal(js(['query', 'missing.cf', 'a']).status, 2);
});

test(
  'cli: query checks a file as a view does, alike in both tools: a corrupt table answers, info refuses it',
  { skip: !haveNative && `no native tool at ${nativeCli}` },
  () => {
    const keys = Array.from({ length: 300 }, (_, i) => `key-${i}`);
    writeFileSync(at('corrupt-keys.txt'), keys.join('\n'));
    // Bytes of the first table flipped: a fixed filter's whole table (after the 56-byte header, before the
    // checksum), and a stretch of a growing filter's level 0 (after its 32-byte level header): some keys'
    // entries change, so answers differ from the intact file's, but the structure still checks.
    const cases = [
      [[], (size) => [60, size - 8]],
      [['--semi-sort', '--fpr', '0.001'], (size) => [60, size - 8]],
      [['--growable', '--capacity', '64'], () => [92, 124]],
    ];
    for (const [options, span] of cases) {
      assert.equal(native(['build', '-o', 'intact.cf', ...options, 'corrupt-keys.txt']).status, 0);
      const intact = readFileSync(at('intact.cf'));
      const corrupt = Buffer.from(intact);
      const [from, to] = span(corrupt.length);
      for (let i = from; i < to; i += 3) corrupt[i] ^= 0x5a;
      writeFileSync(at('corrupt.cf'), corrupt);
      const probe = [...keys.slice(0, 100), ...Array.from({ length: 100 }, (_, i) => `absent-${i}`)].join('\n');
      const n = native(['query', 'corrupt.cf'], Buffer.from(probe));
      const j = js(['query', 'corrupt.cf'], Buffer.from(probe));
      assert.equal(j.stderr, n.stderr, options.join(' '));
      assert.equal(j.status, n.status, options.join(' '));
      assert.equal(j.stdout, n.stdout, options.join(' '));
      assert.notEqual(n.stdout, native(['query', 'intact.cf'], Buffer.from(probe)).stdout, 'the corruption changed no answer');
      // info verifies the checksum in both.
      for (const tool of [native, js]) {
        const r = tool(['info', 'corrupt.cf']);
        assert.equal(r.status, 2);
        assert.match(r.stderr, /checksum mismatch/);
      }
      // A header that fails the structural checks is refused by query too, with the same message.
      const badHeader = Buffer.from(intact);
      badHeader[5] = 3; // bucket size 3
      writeFileSync(at('bad-header.cf'), badHeader);
      const nb = native(['query', 'bad-header.cf', 'key-1']);
      const jb = js(['query', 'bad-header.cf', 'key-1']);
      assert.equal(nb.status, 2);
      assert.equal(jb.status, 2);
      assert.equal(jb.stderr, nb.stderr);
    }
  },
);

test('cli: add and delete are atomic: a full filter or an absent key leaves the file as it was', () => {
  assert.equal(js(['build', '-o', 'small.cf', '--capacity', '10', '--seed', '3', 'lf.txt']).status, 0);
  chmodSync(at('small.cf'), 0o640);
  const before = readFileSync(at('small.cf'));
  let r = js(['add', 'small.cf', ...Array.from({ length: 1000 }, (_, i) => `x${i}`)]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^cuckoo: add: the filter is full after \d+ keys .*small\.cf is unchanged/);
  assert.deepEqual(readFileSync(at('small.cf')), before);
  r = js(['delete', 'small.cf', 'alpha', 'not-there']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /key 'not-there' is not in the filter; small\.cf is unchanged/);
  assert.deepEqual(readFileSync(at('small.cf')), before);
  assert.deepEqual(
    readdirSync(work).filter((f) => f.includes('.tmp-')),
    [],
    'temporary files left behind',
  );
  assert.equal(js(['add', 'small.cf', 'delta']).status, 0);
  assert.equal(js(['delete', 'small.cf'], Buffer.from('delta\r\nalpha\n')).status, 0);
  assert.equal(js(['query', 'small.cf', 'delta', 'alpha']).status, 1);
  assert.equal(js(['query', '--all', 'small.cf', 'beta', 'gamma']).status, 0);
  assert.equal(statSync(at('small.cf')).mode & 0o777, 0o640, 'permissions kept');
});

test('cli: errors are clear, exit 2 and leave no output', () => {
  const cases = [
    [['build', '-o', 'bad.cf', '--fpr', '2', 'lf.txt'], /cuckoo: build: --fpr must be in \(0, 1\) \(got 2\)/],
    [['build', '-o', 'bad.cf', '--seed', '-1', 'lf.txt'], /--seed must be an integer/],
    [['build', '-o', 'bad.cf', '--capacity', '10', 'no-such.txt'], /no-such\.txt: cannot open/],
    [['build', '-o', 'bad.cf', '--frobnicate', 'lf.txt'], /unknown option --frobnicate/],
    [['build', 'lf.txt'], /build needs -o FILE/],
    [['build', '-o', 'bad.cf', '--capacity', '10', 'many.txt'], /the filter is full after \d+ keys/],
    [['frobnicate'], /unknown command 'frobnicate'/],
  ];
  for (const [args, message] of cases) {
    const r = js(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, message);
  }
  assert.ok(!existsSync(at('bad.cf')), 'a failed build left its output');
  // A corrupt filter file: the core's FormatError message.
  js(['build', '-o', 'ok.cf', '--capacity', '100', 'lf.txt']);
  const bytes = readFileSync(at('ok.cf'));
  writeFileSync(at('short.cf'), bytes.subarray(0, 70));
  let r = js(['info', 'short.cf']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /short\.cf: not a valid filter file: truncated input/);
  bytes[60] ^= 0xff;
  writeFileSync(at('flipped.cf'), bytes);
  r = js(['info', 'flipped.cf']); // query does not verify the checksum (docs/cli.md)
  assert.equal(r.status, 2);
  assert.match(r.stderr, /checksum mismatch/);
  // A merge of different shapes names the field and writes nothing.
  js(['build', '-o', 's1.cf', '--capacity', '100', '--seed', '1', 'lf.txt']);
  js(['build', '-o', 's2.cf', '--capacity', '100', '--seed', '2', 'lf.txt']);
  r = js(['merge', '-o', 'm.cf', 's1.cf', 's2.cf']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /s2\.cf: merge needs filters of the same shape and seed: seeds differ/);
  assert.ok(!existsSync(at('m.cf')));
});
