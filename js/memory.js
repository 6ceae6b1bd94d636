// js/memory.js: the JS side of wasm memory: the current views over it, malloc/free that throw instead of
// returning 0, and the per-key scratch buffer.
//
// Memory growth detaches the old ArrayBuffer; the module reports each growth (emscripten_notify_memory_growth,
// from inside malloc; runtime.js passes it to renewViews()), which then replaces every view in rt, whatever
// caused the growth: the per-key road uses them with no check at all. (A stale view would silently drop
// the key's bytes, and a check for detachment per key would cost more than the rest of the staging.)

// The loaded runtime's state. `rt.M === null` until runtime.js's loadRuntime() has filled it in.
export const rt = {
  M: null, // the module's exports under Emscripten's names (`_malloc`, ...)
  heap: null, // Uint8Array over wasm memory; always current (see renewViews)
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

export function renewViews(heap) {
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

// Allocates the first scratch buffer (at load).
export function initScratch() {
  setScratch(malloc(kInitialScratch), kInitialScratch);
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
      'cuckoo-wasm: not enough WebAssembly memory left for a filter (all filters share at most 4 GiB; ' + 'dispose() the ones no longer needed)',
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
    throw new RangeError(`cuckoo-wasm: out of WebAssembly memory allocating ${bytes} bytes (the limit is 4 GiB)`);
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
