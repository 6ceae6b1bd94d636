// core/src/level_hasher.h: THE key -> (bucket, fingerprint) spec of a growing filter's levels. Frozen like
// hash.h, which it extends; docs/growth.md states it with the proof of why erase stays safe.
//
// A growing filter is a stack of levels. Level 0 is an ordinary filter of n0 buckets and f0-bit
// fingerprints, hashed exactly as hash.h says. Level s has n_s = n0 * 2^s buckets and f_s = f0 + d_s bit
// fingerprints, both derived from the same 64-bit key hash h:
//
//   index_s      = (uint64(h mod 2^32) * n_s) >> 32                     (so index_s >> s == index_0)
//   P            = (h >> 32) * (2^f0 - 1)                                (64-bit product)
//   fp0          = 1 + (P >> 32)                                         (level 0's fingerprint)
//   fp_s         = (fp0 << d_s) | ((P mod 2^32) >> (32 - d_s))           (so fp_s >> d_s == fp0)
//   alt_s(i, fp) = (alt_0(i >> s, fp0) << s) | ((i mod 2^s) XOR (C(fp0) >> (32 - s))),
//                  C(fp0) = (fp0 * 0xC2B2AE3D27D4EB4F) >> 32, alt_0 as in hash.h with n0 buckets
//
// Why this shape: every level's view of a key (its bucket pair and fingerprint) is a function of its view
// in any newer level. Index: fastrange(x, n0 * 2^s) >> 1 == fastrange(x, n0 * 2^(s-1)). Fingerprint: the
// extra bits are the next bits of the fast-range product whose top bits are fp0, and the schedule d_s is
// non-decreasing. Alternate bucket: alt_s(i, fp_s) >> 1 == alt_{s-1}(i >> 1, fp_{s-1}), because its high
// part is level 0's alternate and its low bits flip by a prefix of one fixed word. alt_s is an involution
// with no fixed point (its high part is alt_0, which has none). Erase walks the levels newest first; with
// the coarsening above, an erase never takes the last entry of another live key (docs/growth.md).
//
// The fingerprint schedule d_s = ceil(log2(s + 1)) (0, 1, 2, 2, 3, 3, 3, 3, 4, ...) spends few bits per
// level; a filter has at most 32 levels (n_s <= 2^32), over which sum 2^-d_s = 3.5 exactly, so a full
// level s adds at most 2b / ((2^f0 - 1) 2^d_s) to the false-positive rate, and all levels together at
// most 3.5 * 2b / (2^f0 - 1): resolve() picks f0 so that this is within the requested rate.
#pragma once

#include <cstdint>

#include "cuckoo/options.h"
#include "hash.h"

