// js/options.js: CuckooFilter options, from JS values to the arguments of wasm/bindings.cpp's cuckoo_create.
//
// The rules of the options (ranges, defaults, which ones go together) and their messages are the core's:
// core/include/cuckoo/options.h states them, and resolve() (core/src/options.cpp) checks them and names
// each option as JS spells it (in Node, the error also says which option and value: js/errors.node.js). This file checks only what JS alone can tell: the type of each value,
// unknown option names, numbers that are not exact integers or do not fit the binding's integer types, and
// `growable: false` without a size. It passes the core only the options given (a bit mask), so every other
// one takes the core's default.
//
// Fixed or growing: options without a size (neither capacity nor bucketCount) ask for a growing filter,
// and `growable: true` makes a sized one grow from that size; otherwise a sized filter is fixed.

const kMaxU64 = (1n << 64n) - 1n;
const kMaxU32 = 2 ** 32 - 1;

function fail(name, rule, value) {
  const shown = typeof value === 'bigint' ? `${value}n` : typeof value === 'string' ? JSON.stringify(value) : String(value);
  return new RangeError(`cuckoo-wasm: options.${name} must be ${rule} (got ${shown})`);
}

function wrongType(name, rule, value) {
  return new TypeError(`cuckoo-wasm: options.${name} must be ${rule} (got ${value === null ? 'null' : typeof value})`);
}

// An integer option as a BigInt in 0..max, the range of the binding's type; numbers must be safe integers.
function integer(name, value, max) {
  if (typeof value === 'bigint') {
    if (value < 0n || value > max) throw fail(name, `an integer in 0..${max}`, value);
    return value;
  }
  if (typeof value !== 'number') throw wrongType(name, 'an integer (number or bigint)', value);
  if (!Number.isInteger(value)) throw fail(name, 'an integer', value);
  if (value < 0 || value > max || value > Number.MAX_SAFE_INTEGER) {
    // The bigint hint only helps a value that is too large to be a safe integer.
    const hint = value > Number.MAX_SAFE_INTEGER && max > Number.MAX_SAFE_INTEGER ? '; use a bigint above 2^53-1' : '';
    throw fail(name, `an integer in 0..${max}${hint}`, value);
  }
  return BigInt(value);
}

const u64 = (name, value) => integer(name, value, kMaxU64);
const u32 = (name, value) => Number(integer(name, value, kMaxU32));

function typed(type) {
  return (name, value) => {
    if (typeof value !== type) throw wrongType(name, `a ${type}`, value);
    return +value; // booleans as 0 or 1
  };
}
const number = typed('number');
const boolean = typed('boolean');

// Every option, under its JS name, with its conversion to the binding's type, in the order of
// cuckoo_create's `given` bits and parameters (CUCKOO_OPTIONS in core/include/cuckoo/options.h;
// js-tests/protocol.test.js checks the names, the order and the types).
export const kOptions = {
  capacity: u64,
  fpr: number,
  fingerprintBits: u32,
  bucketSize: (name, value) => u32(name, number(name, value)),
  maxKicks: u32,
  seed: u64,
  semiSort: boolean,
  targetLoad: number,
  bucketCount: u64,
  growable: boolean,
  maxMemoryBytes: u64,
};

// The arguments of cuckoo_create for user options: the mask of the options given, then each option's
// value (0 where not given). Throws TypeError (wrong type, unknown or missing option) or RangeError (a
// number the binding's type cannot hold), naming the option; the core checks the rest.
export function createArgs(options) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('cuckoo-wasm: options must be an object such as { capacity: 1000000, fpr: 0.001 }');
  }
  for (const name of Object.keys(options)) {
    if (!Object.hasOwn(kOptions, name)) {
      throw new TypeError(`cuckoo-wasm: unknown option '${name}' (known: ${Object.keys(kOptions).join(', ')})`);
    }
  }
  const sized = options.capacity !== undefined || options.bucketCount !== undefined;
  if (!sized && options.growable === false) {
    throw new TypeError('cuckoo-wasm: options.capacity is required when options.growable is false (the number of items the ' + 'filter must hold)');
  }
  const args = [0];
  Object.entries(kOptions).forEach(([name, convert], bit) => {
    let value = options[name];
    // A filter without a size grows unless told otherwise: the JS API's default, not the core's.
    if (name === 'growable' && value === undefined) value = !sized;
    if (value === undefined) {
      args.push(convert === u64 ? 0n : 0);
    } else {
      args[0] |= 1 << bit;
      args.push(convert(name, value));
    }
  });
  return args;
}
