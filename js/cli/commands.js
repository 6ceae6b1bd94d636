// js/cli/commands.js: build, query, info, add, delete, merge, on the package's public API. The same
// commands, options, output and exit statuses as the native tool (tools/cli/commands.cpp), and the same
// filter bytes for the same input and options (js-tests/cli.test.js checks it).
import { isatty } from 'node:tty';
import { CuckooFilter } from 'cuckoo-wasm';
import { CuckooReader } from 'cuckoo-wasm/reader';
import { UsageError, fileName, number, u32, u64 } from './args.js';
import { readWhole, writeAtomically, writeStdout } from './files.js';
import { fixedDouble, fixedRatio } from './fixed_point.js';
import { countDistinctKeys } from './distinct.js';
import { countKeys, readKeys, splitLines, totalBytes } from './lines.js';
import { Progress } from './progress.js';

// docs/format.md: the versions this package writes for a fixed and a growing filter.
const kFormatVersion = 1;
const kGrowingFormatVersion = 2;

// The library's messages start with "cuckoo: " (the core) or "cuckoo-wasm: " (the JS layer).
export function coreMessage(error) {
  return String(error?.message ?? error).replace(/^cuckoo(-wasm)?: /, '');
}

async function loadFilter(file) {
  const bytes = readWhole(file);
  try {
    return await CuckooFilter.deserialize(bytes);
  } catch (error) {
    throw new Error(`${file}: not a valid filter file: ${coreMessage(error)}`);
  }
}

function saveFilter(filter, file) {
  const bytes = filter.serialize();
  if (file === '-') {
    if (isatty(1)) throw new UsageError('refusing to write a binary filter to a terminal');
    writeStdout(bytes);
  } else {
    writeAtomically(file, bytes);
  }
}

// Keys from the arguments (each verbatim: a string's UTF-8 bytes, or a Buffer's bytes for an argument that
// is not UTF-8, argv.js; an empty one is an error) or, if there are none, from the lines of standard
// input (lines.js), handed to onBatch in order.
function forEachKeyBatch(argKeys, onBatch) {
  if (argKeys.length === 0) {
    readKeys(['-'], onBatch);
    return;
  }
  if (argKeys.some((k) => k.length === 0)) throw new UsageError('an empty key: keys must have at least one byte');
  onBatch(argKeys, 0);
}

// An Error whose message holds bytes that need not be UTF-8 (a key's): main.js writes `bytes` as they are.
export class BytesError extends Error {
  constructor(...parts) {
    const bytes = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
    super(bytes.toString());
    this.bytes = bytes;
  }
}

// The key's first 200 bytes in quotes, as the native tool shows it.
function quoted(key) {
  const bytes = typeof key === 'string' ? Buffer.from(key) : Buffer.from(key.buffer, key.byteOffset, key.length);
  return Buffer.concat([Buffer.from("'"), bytes.subarray(0, 200), Buffer.from(bytes.length > 200 ? "...'" : "'")]);
}

// The filter options: --capacity, --fpr, --fingerprint-bits, --bucket-size, --seed, --semi-sort,
// --growable. The package checks their ranges; filterFor() names them in its messages as the command line
// does.
function filterOptions(args, capacity) {
  const options = capacity === undefined ? {} : { capacity };
  const fpr = number(args, 'fpr');
  if (fpr !== undefined) options.fpr = fpr;
  const bits = u32(args, 'fingerprint-bits');
  if (bits !== undefined) options.fingerprintBits = bits;
  const b = u32(args, 'bucket-size');
  if (b !== undefined) options.bucketSize = b;
  const seed = u64(args, 'seed');
  if (seed !== undefined) options.seed = seed;
  if (args.flags.has('semi-sort')) options.semiSort = true;
  if (args.flags.has('growable')) options.growable = true;
  return options;
}

// How the command line names each option (by its JS name) in the core's messages: its flag, or, for an
// option it has no flag for, the words of its name. tools/cli/commands.cpp names them alike.
export const kCliOptionNames = {
  capacity: '--capacity',
  fpr: '--fpr',
  fingerprintBits: '--fingerprint-bits',
  bucketSize: '--bucket-size',
  maxKicks: 'max kicks',
  seed: '--seed',
  semiSort: '--semi-sort',
  targetLoad: 'target load',
  bucketCount: 'bucket count',
  growable: '--growable',
  maxMemoryBytes: 'max memory bytes',
};

