// wasm/stream_exports.cpp: cuckoo/stream.h as plain C exports, for js/stream.js: a filter's bytes
// written from its table in wasm memory, and read into a new table, in pieces, so that neither side holds a
// second copy. Both flavours read (deserialize() of a stream, in Node and in browsers); only the node
// flavour writes and has the checksum export (files and chunks are Node's). js/chunks.js frames chunks in JS (docs/format.md, "Chunks") with the checksum from here:
// C++'s ChunkWriter / ChunkLoader would cost the browser's module more than that JS does. Calls that can fail return 0 / null with the error
// recorded (factory.h), which JS turns into the same Error as for deserialize.
#include <emscripten/emscripten.h>

#include <cstddef>
#include <cstdint>

#include "cuckoo/cuckoo.h"
#include "cuckoo/stream.h"
#include "factory.h"
#include "hash.h"  // core/src: XXH3

using cuckoo::CuckooFilter;
using cuckoo::FilterLoader;
using cuckoo::FilterWriter;

namespace {

// Runs f, recording what it throws; false if it threw.
template <typename F>
bool recorded(F&& f) {
  return cuckoo_wasm::run_recorded([](void* context) { (*static_cast<F*>(context))(); }, &f);
}

}  // namespace

extern "C" {

#if CUCKOO_WASM_FLAVOR_NODE
// ---- FilterWriter: the serialized bytes in pieces, each a view of wasm memory (a table or a header).

EMSCRIPTEN_KEEPALIVE FilterWriter* cuckoo_writer_new(const CuckooFilter* f) {
  FilterWriter* w = nullptr;
  return recorded([&] { w = new FilterWriter(*f); }) ? w : nullptr;
}

// The address of the next piece of at most max bytes; its size goes to *size (0 after the last piece).
EMSCRIPTEN_KEEPALIVE const uint8_t* cuckoo_writer_next(FilterWriter* w, size_t max, size_t* size) {
  const FilterWriter::Piece piece = w->next(max);
  *size = piece.size;
  return piece.data;
}

EMSCRIPTEN_KEEPALIVE void cuckoo_writer_delete(FilterWriter* w) { delete w; }
#endif

// ---- FilterLoader: JS writes each piece where buffer() says and commits it.

// input_size: the input's size if known (a file's), else 0; a double, exact below 2^53. huge_pages is
// true, as CuckooFilter::deserialize leaves it by default (a hint that WebAssembly memory ignores).
EMSCRIPTEN_KEEPALIVE FilterLoader* cuckoo_loader_new(double input_size) {
  FilterLoader* l = nullptr;
  return recorded([&] { l = new FilterLoader(true, static_cast<uint64_t>(input_size)); }) ? l : nullptr;
}

// Where the next bytes go, with room for *size of them. *size is 0 once complete, and also when the
// loader is spent or the next table does not fit, with the error recorded (cuckoo_last_error_kind).
EMSCRIPTEN_KEEPALIVE uint8_t* cuckoo_loader_buffer(FilterLoader* l, size_t* size) {
  uint8_t* at = nullptr;
  *size = 0;
  recorded([&] { at = l->buffer(size); });
  return at;
}

EMSCRIPTEN_KEEPALIVE int cuckoo_loader_commit(FilterLoader* l, size_t n) {
  return recorded([&] { l->commit(n); });
}

EMSCRIPTEN_KEEPALIVE int cuckoo_loader_feed(FilterLoader* l, const uint8_t* data, size_t n) {
  return recorded([&] { l->feed(data, n); });
}

EMSCRIPTEN_KEEPALIVE CuckooFilter* cuckoo_loader_finish(FilterLoader* l) {
  CuckooFilter* f = nullptr;
  return recorded([&] { f = new CuckooFilter(l->finish()); }) ? f : nullptr;
}

EMSCRIPTEN_KEEPALIVE void cuckoo_loader_delete(FilterLoader* l) { delete l; }

#if CUCKOO_WASM_FLAVOR_NODE
// ---- XXH3_64bits of size bytes at data (seed 0): the checksum of js/chunks.js's chunk framing. Through
// XXH3's streaming state (xxHash defines the same value), whose code the module has for the loader.

EMSCRIPTEN_KEEPALIVE uint64_t cuckoo_checksum(const uint8_t* data, size_t size) {
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  XXH3_64bits_update(&state, data, size);
  return XXH3_64bits_digest(&state);
}
#endif

}  // extern "C"
