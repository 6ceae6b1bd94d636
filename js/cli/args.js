// js/cli/args.js: command-line parsing, the same grammar as the native tool's (tools/cli/args.cpp).
//
// Options: --name value, --name=value, -x value; flags: --name, -x. "--" ends the options; "-" alone is a
// positional argument (standard input). Unknown options and missing or malformed values are UsageErrors.
// An argument that is not UTF-8 comes as a Buffer (argv.js): a positional one stays a Buffer (a key's
// bytes); as an option's value it is refused, since option values are file names and numbers here.

export class UsageError extends Error {}

function notUtf8(name) {
  return new UsageError(`the value of --${name} is not valid UTF-8 (the npm tool takes UTF-8 file names only)`);
}

// A positional argument that names a file, as a string; a UsageError if it is not UTF-8.
export function fileName(arg) {
  if (typeof arg === 'string') return arg;
  throw new UsageError(`the file name '${arg}' is not valid UTF-8 (the npm tool takes UTF-8 file names only)`);
}

// spec: [{ name, short, value }]; returns { positional, values: Map, flags: Set }.
export function parseArgs(argv, spec) {
  const args = { positional: [], values: new Map(), flags: new Set() };
  let optionsDone = false;
  for (let i = 0; i < argv.length; i++) {
    const bytes = typeof argv[i] === 'string' ? undefined : argv[i];
    const a = bytes === undefined ? argv[i] : bytes.toString();
    if (optionsDone || a.length < 2 || a[0] !== '-') {
      args.positional.push(argv[i]);
      continue;
    }
    if (a === '--') {
      optionsDone = true;
      continue;
    }
    let option;
    let inline;
    let shown = a;
    if (a[1] === '-') {
      const eq = a.indexOf('=');
      const name = a.slice(2, eq < 0 ? undefined : eq);
      if (eq >= 0) inline = a.slice(eq + 1);
      option = spec.find((o) => o.name === name);
      shown = `--${name}`;
    } else if (a.length === 2) {
      option = spec.find((o) => o.short === a[1]);
    }
    if (option === undefined) throw new UsageError(`unknown option ${shown}`);
    if (!option.value) {
      if (inline !== undefined) throw new UsageError(`--${option.name} takes no value`);
      args.flags.add(option.name);
      continue;
    }
    if (inline !== undefined && bytes !== undefined) throw notUtf8(option.name);
    if (inline === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`--${option.name} needs a value`);
      inline = argv[++i];
      if (typeof inline !== 'string') throw notUtf8(option.name);
    }
    args.values.set(option.name, inline);
  }
  return args;
}

// An integer in 0..max, decimal or 0x hex, as a bigint; undefined if the option was not given.
function integer(args, name, max, range) {
  const s = args.values.get(name);
  if (s === undefined) return undefined;
  if (/^(0[xX][0-9a-fA-F]+|[0-9]+)$/.test(s)) {
    const v = BigInt(s);
    if (v <= max) return v;
  }
  throw new UsageError(`--${name} must be an integer in ${range}, decimal or 0x hex (got '${s}')`);
}

// An integer in 0..2^64-1, as a bigint; undefined if the option was not given.
export function u64(args, name) {
  return integer(args, name, (1n << 64n) - 1n, '0..2^64-1');
}

// An integer in 0..2^32-1, as a number; undefined if the option was not given.
export function u32(args, name) {
  const v = integer(args, name, (1n << 32n) - 1n, '0..2^32-1');
  return v === undefined ? undefined : Number(v);
}

// A decimal number; undefined if the option was not given.
export function number(args, name) {
  const s = args.values.get(name);
  if (s === undefined) return undefined;
  const v = /^[0-9.eE+-]+$/.test(s) ? Number(s) : NaN;
  if (!Number.isFinite(v)) throw new UsageError(`--${name} must be a number (got '${s}')`);
  return v;
}
