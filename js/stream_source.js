// js/stream_source.js: what deserialize() accepts as a stream, in CuckooFilter (js/stream.js writes the
// pieces straight into the new table) and in CuckooReader (js/reader_filter.js), read as an async iterator
// of Uint8Array pieces; return() releases the source.

// An async iterator over the pieces of a fetch Response, a ReadableStream, or any async iterable of byte
// views (a Node Readable); null for anything else. It throws a TypeError for a piece that is not bytes.
export function streamPieces(source) {
  if (source === null || typeof source !== 'object' || ArrayBuffer.isView(source)) return null;
  if (typeof Response === 'function' && source instanceof Response) source = source.body ?? [];
  if (typeof source.getReader === 'function') return checked(readerPieces(source.getReader()));
  if (typeof source[Symbol.asyncIterator] === 'function' || Array.isArray(source)) return checked(source);
  return null;
}

async function* readerPieces(reader) {
  let read;
  try {
    while (!(read = await reader.read()).done) yield read.value;
  } finally {
    // Reading stopped early (an error, or the consumer let go): release the source. Not after the end: a
    // cancel() then makes Chromium abort a fetch whose body it has fully delivered.
    if (!read?.done) reader.cancel().catch(() => {});
  }
}

async function* checked(pieces) {
  for await (const piece of pieces) {
    if (!(piece instanceof Uint8Array)) {
      throw new TypeError(
        typeof piece === 'string'
          ? 'cuckoo-wasm: deserialize() read a string from the stream: open it without an encoding'
          : 'cuckoo-wasm: deserialize() takes a stream of Uint8Array pieces',
      );
    }
    yield piece;
  }
}
