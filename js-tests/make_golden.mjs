#!/usr/bin/env node
// js-tests/make_golden.mjs: writes the golden file that JS makes, testdata/golden/js_grow_strings.{bin,json}:
// a growing filter built through the JS API (so by the WebAssembly build), in the sidecar format of
// testdata/golden/README.md. The native golden test loads it and must get the same answers and, rebuilding
// it from the sidecar, the same bytes; js-tests/golden.test.js checks that this script still writes it.
//
//   node js-tests/make_golden.mjs [dir]     (dir defaults to testdata/golden)
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CuckooFilter } from '../js/index.js';

const kName = 'js_grow_strings';

// Spelled as the JS API spells them; every field given, so that no default is involved. From 16 items it
// grows to 4 levels with the keys below; the memory limit is in the header but not reached.
const kOptions = {
  growable: true,
  capacity: 16,
  bucketSize: 4,
  fingerprintBits: 10,
  semiSort: false,
  maxKicks: 500,
  seed: 7,
  maxMemoryBytes: 4096,
};

// Strings with multi-byte UTF-8 among them (no control characters, no lone surrogates: the sidecar's JSON
// uses no escapes but \" and \\).
function presentKeys() {
  const keys = ['', 'é', '日本語', '🙂', 'naïve café', 'quote" and \\backslash'];
  for (let i = 0; keys.length < 500; i++) keys.push(`grow-${i}`);
  return keys;
}

// JSON text as the native generator lays it out: options on one line, one key per line.
function sidecar(meta) {
  const list = (keys) => `[\n${keys.map((k) => `    ${JSON.stringify(k)}`).join(',\n')}\n  ]`;
  return (
    '{\n' +
    `  "file": ${JSON.stringify(meta.file)},\n` +
    `  "generator": "js-tests/make_golden.mjs",\n` +
    `  "formatVersion": ${meta.formatVersion},\n` +
    `  "options": ${JSON.stringify(meta.options).replace(/,"/g, ', "').replace(/":/g, '": ')},\n` +
    `  "intKeys": false,\n` +
    `  "levels": ${meta.levels},\n` +
    `  "size": ${meta.size},\n` +
    `  "isFull": ${meta.isFull},\n` +
    `  "fileBytes": ${meta.fileBytes},\n` +
    `  "present": ${list(meta.present)},\n` +
    `  "absent": ${list(meta.absent)}\n` +
    '}\n'
  );
}

// The files as { 'js_grow_strings.bin': Uint8Array, 'js_grow_strings.json': string }.
export async function makeGolden() {
  const f = await CuckooFilter.create(kOptions);
  const present = presentKeys();
  for (const k of present) {
    if (!f.add(k)) throw new Error(`make_golden: add(${JSON.stringify(k)}) was refused`);
  }
  // Keys not added that the filter rejects (its false positives left out), as the native generator does.
  const absent = [];
  for (let i = 0; absent.length < 20; i++) {
    const k = `absent-${i}`;
    if (!f.has(k)) absent.push(k);
  }
  const bytes = f.serialize();
  const meta = {
    file: `${kName}.bin`,
    formatVersion: bytes[4],
    options: kOptions,
    levels: f.levels,
    size: f.size,
    isFull: f.isFull,
    fileBytes: bytes.length,
    present,
    absent,
  };
  f.dispose();
  return { [`${kName}.bin`]: bytes, [`${kName}.json`]: sidecar(meta) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const dir = process.argv[2] ?? path.join(root, 'testdata', 'golden');
  for (const [name, content] of Object.entries(await makeGolden())) {
    writeFileSync(path.join(dir, name), content);
    console.log(`make_golden: wrote ${path.join(dir, name)}`);
  }
}
