// js/runtime.js: loads the WebAssembly module once, and makes the calls into it: the raw per-key and batch
// exports by op code. Its memory is memory.js's; its recorded errors errors.js's.
//
// The module (wasm/: a standalone build with plain C exports and no Emscripten JS glue) is built by
// scripts/build-wasm.mjs in two flavours, and `wasmBinary` is one of them:
//   - the ES module build (browsers, workers, bundlers) imports the small "web" flavour, embedded deflated,
//     as base64, in dist/cuckoo_wasm_binary.mjs. It is decoded and inflated here, so loading needs no
//     fetch() (not even of a data: URL, which a Content-Security-Policy connect-src would block), no fs, no
//     Buffer and no __dirname: the same code runs in browsers, workers, bundlers and Node >= 18;
//   - Node's entries (js/index.node.js, js/index.cjs) go through the CommonJS bundle dist/cuckoo.cjs, where
//     `wasmBinary` reads the fast "node" flavour with fs from the plain .wasm file beside the bundle
//     (dist/cuckoo_wasm_node.wasm), with no base64 to parse and decode.
// wasm/CMakeLists.txt says how the flavours differ; they give the same bytes, answers and errors. A page's
// CSP needs only script-src 'wasm-unsafe-eval' (or 'unsafe-eval'), as for any WebAssembly. Loading starts
// on first use, not at import.
import wasmBinary from '../dist/cuckoo_wasm_binary.mjs';
import { rt, renewViews, initScratch } from './memory.js';

let loading = null;

function decodeBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// The module's bytes, as the build packed them: `{ read }` for the node flavour (read() returns the .wasm
// file's bytes), `{ base64 }` for the deflated web one, inflated by the platform's DecompressionStream
// (current browsers, Node >= 18), whose output a Response collects.
async function moduleBytes() {
  if (typeof wasmBinary.read === 'function') return wasmBinary.read();
  const bytes = decodeBase64(wasmBinary.base64);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Response(stream).arrayBuffer();
}

// The instance's exports under Emscripten's names (`_malloc`, `_cuckoo_insert_bytes`, ...), with HEAPU8
// the current view of its memory.
async function startModule() {
  if (typeof WebAssembly !== 'object' || WebAssembly === null) {
    throw new Error('cuckoo-wasm: this JavaScript engine has no WebAssembly (is it run with --jitless?)');
  }
  let memory = null;
  const imports = {
    // malloc grew the memory: the old ArrayBuffer is detached, so every view is renewed.
    env: { emscripten_notify_memory_growth: () => renewViews(new Uint8Array(memory.buffer)) },
    // Only abort() and std::terminate() get here, which the module never reaches by design.
    wasi_snapshot_preview1: {
      proc_exit: (code) => {
        throw new Error(`cuckoo-wasm: the WebAssembly module aborted (exit code ${code})`);
      },
    },
  };
  const bytes = await moduleBytes();
  // The node flavour (read from its file) is compiled on this thread: an async compile waits, idle, for
  // V8's background threads, which on a busy machine can take many times the compile itself.
  const instance =
    typeof wasmBinary.read === 'function'
      ? new WebAssembly.Instance(new WebAssembly.Module(bytes), imports)
      : (await WebAssembly.instantiate(bytes, imports)).instance;
  const exports = instance.exports;
  memory = exports.memory;
  const M = {};
  for (const [name, value] of Object.entries(exports)) {
    if (typeof value === 'function') M[`_${name}`] = value;
  }
  Object.defineProperty(M, 'HEAPU8', { enumerable: true, get: () => rt.heap });
  renewViews(new Uint8Array(memory.buffer));
  M.__initialize(); // static constructors (a reactor module has no main)
  return M;
}

// Resolves once the module is compiled and instantiated; idempotent.
export function loadRuntime() {
  if (loading === null) {
    loading = startModule().then(
      (M) => {
        bind(M);
        return rt;
      },
      (err) => {
        loading = null; // let a later call retry (e.g. after a transient failure in a browser)
        throw err;
      },
    );
  }
  return loading;
}

// The raw exports of wasm/hot_path.cpp, by op code: (filter, key address, length) or (filter, lo, hi),
// and the batch calls (filter, data, offsets, n[, out]).
export const kInsertBytes = 0;
export const kContainsBytes = 1;
export const kEraseBytes = 2;
export const kCountBytes = 3;
export const kInsertU64 = 4;
export const kContainsU64 = 5;
export const kEraseU64 = 6;
export const kCountU64 = 7;
export const kInsertMany = 8;
export const kContainsMany = 9;
const kExportNames = [
  '_cuckoo_insert_bytes',
  '_cuckoo_contains_bytes',
  '_cuckoo_erase_bytes',
  '_cuckoo_count_bytes',
  '_cuckoo_insert_u64',
  '_cuckoo_contains_u64',
  '_cuckoo_erase_u64',
  '_cuckoo_count_u64',
  '_cuckoo_insert_many',
  '_cuckoo_contains_many',
];
const raw = [];

// Every per-key call into wasm goes through this one call site, on purpose.
//
// Node 20's V8 (11.3) inlines JS-to-Wasm calls into optimized JS (--turbo-inline-js-wasm-calls) and
// miscompiles some of those functions: a loop calling has()/add() with a mix of string, number and
// Uint8Array keys segfaults the process (js-tests/keys.test.js "mixed key types" reproduces it; with
// --no-turbo-inline-js-wasm-calls it passes). V8 only inlines a wasm call whose target it can speculate
// on, i.e. a call site whose feedback saw a single target. This site sees every export (bind() calls two
// of them through it right away), so its feedback is megamorphic and V8 emits a plain call, as fast as
// the inlined wrapper and immune to the bug. raw[] is a plain array, so the target is
// never constant-folded either.
export function callRaw(op, a, b, c) {
  return raw[op](a, b, c);
}

// The same for the batch calls (one per chunk of keys), which take more arguments.
export function callRawBatch(op, a, b, c, d, e) {
  return raw[op](a, b, c, d, e);
}

function bind(M) {
  kExportNames.forEach((name, op) => {
    if (typeof M[name] !== 'function') throw new Error(`cuckoo-wasm: the wasm module lacks ${name}`);
    raw[op] = M[name];
  });
  rt.M = M;
  initScratch();
  // Make both call sites megamorphic before any user code runs (see callRaw): calls through them to two
  // different targets. malloc and free serve: they are compiled already and need no filter, whereas a
  // filter's own exports would compile table code that the user's filters may never run.
  const malloc = raw.length;
  const free = malloc + 1;
  raw[malloc] = M._malloc;
  raw[free] = M._free;
  for (let i = 0; i < 2; i++) {
    callRaw(free, callRaw(malloc, 8, 0, 0), 0, 0);
    callRawBatch(free, callRawBatch(malloc, 8, 0, 0, 0, 0), 0, 0, 0, 0);
  }
  raw.length = malloc;
}

// The runtime, or an Error telling the caller to await it: for the synchronous API.
export function requireRuntime() {
  if (rt.M === null) {
    throw new Error(
      'cuckoo-wasm: the WebAssembly module is not loaded yet: `await CuckooFilter.ready` first, ' +
        'or use the async CuckooFilter.create() / CuckooFilter.deserialize()',
    );
  }
  return rt;
}
