// wasm/bindings.cpp: embind registrations only (the class, its options and the cold calls).
//
// Names start with `_`: they are the raw surface that js/cuckoo_filter.js wraps into the public API
// (Manifold's convention). Per-key and batch calls do not come through here: embind's std::string
// marshalling costs ~3x the hash itself, so they are plain exports in hot_path.cpp.
#include <emscripten/bind.h>

#include "cuckoo/cuckoo.h"
#include "factory.h"

using cuckoo::Config;
using cuckoo::CuckooFilter;
using cuckoo_wasm::JsOptions;
using namespace emscripten;

EMSCRIPTEN_BINDINGS(cuckoo) {
  // 64-bit fields (capacity, seed, bucket_count, max_memory_bytes) cross as BigInt (-sWASM_BIGINT).
  value_object<JsOptions>("_Options")
      .field("capacity", &JsOptions::capacity)
      .field("fpr", &JsOptions::fpr)
      .field("fingerprintBits", &JsOptions::fingerprint_bits)
      .field("bucketSize", &JsOptions::bucket_size)
      .field("maxKicks", &JsOptions::max_kicks)
      .field("seed", &JsOptions::seed)
      .field("semiSort", &JsOptions::semi_sort)
      .field("targetLoad", &JsOptions::target_load)
      .field("bucketCount", &JsOptions::bucket_count)
      .field("hugePages", &JsOptions::huge_pages)
      .field("growable", &JsOptions::growable)
      .field("maxMemoryBytes", &JsOptions::max_memory_bytes);

  value_object<Config>("_Config")
      .field("bucketSize", &Config::bucket_size)
      .field("fingerprintBits", &Config::fingerprint_bits)
      .field("semiSort", &Config::semi_sort)
      .field("maxKicks", &Config::max_kicks)
      .field("seed", &Config::seed)
      .field("bucketCount", &Config::bucket_count)
      .field("hugePages", &Config::huge_pages)
      .field("growable", &Config::growable)
      .field("maxMemoryBytes", &Config::max_memory_bytes);

  class_<CuckooFilter>("_CuckooFilter")
      .class_function("_create", &cuckoo_wasm::create_filter, allow_raw_pointers())
      .class_function("_deserialize", &cuckoo_wasm::deserialize_filter, allow_raw_pointers())
      .function("_address", &cuckoo_wasm::address_of)
      .function("_config", &cuckoo_wasm::config_of)
      .function("_fprBound", &CuckooFilter::false_positive_bound)
      .function("_levels", &CuckooFilter::levels)
      .function("_size", &CuckooFilter::size)
      .function("_bucketCount", &CuckooFilter::bucket_count)
      .function("_slotCount", &CuckooFilter::slot_count)
      .function("_isFull", &CuckooFilter::is_full)
      .function("_loadFactor", &CuckooFilter::load_factor)
      .function("_bitsPerItem", &CuckooFilter::bits_per_item)
      .function("_memoryBytes", &CuckooFilter::memory_bytes)
      .function("_serializedSize", &CuckooFilter::serialized_size)
      .function("_serializeInto", &cuckoo_wasm::serialize_into)
      .function("_clear", &CuckooFilter::clear)
      .function("_merge", &cuckoo_wasm::merge_into);

  function("_lastErrorKind", &cuckoo_wasm::last_error_kind);
  function("_lastErrorMessage", &cuckoo_wasm::last_error_message);
}
