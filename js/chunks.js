// js/chunks.js: a filter as chunks of at most a chosen size, and the filter rebuilt from them. The framing
// (docs/format.md, "Chunks") and its messages are C++'s (core/src/chunks.cpp), written again here because
// the browser's module would grow by more than this file if it carried that code; testdata/chunks pins
// the bytes both write. The payloads come from and go to js/stream.js's Writer and Loader, so a chunked
// filter is read and checked as deserialize() reads and checks it.
import { rt, malloc, free } from './memory.js';
import { FormatError } from './errors.js';
import { Writer, Loader } from './stream.js';

const kHeader = 32;
const kOverhead = kHeader + 8;
const kMagic = 0x48434b43; // "CKCH", little-endian
const kMaxU32 = 2 ** 32 - 1;

// XXH3_64bits of the first n bytes at address in wasm memory.
const checksum = (address, n) => BigInt.asUintN(64, rt.M._cuckoo_checksum(address, n));

// The chunks of the filter at the address live() returns (it throws once the filter is disposed), one new
// Uint8Array each, for a filter of `total` serialized bytes. Checks chunkBytes now, the rest as it goes.
export function chunksOf(live, total, chunkBytes) {
  if (!Number.isSafeInteger(chunkBytes) || chunkBytes <= kOverhead) {
    throw new RangeError(`cuckoo: chunk_bytes must be more than the ${kOverhead}-byte chunk framing (got ${chunkBytes})`);
  }
  const payload = Math.min(chunkBytes - kOverhead, kMaxU32);
  const count = Math.ceil(total / payload);
  if (count > kMaxU32) {
    throw new RangeError(`cuckoo: chunk_bytes ${chunkBytes} would make ${count} chunks, more than 2^32 - 1`);
  }
  return writeChunks(live, total, payload, count);
}

function* writeChunks(live, total, payload, count) {
  const writer = new Writer(live());
  const buffer = malloc(Math.min(payload, total) + kOverhead);
  try {
    for (let index = 0, offset = 0; index < count; index++) {
      const p = Math.min(payload, total - offset);
      const view = new DataView(rt.heap.buffer, buffer, kHeader);
      view.setUint32(0, kMagic, true);
      view.setUint32(4, index, true);
      view.setUint32(8, count, true);
      view.setUint32(12, p, true);
      view.setBigUint64(16, BigInt(offset), true);
      view.setBigUint64(24, BigInt(total), true);
      live();
      for (let filled = 0; filled < p;) {
        const piece = writer.next(p - filled);
        rt.heap.copyWithin(buffer + kHeader + filled, piece.byteOffset, piece.byteOffset + piece.length);
        filled += piece.length;
      }
      const sum = checksum(buffer, kHeader + p);
      new DataView(rt.heap.buffer).setBigUint64(buffer + kHeader + p, sum, true);
      offset += p;
      yield rt.heap.slice(buffer, buffer + kHeader + p + 8);
    }
  } finally {
    free(buffer);
    writer.dispose();
  }
}

// A NativeFilter handle for the filter whose chunks an iterable or async iterable yields, in order.
export async function loadChunks(chunks) {
  if (typeof chunks === 'string' || typeof (chunks?.[Symbol.asyncIterator] ?? chunks?.[Symbol.iterator]) !== 'function') {
    throw new TypeError('cuckoo-wasm: fromChunks() takes an array, an iterable or an async iterable of chunks');
  }
  const reader = new ChunkReader();
  try {
    for await (const chunk of chunks) reader.add(chunk);
    return reader.finish();
  } finally {
    reader.dispose();
  }
}

// ChunkLoader's checks (core/src/chunks.cpp), in its order and words. After an error it is spent.
class ChunkReader {
  #loader = null;
  #count = 0;
  #total = 0;
  #received = 0;
  #offset = 0;
  #buffer = 0;
  #capacity = 0;
  #error = null;

  add(chunk) {
    if (this.#error !== null) throw this.#error;
    try {
      this.#add(chunk);
    } catch (error) {
      this.#error = error;
      throw error;
    }
  }

  #add(chunk) {
    if (!(chunk instanceof Uint8Array)) throw new TypeError('cuckoo-wasm: fromChunks(): each chunk must be a Uint8Array');
    const fail = (message) => new FormatError(`cuckoo: ${message}`);
    const at = `chunk ${this.#received}: `;
    const size = chunk.length;
    if (size < kOverhead) throw fail(`${at}${size} bytes is shorter than the ${kOverhead}-byte chunk framing`);
    const view = new DataView(chunk.buffer, chunk.byteOffset, size);
    if (view.getUint32(0, true) !== kMagic) throw fail(`${at}bad magic: not a cuckoo filter chunk`);
    const payload = view.getUint32(12, true);
    if (payload + kOverhead !== size) {
      throw fail(`${at}${payload + kOverhead > size ? 'truncated' : 'trailing bytes'}: its framing says ${payload + kOverhead} bytes, got ${size}`);
    }
    if (size > this.#capacity) {
      if (this.#buffer !== 0) free(this.#buffer);
      this.#buffer = 0;
      this.#buffer = malloc(size);
      this.#capacity = size;
    }
    rt.heap.set(chunk, this.#buffer);
    if (checksum(this.#buffer, kHeader + payload) !== view.getBigUint64(kHeader + payload, true)) {
      throw fail(`${at}checksum mismatch: the chunk is corrupted`);
    }

    const index = view.getUint32(4, true);
    const count = view.getUint32(8, true);
    const offset = Number(view.getBigUint64(16, true));
    const total = Number(view.getBigUint64(24, true));
    const name = `chunk ${index}`;
    if (this.#received === 0) {
      if (count === 0 || total === 0 || total < count) throw fail(`${name}: invalid framing: ${count} chunks of a ${total}-byte filter`);
      this.#count = count;
      this.#total = total;
    } else if (count !== this.#count || total !== this.#total) {
      throw fail(
        `${name}: from another filter or chunk size: it says ${count} chunks of a ${total}-byte filter, chunk 0 said ${this.#count} of ${this.#total}`,
      );
    }
    if (index >= this.#count) throw fail(`${name}: index out of range (the filter has ${this.#count} chunks)`);
    if (index < this.#received) throw fail(`${name}: repeated or out of order (chunk ${this.#received} was expected next)`);
    if (index > this.#received) throw fail(`chunk ${this.#received} is missing (${name} arrived in its place)`);
    if (offset !== this.#offset) throw fail(`${name}: offset ${offset}, expected ${this.#offset}`);
    const last = index + 1 === this.#count;
    if (payload === 0 || offset + payload > this.#total || (last && offset + payload !== this.#total)) {
      throw fail(`${name}: its ${payload} bytes at offset ${offset} do not fit a ${this.#total}-byte filter in ${this.#count} chunks`);
    }
    this.#loader ??= new Loader(this.#total);
    this.#loader.add(chunk.subarray(kHeader, kHeader + payload));
    this.#offset += payload;
    this.#received++;
  }

  finish() {
    if (this.#error !== null) throw this.#error;
    if (this.#received === 0) throw new FormatError('cuckoo: no chunks');
    if (this.#received < this.#count) {
      throw new FormatError(`cuckoo: chunk ${this.#received} is missing (got ${this.#received} of ${this.#count} chunks)`);
    }
    return this.#loader.finish();
  }

  dispose() {
    if (this.#buffer !== 0) free(this.#buffer);
    this.#buffer = 0;
    this.#loader?.dispose();
  }
}
