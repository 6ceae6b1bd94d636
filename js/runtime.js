// js/runtime.js: loads the WebAssembly module once and owns everything that lives in its memory on the
// JS side: the raw exports, the current HEAPU8/HEAPU32 views, and the reusable scratch buffers.
//
// The module (wasm/: a standalone build with plain C exports and no Emscripten JS glue) ships inside a
// JS module as base64 (dist/cuckoo_wasm_binary.*, written by scripts/build-wasm.mjs), deflate-compressed
// in the browser's flavour. It is decoded here and instantiated with its two imports. So loading needs no
// fetch() (not even of a data: URL, which a Content-Security-Policy connect-src would block), no fs, no
// Buffer and no __dirname: the same code runs in Node >= 18, browsers, workers and bundlers. A page's CSP
// needs only script-src 'wasm-unsafe-eval' (or 'unsafe-eval'), as for any WebAssembly. Loading starts on
// first use, not at import.
//
// Which module: the ES module build (browsers, workers, bundlers) gets the small "web" flavour; Node, whose
// entries go through the CommonJS bundle (js/index.node.js, js/index.cjs), the fast "node" flavour.
// wasm/CMakeLists.txt says how they differ; they give the same bytes, answers and errors.
import wasmBinary from '../dist/cuckoo_wasm_binary.mjs';

// The loaded runtime. Filled in by loadRuntime(); `rt.M === null` until then.
export const rt = {
  M: null,
  heap: null, // Uint8Array over wasm memory; always current (see watchHeap)
  heap32: null, // Uint32Array over the same memory
  heap64: null, // BigUint64Array over the same memory (bigint keys are stored through it)
  scratch: 0, // address of the per-key scratch buffer (unsigned, for indexing heap; 8-aligned, from malloc)
  scratchArg: 0, // the same address as int32, for calls: always a small integer, never a boxed number
  scratchCap: 0,
  scratchView: null, // Uint8Array over exactly the scratch buffer: TextEncoder.encodeInto's target
};

const kInitialScratch = 4096;
// The scratch buffer is never smaller (its first malloc fails the load if memory is that short).
export const kMinScratch = kInitialScratch;

let loading = null;

