// native-tests/merge_test.cpp: CuckooFilter::merge.
//
// Property: for random key sets A and B inserted into two filters of one shape and seed, after
// a.merge(b) every key of A and of B is found (no false negatives), size() is the sum, and the merged
// filter serializes into bytes deserialize() accepts (its checks tie the item count to the entries and a
// parked victim to full buckets). Runs over every shape and many seeds, with loads from half to beyond
// what fits. When the union does not fit, merge throws std::length_error and the target's bytes are
// exactly as before (the strong guarantee). Shape mismatches throw std::invalid_argument naming the field.
#include <gtest/gtest.h>

#include <cuckoo/cuckoo.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core_access.h"
#include "filter_core.h"
#include "test_support.h"

namespace {

using cuckoo::CuckooFilter;
using cuckoo::internal::CoreAccess;
using cuckoo_test::all_shapes;
using cuckoo_test::options_for;
using cuckoo_test::Shape;
using cuckoo_test::shape_name;

// Inserts keys until one is refused; returns the keys stored (a parked victim's key included).
std::vector<uint64_t> fill(CuckooFilter& filter, std::mt19937_64& rng, uint64_t want) {
  std::vector<uint64_t> keys;
  for (uint64_t i = 0; i < want; ++i) {
    const uint64_t key = rng();
    if (!filter.insert(key)) break;
    keys.push_back(key);
  }
  return keys;
}

uint64_t table_entries(const CuckooFilter& f) {
  return CoreAccess::core(f).count_entries() + (f.is_full() ? 1 : 0);
}

class MergeProperty : public ::testing::TestWithParam<Shape> {};

TEST_P(MergeProperty, EveryKeyOfEitherFilterIsFoundOrTheTargetIsUnchanged) {
  const Shape shape = GetParam();
  const uint64_t rounds = std::max<uint64_t>(8, static_cast<uint64_t>(200 * cuckoo_test::test_scale()));
  int merged = 0, refused = 0;
  for (uint64_t seed = 1; seed <= rounds; ++seed) {
    std::mt19937_64 rng(seed * 1000003 + shape.b * 100 + shape.f);
    const uint64_t buckets = 64 + (rng() % 512);
    const auto options = options_for(shape, buckets, seed * 0x9E3779B97F4A7C15ull);
    CuckooFilter a(options), b(options);
    // Union loads from ~0.3 to ~1.2 of the slots: most fit, the largest cannot.
    const uint64_t slots = a.slot_count();
    const uint64_t total = slots * (30 + rng() % 90) / 100;
    const uint64_t share = total * (10 + rng() % 80) / 100;
    const std::vector<uint64_t> keys_a = fill(a, rng, share);
    const std::vector<uint64_t> keys_b = fill(b, rng, total - share);
    const std::vector<uint8_t> before = a.serialize();
    const uint64_t size_a = a.size(), size_b = b.size();

    try {
      a.merge(b);
    } catch (const std::length_error& e) {
      ++refused;
      EXPECT_EQ(a.serialize(), before) << "seed " << seed << ": a refused merge changed the target";
      EXPECT_NE(std::string(e.what()).find("unchanged"), std::string::npos) << e.what();
      continue;
    }
    ++merged;
    ASSERT_EQ(a.size(), size_a + size_b) << "seed " << seed;
    ASSERT_EQ(table_entries(a), a.size()) << "seed " << seed;
    for (uint64_t k : keys_a) ASSERT_TRUE(a.contains(k)) << "seed " << seed << ": lost a key of the target";
    for (uint64_t k : keys_b) ASSERT_TRUE(a.contains(k)) << "seed " << seed << ": lost a key of the source";
    // The source is untouched, and the result is a valid filter that answers alike after reloading.
    ASSERT_EQ(b.size(), size_b);
    const std::vector<uint8_t> bytes = a.serialize();
    const CuckooFilter reloaded = CuckooFilter::deserialize(bytes.data(), bytes.size());
    for (uint64_t k : keys_b) ASSERT_TRUE(reloaded.contains(k)) << "seed " << seed;
  }
  EXPECT_GT(merged, 0) << "no merge fit: the test exercises only refusals";
  RecordProperty("merged", merged);
  RecordProperty("refused", refused);
}

INSTANTIATE_TEST_SUITE_P(AllShapes, MergeProperty, ::testing::ValuesIn(all_shapes()), shape_name);

TEST(Merge, TakesTheSourcesParkedVictim) {
  const auto options = options_for({4, 12, false}, 64, 7);
  CuckooFilter full(options);
  std::mt19937_64 rng(11);
  const std::vector<uint64_t> keys = fill(full, rng, 1'000'000);
  ASSERT_TRUE(full.is_full());
  CuckooFilter empty(options);
  empty.merge(full);
  EXPECT_EQ(empty.size(), full.size());
  for (uint64_t k : keys) ASSERT_TRUE(empty.contains(k));
}

TEST(Merge, IntoAFullFilterIsRefusedUnlessTheSourceIsEmpty) {
  const auto options = options_for({4, 12, false}, 64, 7);
  CuckooFilter full(options);
  std::mt19937_64 rng(12);
  fill(full, rng, 1'000'000);
  ASSERT_TRUE(full.is_full());
  const std::vector<uint8_t> before = full.serialize();
  full.merge(CuckooFilter(options));  // nothing to add: fine
  CuckooFilter one(options);
  one.insert(uint64_t{1});
  EXPECT_THROW(full.merge(one), std::length_error);
  EXPECT_EQ(full.serialize(), before);
}

TEST(Merge, AFilterIntoItselfDoublesEveryEntry) {
  CuckooFilter f(options_for({4, 16, false}, 1024, 3));
  std::mt19937_64 rng(13);
  const std::vector<uint64_t> keys = fill(f, rng, 1000);
  f.merge(f);
  EXPECT_EQ(f.size(), 2 * keys.size());
  for (uint64_t k : keys) ASSERT_GE(f.count(k), 2u);
}

TEST(Merge, IsDeterministic) {
  const auto options = options_for({4, 13, true}, 512, 5);
  CuckooFilter a(options), b(options);
  std::mt19937_64 rng(14);
  fill(a, rng, 900);
  fill(b, rng, 900);
  CuckooFilter a2 = a;
  a.merge(b);
  a2.merge(b);
  EXPECT_EQ(a.serialize(), a2.serialize());
}

TEST(Merge, AMismatchNamesTheFieldAndChangesNothing) {
  const auto base = options_for({4, 12, false}, 1024, 9);
  struct Case {
    const char* name;
    cuckoo::Options options;
  };
  std::vector<Case> cases;
  auto o = base;
  o.bucket_size = 2;
  cases.push_back({"bucket sizes", o});
  o = base;
  o.fingerprint_bits = 13;
  cases.push_back({"fingerprint bits", o});
  o = base;
  o.fingerprint_bits = 13;
  o.semi_sort = true;
  cases.push_back({"semi-sorting", o});
  o = base;
  o.bucket_count = 2048;
  cases.push_back({"bucket counts", o});
  o = base;
  o.seed = 10;
  cases.push_back({"seeds", o});

  CuckooFilter target(base);
  target.insert("kept");
  const std::vector<uint8_t> before = target.serialize();
  for (const Case& c : cases) {
    CuckooFilter source(c.options);
    source.insert("other");
    try {
      target.merge(source);
      ADD_FAILURE() << c.name << ": no error";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(c.name), std::string::npos) << e.what();
    }
    EXPECT_EQ(target.serialize(), before) << c.name;
  }
  // max_kicks is not part of the shape: it only bounds the target's own walks.
  o = base;
  o.max_kicks = 10;
  CuckooFilter other_kicks(o);
  other_kicks.insert("other");
  target.merge(other_kicks);
  EXPECT_TRUE(target.contains("other"));
}

}  // namespace