// A new filter with the command line's options. An option the core refused (a RangeError with
// messageParts: the message with the options' JS names at odd indices) is named as the command line does.
async function filterFor(args, capacity) {
  const options = filterOptions(args, capacity);
  try {
    return await CuckooFilter.create(options);
  } catch (error) {
    if (!Array.isArray(error?.messageParts)) throw error;
    throw new Error(coreMessage(error.messageParts.map((part, i) => (i % 2 === 1 ? kCliOptionNames[part] : part)).join('')));
  }
}

function filterFull(inserted, filter, what) {
  return new Error(
    `the filter is full after ${inserted} keys (${filter.slotCount} slots)${what}` + (filter.growable ? '' : '; --growable builds a filter that grows'),
  );
}

// How build and add store keys (counts): each distinct key once (addManyIfAbsent: a key the filter
// already reports present is not stored again), or, with --keep-duplicates (counts.keepDuplicates), every
// copy (addMany).
function storing(args) {
  return { keepDuplicates: args.flags.has('keep-duplicates'), refused: 0 };
}

// Adds a batch. Throws filterFull when the filter is full or refuses a key it does not hold, which would
// be missing. Keeping duplicates, a key the filter refuses alone while it already holds it (stored 2b
// times, or its buckets jammed by repeated keys) is counted in counts.refused and skipped: the filter
// answers for it as before. Returns the keys stored.
function addBatch(filter, keys, counts, storedBefore, what) {
  if (!counts.keepDuplicates) {
    const sizeBefore = filter.size;
    const handled = filter.addManyIfAbsent(keys);
    const stored = filter.size - sizeBefore;
    if (handled < keys.length) throw filterFull(storedBefore + stored, filter, what);
    return stored;
  }
  let done = 0;
  let stored = 0;
  while (done < keys.length) {
    const inserted = filter.addMany(done === 0 ? keys : keys.slice(done));
    done += inserted;
    stored += inserted;
    if (done === keys.length) break;
    if (filter.isFull || !filter.has(keys[done])) throw filterFull(storedBefore + stored, filter, what);
    counts.refused++;
    done++;
  }
  return stored;
}

function reportRefused(counts, filter) {
  if (counts.refused === 0) return;
  process.stderr.write(
    `cuckoo: ${counts.refused} keys not added again: each is already present, and a key is stored at most ` +
      `${2 * filter.bucketSize} times (2 x bucket size), fewer where repeated keys fill its buckets\n`,
  );
}

// In-memory input split into batches of whole lines of ~4 MiB (lines.js rules).
function forEachBatchIn(data, fn) {
  const kWindow = 4 << 20;
  let pos = 0;
  while (pos < data.length) {
    let window = Math.min(kWindow, data.length - pos);
    for (;;) {
      const atEnd = pos + window === data.length;
      const { keys, used } = splitLines(data.subarray(pos, pos + window), atEnd);
      if (used > 0) {
        fn(keys, pos + used);
        pos += used;
        break;
      }
      window = Math.min(window * 2, data.length - pos);
    }
  }
}

