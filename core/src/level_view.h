// core/src/level_view.h: a growing filter's level as plain data, for lookups that visit every level.
//
// A lookup of a growing filter probes up to 32 levels. Through each level's CuckooCore that is a virtual
// call per level and a probe compiled for a run-time width, and the calls keep the levels' probes from
// overlapping. A LevelView holds what a probe reads (the table's bytes, its shape, the victim) so that
// GrowingCore probes all levels in one inlined loop.
//
// It reads the packed table's layout (packed_table.h: entry j of bucket i is the f-bit field at bit
// (i * b + j) * f) a whole bucket per 64-bit load where one fits, else two entries per load, which holds
// for f <= 28, where two fields and the load's sub-byte shift fit in 64 bits. A growing filter with a wider
// level or with semi-sorted levels is probed through its levels' CuckooCores instead (has_flat_layout()
// says which).
#pragma once

#include <cstdint>

#include "bits.h"
#include "filter_core.h"
#include "level_hasher.h"

namespace cuckoo::internal {

struct LevelView {
  const uint8_t* table = nullptr;
  uint64_t bucket_count = 0;
  uint64_t bucket_bits = 0;  // b * f: a bucket's first bit is index * bucket_bits
  uint64_t group_bits = 0;   // the bits from one load's first entry to the next load's
  uint64_t lo = 0, hi = 0;   // bit 0 and the top bit of each f-bit field one load covers
  const Victim* victim = nullptr;
  unsigned level = 0;
  unsigned extra_bits = 0;  // level_extra_bits(level)
  unsigned loads = 0;       // per bucket: 1 if the whole bucket fits one load, else b / 2
};

// Whether a level's table can be probed through a LevelView.
inline bool has_flat_layout(const Config& level) {
  return !level.semi_sort && level.bucket_size % 2 == 0 && level.fingerprint_bits <= 28;
}

inline LevelView make_level_view(const FilterCore& core, unsigned level) {
  const Config& c = core.config();
  const unsigned f = c.fingerprint_bits;
  // One load covers the bucket when its fields and the sub-byte shift fit 64 bits, or when the bucket is
  // exactly 64 bits (f = 16 at b = 4): then every bucket starts on a byte and there is no shift.
  const bool one_load = c.bucket_size * f <= 57 || c.bucket_size * f == 64;
  const unsigned fields = one_load ? c.bucket_size : 2;
  LevelView v;
  v.table = core.table_data();
  v.bucket_count = c.bucket_count;
  v.bucket_bits = uint64_t{c.bucket_size} * f;
  v.group_bits = uint64_t{fields} * f;
  for (unsigned k = 0; k < fields; ++k) v.lo |= uint64_t{1} << (k * f);
  v.hi = v.lo << (f - 1);
  v.victim = &core.victim();
  v.level = level;
  v.extra_bits = level_extra_bits(level);
  v.loads = one_load ? 1 : c.bucket_size / 2;
  return v;
}

// Nonzero iff the bucket starting at bit `first` holds fp (pattern = fp * v.lo). kMaxLoads is b / 2,
// the most loads a bucket of the filter's bucket size takes.
template <unsigned kMaxLoads>
CUCKOO_INLINE uint64_t match_bucket(const LevelView& v, uint64_t first, uint64_t pattern) {
  uint64_t marks = 0;
  for (unsigned j = 0; j < kMaxLoads; ++j) {
    if (j == v.loads) break;
    const uint64_t pos = first + j * v.group_bits;
    const uint64_t word = (load_u64(v.table + (pos >> 3)) >> (pos & 7)) ^ pattern;
    marks |= zero_field_marks(word, v.lo);
  }
  return marks & v.hi;
}

// Whether the level holds the key, in its table or as its victim.
template <unsigned kMaxLoads>
CUCKOO_INLINE bool probe_level(const LevelView& v, const LevelProbe& p) {
  const uint64_t pattern = uint64_t{p.fingerprint} * opaque(v.lo);
  bool hit = (match_bucket<kMaxLoads>(v, p.index * v.bucket_bits, pattern) |
              match_bucket<kMaxLoads>(v, p.alt * v.bucket_bits, pattern)) != 0;
  const Victim& victim = *v.victim;
  if (__builtin_expect(p.fingerprint == victim.fingerprint, false))
    hit |= victim.used & ((victim.index == p.index) | (victim.index == p.alt));
  return hit;
}

template <unsigned kMaxLoads>
CUCKOO_INLINE bool probe_level(const LevelView& v, const LevelKey& key) {
  return probe_level<kMaxLoads>(v, level_probe(key, v.bucket_count, v.level, v.extra_bits));
}

// The first and the last byte match_bucket loads for the bucket starting at bit `first`.
CUCKOO_INLINE ByteSpan bucket_span(const LevelView& v, uint64_t first) {
  return {v.table + (first >> 3), v.table + ((first + (v.loads - 1) * v.group_bits) >> 3) + 7};
}

// Prefetches the cache lines of the key's two buckets in the level; returns the probe, for probe_level.
CUCKOO_INLINE LevelProbe prefetch_level(const LevelView& v, const LevelKey& key) {
  const LevelProbe p = level_probe(key, v.bucket_count, v.level, v.extra_bits);
  prefetch(bucket_span(v, p.index * v.bucket_bits));
  prefetch(bucket_span(v, p.alt * v.bucket_bits));
  return p;
}

}  // namespace cuckoo::internal