function decodeBase64(text) {
  // Node's Buffer decodes natively (the node flavour is the larger module). Read off globalThis: a free
  // `Buffer` identifier makes some bundlers inject a Buffer polyfill into the browser bundle.
  const NodeBuffer = globalThis.Buffer;
  if (typeof NodeBuffer === 'function' && typeof NodeBuffer.from === 'function') {
    const b = NodeBuffer.from(text, 'base64');
    return new Uint8Array(b.buffer, b.byteOffset, b.length);
  }
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// The module's bytes: { base64, deflated } as the build wrote them; deflated ones go through the
// platform's DecompressionStream (browsers since 2023, Node >= 18), whose output a Response collects.
async function moduleBytes() {
  const bytes = decodeBase64(wasmBinary.base64);
  if (!wasmBinary.deflated) return bytes;
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
  // The node flavour (not deflated) is compiled on this thread: an async compile waits, idle, for V8's
  // background threads, which on a busy machine took 50-140 ms of a cold start instead of ~5.
  const instance = wasmBinary.deflated
    ? (await WebAssembly.instantiate(bytes, imports)).instance
    : new WebAssembly.Instance(new WebAssembly.Module(bytes), imports);
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
// of them through it right away), so its feedback is megamorphic and V8 emits a plain call: measured at
// the same calls/s as the inlined wrapper, and immune to the bug. raw[] is a plain array, so the target is
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
  setScratch(malloc(kInitialScratch), kInitialScratch);
  // Make callRaw's call site megamorphic before any user code runs (see callRaw): two read-only calls
  // with different targets on a throwaway filter (capacity 1, 8-bit fingerprints, b = 4, 1 kick).
  const address = M._cuckoo_create(1n, 0, 8, 4, 1, 0n, 0, 0, 0n, 0, 0, 0n);
  if (address === 0) throw lastError();
  for (let i = 0; i < 2; i++) {
    callRaw(kContainsBytes, address, rt.scratch, 0);
    callRaw(kContainsU64, address, 0, 0);
    callRaw(kCountBytes, address, rt.scratch, 0);
    callRaw(kCountU64, address, 0, 0);
  }
  callRawBatch(kContainsMany, address, rt.scratch, rt.scratch, 0, rt.scratch);
  callRawBatch(kInsertMany, address, rt.scratch, rt.scratch, 0);
  callRawBatch(kContainsMany, address, rt.scratch, rt.scratch, 0, rt.scratch);
  M._cuckoo_destroy(address);
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

// Memory growth detaches the old ArrayBuffer; the module reports each growth (emscripten_notify_memory_growth,
// from inside malloc), and renewViews() then replaces every view in rt, whatever caused the growth: the
// per-key road uses them with no check at all. (A stale view would silently drop the key's bytes; checking
// for detachment per key costs ~20 ns.)
function renewViews(heap) {
  rt.heap = heap;
  rt.heap32 = new Uint32Array(heap.buffer);
  rt.heap64 = new BigUint64Array(heap.buffer);
  rt.scratchView = new Uint8Array(heap.buffer, rt.scratch, rt.scratchCap);
}

function setScratch(ptr, cap) {
  rt.scratch = ptr;
  rt.scratchArg = ptr | 0;
  rt.scratchCap = cap;
  rt.scratchView = new Uint8Array(rt.heap.buffer, ptr, cap);
}

// The largest request malloc can take: wasm's size_t is 32 bits, so 2^32 bytes would wrap to malloc(0),
// which succeeds with a tiny block.
const kMaxAlloc = 2 ** 32 - 2 ** 16;

// With wasm memory exhausted, a C++ allocation that fails cannot allocate its own std::bad_alloc either
// (Emscripten's libc++abi keeps no emergency pool for exception objects): std::terminate() runs and, under
// wasm exceptions, recurses until the JS stack overflows. So create, deserialize and merge first check that
// a little memory is free, enough for a filter's small objects, the core's error message and any
// exception; a table that does not fit in what remains is then reported as usual (factory.cpp).
const kHeadroom = 16384;

export function requireHeadroom() {
  const ptr = rt.M._malloc(kHeadroom);
  if (ptr === 0) {
    throw new RangeError(
      'cuckoo-wasm: not enough WebAssembly memory left for a filter (all filters share at most 4 GiB; ' +
        'dispose() the ones no longer needed)',
    );
  }
  rt.M._free(ptr);
}

// malloc that returns an unsigned address (memory may exceed 2 GiB) and throws instead of returning 0.
export function malloc(bytes) {
  if (!(bytes >= 0 && bytes <= kMaxAlloc)) {
    throw new RangeError(`cuckoo-wasm: cannot allocate ${bytes} bytes: WebAssembly memory is limited to 4 GiB`);
  }
  const ptr = rt.M._malloc(bytes) >>> 0;
  if (ptr === 0) {
    throw new RangeError(
      `cuckoo-wasm: out of WebAssembly memory allocating ${bytes} bytes (the limit is 4 GiB)`,
    );
  }
  return ptr;
}

export function free(ptr) {
  rt.M._free(ptr);
}

// Keys up to this many bytes share one scratch buffer, kept for the module's life (one buffer is cheaper
// than an allocation per call).
export const kKeptScratch = 1 << 20;
let shrinkQueued = false;

// Makes the scratch buffer at least `bytes` long; throws RangeError (changing nothing) if memory is short.
// Up to kKeptScratch it grows by doubling and stays. A longer key gets a buffer of exactly its size, given
// back once the current task is done (a microtask): a one-off 100 MB key must not pin 100 MB of wasm
// memory that filters could use, and a loop over long keys still reuses one buffer.
export function ensureScratch(bytes) {
  if (bytes <= rt.scratchCap) return;
  let cap = bytes;
  if (bytes <= kKeptScratch) {
    cap = Math.max(rt.scratchCap, 64);
    while (cap < bytes) cap *= 2;
  }
  const ptr = malloc(cap);
  free(rt.scratch);
  setScratch(ptr, cap);
  if (cap > kKeptScratch && !shrinkQueued) {
    shrinkQueued = true;
    queueMicrotask(shrinkScratch);
  }
}

function shrinkScratch() {
  shrinkQueued = false;
  if (rt.scratchCap <= kKeptScratch) return;
  // The small buffer first: if memory is that short, the large one stays, so the scratch buffer always
  // holds at least kMinScratch bytes (the per-key road for short strings relies on it and checks nothing).
  const ptr = rt.M._malloc(kInitialScratch) >>> 0;
  if (ptr === 0) return;
  free(rt.scratch);
  setScratch(ptr, kInitialScratch);
}

// The core's messages name options as C++ spells them (target_load); a JS caller wrote targetLoad.
const kOptionNames =
  /\b(fingerprint_bits|bucket_size|max_kicks|semi_sort|target_load|bucket_count|huge_pages|max_memory_bytes)\b/g;
function jsOptionNames(message) {
  return message.replace(kOptionNames, (name) => name.replace(/_(\w)/g, (_, c) => c.toUpperCase()));
}

// Error kinds recorded by wasm/factory.cpp (enum ErrorKind).
const kInvalidArgument = 1;
export const kOutOfMemory = 2;

const utf8 = new TextDecoder();

// The NUL-terminated UTF-8 string at address in wasm memory.
function readCString(address) {
  const heap = rt.heap;
  let end = address;
  while (heap[end] !== 0) end++;
  return utf8.decode(heap.subarray(address, end));
}

// The kind of error the last create/deserialize/insert recorded (0: none).
export function lastErrorKind() {
  return rt.M._cuckoo_last_error_kind();
}

// Builds the JS Error for the last failed create/deserialize, or for an insert whose growth did not fit:
// options out of range and tables that do not fit in memory are RangeErrors, bad bytes are Errors; the
// message is the C++ what() text.
export function lastError() {
  const M = rt.M;
  const kind = M._cuckoo_last_error_kind();
  const message = readCString(M._cuckoo_last_error_message() >>> 0);
  // Options are the caller's: name them in JS. A header's fields keep docs/format.md's names.
  if (kind === kInvalidArgument || kind === kOutOfMemory) return new RangeError(jsOptionNames(message));
  return new Error(message);
}
