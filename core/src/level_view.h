// core/src/level_view.h: a growing filter's level as plain data, for lookups that visit every level.
//
// A lookup of a growing filter probes up to 32 levels. Through each level's CuckooCore that is a virtual
// call per level and a probe compiled for a run-time width, and the calls keep the levels' probes from
// overlapping. A LevelView holds what a probe reads (the table's bytes, its shape, the victim) so that
// GrowingCore probes all levels in one inlined loop.
//
// It reads the packed table's layout (packed_table.h: entry j of bucket i is the f-bit field at bit
// (i * b + j) * f) a whole bucket per 64-bit load where one fits, else two entries per load, which holds
// for f <= 28, where two fields and the load's sub-byte shift fit in 64 bits. Buckets that are whole bytes
// are loaded by their byte address, without a shift. On x86-64 a probe tests a key's two buckets at once,
// in the two lanes of an SSE2 register. A growing filter with a wider level or with semi-sorted levels is
// probed through its levels' CuckooCores instead (has_flat_layout() says which).
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
  // One load covers the bucket when its fields and the sub-byte shift fit 64 bits. Buckets start at
  // multiples of b * f bits, so the shifts are the multiples of gcd(b * f, 8) below 8 (none when buckets
  // are whole bytes): b * f = 60 (f = 15 at b = 4) shifts by 0 or 4, and fits.
  const unsigned bucket_bits = c.bucket_size * f;
  const unsigned max_shift = bucket_bits % 8 == 0 ? 0 : 8 - (bucket_bits & (0u - bucket_bits));
  const bool one_load = bucket_bits + max_shift <= 64;
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
// the most loads a bucket of the filter's bucket size takes; kExact promises v.loads == kMaxLoads, which
// a caller that has one level in hand can know (a level takes 1 or b / 2 loads) and the loop then has
// no exit test.
template <unsigned kMaxLoads, bool kExact = false>
CUCKOO_INLINE uint64_t match_bucket(const LevelView& v, uint64_t first, uint64_t pattern) {
  uint64_t marks = 0;
  for (unsigned j = 0; j < kMaxLoads; ++j) {
    if (!kExact && j == v.loads) break;
    const uint64_t pos = first + j * v.group_bits;
    const uint64_t word = (load_u64(v.table + (pos >> 3)) >> (pos & 7)) ^ pattern;
    marks |= zero_field_marks(word, v.lo);
  }
  return marks & v.hi;
}

// Nonzero iff bucket a or bucket b (their first bits) holds fp (pattern = fp * v.lo). On x86-64 both
// buckets are tested at once, each in a 64-bit lane of an SSE2 register, as the fixed filter's probe
// does (PackedTable::match_either): half the arithmetic, and fewer general registers per lookup in flight.
template <unsigned kMaxLoads, bool kExact = false>
CUCKOO_INLINE uint64_t match_either(const LevelView& v, uint64_t a, uint64_t b, uint64_t pattern) {
#if CUCKOO_HAVE_SSE2
  auto word = [&](uint64_t pos) { return static_cast<long long>(load_u64(v.table + (pos >> 3)) >> (pos & 7)); };
  const __m128i patterns = _mm_set1_epi64x(static_cast<long long>(pattern));
  const __m128i lo = _mm_set1_epi64x(static_cast<long long>(v.lo));
  __m128i marks = _mm_setzero_si128();
  for (unsigned j = 0; j < kMaxLoads; ++j) {
    if (!kExact && j == v.loads) break;
    const uint64_t offset = j * v.group_bits;
    const __m128i x = _mm_xor_si128(_mm_set_epi64x(word(b + offset), word(a + offset)), patterns);
    marks = _mm_or_si128(marks, _mm_andnot_si128(x, _mm_sub_epi64(x, lo)));
  }
  marks = _mm_and_si128(marks, _mm_set1_epi64x(static_cast<long long>(v.hi)));
  return static_cast<uint64_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(marks, _mm_setzero_si128())) ^ 0xFFFF);
#else
  return match_bucket<kMaxLoads, kExact>(v, a, pattern) | match_bucket<kMaxLoads, kExact>(v, b, pattern);
#endif
}

// Whether the level's buckets are whole bytes and one load each: then probes load them by their byte
// addresses, with no shift (match_either_bytes).
CUCKOO_INLINE bool has_whole_byte_buckets(const LevelView& v) { return v.loads == 1 && v.bucket_bits % 8 == 0; }

// match_either for a level with has_whole_byte_buckets().
CUCKOO_INLINE uint64_t match_either_bytes(const LevelView& v, uint64_t a, uint64_t b, uint64_t pattern) {
  const uint64_t bucket_bytes = v.bucket_bits / 8;
  const uint8_t* first_a = v.table + a * bucket_bytes;
  const uint8_t* first_b = v.table + b * bucket_bytes;
#if CUCKOO_HAVE_SSE2
  const __m128i x = _mm_xor_si128(load_2x64(first_a, first_b), _mm_set1_epi64x(static_cast<long long>(pattern)));
  return any_zero_field_2x64(x, v.lo, v.hi);
#else
  return (zero_field_marks(load_u64(first_a) ^ pattern, v.lo) | zero_field_marks(load_u64(first_b) ^ pattern, v.lo)) &
         v.hi;
#endif
}

// Whether the level holds the key, in its table or as its victim. kWholeBytes promises
// has_whole_byte_buckets(v).
template <unsigned kMaxLoads, bool kExact = false, bool kWholeBytes = false>
CUCKOO_INLINE bool probe_level(const LevelView& v, const LevelProbe& p) {
  const uint64_t pattern = uint64_t{p.fingerprint} * opaque(v.lo);
  const uint64_t found = kWholeBytes ? match_either_bytes(v, p.index, p.alt, pattern)
                                     : match_either<kMaxLoads, kExact>(v, p.index * v.bucket_bits,
                                                                       p.alt * v.bucket_bits, pattern);
  bool hit = found != 0;
  const Victim& victim = *v.victim;
  if (__builtin_expect(p.fingerprint == victim.fingerprint, false))
    hit |= victim.used & ((victim.index == p.index) | (victim.index == p.alt));
  return hit;
}

// A key's probe in any level, from its probe in a finer one: by the nesting lemma (docs/growth.md) a
// coarser level's buckets are the finer level's shifted right by the levels between them, and its
// fingerprint the finer one's shifted right by the extra bits between them. Batched lookups keep each
// key as its probe in the newest level and derive the others with three shifts instead of level_probe's
// product.
CUCKOO_INLINE LevelProbe coarsen_probe(const LevelProbe& finer, unsigned levels_between, unsigned bits_between) {
  return {finer.index >> levels_between, finer.alt >> levels_between, finer.fingerprint >> bits_between};
}

// The first and the last byte match_bucket loads for the bucket starting at bit `first`. kLoads, when
// not 0, is the level's v.loads, known to the caller.
template <unsigned kLoads = 0>
CUCKOO_INLINE ByteSpan bucket_span(const LevelView& v, uint64_t first) {
  const uint64_t last_load = (kLoads ? kLoads - 1 : v.loads - 1) * v.group_bits;
  return {v.table + (first >> 3), v.table + ((first + last_load) >> 3) + 7};
}

// Prefetches the cache lines of the probe's two buckets in the level.
template <unsigned kLoads = 0>
CUCKOO_INLINE void prefetch_probe(const LevelView& v, const LevelProbe& p) {
  prefetch(bucket_span<kLoads>(v, p.index * v.bucket_bits));
  prefetch(bucket_span<kLoads>(v, p.alt * v.bucket_bits));
}

}  // namespace cuckoo::internal
