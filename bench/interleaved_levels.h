// bench/interleaved_levels.h: a measured design, not a library feature: a growing filter whose two newest
// levels share one table, so that a key's buckets in both levels sit side by side in memory.
//
// Why it could help: a present key is found after about two levels' probes (docs/growth.md, Costs), and
// each probe of a large level waits for its cache lines. By the nesting lemma, a key's buckets at the
// second newest level are its newest-level buckets shifted right by one, so block j below holds buckets
// 2j and 2j + 1 of the newest level and bucket j of the second newest:
//
//   block j = [newest 2j][newest 2j + 1][second j]      (bit-packed, blocks back to back)
//
// and both levels' probes of a key read the same one or two cache lines instead of four. A real filter
// would rebuild the block table at every growth (amortized O(1)); this one copies a finished growing
// filter's two newest levels into it once and answers lookups the way GrowingCore does (level_view.h),
// older levels through their own tables. growth_eval times it against the fixed filter
// (interleaved_rates()), beside the growing filter's own lookups.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <cuckoo/filter.h>

#include "aligned_buffer.h"
#include "core_access.h"
#include "growing_core.h"
#include "hash.h"
#include "level_view.h"

namespace bench {

class InterleavedNewestLevels {
  using LevelKey = cuckoo::internal::LevelKey;
  using LevelProbe = cuckoo::internal::LevelProbe;
  using LevelView = cuckoo::internal::LevelView;
  static constexpr unsigned kMaxLoads = 2;  // b = 4, as growth_eval's filters have
  static constexpr size_t kBlock = 256, kPrefetchDistance = 16;  // as GrowingCore's batches

 public:
  explicit InterleavedNewestLevels(const cuckoo::CuckooFilter& filter)
      : core_(static_cast<const cuckoo::internal::GrowingCore&>(cuckoo::internal::CoreAccess::core(filter))),
        hash_(core_.config().seed),
        level0_(core_.config().bucket_count, core_.config().fingerprint_bits) {
    const unsigned levels = core_.level_count();
    if (levels < 3 || core_.config().bucket_size != 4)
      throw std::invalid_argument("InterleavedNewestLevels: a growing filter of b = 4 with 3 levels or more");
    const cuckoo::internal::FilterCore& newest = core_.level(levels - 1);
    const cuckoo::internal::FilterCore& second = core_.level(levels - 2);
    const unsigned b = 4, fn = newest.config().fingerprint_bits, fs = second.config().fingerprint_bits;
    newest_bits_ = uint64_t{b} * fn;
    block_bits_ = 2 * newest_bits_ + uint64_t{b} * fs;
    const uint64_t blocks = second.config().bucket_count;
    // On huge pages where the kernel allows, as the library's tables (aligned_buffer.h); zero-filled.
    table_ = cuckoo::internal::AlignedBuffer((blocks * block_bits_ + 7) / 8 + cuckoo::internal::kTablePadding, true);
    for (uint64_t i = 0; i < 2 * blocks; ++i)
      for (unsigned e = 0; e < b; ++e)
        cuckoo::internal::write_bits(table_.data(), newest_first_bit(i) + e * fn, fn,
                                     cuckoo::internal::read_bits(newest.table_data(), (i * b + e) * fn, fn));
    for (uint64_t j = 0; j < blocks; ++j)
      for (unsigned e = 0; e < b; ++e)
        cuckoo::internal::write_bits(table_.data(), second_first_bit(j) + e * fs, fs,
                                     cuckoo::internal::read_bits(second.table_data(), (j * b + e) * fs, fs));
    newest_ = cuckoo::internal::make_level_view(newest, levels - 1);
    second_ = cuckoo::internal::make_level_view(second, levels - 2);
    newest_.table = second_.table = table_.data();
    for (unsigned s = levels - 2; s-- > 0;) older_.push_back(cuckoo::internal::make_level_view(core_.level(s), s));
  }

  // The newest two levels without a branch between them, then the older ones until one holds the key.
  bool contains(uint64_t key) const {
    const LevelKey k = level_key(hash_(key));
    bool hit = probe(0, probe_of(newest_, k)) | probe(1, probe_of(second_, k));
    for (size_t s = 0; !hit && s < older_.size(); ++s) hit = cuckoo::internal::probe_level<kMaxLoads>(older_[s], probe_of(older_[s], k));
    return hit;
  }