async function runBuild(args) {
  const output = args.values.get('output');
  if (output === undefined) throw new UsageError('build needs -o FILE (or -o - for standard output)');
  const inputs = args.positional.length === 0 ? ['-'] : args.positional.map(fileName);
  const capacity = u64(args, 'capacity');
  const quiet = args.flags.has('quiet');
  const counts = storing(args);

  if (capacity !== undefined || args.flags.has('growable')) {
    // Streams the input: the filter exists before the first key is read.
    const filter = await filterFor(args, capacity);
    const what = capacity !== undefined ? ` for --capacity ${capacity}` : '';
    const progress = new Progress(!quiet, totalBytes(inputs));
    let keys = 0;
    try {
      readKeys(inputs, (batch, bytes) => {
        keys += addBatch(filter, batch, counts, keys, what);
        progress.update(keys, bytes);
      });
    } finally {
      progress.finish(); // also before an error's message, which would otherwise follow the bar
    }
    reportRefused(counts, filter);
    saveFilter(filter, output);
    return 0;
  }

  // No --capacity: the filter is sized for the input's keys (its distinct keys, unless duplicates are
  // kept), so the input is read whole first.
  const parts = [];
  for (const input of inputs) {
    const bytes = readWhole(input);
    if (bytes.length !== 0) parts.push(bytes);
    if (bytes.length !== 0 && bytes[bytes.length - 1] !== 10) parts.push(Buffer.from('\n'));
  }
  const data = Buffer.concat(parts);
  const count = counts.keepDuplicates ? countKeys(data) : countDistinctKeys(data);
  if (count === 0) throw new UsageError('the input has no keys; give --capacity to build an empty filter');
  const filter = await filterFor(args, count);
  const what = ` for ${count} keys`;
  const progress = new Progress(!quiet, data.length);
  let keys = 0;
  try {
    forEachBatchIn(data, (batch, done) => {
      keys += addBatch(filter, batch, counts, keys, what);
      progress.update(keys, done);
    });
  } finally {
    progress.finish();
  }
  reportRefused(counts, filter);
  saveFilter(filter, output);
  return 0;
}

// The filter for `query`, read-only, with the checks the native tool's view makes (docs/cli.md): the
// structure, not the checksum, so that both tools answer alike for any file.
async function openFilter(file) {
  const bytes = readWhole(file);
  try {
    return await CuckooReader.deserialize(bytes, { verify: false });
  } catch (error) {
    throw new Error(`${file}: not a valid filter file: ${coreMessage(error)}`);
  }
}

async function runQuery(args) {
  if (args.positional.length === 0) throw new UsageError('query needs a filter file');
  const filter = await openFilter(fileName(args.positional[0]));
  const argKeys = args.positional.slice(1);
  const presentOnly = args.flags.has('present');
  const absentOnly = args.flags.has('absent');
  if (presentOnly && absentOnly) throw new UsageError('--present and --absent exclude each other');
  // Output is built as a latin1 string, one char per byte, so that keys go out as the bytes they were.
  const toLatin1 = (k) => (typeof k !== 'string' ? Buffer.from(k).toString('latin1') : argKeys.length ? Buffer.from(k).toString('latin1') : k);
  let seen = 0;
  let hits = 0;
  let out = '';
  forEachKeyBatch(argKeys, (keys) => {
    const answers = filter.hasMany(keys);
    for (let i = 0; i < keys.length; i++) {
      const hit = answers[i] !== 0;
      if (hit) hits++;
      if (presentOnly || absentOnly) {
        if (hit !== presentOnly) continue;
      } else {
        out += hit ? 'maybe\t' : 'no\t';
      }
      out += toLatin1(keys[i]) + '\n';
    }
    seen += keys.length;
    if (out.length >= 1 << 20) {
      writeStdout(Buffer.from(out, 'latin1'));
      out = '';
    }
  });
  writeStdout(Buffer.from(out, 'latin1'));
  if (args.flags.has('all')) return seen > 0 && hits === seen ? 0 : 1;
  return hits > 0 ? 0 : 1;
}

async function runInfo(args) {
  if (args.positional.length !== 1) throw new UsageError('info needs exactly one filter file');
  const file = fileName(args.positional[0]);
  const f = await loadFilter(file); // verifies the checksum and every field (docs/format.md)
  const bound = f.fprBound;
  const rows = [
    ['file', file],
    ['bytes', f.byteLength],
    ['format version', f.growable ? kGrowingFormatVersion : kFormatVersion],
    ['bucket size', f.bucketSize],
    ['fingerprint bits', f.fingerprintBits],
    ['semi-sorted', f.semiSort ? 'yes' : 'no'],
    ...(f.growable ? [['levels', f.levels]] : []),
    ['buckets', f.bucketCount],
    ['slots', f.slotCount],
    ['seed', f.seed],
    ['items', f.size],
    // fixed_point.js: the same digits as the native tool's, ties included.
    // The items in slots (loadFactor leaves out a parked victim), recovered exactly from the ratio.
    ['load', `${fixedRatio(100n * BigInt(Math.round(f.loadFactor * f.slotCount)), f.slotCount, 2)}%`],
    ['bits per item', f.size === 0 ? '-' : fixedDouble(f.bitsPerItem, 2)],
    ['false-positive bound', `${fixedDouble(100 * bound, 4)}% (1 in ${fixedDouble(1 / bound, 0)})`],
    ['full', f.isFull ? 'yes (a fingerprint is parked in the victim slot: inserts fail until a delete)' : 'no'],
    ['checksum', 'ok'],
  ];
  writeStdout(Buffer.from(rows.map(([k, v]) => `${k}: ${v}\n`).join('')));
  return 0;
}

