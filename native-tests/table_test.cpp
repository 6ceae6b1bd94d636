// native-tests/table_test.cpp: the bucket tables under the filter (core/src/packed_table.h,
// core/src/semi_sorted_table.h), tested directly against a model of each bucket's contents.
//
// The filter tests see tables only through the cuckoo algorithm, where a packing bug can hide behind a
// lucky layout. Here every table shape the filter instantiates (fixed widths 4/8/12/16/32 and the run-time
// width path for every other width; semi-sorted with fixed 9/13/17 and run-time widths) gets random
// single-entry edits checked against a model, including that neighbouring buckets are never disturbed.
// The semi-sort codec is checked exhaustively: all 3876 codes round-trip and code 0 is the empty bucket.
#include <gtest/gtest.h>

#include <cuckoo/cuckoo.h>

#include <algorithm>
#include <array>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "packed_table.h"
#include "semi_sorted_table.h"

// The probe-span test poisons the table around the bytes a probe may read; ASan then reports any other read.
#if defined(__SANITIZE_ADDRESS__)
#define CUCKOO_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CUCKOO_TEST_ASAN 1
#endif
#endif
#ifdef CUCKOO_TEST_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace {

using cuckoo::Config;
using cuckoo::internal::kSemiSortCodeBits;
using cuckoo::internal::kSemiSortCodes;
using cuckoo::internal::PackedTable;
using cuckoo::internal::SemiSortCodec;
using cuckoo::internal::SemiSortedTable;

std::array<unsigned, 4> nibbles_of(uint16_t packed) {
  return {packed & 0xFu, (packed >> 4) & 0xFu, (packed >> 8) & 0xFu, (packed >> 12) & 0xFu};
}

// ----- Semi-sort codec -----

TEST(SemiSortCodec, AllCodesRoundTripInLexicographicOrder) {
  const SemiSortCodec& codec = SemiSortCodec::get();
  std::set<uint16_t> seen;
  for (unsigned code = 0; code < kSemiSortCodes; ++code) {
    const uint16_t packed = codec.decode[code];
    const auto n = nibbles_of(packed);
    ASSERT_TRUE(n[0] <= n[1] && n[1] <= n[2] && n[2] <= n[3]) << "code " << code << " decodes to an unsorted tuple";
    ASSERT_EQ(codec.encode[packed], code) << "code " << code << " does not round-trip";
    ASSERT_TRUE(seen.insert(packed).second) << "two codes decode to the same tuple";
    if (code > 0) {  // lexicographic (n0, n1, n2, n3), as documented
      const auto p = nibbles_of(codec.decode[code - 1]);
      ASSERT_TRUE(std::lexicographical_compare(p.begin(), p.end(), n.begin(), n.end())) << "code " << code;
    }
  }
  // Every sorted tuple of four nibbles has a code: C(16 + 4 - 1, 4) = 3876 of them.
  unsigned sorted_tuples = 0;
  for (unsigned a = 0; a < 16; ++a)
    for (unsigned b = a; b < 16; ++b)
      for (unsigned c = b; c < 16; ++c)
        for (unsigned d = c; d < 16; ++d) {
          const uint16_t packed = static_cast<uint16_t>(a | b << 4 | c << 8 | d << 12);
          ASSERT_EQ(codec.decode[codec.encode[packed]], packed);
          ++sorted_tuples;
        }
  EXPECT_EQ(sorted_tuples, kSemiSortCodes);
  EXPECT_EQ(seen.size(), kSemiSortCodes);
  EXPECT_LE(kSemiSortCodes, 1u << cuckoo::internal::kSemiSortCodeBits);
}

// Code 0 is (0, 0, 0, 0), so an all-zero table (fresh, cleared, or freshly deserialized) is an empty table.
TEST(SemiSortCodec, CodeZeroIsTheEmptyBucket) {
  const SemiSortCodec& codec = SemiSortCodec::get();
  EXPECT_EQ(codec.decode[0], 0u);
  EXPECT_EQ(codec.encode[0], 0u);
}

