// wasm/factory.h: the cold calls that can throw, wrapped so that no C++ exception ever reaches JS.
//
// The core reports impossible options with std::invalid_argument (in the node module a cuckoo::OptionError),
// bad bytes with cuckoo::FormatError and a table that does not fit in wasm's 4 GiB with std::bad_alloc
// (also from an insert into a growing filter whose new level does not fit: hot_path.cpp catches those and
// records them here). A C++ exception escaping into JS would show up as an opaque WebAssembly.Exception
// (or an abort), so every function here catches, records the error (kind + message, naming options as JS
// does) and returns nullptr; the JS layer reads the record and throws the matching Error subclass with
// the same message. Built with -fwasm-exceptions, so
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

// Returns a new filter, or nullptr with the error recorded. The core checks the options, a given capacity of
// 0 included (core/src/option_names.h), and the message recorded names them as JS spells them.
cuckoo::CuckooFilter* create_filter(const cuckoo::Options& options, bool capacity_given);

// target.merge(source) (cuckoo::CuckooFilter::merge); false with the error recorded, the target unchanged.
bool merge_into(cuckoo::CuckooFilter& target, const cuckoo::CuckooFilter& source);

// How JS spells option i (cuckoo::Option, CUCKOO_OPTIONS): js/options.js's kOptions has the same names in
// the same order.
const char* js_option_name(unsigned option);
// Runs body(context), recording whatever it throws as the calls above do; false if it threw. For the
// stream exports (stream_exports.cpp).
bool run_recorded(void (*body)(void* context), void* context);

int last_error_kind();
#if CUCKOO_WASM_FLAVOR_NODE
// The node module only: for a cuckoo::OptionError, which option (cuckoo::Option; -1 for any other error),
// its value as text, and the message naming each option by its placeholder (OptionError::placeholder),
// for js/errors.node.js. Valid until the next failed call.
int last_error_option();
const char* last_error_option_value();
const char* last_error_option_text();
#endif
// The address of the last error's NUL-terminated UTF-8 message in wasm memory (JS decodes it). Not a
// std::string: returning one allocates, and the error to report may be that memory ran out.
uintptr_t last_error_message();

// For the inserts of hot_path.cpp, which throw std::bad_alloc only when a growing filter's new level does
// not fit: forgets the last error before a call, and records this one (kOutOfMemory, a message naming the
// size of the level that did not fit). The record is a fixed buffer, so recording allocates nothing.
void clear_error();
void record_growth_out_of_memory(const cuckoo::CuckooFilter& filter);

}  // namespace cuckoo_wasm
