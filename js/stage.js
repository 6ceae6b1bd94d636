// js/stage.js: writes one key (classified by classify.js) into the scratch buffer in wasm memory, for the
// per-key calls of wasm/hot_path.cpp; and the UTF-8 writer that batch.js shares.
import { rt, ensureScratch, kKeptScratch, kMinScratch } from './memory.js';
import { classify, classified, kString, kNumber, kBigInt } from './classify.js';

const encoder = new TextEncoder();

// Strings are written as UTF-8 in one of two ways (has() by key length and shape: bench/js/key_shapes.mjs):
// - a charCodeAt loop storing byte by byte: the fastest for short ASCII strings, but its cost grows with
//   every character (more so for a concatenated or sliced string);
// - TextEncoder.encodeInto: a fixed cost whatever the length up to a few hundred characters, and it
//   handles non-ASCII, when it writes into a view kept over the scratch buffer (rt.scratchView). A batch
//   writes at changing offsets, and the view it makes per key costs more, so there the loop pays for
//   longer strings.
const kLoopMaxChars = 16;
if (kMinScratch < 3 * kLoopMaxChars) throw new Error('cuckoo-wasm: internal error: the scratch buffer is too small');
export const kBatchLoopMaxChars = 24;

// UTF-8 of s into `view` (room for 3 bytes per code unit guaranteed by the caller); returns the byte count.
function encodeInto(s, view) {
  const result = encoder.encodeInto(s, view);
  // Cannot happen (the caller made room): a stale or short view would hash a truncated key instead.
  if (result.read !== s.length) throw new Error('cuckoo-wasm: internal error: a key did not fit its buffer');
  return result.written;
}

// Writes string s as UTF-8 at address p of h (rt.heap, or a view detached by memory growth during a
// batch, whose writes are lost and redone), with room for 3 bytes per code unit; returns the byte count.
// Up to loopMax characters it tries the loop; `view` is the encodeInto target at p if the caller keeps one
// (the scratch buffer), else null. The loop tests for non-ASCII once at the end (then encodeInto rewrites
// the bytes), which keeps its body to a load and a store per character.
export function writeString(h, p, s, loopMax, view) {
  const n = s.length;
  if (n <= loopMax) {
    let seen = 0;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      seen |= c;
      h[p + i] = c;
    }
    if (seen < 0x80) return n;
  }
  // A batch's view from rt.heap, not h: if reading a key grew memory, h is detached (subarray would throw),
  // and batch.js packs the chunk again anyway once it sees the new heap.
  return encodeInto(s, view === null ? rt.heap.subarray(p, p + 3 * n) : view);
}

// The exact UTF-8 bytes of a string (for strings too long to be given 3 bytes per code unit).
export function utf8Bytes(s) {
  return encoder.encode(s);
}

// Stages one key for a hot_path.cpp call: returns its byte length (the bytes are at rt.scratch), or -1
// for an integer number key (its halves are in classify.js's `classified`). Throws TypeError/RangeError
// for invalid keys.
export function stageKey(key) {
  const kind = classify(key);
  if (kind === kString) {
    const n = key.length;
    if (n <= kLoopMaxChars) {
      // The most common key, inlined here rather than through writeString(): V8 then compiles has() and
      // add() as one function. The scratch buffer always has room (kMinScratch >= 3 * kLoopMaxChars).
      const h = rt.heap;
      const p = rt.scratch;
      let seen = 0;
      for (let i = 0; i < n; i++) {
        const c = key.charCodeAt(i);
        seen |= c;
        h[p + i] = c;
      }
      return seen < 0x80 ? n : encodeInto(key, rt.scratchView);
    }
    if (3 * n > rt.scratchCap) return stageLongString(key);
    return stageString(key);
  }
  if (kind === kNumber) return -1;
  if (kind === kBigInt) {
    // As 8 bytes, which hash exactly like the u64 overloads.
    storeBigInt(key);
    return 8;
  }
  const bytes = classified.bytes;
  classified.bytes = null; // holds no key's buffer alive
  return stageBytes(bytes);
}

// Stores a valid bigint key as its 8 little-endian bytes at rt.scratch, through a BigUint64Array, which
// allocates nothing (BigInt.asIntN() and `>> 32n` allocate a bigint each).
function storeBigInt(key) {
  if (rt.scratchCap < 8) ensureScratch(8);
  rt.heap64[rt.scratch >>> 3] = key; // malloc'ed, so 8-aligned
}

// A valid bigint key's two 32-bit halves, into `classified` as for a number key (through the scratch buffer).
export function splitBigInt(key) {
  storeBigInt(key);
  const q = rt.scratch >>> 2;
  classified.lo = rt.heap32[q] | 0;
  classified.hi = rt.heap32[q + 1] | 0;
}

// A string into the scratch buffer.
function stageString(s) {
  return writeString(rt.heap, rt.scratch, s, kLoopMaxChars, rt.scratchView);
}

function stageBytes(bytes) {
  if (bytes.length > rt.scratchCap) ensureScratch(bytes.length);
  rt.heap.set(bytes, rt.scratch);
  return bytes.length;
}

// A string whose worst case (3 bytes per code unit) exceeds the scratch buffer. Up to kKeptScratch it is
// written in place as usual; a longer one is encoded to its exact bytes first, so that a 100 MB string
// takes 100 MB of wasm memory, not 300 (or 512, rounded up).
function stageLongString(key) {
  const room = 3 * key.length;
  if (room > kKeptScratch) return stageBytes(encoder.encode(key));
  ensureScratch(room);
  return stageString(key);
}
