// js/options.js: checks CuckooFilter options in JS, so that a mistake is a TypeError/RangeError naming the
// option in JS terms before anything reaches the core, and converts them to the flat struct the binding
// takes (the arguments of wasm/bindings.cpp's cuckoo_create, which fill wasm/factory.h JsOptions; 64-bit
// fields as BigInt), where 0 means "not given" for fpr, fingerprintBits, targetLoad and bucketCount: this
// file refuses 0 for each of them.
//
// The core checks again (std::invalid_argument -> RangeError with the C++ message) for what only sizing
// can tell, e.g. a capacity that needs more than 2^32 buckets or a table larger than wasm's 4 GiB, and for
// the growth options (maxMemoryBytes on a fixed filter, or below the first level's table).
//
// Fixed or growing: options without a size (neither capacity nor bucketCount) ask for a growing filter,
// and `growable: true` makes a sized one grow from that size; otherwise a sized filter is fixed.

const kMaxU64 = (1n << 64n) - 1n;
const kMaxKicks = 1 << 20; // core/src/options.cpp kMaxMaxKicks
const kMaxBucketCount = 2 ** 32; // cuckoo::kMaxBucketCount

// Every option, under its JS name, with the core's name for it (cuckoo::Options): the list of known
// options, and the one table by which errors.js names options in the core's messages the JS way.
export const kOptionNames = {
  capacity: 'capacity',
  fpr: 'fpr',
  fingerprintBits: 'fingerprint_bits',
  bucketSize: 'bucket_size',
  maxKicks: 'max_kicks',
  seed: 'seed',
  semiSort: 'semi_sort',
  targetLoad: 'target_load',
  bucketCount: 'bucket_count',
  growable: 'growable',
  maxMemoryBytes: 'max_memory_bytes',
};

function fail(name, rule, value) {
  const shown = typeof value === 'bigint' ? `${value}n` : typeof value === 'string' ? JSON.stringify(value) : String(value);
  return new RangeError(`cuckoo-wasm: options.${name} must be ${rule} (got ${shown})`);
}

function wrongType(name, rule, value) {
  return new TypeError(`cuckoo-wasm: options.${name} must be ${rule} (got ${value === null ? 'null' : typeof value})`);
}

// An integer option as a BigInt in [min, max]; numbers must be safe integers.
function integer(name, value, min, max) {
  if (typeof value === 'bigint') {
    if (value < BigInt(min) || value > BigInt(max)) throw fail(name, `an integer in ${min}..${max}`, value);
    return value;
  }
  if (typeof value !== 'number') throw wrongType(name, 'an integer (number or bigint)', value);
  if (!Number.isInteger(value)) throw fail(name, 'an integer', value);
  if (value < min || value > max || value > Number.MAX_SAFE_INTEGER) {
    // The bigint hint only helps a value that is too large to be a safe integer.
    const hint = value > Number.MAX_SAFE_INTEGER && max > Number.MAX_SAFE_INTEGER ? '; use a bigint above 2^53-1' : '';
    throw fail(name, `an integer in ${min}..${max}${hint}`, value);
  }
  return BigInt(value);
}

function ratio(name, value, rule, ok) {
  if (typeof value !== 'number') throw wrongType(name, `a number ${rule}`, value);
  if (!ok(value)) throw fail(name, `a number ${rule}`, value);
  return value;
}

// Validates user options; returns the core's Options object. Throws TypeError (wrong type, unknown or
// missing option) or RangeError (value out of range), naming the option.
export function toCoreOptions(options) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('cuckoo-wasm: options must be an object such as { capacity: 1000000, fpr: 0.001 }');
  }
  for (const name of Object.keys(options)) {
    if (!Object.hasOwn(kOptionNames, name)) {
      throw new TypeError(`cuckoo-wasm: unknown option '${name}' (known: ${Object.keys(kOptionNames).join(', ')})`);
    }
  }
  const o = options;
  const core = {
    capacity: 0n,
    fpr: 0,
    fingerprintBits: 0,
    bucketSize: 4,
    maxKicks: 500,
    seed: 0n,
    semiSort: false,
    targetLoad: 0,
    bucketCount: 0n,
    hugePages: false,
    growable: false,
    maxMemoryBytes: 0n,
  };
  if (o.bucketSize !== undefined) {
    if (typeof o.bucketSize !== 'number') throw wrongType('bucketSize', '2, 4 or 8', o.bucketSize);
    if (o.bucketSize !== 2 && o.bucketSize !== 4 && o.bucketSize !== 8) throw fail('bucketSize', '2, 4 or 8', o.bucketSize);
    core.bucketSize = o.bucketSize;
  }
  if (o.capacity !== undefined) core.capacity = integer('capacity', o.capacity, 1, kMaxU64);
  if (o.bucketCount !== undefined) core.bucketCount = integer('bucketCount', o.bucketCount, 1, kMaxBucketCount);
  if (o.growable !== undefined && typeof o.growable !== 'boolean') throw wrongType('growable', 'a boolean', o.growable);
  const sized = o.capacity !== undefined || o.bucketCount !== undefined;
  if (!sized && o.growable === false) {
    throw new TypeError(
      'cuckoo-wasm: options.capacity is required when options.growable is false (the number of items the ' +
        'filter must hold)',
    );
  }
  core.growable = o.growable ?? !sized;
  // 0 is the core's "no limit", as when the option is left out.
  if (o.maxMemoryBytes !== undefined) core.maxMemoryBytes = integer('maxMemoryBytes', o.maxMemoryBytes, 0, kMaxU64);
  if (o.fpr !== undefined && o.fingerprintBits !== undefined) {
    throw new RangeError('cuckoo-wasm: set either options.fpr or options.fingerprintBits, not both');
  }
  if (o.fpr !== undefined) core.fpr = ratio('fpr', o.fpr, 'in (0, 1)', (v) => v > 0 && v < 1);
  if (o.fingerprintBits !== undefined) core.fingerprintBits = Number(integer('fingerprintBits', o.fingerprintBits, 4, 32));
  if (o.maxKicks !== undefined) core.maxKicks = Number(integer('maxKicks', o.maxKicks, 0, kMaxKicks));
  if (o.seed !== undefined) core.seed = integer('seed', o.seed, 0, kMaxU64);
  if (o.semiSort !== undefined) {
    if (typeof o.semiSort !== 'boolean') throw wrongType('semiSort', 'a boolean', o.semiSort);
    if (o.semiSort && core.bucketSize !== 4) {
      throw new RangeError(`cuckoo-wasm: options.semiSort requires bucketSize 4 (got ${core.bucketSize})`);
    }
    core.semiSort = o.semiSort;
  }
  if (o.targetLoad !== undefined) core.targetLoad = ratio('targetLoad', o.targetLoad, 'in (0, 1]', (v) => v > 0 && v <= 1);
  return core;
}