  // GrowingCore::contains_many's passes: level by level, each key's buckets prefetched ahead of its probe.
  void contains_many(const uint64_t* keys, size_t n, uint8_t* out) const {
    LevelKey pending[kBlock];
    uint32_t where[kBlock];
    for (size_t start = 0; start < n; start += kBlock) {
      size_t m = std::min(n - start, kBlock);
      for (size_t j = 0; j < m; ++j) {
        pending[j] = level_key(hash_(keys[start + j]));
        where[j] = static_cast<uint32_t>(start + j);
      }
      m = pass<0>(pending, where, m, out, 0);
      m = pass<1>(pending, where, m, out, 0);
      for (size_t s = 0; s < older_.size() && m > 0; ++s) m = pass<2>(pending, where, m, out, s);
    }
  }

 private:
  uint64_t newest_first_bit(uint64_t i) const { return (i >> 1) * block_bits_ + (i & 1) * newest_bits_; }
  uint64_t second_first_bit(uint64_t j) const { return j * block_bits_ + 2 * newest_bits_; }
  uint64_t first_bit(size_t which, uint64_t bucket) const {
    return which == 0 ? newest_first_bit(bucket) : second_first_bit(bucket);
  }
  LevelKey level_key(uint64_t hash) const {
    return cuckoo::internal::make_level_key(hash, level0_, core_.config().fingerprint_bits);
  }
  static LevelProbe probe_of(const LevelView& v, const LevelKey& k) {
    return cuckoo::internal::level_probe(k, v.bucket_count, v.level, v.extra_bits);
  }
  // probe_level (level_view.h) with the block table's bucket positions; which: 0 newest, 1 second.
  bool probe(size_t which, const LevelProbe& p) const {
    const LevelView& v = which == 0 ? newest_ : second_;
    const uint64_t pattern = uint64_t{p.fingerprint} * cuckoo::internal::opaque(v.lo);
    bool hit = (cuckoo::internal::match_bucket<kMaxLoads>(v, first_bit(which, p.index), pattern) |
                cuckoo::internal::match_bucket<kMaxLoads>(v, first_bit(which, p.alt), pattern)) != 0;
    const cuckoo::internal::Victim& victim = *v.victim;
    if (p.fingerprint == victim.fingerprint) hit |= victim.used & ((victim.index == p.index) | (victim.index == p.alt));
    return hit;
  }

  // One level's pass over the m pending keys (kWhich: 0 newest, 1 second, 2 older_[older]): answers
  // them, keeps those not found at the front, and returns how many.
  template <int kWhich>
  size_t pass(LevelKey* pending, uint32_t* where, size_t m, uint8_t* out, size_t older) const {
    constexpr size_t d = kPrefetchDistance;
    const LevelView& v = kWhich == 0 ? newest_ : kWhich == 1 ? second_ : older_[older];
    auto prefetch_key = [&](const LevelKey& key) {
      if constexpr (kWhich == 2) {
        const LevelProbe p = probe_of(v, key);
        cuckoo::internal::prefetch_probe(v, p);
        return p;
      } else {
        const LevelProbe p = probe_of(v, key);
        cuckoo::internal::prefetch(cuckoo::internal::bucket_span(v, first_bit(kWhich, p.index)));
        cuckoo::internal::prefetch(cuckoo::internal::bucket_span(v, first_bit(kWhich, p.alt)));
        return p;
      }
    };
    LevelProbe ahead[d];
    for (size_t j = 0; j < std::min(m, d); ++j) ahead[j] = prefetch_key(pending[j]);
    size_t left = 0;
    for (size_t j = 0; j < m; ++j) {
      const LevelProbe p = ahead[j % d];
      if (j + d < m) ahead[j % d] = prefetch_key(pending[j + d]);
      bool hit;
      if constexpr (kWhich == 2) {
        hit = cuckoo::internal::probe_level<kMaxLoads>(v, p);
      } else {
        hit = probe(kWhich, p);
      }
      out[where[j]] = hit;
      pending[left] = pending[j];
      where[left] = where[j];
      left += !hit;
    }
    return left;
  }

  const cuckoo::internal::GrowingCore& core_;
  cuckoo::internal::SeededU64Hash hash_;
  cuckoo::internal::BucketHasher level0_;
  uint64_t newest_bits_ = 0, block_bits_ = 0;
  cuckoo::internal::AlignedBuffer table_;
  LevelView newest_, second_;    // their table is table_
  std::vector<LevelView> older_;  // the other levels, newest first
};

}  // namespace bench
