// wasm/reader_exports.cpp: the read-only module behind `cuckoo-wasm/reader` (js/reader.js), as raw C exports.
//
// A module of its own, built -Oz with no exceptions, no RTTI, no libc++ and no malloc: JS owns its memory
// (js/reader_runtime.js allocates in it), copies a filter's bytes in once and checks the header
// (js/reader_format.js); this module computes what needs the bytes at speed: the checksum, the checks of
// the tables' contents, and lookups (reader_probe.h), with the core's hashing (hash.h, level_hasher.h).
// Nothing here allocates, throws or writes outside the buffers it is given.
#include <emscripten/emscripten.h>

#include <cstddef>
#include <cstdint>

#include "hash.h"
#include "reader_probe.h"

using namespace cuckoo_reader;

extern "C" {

extern unsigned char __heap_base;

// The first address JS may allocate (after the module's data and stack).
EMSCRIPTEN_KEEPALIVE uintptr_t reader_heap_base() { return reinterpret_cast<uintptr_t>(&__heap_base); }

// XXH3_64bits of data[0, size): the format's checksum (docs/format.md). JS gets it as a signed BigInt.
EMSCRIPTEN_KEEPALIVE uint64_t reader_checksum(const uint8_t* data, size_t size) {
  return cuckoo::internal::hash_bytes(data, size, 0);
}

// reader_probe.h's operations; the filter is the descriptor JS wrote (js/reader_filter.js).
EMSCRIPTEN_KEEPALIVE void reader_prepare(Filter* f) { prepare(*f); }
EMSCRIPTEN_KEEPALIVE double reader_scan(const Filter* f, uint32_t i) { return scan(*f, i); }
EMSCRIPTEN_KEEPALIVE int reader_victim_has_room(const Filter* f, uint32_t i) { return victim_has_room(*f, i); }

// The lookups: a key's bytes at key (n bytes), or an integer key as its two 32-bit halves, hashed as the
// core hashes uint64_t keys (its 8 little-endian bytes).
EMSCRIPTEN_KEEPALIVE int reader_contains(const Filter* f, const uint8_t* key, size_t n) {
  return contains_hash(*f, hash_key(*f, key, n));
}
EMSCRIPTEN_KEEPALIVE int reader_contains_u64(const Filter* f, uint32_t lo, uint32_t hi) {
  return contains_hash(*f, hash_u64(*f, (uint64_t{hi} << 32) | lo));
}
EMSCRIPTEN_KEEPALIVE uint32_t reader_count(const Filter* f, const uint8_t* key, size_t n) {
  return count_hash(*f, hash_key(*f, key, n));
}
EMSCRIPTEN_KEEPALIVE uint32_t reader_count_u64(const Filter* f, uint32_t lo, uint32_t hi) {
  return count_hash(*f, hash_u64(*f, (uint64_t{hi} << 32) | lo));
}

}  // extern "C"
