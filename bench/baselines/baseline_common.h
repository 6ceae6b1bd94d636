// bench/baselines/baseline_common.h: the few helpers every baseline filter shares.
//
// - range(): maps a 64-bit hash to [0, n) by a multiply-high ("fast range"), exact for any n < 2^64, so
//   192 MB tables (1.6e9 bits) and larger need no modulo and no 32-bit overflow care.
// - Table memory comes from the core's AlignedBuffer (zeroed, 64-byte aligned, madvise(MADV_HUGEPAGE)
//   for tables >= 2 MiB), so every filter in the evaluation gets the same allocation policy as the CF.
// - contains_many_prefetched(): the CF's batch lookup hashes a window of keys and prefetches their
//   buckets before probing; the baselines get the same treatment so Figure 5 compares structures, not
//   batching tricks.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

// filter_api.h includes <xxhash.h>; XXH_INLINE_ALL makes XXH3 inline into the hot path (and needs no
// libxxhash at link time). Harmless if the build already defines it.
#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include "filter_api.h"

#include "aligned_buffer.h"  // core/src, through the cuckoo_internal target

namespace bench::baselines {

using cuckoo::internal::AlignedBuffer;

// Uniform in [0, n) when h is uniform in [0, 2^64): floor(h * n / 2^64).
inline uint64_t range(uint64_t h, uint64_t n) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(h) * n) >> 64);
}

inline uint64_t rotl64(uint64_t x, unsigned r) { return (x << r) | (x >> ((64 - r) & 63)); }

inline void prefetch_read(const void* p) { __builtin_prefetch(p, 0, 3); }

// The Bloom filter's optimal number of hash functions for `bits` bits and `capacity` items:
// k = round(ln 2 * m / n), at least 1.
inline unsigned optimal_k(uint64_t bits, size_t capacity) {
  if (capacity == 0) return 1;
  const double k = std::round(std::log(2.0) * static_cast<double>(bits) / static_cast<double>(capacity));
  return k < 1 ? 1u : static_cast<unsigned>(k);
}

// F provides: uint64_t seed() const; void prefetch_hash(uint64_t h) const; bool contains_hash(uint64_t h) const.
// Hashes kWindow keys ahead of the probe so their cache misses overlap. A core tracks only ~10-12
// outstanding misses, so filters touching several lines per key use a smaller window.
template <size_t kWindow = 16, class F>
void contains_many_prefetched(const F& f, const uint64_t* keys, size_t n, uint8_t* out) {
  uint64_t hashes[kWindow];
  size_t i = 0;
  for (; i + kWindow <= n; i += kWindow) {
    for (size_t j = 0; j < kWindow; ++j) {
      hashes[j] = bench::hash_key(keys[i + j], f.seed());
      f.prefetch_hash(hashes[j]);
    }
    for (size_t j = 0; j < kWindow; ++j) out[i + j] = f.contains_hash(hashes[j]) ? 1 : 0;
  }
  for (; i < n; ++i) out[i] = f.contains_hash(bench::hash_key(keys[i], f.seed())) ? 1 : 0;
}

}  // namespace bench::baselines
