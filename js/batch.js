// js/batch.js: addMany() and hasMany(): many keys packed into one buffer in wasm memory, one wasm call per
// chunk (the core's insert_many/contains_many). Each key is classified by classify.js, as a single key is.
//
// Layout in wasm memory: data bytes (key i = data[off[i], off[i + 1])), n + 1 u32 offsets, n result bytes.
// Integer keys are packed as their 8 little-endian bytes, which hash exactly like the u64 overloads.
import { rt, kKeptScratch, malloc, free } from './memory.js';
import { callRawBatch, kInsertMany, kContainsMany } from './runtime.js';
import { lastError, lastErrorKind, kOutOfMemory } from './errors.js';
import { classify, classified, checkKeys, isKeyError, kString, kBytes, kBigInt } from './classify.js';
import { writeString, utf8Bytes, splitBigInt, kBatchLoopMaxChars } from './stage.js';

const kBatchKeys = 16384;
const kBatchData = 256 * 1024; // the data buffer's usual size; only a single longer key makes it larger
export const batch = { data: 0, dataCap: 0, offsets: 0, out: 0, busy: false }; // allocated on first use, then reused

// Makes the data buffer hold at least `dataBytes` (a key that does not fit an empty buffer gets exactly
// its size). Throws RangeError, changing nothing, if memory is short.
function ensureBatch(dataBytes) {
  if (batch.offsets === 0) {
    // One block for offsets and answers, so that running out of memory leaves neither set: `out` at
    // address 0 would have hasMany() write its answers over the module's own data there.
    const offsetsBytes = 4 * (kBatchKeys + 1);
    const block = malloc(offsetsBytes + kBatchKeys);
    batch.offsets = block;
    batch.out = block + offsetsBytes;
  }
  if (batch.data === 0 || dataBytes > batch.dataCap) {
    const cap = Math.max(dataBytes, kBatchData);
    const ptr = malloc(cap);
    if (batch.data !== 0) free(batch.data);
    batch.data = ptr;
    batch.dataCap = cap;
  }
}

// Packs keys[start..] into the batch buffer, as many as fit (at least one); returns how many.
// Throws TypeError/RangeError on an invalid key.
// Reading keys[i] can run user code (a getter, a Proxy) that grows wasm memory with a call of its own,
// detaching the heap view this loop writes through (writes to it would be silently dropped). The loop
// keeps its view, as re-reading it per key would cost every batch, and pack() checks once at the end,
// packing the chunk again with the current view until memory stayed put (it only grows, so this ends;
// such a getter runs once more per repack).
let packedHeap = null; // the view packInto() last wrote through

export function pack(keys, start) {
  for (;;) {
    let j;
    try {
      j = packInto(keys, start);
    } catch (e) {
      // Which key it was: found by checking the chunk again, off the hot loop, which then needs no index
      // kept for a catch. A getter runs once more here; if it now returns a valid key, the error goes out
      // without an index.
      if (isKeyError(e)) checkKeys(keys, start, Math.min(keys.length, start + kBatchKeys));
      throw e;
    } finally {
      classified.bytes = null; // holds no key's buffer alive
    }
    if (packedHeap === rt.heap) return j;
  }
}

function packInto(keys, start) {
  ensureBatch(0);
  const end = Math.min(keys.length, start + kBatchKeys);
  let h = rt.heap;
  const offBase = batch.offsets >>> 2;
  let pos = 0;
  let j = 0;
  rt.heap32[offBase] = 0;
  for (let i = start; i < end; i++, j++) {
    const key = keys[i];
    const kind = classify(key);
    if (kind === kString) {
      const room = 3 * key.length;
      if (pos + room > batch.dataCap) {
        if (j > 0) break;
        // Alone in the buffer: make room for it. A long string goes in as its exact UTF-8 bytes, so that
        // it is not allotted 3 bytes per code unit.
        if (room > kKeptScratch) {
          const bytes = utf8Bytes(key);
          ensureBatch(bytes.length);
          h = rt.heap;
          h.set(bytes, batch.data);
          pos = bytes.length;
          rt.heap32[offBase + 1] = pos;
          continue;
        }
        ensureBatch(room);
        h = rt.heap;
        pos = 0;
      }
      pos += writeString(h, batch.data + pos, key, kBatchLoopMaxChars, null);
    } else if (kind !== kBytes) {
      if (pos + 8 > batch.dataCap) break; // dataCap >= 256 KiB, so j > 0 here
      if (kind === kBigInt) splitBigInt(key);
      const lo = classified.lo;
      const hi = classified.hi;
      const q = batch.data + pos; // little-endian, byte by byte: q need not be 4-aligned
      h[q] = lo;
      h[q + 1] = lo >>> 8;
      h[q + 2] = lo >>> 16;
      h[q + 3] = lo >>> 24;
      h[q + 4] = hi;
      h[q + 5] = hi >>> 8;
      h[q + 6] = hi >>> 16;
      h[q + 7] = hi >>> 24;
      pos += 8;
    } else {
      const bytes = classified.bytes;
      if (pos + bytes.length > batch.dataCap) {
        if (j > 0) break;
        ensureBatch(bytes.length);
        h = rt.heap;
        pos = 0;
      }
      h.set(bytes, batch.data + pos);
      pos += bytes.length;
    }
    rt.heap32[offBase + j + 1] = pos;
  }
  packedHeap = h;
  return j;
}

// Runs a batch operation on the shared batch buffers. A batch started from inside another's key (a
// getter or a Proxy calling addMany()/hasMany()) would overwrite the outer one's keys: it throws instead.
// Afterwards, a data buffer grown for one huge key is given back.
export function withBatch(method, run) {
  if (batch.busy) {
    throw new Error(`cuckoo-wasm: ${method}() called while another addMany()/hasMany() was reading its keys`);
  }
  batch.busy = true;
  try {
    return run();
  } finally {
    batch.busy = false;
    if (batch.dataCap > kBatchData) {
      free(batch.data);
      batch.data = 0;
      batch.dataCap = 0;
    }
  }
}

// insert_many over all keys in chunks; stops at the first key that is refused.
// Returns the number inserted (keys[0..n) are in, keys[n] was refused, later keys were not tried).
// When a growing filter's new level does not fit in wasm memory, throws that RangeError instead, saying
// how many keys went in first (they stay in, as does everything stored before).
// filterAddress() gives the filter's address, or throws if it was disposed (by a key's getter, even).
// method: the public name the call came through ('addMany', or its deprecated alias 'addAll'), for messages.
export function insertAll(filterAddress, keys, method) {
  return withBatch(method, () => {
    let done = 0;
    while (done < keys.length) {
      const m = pack(keys, done);
      const inserted = callRawBatch(kInsertMany, filterAddress(), batch.data, batch.offsets, m) >>> 0;
      done += inserted;
      if (inserted < m) {
        if (lastErrorKind() === kOutOfMemory) {
          const error = lastError();
          error.message += `; ${method}() added keys[0..${done}) of ${keys.length} before that, and no others`;
          throw error;
        }
        break;
      }
    }
    return done;
  });
}

// contains_many over all keys in chunks; out[i] = 1 if keys[i] may be in the set.
export function containsAll(filterAddress, keys) {
  return withBatch('hasMany', () => {
    const out = new Uint8Array(keys.length);
    let done = 0;
    while (done < keys.length) {
      const m = pack(keys, done);
      callRawBatch(kContainsMany, filterAddress(), batch.data, batch.offsets, m, batch.out);
      out.set(rt.heap.subarray(batch.out, batch.out + m), done);
      done += m;
    }
    return out;
  });
}