// The SWAR lookup tables: code -> the four nibbles as the high 4 bits of four f-bit fields, nothing else.
// The probe layout: for f >= 8, four (f-4)-bit fields with the nibble at the bottom of each (where the
// stored low parts already lie); for f < 8, four f-bit fields with the nibble at the top.
TEST(SemiSortCodec, SpreadNibblesPlacesEachNibbleInItsProbeField) {
  const SemiSortCodec& codec = SemiSortCodec::get();
  for (unsigned f = 4; f <= 15; ++f) {
    const unsigned width = f >= 8 ? f - 4 : f, shift = f >= 8 ? 0 : f - 4;
    const uint64_t* spread = SemiSortCodec::spread_nibbles(f);
    ASSERT_NE(spread, nullptr) << "f=" << f;
    for (unsigned code = 0; code < kSemiSortCodes; ++code) {
      const auto n = nibbles_of(codec.decode[code]);
      uint64_t expected = 0;
      for (unsigned s = 0; s < 4; ++s) expected |= uint64_t{n[s]} << (s * width + shift);
      ASSERT_EQ(spread[code], expected) << "f=" << f << " code=" << code;
    }
    // Invalid codes read as an empty bucket (the lookup does not clamp them).
    for (unsigned code = kSemiSortCodes; code < (1u << kSemiSortCodeBits); ++code)
      ASSERT_EQ(spread[code], 0u) << "f=" << f << " code=" << code;
  }
  EXPECT_EQ(SemiSortCodec::spread_nibbles(3), nullptr);
  EXPECT_EQ(SemiSortCodec::spread_nibbles(16), nullptr);
}

// ----- Tables against a model -----

Config table_config(unsigned b, unsigned f, bool semi_sort, uint64_t buckets) {
  Config c;
  c.bucket_size = b;
  c.fingerprint_bits = f;
  c.semi_sort = semi_sort;
  c.bucket_count = buckets;
  return c;
}

// Random edits of a table of a few buckets, checked after every edit against the model: the exact entry
// positions for the plain table (entries stay where they are put), the sorted multiset for the semi-sorted
// table (it stores entries sorted, so positions move). Neighbouring buckets share bytes, so every bucket is
// compared after every edit.
template <typename Table>
void exercise_table(const Config& config, uint64_t seed) {
  constexpr unsigned b = Table::kSlots;
  const bool sorted = config.semi_sort;
  const unsigned f = config.fingerprint_bits;
  const uint32_t max_fp = static_cast<uint32_t>((uint64_t{1} << f) - 1);
  const uint64_t n = config.bucket_count;
  SCOPED_TRACE("b=" + std::to_string(b) + " f=" + std::to_string(f) + (sorted ? " semi-sorted" : ""));

  Table table(config);
  std::vector<std::array<uint32_t, b>> model(n);
  for (auto& bucket : model) bucket.fill(0);
  std::mt19937_64 rng(seed);
  // Fingerprints from a small pool (so removes and counts hit duplicates) plus the extremes.
  std::vector<uint32_t> pool = {1, max_fp, max_fp > 1 ? max_fp - 1 : 1};
  for (int k = 0; k < 6; ++k) pool.push_back(1 + static_cast<uint32_t>(rng() % max_fp));
  auto random_fp = [&] { return pool[rng() % pool.size()]; };

  auto canonical = [&](std::array<uint32_t, b> e) {
    if (sorted) std::sort(e.begin(), e.end());
    return e;
  };
  auto check_all = [&](int step) {
    uint64_t entries = 0;
    for (uint64_t i = 0; i < n; ++i) {
      uint32_t got[b];
      table.get_all(i, got);
      std::array<uint32_t, b> g;
      std::copy(got, got + b, g.begin());
      ASSERT_EQ(g, canonical(model[i])) << "bucket " << i << " after step " << step;
      for (uint32_t e : model[i]) entries += e != 0;
    }
    ASSERT_EQ(table.count_entries(), entries);
    std::string why;
    ASSERT_TRUE(table.validate(&why)) << why;
  };

  check_all(-1);  // a fresh table is all zero = empty
  for (int step = 0; step < 600; ++step) {
    const uint64_t i = rng() % n;
    auto& m = model[i];
    const uint32_t fp = random_fp();
    const unsigned model_count = static_cast<unsigned>(std::count(m.begin(), m.end(), fp));
    ASSERT_EQ(table.count(i, fp), model_count) << "step " << step;
    ASSERT_EQ(table.match(i, fp) != 0, model_count > 0) << "step " << step;
    ASSERT_EQ(table.contains(i, fp), model_count > 0) << "step " << step;
    const uint64_t other = rng() % n;  // a lookup's second bucket (here possibly i itself)
    const bool in_other = std::count(model[other].begin(), model[other].end(), fp) > 0;
    ASSERT_EQ(table.match_either(i, other, fp) != 0, model_count > 0 || in_other) << "step " << step;
    ASSERT_EQ(table.match_either(other, i, fp) != 0, model_count > 0 || in_other) << "step " << step;
    switch (rng() % 4) {
      case 0:
      case 1: {  // insert_empty: the first empty entry (plain), any empty entry (sorted)
        auto empty = std::find(m.begin(), m.end(), 0u);
        ASSERT_EQ(table.insert_empty(i, fp), empty != m.end()) << "step " << step;
        if (empty != m.end()) *empty = fp;
        break;
      }
      case 2: {  // remove one copy
        auto hit = std::find(m.begin(), m.end(), fp);
        ASSERT_EQ(table.remove(i, fp), hit != m.end()) << "step " << step;
        if (hit != m.end()) *hit = 0;
        break;
      }
      default: {  // swap entry s (of the stored order) for fp; returns what was there
        const unsigned s = static_cast<unsigned>(rng() % b);
        std::array<uint32_t, b> stored = canonical(m);
        const uint32_t old = table.swap(i, s, fp);
        ASSERT_EQ(old, stored[s]) << "step " << step;
        stored[s] = fp;
        m = stored;
        break;
      }
    }
    check_all(step);
    if (::testing::Test::HasFatalFailure()) return;
  }
  table.clear();
  for (auto& bucket : model) bucket.fill(0);
  check_all(1000);
}