// Growing filters merge level by level: every key of either is found afterwards, whether the parts fit in
// the levels they share or the source brings levels the target grows to take. When they do not fit, the
// target is unchanged.
TEST(MergeGrowing, EveryKeyOfEitherFilterIsFoundOrTheTargetIsUnchanged) {
  int merged = 0, refused = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 rng(seed);
    cuckoo::Options o;
    o.growable = true;
    o.bucket_size = seed % 3 == 0 ? 2 : 4;
    o.semi_sort = seed % 5 == 0 && o.bucket_size == 4;
    o.capacity = 64 + rng() % 2000;
    o.seed = seed;
    CuckooFilter a(o), b(o);
    // Both within half the first level (they fit); a small target and a source that grew (the target grows
    // to the source's levels); anything (mostly too much for the levels they share).
    const uint64_t mode = seed % 3;
    const uint64_t want_a = rng() % (mode == 2 ? 4 * o.capacity : o.capacity * 2 / 5);
    const uint64_t want_b = rng() % (mode == 0 ? o.capacity * 2 / 5 : 8 * o.capacity);
    std::vector<uint64_t> ka = fill(a, rng, want_a);
    std::vector<uint64_t> kb = fill(b, rng, want_b);
    const auto before = a.serialize();
    try {
      a.merge(b);
    } catch (const std::length_error&) {
      ++refused;
      EXPECT_EQ(a.serialize(), before) << "seed " << seed << ": a refused merge changed the target";
      continue;
    }
    ++merged;
    EXPECT_GE(a.levels(), b.levels());
    EXPECT_EQ(a.size(), ka.size() + kb.size());
    for (uint64_t k : ka) ASSERT_TRUE(a.contains(k)) << "seed " << seed << ": lost a key of the target";
    for (uint64_t k : kb) ASSERT_TRUE(a.contains(k)) << "seed " << seed << ": lost a key of the source";
    const auto bytes = a.serialize();
    EXPECT_EQ(CuckooFilter::deserialize(bytes.data(), bytes.size()).serialize(), bytes);
  }
  EXPECT_GE(merged, 13);  // every pair of the first kind, at least
  EXPECT_GT(refused, 0);
}

