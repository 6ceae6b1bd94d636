// js/reader_runtime.js: the read-only module (wasm/reader_exports.cpp) for js/reader.js: loading it, its
// memory (JS allocates in it: the module has no malloc), and the per-key staging of keys into it.
//
// The module is built by scripts/build-wasm.mjs and embedded deflated, as base64, in
// dist/cuckoo_reader_binary.mjs, like the full entry's web module (js/runtime.js says why: no fetch, no
// file to locate, only 'wasm-unsafe-eval' under a CSP); Node's entries (js/reader.node.js, js/reader.cjs)
// go through dist/reader.cjs, which reads it from dist/cuckoo_reader.wasm instead. It imports nothing.
import wasmBinary from '../dist/cuckoo_reader_binary.mjs';
import { classify, classified, kString, kNumber, kBigInt } from './classify.js';

const kPage = 65536;
const kMinScratch = 4096;
// A key longer than this gets a scratch buffer of its own size, given back after its probe (shrinkScratch).
export const kKeptScratch = 1 << 20;

// The module's exports, the memory views and the scratch buffer keys are staged in.
export const rd = { M: null, heap: null, heap32: null, scratch: 0, scratchCap: 0, view: null };
// The allocator's state: the first address never allocated, and the free blocks below it by address.
let top = 0;
const freeBlocks = new Map(); // address -> bytes

async function startModule() {
  if (typeof WebAssembly !== 'object' || WebAssembly === null) {
    throw new Error('cuckoo-wasm: this JavaScript engine has no WebAssembly (is it run with --jitless?)');
  }
  let instance;
  if (typeof wasmBinary.read === 'function') {
    // Node's CommonJS bundle (dist/reader.cjs) reads the module from its file, and compiles it on this
    // thread: Node's DecompressionStream and Response take tens of milliseconds to load on first use.
    instance = new WebAssembly.Instance(new WebAssembly.Module(wasmBinary.read()));
  } else {
    const binary = atob(wasmBinary.base64);
    const deflated = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) deflated[i] = binary.charCodeAt(i);
    const stream = new Blob([deflated]).stream().pipeThrough(new DecompressionStream('deflate'));
    instance = (await WebAssembly.instantiate(await new Response(stream).arrayBuffer())).instance;
  }
  const M = instance.exports;
  rd.M = M;
  top = (M.reader_heap_base() + 7) & ~7;
  renewViews();
  rd.scratch = alloc(kMinScratch);
  rd.scratchCap = kMinScratch;
  renewViews();
  // callProbe() sees two targets before any filter exists; these two read nothing of a filter.
  for (const op of [M.reader_heap_base, M.reader_checksum]) callProbe(op, 0, 0, 0);
  return M;
}

let loading = null;

// Resolves once the module is instantiated; idempotent (a failed load is tried again on the next call).
export function loadReader() {
  loading ??= startModule().catch((error) => {
    loading = null;
    throw error;
  });
  return loading;
}

function renewViews() {
  const buffer = rd.M.memory.buffer;
  rd.heap = new Uint8Array(buffer);
  rd.heap32 = new Uint32Array(buffer);
  rd.view = new Uint8Array(buffer, rd.scratch, rd.scratchCap);
}

// Every per-key call into the module goes through this one call site, which sees several targets: V8
// then emits a plain call, not an inlined JS-to-Wasm wrapper, which Node 20's V8 miscompiles in some
// functions (js/runtime.js's callRaw explains the bug).
const probes = [];
export function callProbe(op, filter, a, b) {
  probes[0] = op;
  return probes[0](filter, a, b);
}

// `bytes` (rounded up to 8) of wasm memory, 8-aligned: the first free block that fits, else the top,
// growing the memory. Throws RangeError when it cannot (wasm memory is at most 4 GiB).
export function alloc(bytes) {
  const size = Math.max(8, Math.ceil(bytes / 8) * 8);
  for (const [address, free] of freeBlocks) {
    if (free < size) continue;
    freeBlocks.delete(address);
    if (free > size) freeBlocks.set(address + size, free - size);
    return address;
  }
  const memory = rd.M.memory;
  const missing = top + size - memory.buffer.byteLength;
  if (missing > 0) {
    try {
      memory.grow(Math.ceil(missing / kPage));
    } catch {
      throw new RangeError(`cuckoo-wasm: out of WebAssembly memory allocating ${bytes} bytes (the limit is 4 GiB)`);
    }
    renewViews();
  }
  const address = top;
  top += size;
  return address;
}

// Gives back a block from alloc() of `bytes`, merged with free neighbours (a block at the top lowers it).
export function release(address, bytes) {
  let size = Math.max(8, Math.ceil(bytes / 8) * 8);
  for (const [other, free] of freeBlocks) {
    if (other + free === address) {
      freeBlocks.delete(other);
      address = other;
      size += free;
    } else if (address + size === other) {
      freeBlocks.delete(other);
      size += free;
    }
  }
  if (address + size === top) top = address;
  else freeBlocks.set(address, size);
}

// A new scratch buffer first, so that running out of memory leaves the old one in place.
function setScratch(bytes) {
  const address = alloc(bytes);
  release(rd.scratch, rd.scratchCap);
  rd.scratch = address;
  rd.scratchCap = bytes;
  renewViews();
}

function ensureScratch(bytes) {
  if (bytes > rd.scratchCap) setScratch(bytes);
}

// After a probe of a key over kKeptScratch bytes: a one-off 100 MB key must not pin 100 MB of wasm memory.
export function shrinkScratch() {
  setScratch(kMinScratch);
}

const encoder = new TextEncoder();

// Stages a key (classify.js: the full entry's rules and errors) for a probe: returns its byte length (the
// bytes are at rd.scratch), or -1 for an integer number key (its halves in `classified`).
export function stageKey(key) {
  const kind = classify(key);
  if (kind === kNumber) return -1;
  if (kind === kString) {
    const n = key.length;
    if (n <= 16) {
      // Short ASCII strings byte by byte, which costs less than encodeInto for them.
      const h = rd.heap;
      const p = rd.scratch;
      let seen = 0;
      for (let i = 0; i < n; i++) {
        const c = key.charCodeAt(i);
        seen |= c;
        h[p + i] = c;
      }
      if (seen < 0x80) return n;
    }
    ensureScratch(3 * n);
    return encoder.encodeInto(key, rd.view).written;
  }
  if (kind === kBigInt) {
    // Its 8 little-endian bytes, which hash as the integer does.
    new DataView(rd.heap.buffer).setBigUint64(rd.scratch, key, true);
    return 8;
  }
  const bytes = classified.bytes;
  classified.bytes = null; // holds no key's buffer alive
  ensureScratch(bytes.length);
  rd.heap.set(bytes, rd.scratch);
  return bytes.length;
}
