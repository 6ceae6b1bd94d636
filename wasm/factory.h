// wasm/factory.h: the cold calls that can throw, wrapped so that no C++ exception ever reaches JS.
//
// The core reports impossible options with std::invalid_argument, bad bytes with cuckoo::FormatError and a
// table that does not fit in wasm's 4 GiB with std::bad_alloc (also from an insert into a growing filter
// whose new level does not fit: hot_path.cpp catches those and records them here). A C++ exception
// escaping into JS would show up as an opaque WebAssembly.Exception (or an abort), so every function here
// catches, records the error (kind + the core's what() text) and returns nullptr; the JS layer reads the
// record and throws the matching Error subclass with the same message. Built with -fwasm-exceptions, so
// the try blocks cost nothing when nothing is thrown.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuckoo/cuckoo.h"

namespace cuckoo_wasm {

// What went wrong in the last failed call; JS maps it to an Error class (js/errors.js).
enum ErrorKind : int {
  kNoError = 0,
  kInvalidArgument = 1,  // std::invalid_argument: options out of range -> RangeError
  kOutOfMemory = 2,      // std::bad_alloc: the table does not fit -> RangeError
  kFormat = 3,           // cuckoo::FormatError: bytes that are not a valid filter -> Error
  kOther = 4,            // anything else -> Error
};

// cuckoo::Options as JS passes them (js/options.js, toCoreOptions; wasm/bindings.cpp): the same fields, but
// with 0 for "not given" where the core has std::optional (C has no std::optional); JS never passes 0 as
// a value for those fields. cuckoo_create sets every field; the defaults here are the core's own.
struct JsOptions {
  uint64_t capacity = 0;
  double fpr = 0;
  unsigned fingerprint_bits = 0;
  unsigned bucket_size = cuckoo::Options{}.bucket_size;
  unsigned max_kicks = cuckoo::Options{}.max_kicks;
  uint64_t seed = cuckoo::Options{}.seed;
  bool semi_sort = cuckoo::Options{}.semi_sort;
  double target_load = 0;
  uint64_t bucket_count = 0;
  bool huge_pages = cuckoo::Options{}.huge_pages;
  bool growable = cuckoo::Options{}.growable;
  uint64_t max_memory_bytes = cuckoo::Options{}.max_memory_bytes;  // 0: no limit
};

// Returns a new filter, or nullptr with the error recorded.
cuckoo::CuckooFilter* create_filter(const JsOptions& options);
// Reads size bytes at address data (wasm memory); nullptr with the error recorded on bad bytes.
cuckoo::CuckooFilter* deserialize_filter(uintptr_t data, size_t size);

// target.merge(source) (cuckoo::CuckooFilter::merge); false with the error recorded, the target unchanged.
bool merge_into(cuckoo::CuckooFilter& target, const cuckoo::CuckooFilter& source);

int last_error_kind();
// The address of the last error's NUL-terminated UTF-8 message in wasm memory (JS decodes it). Not a
// std::string: returning one allocates, and the error to report may be that memory ran out.
uintptr_t last_error_message();

// For the inserts of hot_path.cpp, which throw std::bad_alloc only when a growing filter's new level does
// not fit: forgets the last error before a call, and records this one (kOutOfMemory, a message naming the
// size of the level that did not fit). The record is a fixed buffer, so recording allocates nothing.
void clear_error();
void record_growth_out_of_memory(const cuckoo::CuckooFilter& filter);

}  // namespace cuckoo_wasm