namespace cuckoo::internal {

// Levels a growing filter can ever have: n0 * 2^s must stay within the 32-bit index reduction.
inline constexpr unsigned kMaxLevels = 32;

// Fingerprint bits level s adds to f0: ceil(log2(s + 1)).
constexpr unsigned level_extra_bits(unsigned level) {
  unsigned bits = 0;
  while ((uint64_t{1} << bits) < uint64_t{level} + 1) ++bits;
  return bits;
}

// The levels a growable filter's fingerprints must leave room for, and so the widest f0: level s's
// fingerprint, f0 + level_extra_bits(s), is at most 32 bits. A wider f0 would stop growth at 8 levels or
// fewer (128x), a trap for a filter whose point is never to fill up.
inline constexpr unsigned kMinLevelLimit = 16;
inline constexpr unsigned kMaxGrowableFingerprintBits = kMaxFingerprintBits - level_extra_bits(kMinLevelLimit - 1);

// sum over s < kMaxLevels of 2^-level_extra_bits(s): the factor by which a growing filter's false-positive
// bound exceeds one full level 0's.
inline constexpr double kLevelBoundFactor = 3.5;

// Level `level`'s own table shape, from the growing filter's Config (which describes level 0).
inline Config level_config(const Config& growing, unsigned level) {
  Config c = growing;
  c.growable = false;
  c.max_memory_bytes = 0;
  c.bucket_count = growing.bucket_count << level;
  c.fingerprint_bits = growing.fingerprint_bits + level_extra_bits(level);
  return c;
}

// How many levels a growing filter with this Config can have: n0 * 2^s buckets and f0 + d_s bits must stay
// within the limits of options.h.
inline unsigned level_limit(const Config& growing) {
  unsigned levels = 1;
  while (levels < kMaxLevels && (growing.bucket_count << levels) <= kMaxBucketCount &&
         growing.fingerprint_bits + level_extra_bits(levels) <= kMaxFingerprintBits)
    ++levels;
  return levels;
}

// The false-positive bound of a growing filter's levels 0..levels-1 when all are full (options.cpp).
double level_false_positive_bound(const Config& growing, unsigned levels);

// A key's view in level 0, packed so that each level's probe is a few instructions (level_probe), computed
// once per lookup of a growing filter (make_level_key). Its two words put level 0's value in the high half
// and the bits that finer levels append to it in the low half, so that one shift gives a level's value:
//   fingerprints = fp0 << 32 | (P mod 2^32)             fp_s  = fingerprints >> (32 - d_s)
//   alternates   = (i_0 XOR alt_0) << 32 | C(fp0)       alt_s = index_s XOR (alternates >> (32 - s))
// The second is alt_s's definition rewritten with index_s = i_0 << s | (index_s mod 2^s); both hold for
// s = d_s = 0, where the shift by 32 leaves level 0's own fingerprint and alternate bucket.
struct LevelKey {
  uint64_t low = 0;  // h mod 2^32
  uint64_t fingerprints = 0;
  uint64_t alternates = 0;
};

// A key's two buckets and fingerprint in one table.
struct LevelProbe {
  uint64_t index, alt;
  uint32_t fingerprint;
};

inline uint64_t level_flip(uint64_t fingerprint) { return (fingerprint * 0xC2B2AE3D27D4EB4Full) >> 32; }

inline LevelKey make_level_key(uint64_t h, const BucketHasher& level0, unsigned base_fingerprint_bits) {
  const uint64_t index0 = level0.index(h);
  const uint32_t fp0 = level0.fingerprint(h);
  const uint64_t fraction = ((h >> 32) * ((uint64_t{1} << base_fingerprint_bits) - 1)) & 0xFFFFFFFFu;
  LevelKey k;
  k.low = h & 0xFFFFFFFFu;
  k.fingerprints = (uint64_t{fp0} << 32) | fraction;
  k.alternates = ((index0 ^ level0.alt_index(index0, fp0)) << 32) | level_flip(fp0);
  return k;
}

// Level `level`'s probe of a key (n_s = bucket_count buckets, d_s = extra_bits), from its level-0 view:
// what LevelHasher(...).index, fingerprint and alt_index give.
CUCKOO_INLINE LevelProbe level_probe(const LevelKey& k, uint64_t bucket_count, unsigned level,
                                     unsigned extra_bits) {
  const uint64_t index = (k.low * bucket_count) >> 32;
  const auto fp = static_cast<uint32_t>(k.fingerprints >> (32 - extra_bits));
#ifdef CUCKOO_MUTANT_NO_COARSENING
  const uint64_t alt = index ^ ((k.alternates >> 32) << level) ^ (level_flip(fp) >> (32 - level));
#else
  const uint64_t alt = index ^ (k.alternates >> (32 - level));
#endif
  return {index, alt, fp};
}

class LevelHasher {
 public:
  LevelHasher() = default;
  LevelHasher(uint64_t base_bucket_count, unsigned base_fingerprint_bits, unsigned level)
      : base_(base_bucket_count, base_fingerprint_bits),
        bucket_count_(base_bucket_count << level),
        fp0_range_((uint64_t{1} << base_fingerprint_bits) - 1),
        level_(level),
        extra_bits_(level_extra_bits(level)) {}

  uint64_t index(uint64_t h) const { return hash_index(h, bucket_count_); }

  uint32_t fingerprint(uint64_t h) const {
    const uint64_t product = (h >> 32) * fp0_range_;
    const uint64_t fp0 = 1 + (product >> 32);
    const uint64_t extra = (product & 0xFFFFFFFFu) >> (32 - extra_bits_);  // a shift by 32 of a uint64_t: 0
    return static_cast<uint32_t>((fp0 << extra_bits_) | extra);
  }

  uint64_t alt_index(uint64_t index, uint32_t fp) const {
    const uint32_t fp0 = fp >> extra_bits_;
    const uint64_t high = base_.alt_index(index >> level_, fp0);
#ifdef CUCKOO_MUTANT_NO_COARSENING
    // Mutation hook (native-tests/mutation.sh): the low bits flip by a hash of the whole level fingerprint,
    // so each level is still a valid filter (an involution without a fixed point) but no longer nests.
    const uint64_t flip = level_flip(fp) >> (32 - level_);
#else
    const uint64_t flip = level_flip(fp0) >> (32 - level_);
#endif
    const uint64_t low = index & ((uint64_t{1} << level_) - 1);
    return (high << level_) | (low ^ flip);
  }

  uint64_t bucket_count() const { return bucket_count_; }

 private:
  BucketHasher base_;
  uint64_t bucket_count_ = 2;
  uint64_t fp0_range_ = 15;
  unsigned level_ = 0;
  unsigned extra_bits_ = 0;
};

}  // namespace cuckoo::internal
