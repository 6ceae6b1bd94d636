// js-tests/protocol.test.js: js/ and wasm/ agree on what they exchange. The module (node flavour) reports
// the layout of the configuration block (wasm/protocol.h) and its list of options; js/native.js and
// js/options.js must have the same offsets, widths, order and parameter types. A field or an option added
// on one side only fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { kConfigLayout, kConfigBytes } from '../js/native.js';
import { kOptions } from '../js/options.js';

const bytes = readFileSync(new URL('../dist/cuckoo_wasm_node.wasm', import.meta.url));
const { instance } = await WebAssembly.instantiate(bytes, {
  env: { emscripten_notify_memory_growth() {} },
  wasi_snapshot_preview1: { proc_exit() {} },
});
const wasm = instance.exports;
wasm._initialize();

function cString(address) {
  const heap = new Uint8Array(wasm.memory.buffer);
  let end = address;
  while (heap[end] !== 0) end++;
  return new TextDecoder().decode(heap.subarray(address, end));
}

test('the configuration block: js/native.js reads it at the offsets wasm/protocol.h has', () => {
  const table = new Uint32Array(wasm.memory.buffer, wasm.cuckoo_protocol() >>> 0, 10);
  const fields = Object.entries(kConfigLayout);
  assert.equal(fields.length, 8, 'kConfigLayout has one entry per ConfigBlock field');
  assert.equal(table[0], kConfigBytes, 'sizeof(ConfigBlock)');
  fields.forEach(([name, [offset, bits]], i) => {
    assert.equal(table[1 + i], offset, `${name}'s offset`);
    const next = i + 1 < fields.length ? fields[i + 1][1][0] : kConfigBytes;
    assert.ok(offset + bits / 8 <= next, `${name}'s ${bits} bits overlap the next field`);
  });
});

test("the options: js/options.js lists the module's, in its order (cuckoo_create's `given` bits)", () => {
  const table = new Uint32Array(wasm.memory.buffer, wasm.cuckoo_protocol() >>> 0, 10);
  const count = table[9];
  const names = Array.from({ length: count }, (_, i) => cString(wasm.cuckoo_option_js_name(i) >>> 0));
  assert.deepEqual(Object.keys(kOptions), names);
});

// What each of js/options.js's conversions passes: a bigint (i64), a number that may have a fraction
// (f64), or a number that may not (i32).
function conversionKind(name, convert) {
  try {
    if (convert(name, 0.5) === 0.5) return 'f64';
  } catch {}
  try {
    return typeof convert(name, 1) === 'bigint' ? 'i64' : 'i32';
  } catch {
    return 'i32'; // a boolean, passed as 0 or 1
  }
}

test("the options: js/options.js passes each as the type of cuckoo_create's parameter for it", () => {
  const kinds = { 1: 'i32', 2: 'i64', 3: 'f64' }; // wasm/protocol.h, ParamKind
  Object.entries(kOptions).forEach(([name, convert], i) => {
    assert.equal(conversionKind(name, convert), kinds[wasm.cuckoo_option_param(i)], name);
  });
});

test("the CLI's option names: one for each option js/options.js lists", async () => {
  const { kCliOptionNames } = await import('../js/cli/commands.js');
  assert.deepEqual(Object.keys(kCliOptionNames), Object.keys(kOptions));
});
