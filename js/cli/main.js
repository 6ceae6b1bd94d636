#!/usr/bin/env node
// js/cli/main.js: the package's command-line tool, `npx cuckoo-wasm COMMAND ...` (docs/cli.md): the same
// commands as the native `cuckoo` tool, written on the package's public API.
//
// Exit status: 0 success; 1 from query when no key may be present (or, with --all, not every key);
// 2 any error, with one message on stderr ("cuckoo: COMMAND: ...").
import { UsageError, parseArgs } from './args.js';
import { argumentBytes } from './argv.js';
import { BytesError, commands, coreMessage } from './commands.js';
import { writeStdout } from './files.js';

function usage() {
  return [
    'usage: cuckoo-wasm COMMAND [OPTIONS] ...',
    '',
    ...commands.map((c) => `  cuckoo-wasm ${c.synopsis}`),
    '',
    'Keys are lines of the input files or standard input: a trailing \\r is removed, empty lines are',
    'skipped. query, add and delete take keys from their arguments, or from standard input if none.',
    'Exit status: 0 ok; query: 1 if no key may be present (--all: if not all); 2 error.',
    'Reference: docs/cli.md',
    '',
  ].join('\n');
}

async function main(argv) {
  const name = argv[0];
  if (name === undefined) {
    process.stderr.write(usage());
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    writeStdout(Buffer.from(usage()));
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (command === undefined) {
    process.stderr.write(`cuckoo: unknown command '${name}'\n${usage()}`);
    return 2;
  }
  try {
    return await command.run(parseArgs(argumentBytes(argv).slice(1), command.options));
  } catch (error) {
    const hint = error instanceof UsageError ? `\nusage: cuckoo-wasm ${command.synopsis}` : '';
    const message = error instanceof BytesError ? error.bytes : Buffer.from(coreMessage(error));
    process.stderr.write(Buffer.concat([Buffer.from(`cuckoo: ${command.name}: `), message, Buffer.from(`${hint}\n`)]));
    return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