// Parts built apart from shares of the keys, with one key in every share several times: the union holds
// that key 2b times, the most an insert allows, and drops the other copies as inserts would refuse them,
// so the parts merge although their copies together exceed 2b.
TEST(Merge, CopiesOfAKeyInEveryPartMerge) {
  for (bool growable : {false, true}) {
    SCOPED_TRACE(growable ? "growing" : "fixed");
    cuckoo::Options o;
    o.capacity = 50'000;
    o.growable = growable;
    o.seed = 42;
    std::vector<CuckooFilter> parts;
    for (uint64_t part = 0; part < 4; ++part) {
      parts.emplace_back(o);
      for (int copy = 0; copy < 3; ++copy) ASSERT_TRUE(parts.back().insert("common"));
      for (uint64_t k = 0; k < 10'000; ++k) ASSERT_TRUE(parts.back().insert(part * 10'000 + k));
    }
    for (size_t part = 1; part < parts.size(); ++part) parts[0].merge(parts[part]);
    EXPECT_EQ(parts[0].count("common"), 8u);
    EXPECT_EQ(parts[0].size(), 40'000u + 8);
    for (uint64_t k = 0; k < 40'000; ++k) ASSERT_TRUE(parts[0].contains(k)) << k;
  }
}

// A target that may not grow (max_memory_bytes) still takes the entries of the source's newer levels,
// coarsened into its own levels while they have room.
TEST(MergeGrowing, ATargetThatCannotGrowTakesNewerLevelsInOlderOnes) {
  cuckoo::Options o;
  o.growable = true;
  o.bucket_count = 64;
  o.fingerprint_bits = 12;
  CuckooFilter source(o);
  std::vector<uint64_t> keys;
  for (uint64_t k = 1; source.levels() < 3; ++k)
    if (source.insert(k)) keys.push_back(k);
  // A few keys of each level: erase all but every 16th.
  std::vector<uint64_t> kept;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i % 16 == 0) {
      kept.push_back(keys[i]);
    } else {
      ASSERT_TRUE(source.erase(keys[i]));
    }
  }
  ASSERT_EQ(source.levels(), 3u);
  o.max_memory_bytes = cuckoo::resolve(o).table_bytes();  // level 0 only: the target can never grow
  CuckooFilter target(o);
  ASSERT_TRUE(target.insert(uint64_t{1} << 40));
  target.merge(source);
  EXPECT_EQ(target.levels(), 1u);
  EXPECT_EQ(target.size(), kept.size() + 1);
  for (uint64_t k : kept) ASSERT_TRUE(target.contains(k)) << k;
  EXPECT_TRUE(target.contains(uint64_t{1} << 40));
}

TEST(MergeGrowing, AGrowingAndAFixedFilterDoNotMerge) {
  cuckoo::Options o;
  o.capacity = 1000;
  CuckooFilter fixed(o);
  o.growable = true;
  CuckooFilter growing(o);
  try {
    growing.merge(fixed);
    FAIL() << "merged a fixed filter into a growing one";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("growable"), std::string::npos) << e.what();
  }
}
