// wasm/reader_probe.h: the read-only module's operations on a filter laid out as reader_table.h says:
// lookups, the tables' checks and their setup. reader_exports.cpp exports them to JS; the deserialize
// fuzzer (fuzz/deserialize_fuzzer.cpp) runs them natively against the core on every filter it accepts.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hash.h"
#include "reader_table.h"

namespace cuckoo_reader {

using cuckoo::internal::BucketHasher;
using cuckoo::internal::LevelHasher;

inline LevelKey level_key(const Filter& f, uint64_t h) {
  return cuckoo::internal::make_level_key(h, BucketHasher(f.base_buckets, f.base_bits), f.base_bits);
}

// Whether the key whose hash is h may be in the filter (CuckooFilter::contains).
inline bool contains_hash(const Filter& f, uint64_t h) {
  if (f.level_count == 1) {
    // One table (a fixed filter, or a growing one at its first level): hashing.md's formulas directly.
    const Level& l = f.levels[0];
    const BucketHasher hasher(l.bucket_count, l.bits);
    const uint64_t index = hasher.index(h);
    const uint32_t fp = hasher.fingerprint(h);
    const LevelProbe p{index, hasher.alt_index(index, fp), fp};
    const uint64_t found = f.semi_sort ? match_semi(f, l, p.index, fp) | match_semi(f, l, p.alt, fp)
                                       : match_plain(f, l, p.index, fp) | match_plain(f, l, p.alt, fp);
    return found != 0 || victim_matches(l, p);
  }
  const LevelKey k = level_key(f, h);
  for (uint32_t i = 0; i < f.level_count; ++i) {
    const Level& l = f.levels[i];
    const LevelProbe p = probe_of(l, k);
    const bool hit = f.semi_sort ? (match_semi(f, l, p.index, p.fingerprint) | match_semi(f, l, p.alt, p.fingerprint)) != 0
                                 : (match_plain(f, l, p.index, p.fingerprint) | match_plain(f, l, p.alt, p.fingerprint)) != 0;
    if (hit || victim_matches(l, p)) return true;
  }
  return false;
}

// How many stored fingerprints match the key whose hash is h (CuckooFilter::count).
inline uint32_t count_hash(const Filter& f, uint64_t h) {
  const LevelKey k = level_key(f, h);
  uint32_t n = 0;
  for (uint32_t i = 0; i < f.level_count; ++i) {
    const Level& l = f.levels[i];
    const LevelProbe p = probe_of(l, k);
    n += count_in_bucket(f, l, p.index, p.fingerprint) + count_in_bucket(f, l, p.alt, p.fingerprint) +
         (victim_matches(l, p) ? 1 : 0);
  }
  return n;
}

inline uint64_t hash_key(const Filter& f, const uint8_t* key, size_t n) {
  return cuckoo::internal::hash_bytes(key, n, f.seed);
}

// XXH3_64bits_withSeed of the key's 8 little-endian bytes, by the core's shortcut for them.
inline uint64_t hash_u64(const Filter& f, uint64_t key) { return f.u64_hash(key); }

// Fills in the integer keys' hashing and the levels' probe constants (and the semi-sort code table):
// once, before any other operation on f.
inline void prepare(Filter& f) {
  f.u64_hash = cuckoo::internal::SeededU64Hash(f.seed);
  if (f.semi_sort) build_semi_sort_codes();
  for (uint32_t i = 0; i < f.level_count; ++i) prepare_level(f, f.levels[i]);
}

// Scans level i's table as deserialize does after the header checks (docs/format.md, steps 11 and 12, and
// version 2's "a fingerprint that no key has in this level"), in that order of precedence. Returns the
// number of non-empty entries, or
//   -1  nonzero padding bits after the last bucket,
//   -2  an entry below 2^d_s in a level s >= 1,
//   -3 - k  bucket k holds an invalid semi-sort code (the first such bucket).
inline double scan(const Filter& f, uint32_t i) {
  const Level& l = f.levels[i];
  const uint32_t least = uint32_t{1} << l.extra_bits;
  bool too_small = false;
  uint64_t entries = 0;
  uint32_t e[8];
  for (uint64_t bucket = 0; bucket < l.bucket_count; ++bucket) {
    if (f.semi_sort &&
        read_bits(table_of(l), bucket * bucket_bits(f, l), cuckoo::internal::kSemiSortCodeBits) >= cuckoo::internal::kSemiSortCodes)
      return -3.0 - static_cast<double>(bucket);
    read_bucket(f, l, bucket, e);
    for (unsigned s = 0; s < f.bucket_size; ++s) {
      entries += e[s] != 0;
      too_small |= e[s] != 0 && e[s] < least;
    }
  }
  const uint64_t used_bits = uint64_t{l.bucket_count} * bucket_bits(f, l);
  if (!cuckoo::internal::spare_bits_are_zero(table_of(l), (used_bits + 7) / 8, used_bits)) return -1;
  if (too_small) return -2;
  return static_cast<double>(entries);
}

// Whether either bucket of level i's parked victim has an empty entry (docs/format.md, step 13).
inline bool victim_has_room(const Filter& f, uint32_t i) {
  const Level& l = f.levels[i];
  const LevelHasher hasher(f.base_buckets, f.base_bits, l.level);
  const uint64_t alt = hasher.alt_index(l.victim_index, l.victim_fp);
  return count_in_bucket(f, l, l.victim_index, 0) + count_in_bucket(f, l, alt, 0) != 0;
}

}  // namespace cuckoo_reader
