// cuckoo/insert_result.h: what CuckooFilter::insert_if_absent did with a key (cuckoo/filter.h).
#pragma once

#include <cstdint>

namespace cuckoo {

enum class InsertResult : uint8_t {
  kInserted,  // stored: contains(key) was false
  kPresent,   // nothing changed: contains(key) was already true (the key, or a false positive)
  kRefused,   // nothing changed: refused as insert() refuses it (full filter, jammed buckets, ...)
};

}  // namespace cuckoo
