// bench/filter_api.h: the one adapter every filter in the evaluation goes through.
//
// The drivers (paper/lifecycle.cpp, micro_bench.cpp) are templates over a filter type F; nothing is virtual on the
// per-key path, so a baseline is timed exactly as fast as it runs. A filter type F provides:
//
//   static constexpr const char* kName;             // short name for tables, CSV and plots ("CF", "BF", ...)
//   static constexpr bool kCanErase;                 // supports erase (Figure 8 runs only for these)
//   static F for_memory(size_t table_bytes, uint64_t seed);  // the paper's "same memory" construction
//   bool insert(uint64_t key);                       // false: full / first failure (nothing inserted before lost)
//   bool contains(uint64_t key) const;
//   bool erase(uint64_t key);                        // only called when kCanErase
//   void contains_many(const uint64_t* keys, size_t n, uint8_t* out) const;  // may just loop; CF prefetches
//   size_t design_capacity() const;                  // items to insert for Table 3 (Bloom-like filters)
//   bool fills_to_failure() const;                   // CF, ss-CF, dl-CBF: insert until the first failure
//   size_t memory_bytes() const;                     // the table's bytes (what bits/item divides)
//
// Every filter hashes the 64-bit key with the same call, bench::hash_key (XXH3-64 of the key's 8
// little-endian bytes, the core's own hash for integer keys), inside insert/contains, so hashing is timed in.
#pragma once

#include <cstddef>
#include <cstdint>

// Header-only XXH3 (as core/src/hash.h does), so a user of this header needs no libxxhash to link.
#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <xxhash.h>

namespace bench {

inline uint64_t hash_key(uint64_t key, uint64_t seed) { return XXH3_64bits_withSeed(&key, sizeof key, seed); }

}  // namespace bench
