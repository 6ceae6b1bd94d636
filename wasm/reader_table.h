// wasm/reader_table.h: the read-only module's view of a serialized filter's tables (docs/format.md), read
// in place in the bytes JS copied into wasm memory: no second copy, no allocation.
//
// A table is the format's bit stream, and every read of it loads 8 bytes from the byte holding the field's
// first bit (bits.h). A table is always followed by at least 8 bytes of the same buffer (the next level's
// 32-byte header, or the 8-byte checksum), so a read never leaves the bytes JS validated.
//
// Key hashing is the core's own (hash.h, level_hasher.h): a fixed filter is a growing filter's level 0.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bits.h"
#include "hash.h"
#include "level_hasher.h"
#include "semi_sorted_table.h"  // kSemiSortCodes, kSemiSortCodeBits

namespace cuckoo_reader {

using cuckoo::internal::LevelKey;
using cuckoo::internal::LevelProbe;
using cuckoo::internal::low_mask;
using cuckoo::internal::read_bits;
using cuckoo::internal::zero_field_marks;

// An address in memory: 32 bits in the module, where JS writes it; a pointer's width in native builds
// (the fuzzer runs these operations natively).
#ifdef __wasm__
using Address = uint32_t;
#else
using Address = uintptr_t;
#endif

// One table as js/reader_filter.js lays it out in wasm memory (32-bit fields; a table in wasm memory has
// fewer than 2^32 buckets). The last four fields are filled in by prepare_level().
struct Level {
  Address table;          // address of the table's first byte
  uint32_t bucket_count;  // n_s
  uint32_t bits;          // f_s: fingerprint bits
  uint32_t extra_bits;    // d_s (0 for a fixed filter)
  uint32_t level;         // s (0 for a fixed filter)
  uint32_t victim_used;
  uint32_t victim_fp;
  uint32_t victim_index;
  // The probes' SWAR constants (prepare_level): a plain bucket is read as groups of `group` fields per
  // 64-bit load; lo has bit 0 of each field of a group set, hi its top bit.
  uint32_t group;
  uint32_t pad;
  uint64_t lo, hi;
};

// A filter: its shape, then its levels, newest first (a fixed filter has one). JS writes all but
// u64_hash, which reader_prepare() fills in.
struct Filter {
  uint64_t seed;
  uint32_t bucket_size;
  uint32_t semi_sort;
  uint32_t base_bits;     // f0
  uint32_t base_buckets;  // n0
  uint32_t level_count;
  uint32_t pad;
  cuckoo::internal::SeededU64Hash u64_hash;  // the seed's share of hashing an integer key, done once
  Level levels[1];                           // level_count of them
};
#ifdef __wasm__
static_assert(sizeof(cuckoo::internal::SeededU64Hash) == 8 && offsetof(Filter, levels) == 40 && sizeof(Level) == 56,
              "js/reader_filter.js writes this layout");
#endif

// code -> the four nibbles of the sorted tuple it numbers, n0 | n1 << 4 | n2 << 8 | n3 << 12, in the
// order of docs/format.md (what SemiSortCodec builds). Filled in on first use by a semi-sorted filter.
inline uint16_t g_nibbles[cuckoo::internal::kSemiSortCodes];

inline void build_semi_sort_codes() {
  if (g_nibbles[1] != 0) return;
  unsigned code = 0;
  for (unsigned a = 0; a < 16; ++a)
    for (unsigned b = a; b < 16; ++b)
      for (unsigned c = b; c < 16; ++c)
        for (unsigned d = c; d < 16; ++d) g_nibbles[code++] = static_cast<uint16_t>(a | b << 4 | c << 8 | d << 12);
}

inline const uint8_t* table_of(const Level& l) { return reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(l.table)); }

// Bits per bucket in the stream.
inline uint64_t bucket_bits(const Filter& f, const Level& l) {
  return f.semi_sort ? 4 * uint64_t{l.bits} - 4 : uint64_t{f.bucket_size} * l.bits;
}

// Writes the bucket's bucket_size entries (0 = empty) to e. A semi-sort code that validation would refuse
// reads as code 0 (no table with one is ever probed; the clamp keeps the lookup in bounds regardless).
inline void read_bucket(const Filter& f, const Level& l, uint64_t bucket, uint32_t* e) {
  const uint8_t* t = table_of(l);
  uint64_t pos = bucket * bucket_bits(f, l);
  if (f.semi_sort) {
    // [ code: 12 bits ][ low(e0): f - 4 bits ] ... [ low(e3) ]; up to f = 15 that is one read.
    const unsigned lb = l.bits - 4;
    const bool one_read = l.bits <= 15;
    const uint64_t word = read_bits(t, pos, one_read ? 4 * l.bits - 4 : cuckoo::internal::kSemiSortCodeBits);
    const auto code = static_cast<unsigned>(word & 0xFFF);
    const unsigned nibbles = g_nibbles[code < cuckoo::internal::kSemiSortCodes ? code : 0];
    pos += cuckoo::internal::kSemiSortCodeBits;
    for (unsigned s = 0; s < 4; ++s, pos += lb) {
      const uint64_t low = one_read ? (word >> (12 + s * lb)) & low_mask(lb) : read_bits(t, pos, lb);
      e[s] = (((nibbles >> (4 * s)) & 0xF) << lb) | static_cast<uint32_t>(low);
    }
    return;
  }
  for (unsigned s = 0; s < f.bucket_size; ++s, pos += l.bits) e[s] = static_cast<uint32_t>(read_bits(t, pos, l.bits));
}