template <unsigned B, unsigned F>
void exercise_packed(unsigned f) {
  for (uint64_t buckets : {uint64_t{2}, uint64_t{5}, uint64_t{12}})
    exercise_table<PackedTable<B, F>>(table_config(B, f, false, buckets), 1000 * f + B + buckets);
}

TEST(PackedTable, FixedWidthsMatchTheModel) {
  exercise_packed<2, 4>(4);
  exercise_packed<2, 8>(8);
  exercise_packed<2, 12>(12);
  exercise_packed<2, 16>(16);
  exercise_packed<2, 32>(32);
  exercise_packed<4, 4>(4);
  exercise_packed<4, 8>(8);
  exercise_packed<4, 12>(12);
  exercise_packed<4, 16>(16);
  exercise_packed<4, 32>(32);
  exercise_packed<8, 4>(4);
  exercise_packed<8, 8>(8);
  exercise_packed<8, 12>(12);
  exercise_packed<8, 16>(16);
  exercise_packed<8, 32>(32);
}

TEST(PackedTable, RuntimeWidthsMatchTheModel) {
  for (unsigned f = 4; f <= 32; ++f) {
    exercise_packed<2, 0>(f);
    exercise_packed<4, 0>(f);
    exercise_packed<8, 0>(f);
  }
}

template <unsigned F>
void exercise_semi(unsigned f) {
  for (uint64_t buckets : {uint64_t{2}, uint64_t{5}, uint64_t{12}})
    exercise_table<SemiSortedTable<F>>(table_config(4, f, true, buckets), 7000 * f + buckets);
}

TEST(SemiSortedTable, FixedWidthsMatchTheModel) {
  exercise_semi<9>(9);
  exercise_semi<13>(13);
  exercise_semi<17>(17);
}

TEST(SemiSortedTable, RuntimeWidthsMatchTheModel) {
  for (unsigned f = 4; f <= 32; ++f) exercise_semi<0>(f);
}

