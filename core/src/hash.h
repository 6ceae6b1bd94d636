// core/src/hash.h: THE key -> (bucket index, fingerprint) spec. Frozen: the serialized format, the WASM
// build and every stored filter depend on it. docs/hashing.md restates it with test vectors.
//
//   h        = XXH3_64bits_withSeed(key bytes, seed)           (a uint64_t key: its 8 little-endian bytes)
//   index    = (uint64(h mod 2^32) * bucket_count) >> 32         ("fast range": uniform in [0, bucket_count))
//   fp       = 1 + (((h >> 32) * (2^f - 1)) >> 32)               (uniform in [1, 2^f - 1]; 0 marks empty)
//   alt(i,fp)= (t - i) mod bucket_count, where
//              t = ((uint64(mix(fp)) * bucket_count) >> 32) | 1,  mix(fp) = (fp * 0x9E3779B97F4A7C15) >> 32
//
// index, fp and alt are written once, in cuckoo/internal/inline_table.h (hash_index, hash_fingerprint,
// alternate_target, alternate_bucket), as is h of a uint64_t key (xxh3_u64): the library and the inline
// lookups compiled into callers share them.
//
// Why this shape:
// - Index and fingerprint come from disjoint halves of h, so they are independent.
// - The table size is not a power of two (the paper's XOR needs one and wastes up to 2x memory). Instead
//   alt() is a reflection: alt(alt(i, fp), fp) = t - (t - i) = i, so it is its own inverse and needs only
//   the bucket index and the fingerprint, as partial-key cuckoo hashing requires.
// - bucket_count is even and t is odd, so t - i = i (mod bucket_count) has no solution: alt never maps a
//   bucket to itself, and every item has two distinct buckets.
// - alt depends on a hash of fp, not fp itself: with raw fp, kicked items could only move within 2^f
//   buckets of each other (paper section 3.1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "bits.h"
#include "cuckoo/internal/inline_table.h"

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include "xxhash.h"

namespace cuckoo::internal {

// Keys over XXH3_MIDSIZE_MAX (240) bytes take XXH3's long-input path (stripe loops over the secret).
// It stays out of line: CUCKOO_FLATTEN would otherwise copy it into every specialised insert and lookup
// loop, which made up much of the WASM binary, for keys that are rare and costly to hash anyway.
CUCKOO_NOINLINE inline uint64_t hash_long_bytes(const void* data, size_t size, uint64_t seed) {
  return XXH3_64bits_withSeed(data, size, seed);
}

// The browser's module (CUCKOO_COMPACT_SHAPES=2) keeps one copy of XXH3's short-input code instead of one
// inlined into every caller: its download size counts more than the call.
#if defined(CUCKOO_COMPACT_SHAPES) && CUCKOO_COMPACT_SHAPES >= 2
#define CUCKOO_HASH_INLINE CUCKOO_NOINLINE inline
#else
#define CUCKOO_HASH_INLINE inline
#endif

CUCKOO_HASH_INLINE uint64_t hash_bytes(const void* data, size_t size, uint64_t seed) {
  if (size > XXH3_MIDSIZE_MAX) return hash_long_bytes(data, size, seed);
  return XXH3_64bits_withSeed(data, size, seed);
}

inline uint64_t hash_u64(uint64_t key, uint64_t seed) {
  unsigned char bytes[8];  // the key's little-endian bytes (bits.h guarantees a little-endian host)
  std::memcpy(bytes, &key, sizeof bytes);
  return hash_bytes(bytes, sizeof bytes, seed);
}

// hash_u64 with the seed's share of the work done once per filter instead of once per key.
//
// For 8-byte inputs XXH3 (xxhash.h, XXH3_len_4to8_64b) computes rrmxmx(input64 ^ bitflip, 8), where
// input64 is the key's two 32-bit halves swapped and bitflip depends only on the seed and XXH3's secret.
// bitflip, and its share of rrmxmx's first step (xxh3_premix), are computed here once per filter; xxh3_u64
// (cuckoo/internal/inline_table.h, shared with the inline lookups of cuckoo/filter.h) does the rest. The
// result is XXH3_64bits_withSeed's, bit for bit: native-tests/hash_test.cpp checks it on random keys and
// seeds.
class SeededU64Hash {
 public:
  explicit SeededU64Hash(uint64_t seed = 0) {
    const uint64_t mixed_seed = seed ^ (uint64_t{XXH_swap32(static_cast<uint32_t>(seed))} << 32);
    premix_ = xxh3_premix((XXH_readLE64(XXH3_kSecret + 8) ^ XXH_readLE64(XXH3_kSecret + 16)) - mixed_seed);
  }
  uint64_t operator()(uint64_t key) const { return xxh3_u64(key, premix_); }
  uint64_t premix() const { return premix_; }

 private:
  uint64_t premix_ = 0;
};

// Named invariant: bucket counts the index map supports (even, so alt() has no fixed point).
constexpr bool is_valid_bucket_count(uint64_t n) {
  return n >= 2 && n % 2 == 0 && n <= (uint64_t{1} << 32);
}

// Maps key hashes to buckets and fingerprints for one table shape. Cheap to copy.
class BucketHasher {
 public:
  BucketHasher() = default;
  BucketHasher(uint64_t bucket_count, unsigned fingerprint_bits)
      : bucket_count_(bucket_count), fp_range_((uint64_t{1} << fingerprint_bits) - 1) {}

  // hash_index, hash_fingerprint, alternate_target and alternate_bucket: cuckoo/internal/inline_table.h,
  // shared with the inline lookups.
  uint64_t index(uint64_t h) const { return hash_index(h, bucket_count_); }
  uint32_t fingerprint(uint64_t h) const { return static_cast<uint32_t>(hash_fingerprint(h, fp_range_)); }
  uint64_t alt_index(uint64_t index, uint32_t fp) const {
    return alternate_bucket(alternate_target(fp, bucket_count_), index, bucket_count_);
  }

  uint64_t bucket_count() const { return bucket_count_; }

 private:
  uint64_t bucket_count_ = 2;
  uint64_t fp_range_ = 15;
};

}  // namespace cuckoo::internal