// The SWAR constants of a level. Plain: the most fields per load that divides the bucket (1, 2, 4 or 8),
// so that a bucket is whole groups; a group of g fields and the load's sub-byte shift fit 64 bits when
// g * f <= 57. Semi-sorted with 8 <= f <= 15 (match_semi): four fields of f - 4 bits; other semi-sorted
// levels are read entry by entry and have none (lo = hi = 0: four fields of f - 4 bits need not fit 64).
inline void prepare_level(const Filter& f, Level& l) {
  unsigned group = f.bucket_size;
  unsigned width = l.bits;
  if (f.semi_sort) {
    width = l.bits - 4;
  } else {
    while (group > 1 && group * l.bits > 57) group /= 2;
  }
  l.group = group;
  l.lo = l.hi = 0;
  if (f.semi_sort && (l.bits < 8 || l.bits > 15)) return;
  for (unsigned k = 0; k < group; ++k) l.lo |= uint64_t{1} << (k * width);
  l.hi = width == 0 ? 0 : l.lo << (width - 1);
}

// Nonzero iff the plain bucket holds fp: XOR with fp in every field turns matches into zero fields, found
// by the zero-field test (bits.h). Bits above a group in its load need no mask: a borrow only moves up.
inline uint64_t match_plain(const Filter& f, const Level& l, uint64_t bucket, uint32_t fp) {
  const uint8_t* t = table_of(l);
  uint64_t pos = bucket * f.bucket_size * l.bits;
  const uint64_t pattern = fp * l.lo;
  uint64_t marks = 0;
  for (unsigned s = 0; s < f.bucket_size; s += l.group, pos += uint64_t{l.group} * l.bits)
    marks |= zero_field_marks(read_bits(t, pos, 57) ^ pattern, l.lo);
  return marks & l.hi;
}

// How many entries of the bucket equal fp (fp = 0: how many are empty).
inline unsigned count_in_bucket(const Filter& f, const Level& l, uint64_t bucket, uint32_t fp) {
  uint32_t e[8];
  read_bucket(f, l, bucket, e);
  unsigned n = 0;
  for (unsigned s = 0; s < f.bucket_size; ++s) n += e[s] == fp;
  return n;
}

// Nonzero iff the semi-sorted bucket holds fp. From 8 to 15 bits the bucket is one load, and its four
// nibbles, spread to the bottom of the four (f - 4)-bit fields its low parts take, make the same zero-field
// test as a plain bucket's: a field is zero iff both the entry's nibble and its low part match fp's.
inline uint64_t match_semi(const Filter& f, const Level& l, uint64_t bucket, uint32_t fp) {
  const unsigned lb = l.bits - 4;
  if (l.bits < 8 || l.bits > 15) return count_in_bucket(f, l, bucket, fp);
  const uint64_t word = read_bits(table_of(l), bucket * (4 * uint64_t{l.bits} - 4), 4 * l.bits - 4);
  const auto code = static_cast<unsigned>(word & 0xFFF);
  const uint64_t n = g_nibbles[code < cuckoo::internal::kSemiSortCodes ? code : 0];
  const uint64_t nibbles = (n & 0xF) | (n >> 4 & 0xF) << lb | (n >> 8 & 0xF) << (2 * lb) | (n >> 12) << (3 * lb);
  const uint64_t mismatch = ((word >> 12) ^ (fp & low_mask(lb)) * l.lo) | (nibbles ^ (fp >> lb) * l.lo);
  return zero_field_marks(mismatch, l.lo) & l.hi;
}

inline bool victim_matches(const Level& l, const LevelProbe& p) {
  return l.victim_used && l.victim_fp == p.fingerprint && (l.victim_index == p.index || l.victim_index == p.alt);
}

// The key's probe in level l, from its view in level 0 (the core's level_probe).
inline LevelProbe probe_of(const Level& l, const LevelKey& k) {
  return cuckoo::internal::level_probe(k, l.bucket_count, l.level, l.extra_bits);
}

}  // namespace cuckoo_reader