// A full bucket of four fingerprints whose high nibbles cover every case of the code (equal and distinct
// nibbles), in every insertion order: stored sorted, every lookup exact.
TEST(SemiSortedTable, EveryOrderOfAFullBucketIsStoredSorted) {
  for (unsigned f : {4u, 5u, 9u, 13u, 16u, 17u, 32u}) {
    const unsigned lb = f - 4;
    const uint32_t low = lb == 0 ? 0 : (1u << (lb - 1)) | 1u;
    std::vector<std::array<uint32_t, 4>> buckets = {
        {(1u << lb) | low, (1u << lb) | 0, (15u << lb) | low, (7u << lb) | 0},
        {(3u << lb) | low, (3u << lb) | low, (3u << lb) | 0, (3u << lb)},
        {static_cast<uint32_t>((uint64_t{1} << f) - 1), 1, 2, static_cast<uint32_t>((uint64_t{1} << f) - 1)},
    };
    for (auto entries : buckets) {
      for (uint32_t& e : entries)
        if (e == 0) e = 1;  // 0 is "empty"
      std::sort(entries.begin(), entries.end());
      do {
        SemiSortedTable<0> table(table_config(4, f, true, 3));
        for (uint32_t e : entries) ASSERT_TRUE(table.insert_empty(1, e));
        EXPECT_FALSE(table.insert_empty(1, 1)) << "a bucket holds four entries";
        uint32_t got[4];
        table.get_all(1, got);
        std::array<uint32_t, 4> expected = entries;
        std::sort(expected.begin(), expected.end());
        ASSERT_TRUE(std::equal(got, got + 4, expected.begin())) << "f=" << f;
        for (uint32_t e : entries) ASSERT_TRUE(table.contains(1, e));
        EXPECT_EQ(table.count_entries(), 4u);
        table.get_all(0, got);
        EXPECT_EQ(got[0] | got[1] | got[2] | got[3], 0u) << "the neighbouring bucket was touched";
        table.get_all(2, got);
        EXPECT_EQ(got[0] | got[1] | got[2] | got[3], 0u) << "the neighbouring bucket was touched";
      } while (std::next_permutation(entries.begin(), entries.end()));
    }
  }
}

// ----- Probe spans -----

// contains_many prefetches the cache lines of probe_span(a) and probe_span(b) and then probes, so a probe
// that read a byte past its span would wait for a line nobody prefetched (it did, until e05611e: about 1
// bucket in 32 at f = 12). Here each probe runs with every other byte of the table poisoned; under ASan
// (scripts/test.sh builds the suite with it) any read outside the spans fails the test. ASan poisons in
// 8-byte granules, so the end of a span is checked exactly and its start to within 7 bytes. Every build
// checks that the spans cover their bucket and stay inside the allocation.
template <typename Table>
void check_probe_spans(const Config& config, uint64_t seed) {
  const unsigned f = config.fingerprint_bits;
  const unsigned b = config.bucket_size;
  const uint64_t n = config.bucket_count;
  SCOPED_TRACE("b=" + std::to_string(b) + " f=" + std::to_string(f) + (config.semi_sort ? " semi-sorted" : ""));
  Table table(config);
  std::mt19937_64 rng(seed);
  const uint32_t max_fp = static_cast<uint32_t>((uint64_t{1} << f) - 1);
  auto random_fp = [&] { return 1 + static_cast<uint32_t>(rng() % max_fp); };
  for (uint64_t i = 0; i < n; ++i)
    for (unsigned s = 0; s + 1 < b; ++s) table.insert_empty(i, random_fp());

  const uint8_t* begin = table.data();
  const size_t size = table.table_bytes() + cuckoo::internal::kTablePadding;
  const uint64_t bucket_bits = config.semi_sort ? 4 * uint64_t{f} - 4 : uint64_t{b} * f;
  for (uint64_t a = 0; a < n; ++a) {
    const auto span = table.probe_span(a);
    ASSERT_EQ(span.first, begin + a * bucket_bits / 8) << "bucket " << a;
    ASSERT_GE(span.last, begin + ((a + 1) * bucket_bits - 1) / 8) << "bucket " << a;
    ASSERT_LT(span.last, begin + size) << "bucket " << a;
  }
  for (int step = 0; step < 300; ++step) {
    const uint64_t a = rng() % n, other = rng() % n;
    const uint32_t fp = step % 2 ? random_fp() : 1;
    const bool expected = table.match(a, fp) != 0 || table.match(other, fp) != 0;
#ifdef CUCKOO_TEST_ASAN
    ASAN_POISON_MEMORY_REGION(begin, size);
    for (uint64_t bucket : {a, other}) {
      const auto span = table.probe_span(bucket);
      ASAN_UNPOISON_MEMORY_REGION(span.first, static_cast<size_t>(span.last - span.first) + 1);
    }
#endif
    const bool got = table.match_either(a, other, fp) != 0;
#ifdef CUCKOO_TEST_ASAN
    ASAN_UNPOISON_MEMORY_REGION(begin, size);
#endif
    ASSERT_EQ(got, expected) << "buckets " << a << ", " << other;
  }
}

