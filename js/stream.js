// js/stream.js: a filter's serialized bytes (docs/format.md) moved between wasm memory and JS in bounded
// pieces, with no second copy of its table in wasm memory (wasm/stream_exports.cpp: cuckoo::FilterWriter
// and cuckoo::FilterLoader): serialize() assembles its output straight from views of the table, and
// bytes, a stream's pieces or a file's are written straight into the new table, their checksum computed
// as they arrive. The Loader and loadStream() serve both entries (deserialize() of a stream); the rest is
// Node's (js/node.js): the web module has no writer exports, and browser bundles drop that code.
import { rt, malloc, free, requireHeadroom } from './memory.js';
import { lastError, lastErrorKind } from './errors.js';
import { NativeFilter } from './native.js';

// The largest piece handed over at once: bounds the wasm and JS buffers of a streamed load or save. Small
// enough to stay in the CPU's cache between the steps that each piece goes through (the file copy, the
// checksum, the count of a table's entries), large enough that the calls per piece cost nothing.
export const kPieceBytes = 1 << 18;

// The serialized bytes of a filter, pulled in pieces: a cuckoo::FilterWriter in wasm memory.
export class Writer {
  #writer;
  #sizeOut;

  constructor(address) {
    this.#sizeOut = malloc(4);
    this.#writer = rt.M._cuckoo_writer_new(address);
    if (this.#writer === 0) {
      free(this.#sizeOut);
      throw lastError();
    }
  }

  // The next piece of at most max bytes: a Uint8Array over wasm memory (the table itself, mostly), valid
  // until the next call into wasm; empty after the last. The filter must not change meanwhile.
  next(max = kPieceBytes) {
    const at = rt.M._cuckoo_writer_next(this.#writer, max, this.#sizeOut) >>> 0;
    return rt.heap.subarray(at, at + rt.heap32[this.#sizeOut >>> 2]);
  }

  dispose() {
    if (this.#writer === 0) return;
    rt.M._cuckoo_writer_delete(this.#writer);
    free(this.#sizeOut);
    this.#writer = 0;
  }
}

// Calls visit(view) with each piece of the serialized bytes of the filter at address, in order (Writer).
export function eachPiece(address, visit) {
  const writer = new Writer(address);
  try {
    for (let view = writer.next(); view.length !== 0; view = writer.next()) visit(view);
  } finally {
    writer.dispose();
  }
}

// The serialized bytes of the filter at address, `size` of them, in a new Uint8Array.
export function serializeFilter(address, size) {
  const out = new Uint8Array(size);
  let at = 0;
  eachPiece(address, (view) => {
    out.set(view, at);
    at += view.length;
  });
  return out;
}

// A filter rebuilt from pieces of its bytes: a cuckoo::FilterLoader in wasm memory.
export class Loader {
  #loader;
  #sizeOut;

  // inputSize: the input's size when known (a file's), else 0.
  constructor(inputSize = 0) {
    requireHeadroom();
    this.#sizeOut = malloc(4);
    this.#loader = rt.M._cuckoo_loader_new(inputSize);
    if (this.#loader === 0) {
      free(this.#sizeOut);
      throw lastError();
    }
  }

  // Where the next bytes go: a Uint8Array over wasm memory (inside a table: the table), empty once every
  // byte the header announces is in. Valid until the next call into wasm.
  room() {
    const at = rt.M._cuckoo_loader_buffer(this.#loader, this.#sizeOut) >>> 0;
    const n = Math.min(rt.heap32[this.#sizeOut >>> 2], kPieceBytes);
    if (n === 0 && lastErrorKind() !== 0) throw lastError();
    return rt.heap.subarray(at, at + n);
  }

  // The first n bytes of the last room() were filled.
  commit(n) {
    if (!rt.M._cuckoo_loader_commit(this.#loader, n)) throw lastError();
  }

  // Copies bytes in (a Uint8Array), straight into the table; bytes past the filter's end are counted for
  // finish()'s "trailing bytes".
  add(bytes) {
    let at = 0;
    while (at < bytes.length) {
      const room = this.room();
      if (room.length === 0) return this.#trailing(bytes.subarray(at));
      const n = Math.min(room.length, bytes.length - at);
      room.set(bytes.subarray(at, at + n));
      this.commit(n);
      at += n;
    }
  }

  // Bytes after the filter's end: fed through the scratch buffer, so that finish() counts them.
  #trailing(bytes) {
    for (let at = 0; at < bytes.length; at += rt.scratchCap) {
      const piece = bytes.subarray(at, at + rt.scratchCap);
      rt.heap.set(piece, rt.scratch);
      if (!rt.M._cuckoo_loader_feed(this.#loader, rt.scratch, piece.length)) throw lastError();
    }
  }

  // The filter's NativeFilter handle; throws what deserialize() would throw for the same bytes.
  finish() {
    requireHeadroom();
    const address = rt.M._cuckoo_loader_finish(this.#loader);
    if (address === 0) throw lastError();
    return new NativeFilter(address);
  }

  dispose() {
    if (this.#loader === 0) return;
    rt.M._cuckoo_loader_delete(this.#loader);
    free(this.#sizeOut);
    this.#loader = 0;
  }
}

// A NativeFilter handle for the filter serialized in bytes (a Uint8Array), copied straight into its table.
export function loadBytes(bytes) {
  const loader = new Loader(bytes.length);
  try {
    loader.add(bytes);
    return loader.finish();
  } finally {
    loader.dispose();
  }
}

// A NativeFilter handle for the filter whose serialized bytes come in `pieces` (an async iterator of
// Uint8Array, js/stream_source.js). Each piece is copied into the new table as it arrives; the whole input
// never sits in one buffer.
export async function loadStream(pieces) {
  const loader = new Loader();
  try {
    for await (const piece of pieces) loader.add(piece);
    return loader.finish();
  } finally {
    loader.dispose();
  }
}
