// js/runtime.js: loads the WebAssembly module once and owns everything that lives in its memory on the
// JS side: the raw exports, the current HEAPU8/HEAPU32 views, and the reusable scratch buffers.
//
// The module is an Emscripten build (web/worker glue only) whose .wasm ships as a base64 string in a JS
// module; it is decoded here and handed to the glue as `wasmBinary`. So loading needs no fetch() (not
// even of a data: URL, which a Content-Security-Policy connect-src would block), no fs, no Buffer and no
// __dirname: the same code runs in Node >= 18, browsers, workers and bundlers. A page's CSP needs only
// script-src 'wasm-unsafe-eval' (or 'unsafe-eval'), as for any WebAssembly. Loading starts on first use,
// not at import.
import createCuckooModule from '../dist/cuckoo_wasm.mjs';
import wasmBase64 from '../dist/cuckoo_wasm_binary.mjs';

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
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// The glue, started; a promise that rejects (never a synchronous throw) when it cannot start.
function startModule() {
  if (typeof WebAssembly !== 'object' || WebAssembly === null) {
    return Promise.reject(new Error('cuckoo-wasm: this JavaScript engine has no WebAssembly (is it run with --jitless?)'));
  }
  try {
    return createCuckooModule({ wasmBinary: decodeBase64(wasmBase64) });
  } catch (err) {
    return Promise.reject(err);
  }
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
  // Emscripten's export wrappers (`Module._f = function () { return (Module._f = asm.x).apply(...) }`)
  // replace themselves with the wasm function on their first call; re-read them after that call, so the
  // table ends up holding the wasm functions and not the slower wrappers.
  kExportNames.forEach((name, op) => {
    if (typeof M[name] !== 'function') throw new Error(`cuckoo-wasm: the wasm module lacks ${name}`);
    raw[op] = function firstCall(...args) {
      const result = M[name](...args);
      raw[op] = M[name];
      return result;
    };
  });
  rt.M = M;
  watchHeap(M);
  setScratch(malloc(kInitialScratch), kInitialScratch);
  // Make callRaw's call site megamorphic before any user code runs (see callRaw): two read-only calls
  // with different targets on a throwaway filter.
  const probe = M._CuckooFilter._create(probeOptions);
  const address = probe._address();
  for (let i = 0; i < 2; i++) {
    callRaw(kContainsBytes, address, rt.scratch, 0);
    callRaw(kContainsU64, address, 0, 0);
    callRaw(kCountBytes, address, rt.scratch, 0);
    callRaw(kCountU64, address, 0, 0);
  }
  callRawBatch(kContainsMany, address, rt.scratch, rt.scratch, 0, rt.scratch);
  callRawBatch(kInsertMany, address, rt.scratch, rt.scratch, 0);
  callRawBatch(kContainsMany, address, rt.scratch, rt.scratch, 0, rt.scratch);
  probe.delete();
}

const probeOptions = {
  capacity: 1n,
  fpr: 0,
  fingerprintBits: 8,
  bucketSize: 4,
  maxKicks: 1,
  seed: 0n,
  semiSort: false,
  targetLoad: 0,
  bucketCount: 0n,
  hugePages: false,
  growable: false,
  maxMemoryBytes: 0n,
};

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

// Memory growth detaches the old ArrayBuffer, and the glue then assigns a fresh view to Module.HEAPU8
// (updateGlobalBufferAndViews). Turning that property into an accessor renews every view in rt on every
// such assignment, whatever caused the growth: the per-key road uses them with no check at all. (A stale
// view would silently drop the key's bytes; checking for detachment per key costs ~20 ns.)
function watchHeap(M) {
  let view = M.HEAPU8;
  renewViews(view);
  Object.defineProperty(M, 'HEAPU8', {
    configurable: true,
    enumerable: true,
    get: () => view,
    set: (next) => {
      view = next;
      renewViews(next);
    },
  });
}

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
// wasm exceptions, recurses until the JS stack overflows. Embind also copies the options of _create and the
// configuration of _config through structs it allocates with `new`, outside any C++ try block. So create
// and deserialize first check that a little memory is free, enough for those, a filter's small objects and
// any exception; a table that does not fit in what remains is then reported as usual (factory.cpp).
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
  return rt.M._lastErrorKind();
}

// Builds the JS Error for the last failed create/deserialize, or for an insert whose growth did not fit:
// options out of range and tables that do not fit in memory are RangeErrors, bad bytes are Errors; the
// message is the C++ what() text.
export function lastError() {
  const M = rt.M;
  const kind = M._lastErrorKind();
  const message = readCString(M._lastErrorMessage() >>> 0);
  // Options are the caller's: name them in JS. A header's fields keep docs/format.md's names.
  if (kind === kInvalidArgument || kind === kOutOfMemory) return new RangeError(jsOptionNames(message));
  return new Error(message);
}