// Every table the filter instantiates (make_core.cpp): fixed widths, run-time widths (one-load or not),
// semi-sorted. 67 buckets put bucket starts at many offsets within a cache line.
constexpr uint64_t kSpanBuckets = 67;

template <unsigned B>
void check_packed_spans() {
  check_probe_spans<PackedTable<B, 4>>(table_config(B, 4, false, kSpanBuckets), B * 100 + 4);
  check_probe_spans<PackedTable<B, 8>>(table_config(B, 8, false, kSpanBuckets), B * 100 + 8);
  check_probe_spans<PackedTable<B, 12>>(table_config(B, 12, false, kSpanBuckets), B * 100 + 12);
  check_probe_spans<PackedTable<B, 16>>(table_config(B, 16, false, kSpanBuckets), B * 100 + 16);
  check_probe_spans<PackedTable<B, 32>>(table_config(B, 32, false, kSpanBuckets), B * 100 + 32);
  for (unsigned f = 4; f <= 32; ++f) {
    if (B * f <= 57) check_probe_spans<PackedTable<B, 0, true>>(table_config(B, f, false, kSpanBuckets), 1000 + f);
    check_probe_spans<PackedTable<B, 0>>(table_config(B, f, false, kSpanBuckets), 2000 + f);
  }
}

TEST(ProbeSpan, CoversEveryByteAPackedProbeReads) {
  check_packed_spans<2>();
  check_packed_spans<4>();
  check_packed_spans<8>();
}

TEST(ProbeSpan, CoversEveryByteASemiSortedProbeReads) {
  check_probe_spans<SemiSortedTable<9>>(table_config(4, 9, true, kSpanBuckets), 9);
  check_probe_spans<SemiSortedTable<13>>(table_config(4, 13, true, kSpanBuckets), 13);
  check_probe_spans<SemiSortedTable<17>>(table_config(4, 17, true, kSpanBuckets), 17);
  for (unsigned f = 4; f <= 32; ++f) check_probe_spans<SemiSortedTable<0>>(table_config(4, f, true, kSpanBuckets), f);
}

// validate(): bytes from outside must carry valid codes and zero padding after the last bucket.
TEST(SemiSortedTable, ValidateRejectsInvalidCodesAndPadding) {
  // f = 13: 48-bit buckets, so bucket 1's code is bits 48..59.
  SemiSortedTable<13> table(table_config(4, 13, true, 2));
  std::string why;
  ASSERT_TRUE(table.validate(&why));
  cuckoo::internal::write_bits(table.data(), 48, 12, kSemiSortCodes);
  EXPECT_FALSE(table.validate(&why));
  EXPECT_NE(why.find("semi-sort code"), std::string::npos) << why;
  cuckoo::internal::write_bits(table.data(), 48, 12, kSemiSortCodes - 1);
  EXPECT_TRUE(table.validate(&why)) << why;

  // f = 5: 16-bit buckets x 3 = 48 bits = 6 bytes, no padding; f = 6: 20 x 3 = 60 bits, 4 spare bits.
  SemiSortedTable<0> padded(table_config(4, 6, true, 3));
  ASSERT_TRUE(padded.validate(&why));
  padded.data()[padded.table_bytes() - 1] |= 0x80;
  EXPECT_FALSE(padded.validate(&why));
  EXPECT_NE(why.find("padding"), std::string::npos) << why;
}

TEST(PackedTable, ValidateRejectsNonzeroPadding) {
  // b = 2, f = 5: 10-bit buckets x 3 = 30 bits in 4 bytes, 2 spare bits.
  PackedTable<2, 0> table(table_config(2, 5, false, 3));
  std::string why;
  ASSERT_TRUE(table.validate(&why));
  table.set(2, 1, 31);  // the last entry: right up to the padding, which must stay zero
  ASSERT_TRUE(table.validate(&why)) << why;
  EXPECT_EQ(table.get(2, 1), 31u);
  table.data()[table.table_bytes() - 1] |= 0x40;
  EXPECT_FALSE(table.validate(&why));
  EXPECT_NE(why.find("padding"), std::string::npos) << why;
}

}  // namespace
