// js/cli/argv.js: the command-line arguments with their bytes, as the native tool sees them.
//
// Node decodes each argument as UTF-8 and turns every invalid sequence into U+FFFD, so the key argument
// ff (not UTF-8) would reach the filter as ef bf bd, a different key. Where Linux shows the arguments as
// they were (/proc/self/cmdline), an argument that decoding changed is given as its bytes instead (a
// Buffer). Elsewhere such an argument cannot be told from one that holds U+FFFD itself, and is refused.
// So is one that holds U+FFFD when npx or npm exec started the tool (npm_command=exec): npm decodes the
// arguments itself before it starts the tool, so /proc/self/cmdline shows U+FFFD too.
import { readFileSync } from 'node:fs';
import { UsageError } from './args.js';

const kReplacement = '\ufffd';

// The process's arguments as bytes, split at their NUL terminators; undefined where there is no /proc.
function processArguments() {
  let bytes;
  try {
    bytes = readFileSync('/proc/self/cmdline');
  } catch {
    return undefined;
  }
  const parts = [];
  let start = 0;
  for (let end = bytes.indexOf(0); end >= 0; end = bytes.indexOf(0, start)) {
    parts.push(bytes.subarray(start, end));
    start = end + 1;
  }
  return parts;
}

// argv (the arguments after the script, as Node decoded them) with every argument that decoding changed
// replaced by its bytes. Throws a UsageError if such an argument's bytes cannot be known.
export function argumentBytes(argv) {
  if (!argv.some((a) => a.includes(kReplacement))) return argv;
  // The script's arguments are the last ones of the process's (node's own options come before them).
  const raw = processArguments()?.slice(-argv.length);
  const consistent = raw?.length === argv.length && raw.every((bytes, i) => bytes.toString() === argv[i]);
  return argv.map((a, i) => {
    if (!a.includes(kReplacement)) return a;
    if (process.env.npm_command === 'exec') {
      throw new UsageError(
        `argument ${i + 1} holds U+FFFD, which npm (npx, npm exec) puts in place of bytes that are not UTF-8 ` +
          'before the tool starts, so the bytes given cannot be known; give such keys on standard input or in a ' +
          'file, or run node_modules/.bin/cuckoo-wasm directly',
      );
    }
    if (!consistent) {
      throw new UsageError(
        `argument ${i + 1} holds U+FFFD, maybe from bytes that are not UTF-8, and this system does not show ` +
          'the bytes as they were; give such keys on standard input or in a file',
      );
    }
    return raw[i].equals(Buffer.from(a)) ? a : Buffer.from(raw[i]);
  });
}
