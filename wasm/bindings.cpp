// wasm/bindings.cpp: the cold calls as plain C exports (construction, configuration, properties,
// serialization, merge, errors); js/native.js wraps them. The per-key and batch calls are in hot_path.cpp.
//
// A plain C surface rather than embind: the module then needs no Emscripten JS glue at all (js/runtime.js
// instantiates it with its two imports), which is most of what the package's JS would otherwise weigh.
// 64-bit integers cross as BigInt (i64 parameters); counts come back as doubles (exact below 2^53).
#include <emscripten/emscripten.h>

#include <cstddef>
#include <cstdint>

#include "cuckoo/cuckoo.h"
#include "factory.h"
#include "protocol.h"

using cuckoo::CuckooFilter;

extern "C" {

// Returns a new filter, or null with the error recorded (cuckoo_last_error_*). One parameter per option,
// in the order of CUCKOO_OPTIONS (core/include/cuckoo/options.h), typed as its Options field (a bool as an
// int, an optional as its value); bit i of `given` is set when the user gave option i. Only those are
// copied onto a default cuckoo::Options, so every default, range and error message is the core's, and a
// given 0 is checked as any other value. js/options.js passes the values as it converted them.
#define CUCKOO_WASM_PARAM(field, js_name) , cuckoo_wasm::param_t<decltype(cuckoo::Options::field)> field
EMSCRIPTEN_KEEPALIVE CuckooFilter* cuckoo_create(uint32_t given CUCKOO_OPTIONS(CUCKOO_WASM_PARAM)) {
#undef CUCKOO_WASM_PARAM
  const auto has = [given](cuckoo::Option option) { return (given >> static_cast<unsigned>(option) & 1) != 0; };
  cuckoo::Options options;
#define CUCKOO_WASM_COPY(field, js_name) \
  if (has(cuckoo::Option::field)) options.field = field;
  CUCKOO_OPTIONS(CUCKOO_WASM_COPY)
#undef CUCKOO_WASM_COPY
  options.huge_pages = false;  // WebAssembly memory has no huge pages
  return cuckoo_wasm::create_filter(options, has(cuckoo::Option::capacity));
}

EMSCRIPTEN_KEEPALIVE void cuckoo_destroy(CuckooFilter* f) { delete f; }

// The resolved configuration (protocol.h), in a block that the next call overwrites: JS reads it at once.
EMSCRIPTEN_KEEPALIVE const cuckoo_wasm::ConfigBlock* cuckoo_config(const CuckooFilter* f) {
  static cuckoo_wasm::ConfigBlock block;
  const cuckoo::Config& c = f->config();
  block.bucket_size = c.bucket_size;
  block.fingerprint_bits = c.fingerprint_bits;
  block.max_kicks = c.max_kicks;
  block.semi_sort = c.semi_sort;
  block.growable = c.growable;
  block.seed = c.seed;
  block.bucket_count = c.bucket_count;
  block.max_memory_bytes = c.max_memory_bytes;
  return &block;
}

#if CUCKOO_WASM_FLAVOR_NODE
// For js-tests/protocol.test.js: ConfigBlock's size and offsets in the order of js/native.js's
// kConfigLayout, then the option count; each option's JS name and cuckoo_create parameter (ParamKind) in
// CUCKOO_OPTIONS order.
EMSCRIPTEN_KEEPALIVE const uint32_t* cuckoo_protocol() {
  using cuckoo_wasm::ConfigBlock;
  static uint32_t table[] = {
      sizeof(ConfigBlock),
      offsetof(ConfigBlock, bucket_size),
      offsetof(ConfigBlock, fingerprint_bits),
      offsetof(ConfigBlock, max_kicks),
      offsetof(ConfigBlock, semi_sort),
      offsetof(ConfigBlock, growable),
      offsetof(ConfigBlock, seed),
      offsetof(ConfigBlock, bucket_count),
      offsetof(ConfigBlock, max_memory_bytes),
      cuckoo::kOptionCount,
  };
  return table;
}
EMSCRIPTEN_KEEPALIVE const char* cuckoo_option_js_name(uint32_t option) { return cuckoo_wasm::js_option_name(option); }
EMSCRIPTEN_KEEPALIVE uint32_t cuckoo_option_param(uint32_t option) {
#define CUCKOO_WASM_PARAM_KIND(field, js_name) cuckoo_wasm::param_kind<decltype(cuckoo::Options::field)>(),
  static constexpr cuckoo_wasm::ParamKind kKinds[] = {CUCKOO_OPTIONS(CUCKOO_WASM_PARAM_KIND)};
#undef CUCKOO_WASM_PARAM_KIND
  return option < cuckoo::kOptionCount ? kKinds[option] : 0;
}

// For js/errors.node.js: an OptionError's option, value and placeholder message (factory.h).
EMSCRIPTEN_KEEPALIVE int cuckoo_last_error_option() { return cuckoo_wasm::last_error_option(); }
EMSCRIPTEN_KEEPALIVE const char* cuckoo_last_error_option_value() { return cuckoo_wasm::last_error_option_value(); }
EMSCRIPTEN_KEEPALIVE const char* cuckoo_last_error_option_text() { return cuckoo_wasm::last_error_option_text(); }
#endif

EMSCRIPTEN_KEEPALIVE double cuckoo_size(const CuckooFilter* f) { return static_cast<double>(f->size()); }
// Of every level: grows with a growing filter, unlike the configuration's.
EMSCRIPTEN_KEEPALIVE double cuckoo_bucket_count(const CuckooFilter* f) { return static_cast<double>(f->bucket_count()); }
EMSCRIPTEN_KEEPALIVE double cuckoo_slot_count(const CuckooFilter* f) { return static_cast<double>(f->slot_count()); }
EMSCRIPTEN_KEEPALIVE uint32_t cuckoo_levels(const CuckooFilter* f) { return f->levels(); }
EMSCRIPTEN_KEEPALIVE int cuckoo_is_full(const CuckooFilter* f) { return f->is_full(); }
EMSCRIPTEN_KEEPALIVE double cuckoo_load_factor(const CuckooFilter* f) { return f->load_factor(); }
EMSCRIPTEN_KEEPALIVE double cuckoo_bits_per_item(const CuckooFilter* f) { return f->bits_per_item(); }
// The bound of the filter as it is (its levels so far), not of the configuration.
EMSCRIPTEN_KEEPALIVE double cuckoo_fpr_bound(const CuckooFilter* f) { return f->false_positive_bound(); }
EMSCRIPTEN_KEEPALIVE size_t cuckoo_serialized_size(const CuckooFilter* f) { return f->serialized_size(); }
EMSCRIPTEN_KEEPALIVE void cuckoo_serialize_into(const CuckooFilter* f, uint8_t* out) { f->serialize_to(out); }
EMSCRIPTEN_KEEPALIVE void cuckoo_clear(CuckooFilter* f) { f->clear(); }

// target.merge(source): 1, or 0 with the error recorded and the target unchanged.
EMSCRIPTEN_KEEPALIVE int cuckoo_merge(CuckooFilter* target, const CuckooFilter* source) {
  return cuckoo_wasm::merge_into(*target, *source);
}

EMSCRIPTEN_KEEPALIVE int cuckoo_last_error_kind() { return cuckoo_wasm::last_error_kind(); }
EMSCRIPTEN_KEEPALIVE const char* cuckoo_last_error_message() {
  return reinterpret_cast<const char*>(cuckoo_wasm::last_error_message());
}

}  // extern "C"
