// js/reader_stream.js: what CuckooReader.deserialize() reads as a stream, and its pieces: a fetch Response
// or its body (a WHATWG ReadableStream), or any async iterable of Uint8Array pieces (a Node Readable).

// Whether deserialize() should read `source` as a stream (byte views, even async-iterable ones, are bytes).
export function isStreamLike(source) {
  if (source === null || typeof source !== 'object' || ArrayBuffer.isView(source)) return false;
  if (typeof Response === 'function' && source instanceof Response) return true;
  return typeof source.getReader === 'function' || typeof source[Symbol.asyncIterator] === 'function';
}

// The source's pieces, as an async iterator; return() releases the source.
export function piecesOf(source) {
  if (typeof Response === 'function' && source instanceof Response) {
    if (source.body === null) return (async function* () {})();
    source = source.body;
  }
  if (typeof source.getReader === 'function') return readerPieces(source.getReader());
  return source[Symbol.asyncIterator]();
}

async function* readerPieces(reader) {
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.cancel().catch(() => {}); // releases the source when the load stops early
  }
}