async function runAdd(args) {
  if (args.positional.length === 0) throw new UsageError('add needs a filter file');
  const file = fileName(args.positional[0]);
  const output = args.values.get('output') ?? file;
  const filter = await loadFilter(file);
  const counts = storing(args);
  forEachKeyBatch(args.positional.slice(1), (keys) => {
    addBatch(filter, keys, counts, filter.size, `; ${output} is unchanged`);
  });
  reportRefused(counts, filter);
  saveFilter(filter, output);
  return 0;
}

async function runDelete(args) {
  if (args.positional.length === 0) throw new UsageError('delete needs a filter file');
  const file = fileName(args.positional[0]);
  const output = args.values.get('output') ?? file;
  const filter = await loadFilter(file);
  forEachKeyBatch(args.positional.slice(1), (keys) => {
    for (const key of keys) {
      if (!filter.delete(key)) throw new BytesError('key ', quoted(key), ` is not in the filter; ${output} is unchanged`);
    }
  });
  saveFilter(filter, output);
  return 0;
}

async function runMerge(args) {
  const output = args.values.get('output');
  if (output === undefined) throw new UsageError('merge needs -o FILE');
  if (args.positional.length < 2) throw new UsageError('merge needs at least two filter files');
  const merged = await loadFilter(fileName(args.positional[0]));
  for (const file of args.positional.slice(1).map(fileName)) {
    const source = await loadFilter(file);
    try {
      merged.merge(source);
    } catch (error) {
      throw new Error(`${file}: ${coreMessage(error)}; nothing written`);
    } finally {
      source.dispose();
    }
  }
  saveFilter(merged, output);
  return 0;
}

export const commands = [
  {
    name: 'build',
    synopsis: 'build -o OUT [--capacity N] [--growable] [--fpr P] [--seed S] [--bucket-size B] [--keep-duplicates] [FILE...]',
    options: [
      { name: 'output', short: 'o', value: true },
      { name: 'capacity', short: 'n', value: true },
      { name: 'fpr', short: 'e', value: true },
      { name: 'seed', short: 's', value: true },
      { name: 'bucket-size', short: 'b', value: true },
      { name: 'fingerprint-bits', short: 'f', value: true },
      { name: 'semi-sort', value: false },
      { name: 'growable', short: 'g', value: false },
      { name: 'quiet', short: 'q', value: false },
      { name: 'keep-duplicates', value: false },
    ],
    run: runBuild,
  },
  {
    name: 'query',
    synopsis: 'query [-p|--present | -a|--absent] [--all] FILTER [KEY...]',
    options: [
      { name: 'present', short: 'p', value: false },
      { name: 'absent', short: 'a', value: false },
      { name: 'all', value: false },
    ],
    run: runQuery,
  },
  { name: 'info', synopsis: 'info FILTER', options: [], run: runInfo },
  {
    name: 'add',
    synopsis: 'add [-o OUT] [--keep-duplicates] FILTER [KEY...]',
    options: [
      { name: 'output', short: 'o', value: true },
      { name: 'keep-duplicates', value: false },
    ],
    run: runAdd,
  },
  {
    name: 'delete',
    synopsis: 'delete [-o OUT] FILTER [KEY...]',
    options: [{ name: 'output', short: 'o', value: true }],
    run: runDelete,
  },
  { name: 'merge', synopsis: 'merge -o OUT FILTER FILTER...', options: [{ name: 'output', short: 'o', value: true }], run: runMerge },
];
