// native-tests/inline_table_test.cpp: the inline single-key path of cuckoo/filter.h (contains(uint64_t),
// insert(uint64_t), is_full(); cuckoo/internal/inline_table.h) and of cuckoo/view.h (contains(uint64_t)) is
// the same filter as the library's own.
//
// For every shape, two filters with the same options take the same operations, one through the public
// members (inline where the shape has an InlineTable) and one through the core's virtual calls, which the
// inline path does not use. Every answer (present keys, absent keys, false positives, refusals, the
// parked victim) and every byte must agree, through fills past the first failure, erases and refills, and
// after copies, moves, merges, clear() and deserialize(). A FilterView of the bytes (whose contains(uint64_t)
// is inline too) answers as the core does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core_access.h"
#include "cuckoo/cuckoo.h"
#include "filter_core.h"
#include "hash.h"
#include "test_support.h"

namespace {

using cuckoo::CuckooFilter;
using cuckoo::Options;
using cuckoo::internal::CoreAccess;
using cuckoo::internal::FilterCore;

bool has_inline_table(const cuckoo::internal::InlineTable& t) { return t.serves(); }
bool has_inline_table(const CuckooFilter& f) { return has_inline_table(CoreAccess::core(f).inline_table()); }
bool has_inline_table(const cuckoo::FilterView& v) { return has_inline_table(CoreAccess::core(v).inline_table()); }

// Whether every bucket of b entries of f bits, read with one 8-byte load from the byte holding its first
// bit, is whole in that load (the inline path's condition). Bucket i starts at bit (i * b * f) % 8 of its
// byte, which repeats every 8 buckets.
bool one_load_from_its_first_byte(unsigned b, unsigned f) {
  for (unsigned i = 0; i < 8; ++i)
    if ((i * b * f) % 8 + b * f > 64) return false;
  return true;
}

Options shape_options(unsigned b, unsigned f, bool semi_sort, uint64_t buckets, uint64_t seed) {
  Options o;
  o.bucket_size = b;
  o.fingerprint_bits = f;
  o.semi_sort = semi_sort;
  o.bucket_count = buckets;
  o.seed = seed;
  o.huge_pages = false;
  return o;
}

// The shapes the inline path serves from a bit-packed table: buckets that are not whole bytes.
TEST(InlineTable, ServesBucketsOfWholeBytesAndBitPackedOnes) {
  const auto tables = [](unsigned b, unsigned f) {
    const CuckooFilter filter(shape_options(b, f, false, 226, 1));
    const auto& t = CoreAccess::core(filter).inline_table();
    return std::make_pair(t.table != nullptr, t.packed_table != nullptr);
  };
  EXPECT_EQ(tables(4, 12), std::make_pair(true, false));
  EXPECT_EQ(tables(4, 13), std::make_pair(false, true));
  EXPECT_EQ(tables(4, 14), std::make_pair(true, false));  // 56 bits: whole bytes
  EXPECT_EQ(tables(4, 15), std::make_pair(false, true));  // 60 bits from bit 0 or 4 of a byte
  EXPECT_EQ(tables(4, 16), std::make_pair(true, false));
  EXPECT_EQ(tables(4, 17), std::make_pair(false, false));
  EXPECT_EQ(tables(2, 29), std::make_pair(false, true));  // 58 bits from bit 0, 2, 4 or 6
  EXPECT_EQ(tables(2, 30), std::make_pair(false, true));  // 60 bits from bit 0 or 4
  EXPECT_EQ(tables(2, 31), std::make_pair(false, false));
  EXPECT_EQ(tables(8, 7), std::make_pair(true, false));  // 56 bits: whole bytes
  EXPECT_EQ(tables(8, 9), std::make_pair(false, false));
  EXPECT_EQ(tables(8, 8), std::make_pair(true, false));
  // A power-of-two bucket count: a whole-byte table without alternate offsets is pow2_table instead.
  for (unsigned f : {12u, 13u}) {
    const CuckooFilter filter(shape_options(4, f, false, 256, 1));
    const auto& t = CoreAccess::core(filter).inline_table();
    EXPECT_EQ(t.table, nullptr);
    EXPECT_EQ(t.pow2_table != nullptr, f == 12);
    EXPECT_EQ(t.packed_table != nullptr, f == 13);
  }
}

// A whole-byte table of f <= 16 bits keeps alternate_offsets from 16 times their size, 2^f * 4 * 16 bytes,
// to 2^32 bytes (every offset fits their 32 bits).
TEST(InlineTable, KeepsAlternateOffsetsForLargeWholeByteTables) {
  const auto offsets = [](unsigned b, unsigned f, uint64_t buckets) {
    const CuckooFilter filter(shape_options(b, f, false, buckets, 1));
    const auto& t = CoreAccess::core(filter).inline_table();
    return std::make_pair(t.alternate_offsets != nullptr, filter.memory_bytes());
  };
  // b = 4, f = 12: 6-byte buckets, 2^18 bytes of table from 43691 buckets (rounded up to even).
  const auto below = offsets(4, 12, 43690), at = offsets(4, 12, 43692);
  EXPECT_FALSE(below.first);
  EXPECT_TRUE(at.first);
  EXPECT_GE(at.second - below.second, 4096 * 4);  // the offsets, and two buckets more
  EXPECT_LE(at.second - below.second, 4096 * 4 + 64);
  EXPECT_TRUE(offsets(4, 8, 4096).first);  // 16 KiB of table, 1 KiB of offsets
  EXPECT_FALSE(offsets(4, 8, 4094).first);
  EXPECT_TRUE(offsets(4, 16, 1 << 19).first);  // 4 MiB
  const CuckooFilter pow2(shape_options(4, 12, false, 1 << 16, 1));
  EXPECT_NE(CoreAccess::core(pow2).inline_table().alternate_offsets, nullptr);
  EXPECT_NE(CoreAccess::core(pow2).inline_table().table, nullptr);  // the offsets, not the shifts
  EXPECT_EQ(CoreAccess::core(pow2).inline_table().pow2_table, nullptr);
  EXPECT_FALSE(offsets(4, 16, (1 << 19) - 2).first);
  EXPECT_FALSE(offsets(4, 13, 1 << 20).first);  // bit-packed
  EXPECT_FALSE(offsets(2, 24, 1 << 22).first);  // f > 16
  EXPECT_TRUE(offsets(2, 16, 1 << 20).first);
  // Too large to build here: the rule that publish_inline_table applies.
  using cuckoo::internal::keeps_alternate_offsets;
  EXPECT_TRUE(keeps_alternate_offsets(12, uint64_t{1} << 32));  // the largest offset is 2^32 - 6
  EXPECT_FALSE(keeps_alternate_offsets(12, (uint64_t{1} << 32) + 6));
  EXPECT_FALSE(keeps_alternate_offsets(16, uint64_t{8} << 32));
}

struct Keys {
  std::vector<uint64_t> present, absent;
};

Keys random_keys(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Keys k;
  for (size_t i = 0; i < n; ++i) k.present.push_back(rng());
  for (size_t i = 0; i < 4 * n; ++i) k.absent.push_back(rng());
  return k;
}

// The public members (inline for eligible shapes) and the core's own calls on `filter`, and the core of
// `reference` (a filter fed only through its core), answer every key alike.
void expect_same_answers(const CuckooFilter& filter, const CuckooFilter& reference, const std::vector<uint64_t>& keys,
                         size_t* positives) {
  const FilterCore& core = CoreAccess::core(filter);
  const FilterCore& ref = CoreAccess::core(reference);
  for (uint64_t key : keys) {
    const bool answer = filter.contains(key);
    ASSERT_EQ(answer, core.contains_u64_key(key)) << "key " << key;
    ASSERT_EQ(answer, ref.contains_u64_key(key)) << "key " << key;
    *positives += answer;
  }
}

// A view of the filter's bytes (inline where the filter is) answers every key as the filter's core does.
// The bytes are exactly the serialized ones, at an aligned and at an odd address, so that a read past
// them (the last bucket's 8-byte load) would be out of bounds under ASan.
void expect_view_agrees(const CuckooFilter& filter, const std::vector<uint64_t>& keys) {
  const std::vector<uint8_t> bytes = filter.serialize();
  std::vector<uint8_t> odd_storage(bytes.size() + 1);
  std::copy(bytes.begin(), bytes.end(), odd_storage.begin() + 1);
  const FilterCore& core = CoreAccess::core(filter);
  for (const uint8_t* at : {bytes.data(), static_cast<const uint8_t*>(odd_storage.data() + 1)}) {
    const auto view = cuckoo::FilterView::from_bytes(at, bytes.size());
    ASSERT_EQ(has_inline_table(view), has_inline_table(filter));
    for (uint64_t key : keys) ASSERT_EQ(view.contains(key), core.contains_u64_key(key)) << "key " << key;
  }
}

void expect_same_state(const CuckooFilter& filter, const CuckooFilter& reference) {
  ASSERT_EQ(filter.size(), reference.size());
  ASSERT_EQ(filter.is_full(), CoreAccess::core(reference).is_full());
  ASSERT_EQ(filter.is_full(), CoreAccess::core(filter).is_full());
  ASSERT_EQ(filter.serialize(), reference.serialize()) << "the bytes differ";
}

// Inserts keys[from, to) into both filters, comparing every result; returns where it stopped (the first
// key refused after the filter was full, or `to`).
size_t insert_both(CuckooFilter& filter, CuckooFilter& reference, const std::vector<uint64_t>& keys, size_t from,
                   size_t to) {
  size_t i = from;
  for (; i < to; ++i) {
    const bool stored = filter.insert(keys[i]);
    EXPECT_EQ(stored, CoreAccess::core(reference).insert_u64_key(keys[i])) << "key #" << i;
    if (!stored && filter.is_full()) break;
  }
  return i;
}

// `buckets`: not a power of two, as sizing usually makes it; 226 and 228 end the table with buckets whose
// first bits sit at different places in their bytes (228: the highest place for b = 2 and odd f).
// With `offsets`, `filter` keeps alternate_offsets whatever its size where its shape can (whole bytes,
// f <= 16), as large tables do: their lookups load the alternate offsets instead of computing them.
void run_shape(unsigned b, unsigned f, bool semi_sort, bool growable, uint64_t seed, uint64_t buckets = 226,
               bool offsets = false) {
  SCOPED_TRACE("b=" + std::to_string(b) + " f=" + std::to_string(f) + (semi_sort ? " semi-sorted" : "") +
               (growable ? " growable" : "") + " seed=" + std::to_string(seed) +
               " buckets=" + std::to_string(buckets) + (offsets ? " alternate offsets" : ""));
  Options o = shape_options(b, f, semi_sort, buckets, seed);
  o.growable = growable;
  if (growable) o.max_memory_bytes = 64 * 1024;
  CuckooFilter filter(o), reference(o);
  const bool eligible = !semi_sort && !growable && one_load_from_its_first_byte(b, f);
  ASSERT_EQ(has_inline_table(filter), eligible);
  if (offsets) {
    CoreAccess::core(filter).keep_alternate_offsets();
    const auto& t = CoreAccess::core(filter).inline_table();
    ASSERT_EQ(t.alternate_offsets != nullptr, eligible && (b * f) % 8 == 0 && f <= 16);
    if (t.alternate_offsets != nullptr) ASSERT_EQ(t.pow2_table, nullptr);
  }

  const size_t n = static_cast<size_t>(buckets * b * (growable ? 3 : 1.2));
  const Keys keys = random_keys(n, seed + b * 100 + f);
  // To the first failure (a victim parked, or a refusal past it), then a few refused inserts.
  size_t stored = insert_both(filter, reference, keys.present, 0, n);
  ASSERT_NO_FATAL_FAILURE(expect_same_state(filter, reference));
  insert_both(filter, reference, keys.present, stored, std::min(n, stored + 20));
  ASSERT_NO_FATAL_FAILURE(expect_same_state(filter, reference));
  size_t positives = 0;
  ASSERT_NO_FATAL_FAILURE(expect_same_answers(filter, reference, keys.present, &positives));
  ASSERT_NO_FATAL_FAILURE(expect_same_answers(filter, reference, keys.absent, &positives));
  if (f <= 8 && !growable) EXPECT_GT(positives, stored) << "no false positives to compare";
  ASSERT_NO_FATAL_FAILURE(expect_view_agrees(filter, keys.present));  // full: a victim is parked
  ASSERT_NO_FATAL_FAILURE(expect_view_agrees(filter, keys.absent));

  // Erase a third (the parked victim goes home), look up again, refill.
  for (size_t i = 0; i < stored; i += 3) {
    ASSERT_EQ(filter.erase(keys.present[i]), reference.erase(keys.present[i]));
  }
  ASSERT_NO_FATAL_FAILURE(expect_same_state(filter, reference));
  ASSERT_NO_FATAL_FAILURE(expect_same_answers(filter, reference, keys.present, &positives));
  ASSERT_NO_FATAL_FAILURE(expect_same_answers(filter, reference, keys.absent, &positives));
  ASSERT_NO_FATAL_FAILURE(expect_view_agrees(filter, keys.absent));  // no victim
  insert_both(filter, reference, keys.absent, 0, n);
  ASSERT_NO_FATAL_FAILURE(expect_same_state(filter, reference));
  ASSERT_NO_FATAL_FAILURE(expect_same_answers(filter, reference, keys.absent, &positives));
}

TEST(InlineTable, AgreesWithTheCoreOnEveryShape) {
  for (unsigned b : {2u, 4u, 8u})
    for (unsigned f = 4; f <= 32; ++f) {
      run_shape(b, f, false, false, 1);
      if ((b * f) % 8 == 0 && f <= 16) run_shape(b, f, false, false, 9, 226, /*offsets=*/true);
      if ((b * f) % 8 != 0 && one_load_from_its_first_byte(b, f)) run_shape(b, f, false, false, 4, 228);
      if (b == 4) run_shape(b, f, true, false, 2);
    }
  for (unsigned f : {4u, 8u, 12u, 13u, 14u, 16u}) run_shape(4, f, false, false, 0x9E3779B97F4A7C15ull);
  for (unsigned f : {4u, 8u, 12u, 16u}) run_shape(4, f, false, false, 0x9E3779B97F4A7C15ull, 226, true);
}

// A power-of-two bucket count, the paper's tables: inline_probe_pow2's shifts, or the alternate offsets.
TEST(InlineTable, AgreesWithTheCoreOnEveryShapeWithAPowerOfTwoBucketCount) {
  for (unsigned b : {2u, 4u, 8u})
    for (unsigned f = 4; f <= 32; ++f)
      if (one_load_from_its_first_byte(b, f)) {
        run_shape(b, f, false, false, 6, 256);
        run_shape(b, f, false, false, 10, 256, /*offsets=*/true);
      }
  for (unsigned f : {4u, 12u, 13u, 16u}) run_shape(4, f, false, false, 7, 2);
  for (unsigned f : {4u, 12u, 16u}) run_shape(4, f, false, false, 7, 2, true);
  for (unsigned f : {12u, 16u}) run_shape(4, f, false, false, 8, 4096);
}

// A copy of a large table keeps alternate_offsets of its own: it answers as its core after the original
// is gone (under ASan, a copy that read the original's offsets would fail here), and so do an assigned
// copy and a moved filter.
TEST(InlineTable, CopiesOfALargeTableKeepTheirOwnOffsets) {
  const Options o = shape_options(4, 12, false, 50002, 14);
  const Keys keys = random_keys(100000, 15);
  auto original = std::make_unique<CuckooFilter>(o);
  for (size_t i = 0; i < 100000; ++i) ASSERT_TRUE(original->insert(keys.present[i]));
  CuckooFilter copy(*original);
  CuckooFilter assigned(shape_options(4, 12, false, 1000, 14));
  assigned = *original;
  original.reset();
  CuckooFilter moved(std::move(assigned));
  for (const CuckooFilter* f : {&copy, &moved}) {
    const auto& t = CoreAccess::core(*f).inline_table();
    ASSERT_NE(t.alternate_offsets, nullptr);
    for (const auto* set : {&keys.present, &keys.absent})
      for (uint64_t key : *set) ASSERT_EQ(f->contains(key), CoreAccess::core(*f).contains_u64_key(key)) << key;
  }
}

// A table large enough to keep alternate_offsets without being asked, and views of it.
TEST(InlineTable, AgreesWithTheCoreOnALargeTable) {
  for (const auto& [f, buckets] : {std::pair{12u, 50002u}, std::pair{8u, 8192u}}) {
    ASSERT_NE(CoreAccess::core(CuckooFilter(shape_options(4, f, false, buckets, 1))).inline_table().alternate_offsets,
              nullptr);
    run_shape(4, f, false, false, 12, buckets, true);
  }
}

// inline_probe gives hash.h's index, fingerprint and alternate bucket for every bucket count, and so does
// inline_probe_pow2 for every power of two (2 to 2^32, too large to build filters of), on random keys and
// seeds.
TEST(InlineTable, ProbeIsTheHashersAtEveryBucketCount) {
  std::vector<uint64_t> counts = {226, 228, 1000002, (uint64_t{1} << 31) + 2, (uint64_t{1} << 32) - 2};
  for (unsigned k = 1; k <= 32; ++k) counts.push_back(uint64_t{1} << k);
  std::mt19937_64 rng(41);
  for (uint64_t n : counts)
    for (unsigned f : {4u, 12u, 13u, 16u, 32u}) {
      const uint64_t seed = rng();
      const cuckoo::internal::SeededU64Hash hash(seed);
      const cuckoo::internal::BucketHasher hasher(n, f);
      cuckoo::internal::InlineTable t;
      t.set_bucket_count(n);
      ASSERT_EQ(t.bucket_mask != 0, (n & (n - 1)) == 0) << n;
      t.hash_premix = hash.premix();
      t.fingerprint_range = (uint64_t{1} << f) - 1;
      for (int i = 0; i < 2000; ++i) {
        const uint64_t key = rng();
        const uint64_t h = hash(key);
        std::vector<cuckoo::internal::InlineProbe> probes = {cuckoo::internal::inline_probe(t, key)};
        if (t.bucket_mask != 0) probes.push_back(cuckoo::internal::inline_probe_pow2(t, key));
        for (const cuckoo::internal::InlineProbe& p : probes) {
          ASSERT_EQ(p.bucket, hasher.index(h)) << "n " << n << " f " << f << " key " << key;
          ASSERT_EQ(p.fingerprint, hasher.fingerprint(h)) << "n " << n << " f " << f << " key " << key;
          ASSERT_EQ(p.alternate, hasher.alt_index(p.bucket, p.fingerprint)) << "n " << n << " f " << f << " key " << key;
        }
      }
    }
}

TEST(InlineTable, GrowingFiltersUseTheCore) {
  for (unsigned f : {8u, 12u, 16u}) run_shape(4, f, false, true, 3);
}

TEST(InlineTable, HashIsXxh3WithSeed) {
  std::mt19937_64 rng(37);
  for (int s = 0; s < 64; ++s) {
    const uint64_t seed = s < 2 ? uint64_t(s) * ~uint64_t{0} : rng();
    const cuckoo::internal::SeededU64Hash seeded(seed);
    for (int i = 0; i < 2000; ++i) {
      const uint64_t key = i < 3 ? uint64_t(i) : rng();
      using cuckoo::internal::Xxh3Use;
      const uint64_t expected = cuckoo::internal::hash_u64(key, seed);
      ASSERT_EQ(cuckoo::internal::xxh3_u64<Xxh3Use::kForLoops>(key, seeded.premix()), expected)
          << "key " << key << " seed " << seed;
      ASSERT_EQ(cuckoo::internal::xxh3_u64<Xxh3Use::kForOneKey>(key, seeded.premix()), expected)
          << "key " << key << " seed " << seed;
    }
  }
}

// Each filter's inline path reads and writes its own table: after a copy, a move, a merge, clear() and
// deserialize(), the filter still agrees with a reference fed through the core.
TEST(InlineTable, FollowsTheTableThroughCopiesMovesMergesAndLoads) {
  const Options o = shape_options(4, 12, false, 1000, 5);
  const Keys keys = random_keys(3000, 11);
  CuckooFilter original(o), reference(o);
  insert_both(original, reference, keys.present, 0, 1000);

  CuckooFilter copy(original);
  CuckooFilter copy_reference(reference);
  insert_both(copy, copy_reference, keys.present, 1000, 2000);
  ASSERT_NO_FATAL_FAILURE(expect_same_state(copy, copy_reference));
  ASSERT_NO_FATAL_FAILURE(expect_same_state(original, reference));  // the copy's inserts stayed in the copy
  size_t positives = 0;
  ASSERT_NO_FATAL_FAILURE(expect_same_answers(original, reference, keys.present, &positives));

  CuckooFilter assigned(o);
  assigned = copy;
  ASSERT_NO_FATAL_FAILURE(expect_same_answers(assigned, copy_reference, keys.present, &positives));
  CuckooFilter moved(std::move(assigned));
  ASSERT_NO_FATAL_FAILURE(expect_same_answers(moved, copy_reference, keys.present, &positives));
  CuckooFilter move_assigned(o);
  move_assigned = std::move(moved);
  insert_both(move_assigned, copy_reference, keys.present, 2000, 2500);
  ASSERT_NO_FATAL_FAILURE(expect_same_state(move_assigned, copy_reference));

  CuckooFilter part(o), part_reference(o);
  insert_both(part, part_reference, keys.absent, 0, 500);
  original.merge(part);
  reference.merge(part_reference);
  ASSERT_NO_FATAL_FAILURE(expect_same_state(original, reference));
  insert_both(original, reference, keys.absent, 500, 1000);
  ASSERT_NO_FATAL_FAILURE(expect_same_state(original, reference));
  ASSERT_NO_FATAL_FAILURE(expect_same_answers(original, reference, keys.absent, &positives));

  CuckooFilter loaded = CuckooFilter::deserialize(original.serialize().data(), original.serialized_size(), false);
  ASSERT_TRUE(has_inline_table(loaded));
  ASSERT_NO_FATAL_FAILURE(expect_same_answers(loaded, reference, keys.present, &positives));
  insert_both(loaded, reference, keys.absent, 1000, 1500);
  ASSERT_NO_FATAL_FAILURE(expect_same_state(loaded, reference));

  loaded.clear();
  reference.clear();
  insert_both(loaded, reference, keys.present, 0, 500);
  ASSERT_NO_FATAL_FAILURE(expect_same_state(loaded, reference));
}

}  // namespace
