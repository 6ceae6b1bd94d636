// native-tests/growth_test.cpp: growing filters (Options::growable; core/src/growing_core.h, level_hasher.h).
//
// A growing filter keeps its two promises only if the levels nest: every older level's view of a key
// (bucket pair, fingerprint) must be a function of its view in any newer level, and erase must walk the
// levels newest first. Then an erase never takes the last entry of another live key. Tested here:
// - LevelHasher: the coarsening identities, checked exhaustively on small shapes (a large random sample
//   on bigger ones); level 0 is hash.h's BucketHasher; alt_s is an involution without a fixed point.
// - A model-based multiset test on filters that start with 2 buckets and grow to 10 or more levels, with
//   repeated keys, serialize/deserialize in the middle, and every live key checked after every operation.
// - Many levels grown, then a random half erased; a key repeated 10^5 times; keys crafted (by inverting
//   the hash) to share one bucket pair at every level, on tiny and on realistically sized filters;
//   max_memory_bytes; the version 2 format (round trip, truncation, bit flips, each consistency check).
// native-tests/mutation.sh builds these tests against a core with the erase order or the coarsening
// broken (CUCKOO_MUTANT_* in core/src) and requires them to fail.
//
// CUCKOO_GROWTH_SEED (an integer) varies every seed below, for runs that look for rare failures.
#include <gtest/gtest.h>

#include <cuckoo/cuckoo.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "core_access.h"
#include "growing_core.h"
#include "hash.h"
#include "level_hasher.h"
#include "test_support.h"

namespace {

using cuckoo::CuckooFilter;
using cuckoo::FormatError;
using cuckoo::Options;
using cuckoo::internal::BucketHasher;
using cuckoo::internal::CoreAccess;
using cuckoo::internal::GrowingCore;
using cuckoo::internal::level_extra_bits;
using cuckoo::internal::LevelHasher;
using cuckoo_test::le_bytes;
using cuckoo_test::test_scale;
using Bytes = std::vector<uint8_t>;

uint64_t seed_offset() {
  const char* s = std::getenv("CUCKOO_GROWTH_SEED");
  return s == nullptr ? 0 : std::strtoull(s, nullptr, 10) * 0x9E3779B97F4A7C15ull;
}

const GrowingCore& growing(const CuckooFilter& f) { return static_cast<const GrowingCore&>(CoreAccess::core(f)); }

Options growable(unsigned b, unsigned f, bool semi, uint64_t n0, uint64_t seed, unsigned kicks = 500) {
  Options o;
  o.growable = true;
  o.bucket_size = b;
  o.fingerprint_bits = f;
  o.semi_sort = semi;
  o.bucket_count = n0;
  o.seed = seed;
  o.max_kicks = kicks;
  o.huge_pages = false;
  return o;
}

// ---------------------------------------------------------------------------------------------------------
// LevelHasher: the spec's identities.

// (index, fingerprint) pairs of level s are visited exhaustively up to this many, else this many at random.
constexpr uint64_t kViewsPerLevel = uint64_t{1} << 16;

// Calls visit(i, fp) for level s's bucket indexes and fingerprints: fp_s = (fp0 << d_s) | extra with
// fp0 in [1, 2^f0 - 1], so fp_s ranges over [2^d_s, 2^(f0 + d_s) - 1].
template <typename Visit>
void for_level_views(uint64_t n0, unsigned f0, unsigned s, std::mt19937_64& rng, Visit visit) {
  const uint64_t n = n0 << s;
  const unsigned d = level_extra_bits(s);
  const uint64_t fp_lo = uint64_t{1} << d;
  const uint64_t fps = (uint64_t{1} << (f0 + d)) - fp_lo;
  if (n <= kViewsPerLevel && fps <= kViewsPerLevel && n * fps <= kViewsPerLevel) {
    for (uint64_t i = 0; i < n; ++i)
      for (uint64_t fp = fp_lo; fp < fp_lo + fps; ++fp) visit(i, static_cast<uint32_t>(fp));
  } else {
    for (uint64_t k = 0; k < kViewsPerLevel; ++k) visit(rng() % n, static_cast<uint32_t>(fp_lo + rng() % fps));
  }
}

struct HasherShape {
  uint64_t n0;
  unsigned f0;
  unsigned max_level;
};

// Every n0 in 2..16 (even) with f0 in 4..12 and levels up to 8, then a few larger shapes, sampled.
std::vector<HasherShape> hasher_shapes() {
  std::vector<HasherShape> shapes;
  for (uint64_t n0 = 2; n0 <= 16; n0 += 2)
    for (unsigned f0 = 4; f0 <= 12; ++f0) shapes.push_back({n0, f0, 8});
  shapes.push_back({1000, 7, 12});
  shapes.push_back({26318, 12, 16});
  shapes.push_back({uint64_t{1} << 20, 16, 12});
  shapes.push_back({(uint64_t{1} << 31) - 2, 20, 1});
  return shapes;
}

TEST(LevelHasher, LevelZeroIsTheFixedFiltersHashing) {
  std::mt19937_64 rng(1);
  for (const HasherShape& shape : hasher_shapes()) {
    const LevelHasher level0(shape.n0, shape.f0, 0);
    const BucketHasher fixed(shape.n0, shape.f0);
    for (int k = 0; k < 4096; ++k) {
      const uint64_t h = rng();
      ASSERT_EQ(level0.index(h), fixed.index(h)) << "n0=" << shape.n0 << " f0=" << shape.f0;
      ASSERT_EQ(level0.fingerprint(h), fixed.fingerprint(h)) << "n0=" << shape.n0 << " f0=" << shape.f0;
    }
    for_level_views(shape.n0, shape.f0, 0, rng, [&](uint64_t i, uint32_t fp) {
      ASSERT_EQ(level0.alt_index(i, fp), fixed.alt_index(i, fp)) << "n0=" << shape.n0 << " f0=" << shape.f0;
    });
  }
}

// index_s >> 1 == index_{s-1} and fp_s >> (d_s - d_{s-1}) == fp_{s-1}, for key hashes.
TEST(LevelHasher, KeyViewsCoarsen) {
  std::mt19937_64 rng(2);
  for (const HasherShape& shape : hasher_shapes()) {
    for (unsigned s = 1; s <= shape.max_level; ++s) {
      const LevelHasher newer(shape.n0, shape.f0, s), older(shape.n0, shape.f0, s - 1);
      const unsigned shift = level_extra_bits(s) - level_extra_bits(s - 1);
      for (int k = 0; k < 4096; ++k) {
        const uint64_t h = rng();
        const uint32_t fp = newer.fingerprint(h);
        ASSERT_EQ(newer.index(h) >> 1, older.index(h)) << "n0=" << shape.n0 << " f0=" << shape.f0 << " s=" << s;
        ASSERT_EQ(fp >> shift, older.fingerprint(h)) << "n0=" << shape.n0 << " f0=" << shape.f0 << " s=" << s;
        ASSERT_LT(newer.index(h), shape.n0 << s);
        ASSERT_GE(fp >> level_extra_bits(s), 1u);  // fp0 >= 1: no key has the empty fingerprint
        ASSERT_LT(fp, uint64_t{1} << (shape.f0 + level_extra_bits(s)));
      }
    }
  }
}

// alt_s(i, fp_s) >> 1 == alt_{s-1}(i >> 1, fp_s >> (d_s - d_{s-1})), for every bucket and fingerprint.
TEST(LevelHasher, AlternateBucketsCoarsen) {
  std::mt19937_64 rng(3);
  uint64_t checked = 0;
  for (const HasherShape& shape : hasher_shapes()) {
    for (unsigned s = 1; s <= shape.max_level; ++s) {
      const LevelHasher newer(shape.n0, shape.f0, s), older(shape.n0, shape.f0, s - 1);
      const unsigned shift = level_extra_bits(s) - level_extra_bits(s - 1);
      bool ok = true;
      for_level_views(shape.n0, shape.f0, s, rng, [&](uint64_t i, uint32_t fp) {
        ++checked;
        if (ok && (newer.alt_index(i, fp) >> 1) != older.alt_index(i >> 1, fp >> shift)) {
          ok = false;
          ADD_FAILURE() << "n0=" << shape.n0 << " f0=" << shape.f0 << " s=" << s << " i=" << i << " fp=" << fp
                        << ": alt_s >> 1 = " << (newer.alt_index(i, fp) >> 1)
                        << ", alt_{s-1} = " << older.alt_index(i >> 1, fp >> shift);
        }
      });
      if (!ok) return;
    }
  }
  EXPECT_GT(checked, 20'000'000u);
}

TEST(LevelHasher, AlternateIsAnInvolutionWithoutFixedPoint) {
  std::mt19937_64 rng(4);
  for (const HasherShape& shape : hasher_shapes()) {
    for (unsigned s = 0; s <= shape.max_level; ++s) {
      const LevelHasher level(shape.n0, shape.f0, s);
      bool ok = true;
      for_level_views(shape.n0, shape.f0, s, rng, [&](uint64_t i, uint32_t fp) {
        const uint64_t alt = level.alt_index(i, fp);
        if (ok && (alt >= (shape.n0 << s) || alt == i || level.alt_index(alt, fp) != i)) {
          ok = false;
          ADD_FAILURE() << "n0=" << shape.n0 << " f0=" << shape.f0 << " s=" << s << " i=" << i << " fp=" << fp
                        << ": alt=" << alt << ", alt(alt)=" << level.alt_index(alt, fp);
        }
      });
      if (!ok) return;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// The model-based multiset test.

struct GrowthCase {
  unsigned b, f;
  bool semi;
  unsigned kicks;
};

void PrintTo(const GrowthCase& c, std::ostream* os) {
  *os << "b=" << c.b << " f=" << c.f << (c.semi ? " semi-sorted" : "") << " kicks=" << c.kicks;
}

// Operations per case in an optimised build (test_scale() shrinks them under sanitizers); the cases
// below add up to more than 10^6.
constexpr uint64_t kOpsPerCase = 100'000;
// The live set's band once the filter has grown: small, so that checking every live key after every
// operation stays cheap.
constexpr size_t kLowLive = 16, kHighLive = 96;
// Every live key is checked after every operation while there are at most this many; on the way up to
// kTargetLevels levels and back down (a few thousand keys, a few percent of the operations) every
// ceil(live / kFullCheckKeys)-th operation, and the key just used after every operation.
constexpr size_t kFullCheckKeys = 256;
constexpr unsigned kTargetLevels = 10;

// One run: a filter of n0 = 2 buckets grown to kTargetLevels levels, shrunk, then random operations.
// Keys are u64s, used both as integers and as their 8 little-endian bytes (the same key).
class GrowthRun {
 public:
  GrowthRun(const GrowthCase& c, uint64_t seed)
      : case_(c), filter_(growable(c.b, c.f, c.semi, 2, seed, c.kicks)), rng_(seed ^ 0x6A09E667F3BCC909ull) {}

  void run(uint64_t ops) {
    // Grow: mostly new keys, some repeats, erases and lookups, until the filter has kTargetLevels levels.
    while (!failed_ && filter_.levels() < kTargetLevels) {
      step(/*insert=*/70, /*repeat=*/10, /*erase=*/10);
      if (ops_ > 200'000) {
        ADD_FAILURE() << "did not reach " << kTargetLevels << " levels in " << ops_ << " operations";
        return;
      }
    }
    max_live_ = distinct_.size();
    // Shrink to the band, then stay in it, forking a deserialized copy twice on the way.
    while (!failed_ && distinct_.size() > kHighLive) step(10, 5, 75);
    const uint64_t fork_at[] = {ops_ + (ops - std::min(ops, ops_)) / 4, ops_ + (ops - std::min(ops, ops_)) * 3 / 5};
    for (uint64_t at : fork_at) {
      while (!failed_ && ops_ < at) band_step();
      if (failed_) return;
      fork();
      for (int k = 0; k < 2000 && !failed_; ++k) band_step();
      join();
    }
    while (!failed_ && ops_ < ops) band_step();
    EXPECT_GE(filter_.levels(), kTargetLevels);
  }

  uint64_t ops() const { return ops_; }
  size_t max_live() const { return max_live_; }
  unsigned levels() const { return filter_.levels(); }
  uint64_t copies_refused() const { return copies_refused_; }
  uint64_t jams_refused() const { return jams_refused_; }

 private:
  void band_step() {
    if (distinct_.size() < kLowLive) return step(70, 10, 10);
    if (distinct_.size() > kHighLive) return step(10, 10, 70);
    step(35, 10, 35);
  }

  // One random operation: insert a new key (insert %), insert a live key again (repeat %), erase a copy
  // of a live key (erase %), else a lookup. Then the full check.
  void step(int insert, int repeat, int erase) {
    ++ops_;
    const int r = static_cast<int>(rng_() % 100);
    if (r < insert || distinct_.empty()) {
      do_insert(rng_());
    } else if (r < insert + repeat) {
      do_insert(distinct_[rng_() % distinct_.size()]);
    } else if (r < insert + repeat + erase) {
      do_erase(distinct_[rng_() % distinct_.size()]);
    } else {
      const uint64_t key = (r & 1) ? rng_() : distinct_[rng_() % distinct_.size()];
      const bool found = filter_.contains(key);
      if (found != (filter_.count(key) > 0)) fail("contains and count disagree on " + std::to_string(key));
      if (twin_ && twin_->contains(le_bytes(key)) != found) fail("the deserialized copy answers differently");
    }
    const size_t every = (distinct_.size() + kFullCheckKeys - 1) / kFullCheckKeys;
    if (every <= 1 || ops_ % every == 0) check_all();
  }

  // Whether inserting the key could be refused: only if the newest level is not full (else the insert
  // adds a level, which takes it) and both of the key's buckets there are full (else it goes into one).
  bool may_be_refused(uint64_t key) const {
    const cuckoo::Config& c = filter_.config();
    const unsigned s = filter_.levels() - 1;
    const cuckoo::internal::FilterCore& newest = growing(filter_).level(s);
    if (newest.is_full()) return false;
    const LevelHasher hasher(c.bucket_count, c.fingerprint_bits, s);
    const uint64_t h = filter_.hash(key);
    const uint64_t i = hasher.index(h);
    return !newest.has_empty_entry(i) && !newest.has_empty_entry(hasher.alt_index(i, hasher.fingerprint(h)));
  }

  void do_insert(uint64_t key) {
    // Refusals must change nothing: the bytes before are kept to compare.
    const bool snapshot = may_be_refused(key);
    if (snapshot) {
      before_.resize(filter_.serialized_size());
      filter_.serialize_to(before_.data());
    }
    const bool as_bytes = (rng_() & 3) == 0;
    const bool stored = as_bytes ? filter_.insert(le_bytes(key)) : filter_.insert(key);
    if (twin_ && twin_->insert(key) != stored) fail("the deserialized copy inserts differently");
    if (stored) {
      if (live_[key]++ == 0) {
        index_[key] = distinct_.size();
        distinct_.push_back(key);
      }
      ++total_;
      check_key(key);
      return;
    }
    if (live_.count(key) == 0) live_.erase(key);
    if (!snapshot) return fail("insert of " + std::to_string(key) +
                               " returned false although one of its buckets "
                               "in the newest level has room");
    if (filter_.serialize() != before_) return fail("a refused insert changed the filter's bytes");
    // Why it was refused. Without max_memory_bytes and far below the level limit, only one of the two
    // documented refusals: the key's buckets in the newest level hold 2b copies of its fingerprint, or
    // a walk failed while the newest level was less than half full.
    const cuckoo::internal::FilterCore& newest = growing(filter_).level(filter_.levels() - 1);
    if (newest.count(filter_.hash(key)) >= 2 * case_.b) {
      ++copies_refused_;
    } else if (newest.size() < newest.slot_count() / 2) {
      ++jams_refused_;
    } else {
      fail("insert of " + std::to_string(key) +
           " returned false although the filter is neither refusing a copy "
           "nor jammed (newest level " +
           std::to_string(newest.size()) + "/" +
           std::to_string(newest.slot_count()) + ", is_full " + std::to_string(filter_.is_full()) + ")");
    }
  }

  void do_erase(uint64_t key) {
    const bool as_bytes = (rng_() & 3) == 0;
    const bool erased = as_bytes ? filter_.erase(le_bytes(key)) : filter_.erase(key);
    if (twin_ && twin_->erase(key) != erased) fail("the deserialized copy erases differently");
    if (!erased) return fail("erase of live key " + std::to_string(key) + " (" + std::to_string(live_[key]) +
                             " copies) returned false");
    --total_;
    if (--live_[key] == 0) {
      live_.erase(key);
      const size_t at = index_[key];
      index_[distinct_.back()] = at;
      distinct_[at] = distinct_.back();
      distinct_.pop_back();
      index_.erase(key);
    } else {
      check_key(key);
    }
  }

  void check_key(uint64_t key) {
    const unsigned copies = live_[key];
    if (!filter_.contains(key) || filter_.count(key) < copies)
      fail("live key " + std::to_string(key) + " (" + std::to_string(copies) + " copies) lost");
  }

  // Every live key is found (one batched lookup), and each key with several live copies is counted at
  // least as often (contains() == (count() > 0) is checked on the lookups of step()).
  void check_all() {
    if (failed_) return;
    if (filter_.size() != total_)
      return fail("size() " + std::to_string(filter_.size()) + " != " + std::to_string(total_) + " live copies");
    found_.assign(distinct_.size(), 0);
    filter_.contains_many(distinct_.data(), distinct_.size(), found_.data());
    for (size_t j = 0; j < distinct_.size(); ++j) {
      const uint64_t key = distinct_[j];
      if (!found_[j]) return fail("false negative: live key " + std::to_string(key) + " (" +
                                  std::to_string(live_[key]) + " copies) not found by contains_many");
    }
    for (const auto& [key, copies] : live_) {
      if (copies == 1) continue;
      const size_t counted = filter_.count(key);
      if (counted < copies) return fail("count(" + std::to_string(key) + ") = " + std::to_string(counted) + " < " +
                                        std::to_string(copies) + " live copies");
    }
  }

  void fork() {
    const Bytes bytes = filter_.serialize();
    twin_.emplace(CuckooFilter::deserialize(bytes.data(), bytes.size()));
    if (twin_->serialize() != bytes) fail("deserialize + serialize is not the identity");
  }
  void join() {
    if (!failed_ && twin_->serialize() != filter_.serialize())
      fail("the filter and its deserialized copy diverged after the same operations");
    twin_.reset();
  }

  void fail(const std::string& why) {
    if (failed_) return;
    failed_ = true;
    ADD_FAILURE() << "operation " << ops_ << ", " << filter_.levels() << " levels, " << total_
                  << " live copies: " << why;
  }

  GrowthCase case_;
  CuckooFilter filter_;
  std::optional<CuckooFilter> twin_;
  std::mt19937_64 rng_;
  std::unordered_map<uint64_t, unsigned> live_;  // key -> copies inserted and not erased
  std::unordered_map<uint64_t, size_t> index_;   // key -> position in distinct_
  std::vector<uint64_t> distinct_;               // the live keys, each once
  std::vector<uint8_t> found_;
  Bytes before_;
  uint64_t total_ = 0, ops_ = 0, copies_refused_ = 0, jams_refused_ = 0;
  size_t max_live_ = 0;
  bool failed_ = false;
};

class GrowthModel : public ::testing::TestWithParam<GrowthCase> {};

TEST_P(GrowthModel, NoFalseNegativesAcrossTenLevels) {
  const GrowthCase c = GetParam();
  const uint64_t ops = std::max<uint64_t>(20'000, static_cast<uint64_t>(kOpsPerCase * test_scale()));
  const auto start = std::chrono::steady_clock::now();
  uint64_t total_ops = 0, copies = 0, jams = 0;
  size_t max_live = 0;
  unsigned max_levels = 0;
  const uint64_t seeds = 2;
  for (uint64_t k = 0; k < seeds && !HasFailure(); ++k) {
    const uint64_t seed = (uint64_t{c.b} << 40) + (uint64_t{c.f} << 32) + (c.semi << 24) + c.kicks * 2 + k;
    GrowthRun run(c, seed + seed_offset());
    run.run(ops / seeds);
    total_ops += run.ops();
    copies += run.copies_refused();
    jams += run.jams_refused();
    max_live = std::max(max_live, run.max_live());
    max_levels = std::max(max_levels, run.levels());
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "  %llu operations, up to %u levels and %zu live keys, %llu copies and %llu jammed walks refused, "
      "%.2f s\n",
      static_cast<unsigned long long>(total_ops), max_levels, max_live,
      static_cast<unsigned long long>(copies), static_cast<unsigned long long>(jams), seconds);
}

const GrowthCase kGrowthCases[] = {
    {2, 4, false, 500},
    {2, 6, false, 500},
    {2, 9, false, 500},
    {2, 5, false, 8},
    {4, 4, false, 500},
    {4, 5, false, 500},
    {4, 8, false, 500},
    {4, 12, false, 500},
    {4, 5, true, 500},
    {4, 9, true, 500},
    {4, 6, false, 16},
    {8, 4, false, 500},
};
static_assert(sizeof kGrowthCases / sizeof kGrowthCases[0] * kOpsPerCase >= 1'000'000);

INSTANTIATE_TEST_SUITE_P(Cases, GrowthModel, ::testing::ValuesIn(kGrowthCases),
                         [](const ::testing::TestParamInfo<GrowthCase>& info) {
                           const GrowthCase& c = info.param;
                           return "b" + std::to_string(c.b) + "_f" + std::to_string(c.f) + (c.semi ? "_semisort" : "") +
                                  "_kicks" + std::to_string(c.kicks);
                         });

// ---------------------------------------------------------------------------------------------------------
// The lookup paths agree. GrowingCore answers lookups from LevelViews (level_view.h) when every level's
// table has the flat layout, and through each level's CuckooCore otherwise; both must give the answer of
// the levels' own probes for every key, present or absent (false positives included), single and batched.

// Whether any level's own CuckooCore holds the key: the reference answer.
bool any_level_contains(const GrowingCore& core, uint64_t hash) {
  for (unsigned s = 0; s < core.level_count(); ++s)
    if (core.level(s).contains_hashed(hash)) return true;
  return false;
}

TEST(GrowthLookup, ViewsAgreeWithEachLevelsOwnProbe) {
  struct Shape {
    unsigned b, f;
    bool semi;
  };
  // b = 2, 4, 8; widths on both sides of the views' limit (28 bits take views; wider do not, so f0 = 26
  // to 28 switch to the levels' own probes as levels add bits); semi-sorted never takes them.
  const Shape shapes[] = {{2, 4, false}, {2, 13, false}, {4, 5, false}, {4, 12, false}, {4, 15, false}, {4, 26, false}, {4, 27, false}, {4, 28, false}, {2, 28, false}, {8, 7, false}, {8, 22, false}, {4, 9, true}};
  for (const Shape& shape : shapes) {
    SCOPED_TRACE("b=" + std::to_string(shape.b) + " f=" + std::to_string(shape.f) + (shape.semi ? " semi" : ""));
    CuckooFilter filter(growable(shape.b, shape.f, shape.semi, 4, 99 + shape.f));
    const GrowingCore& core = growing(filter);
    std::mt19937_64 rng(shape.f * 31 + shape.b);
    std::vector<uint64_t> keys;
    // Up to 9 levels.
    for (unsigned i = 0; i < 6000 && filter.levels() < 9; ++i) {
      const uint64_t key = rng();
      if (!filter.insert(key)) break;
      keys.push_back(key);
    }
    // Absent keys: enough that the small fingerprints give false positives, which must agree too.
    for (int i = 0; i < 20000; ++i) keys.push_back(rng());
    std::vector<uint8_t> batched(keys.size(), 2);
    filter.contains_many(keys.data(), keys.size(), batched.data());
    size_t hits = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
      const bool expected = any_level_contains(core, filter.hash(keys[i]));
      ASSERT_EQ(filter.contains(keys[i]), expected) << "key " << i << " of " << keys.size();
      ASSERT_EQ(batched[i], expected ? 1 : 0) << "key " << i << " of " << keys.size();
      hits += expected;
    }
    EXPECT_GE(filter.levels(), 2u);
    EXPECT_GT(hits, 0u);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Many levels, then a random half erased.

TEST(GrowthErase, ManyLevelsThenARandomHalf) {
  const int seeds = std::max(8, static_cast<int>(60 * test_scale()));
  const GrowthCase cases[] = {{2, 4, false, 500}, {2, 7, false, 500}, {4, 4, false, 500}, {4, 6, false, 500}, {4, 5, true, 500}, {8, 5, false, 500}};
  for (int k = 0; k < seeds; ++k) {
    const GrowthCase& c = cases[k % (sizeof cases / sizeof cases[0])];
    const uint64_t n0 = 2 + 2 * (k % 3);
    const uint64_t seed = 1000 + k + seed_offset();
    SCOPED_TRACE("seed " + std::to_string(seed) + " b=" + std::to_string(c.b) + " f=" + std::to_string(c.f) +
                 " n0=" + std::to_string(n0));
    CuckooFilter f(growable(c.b, c.f, c.semi, n0, seed));
    std::mt19937_64 rng(seed);
    std::vector<uint64_t> copies;  // one entry per stored copy
    while (f.levels() < 7) {
      const uint64_t key = (!copies.empty() && rng() % 8 == 0) ? copies[rng() % copies.size()] : rng();
      if (f.insert(key)) copies.push_back(key);
    }
    std::shuffle(copies.begin(), copies.end(), rng);
    const size_t half = copies.size() / 2;
    for (size_t j = 0; j < half; ++j) ASSERT_TRUE(f.erase(copies[j])) << copies[j];
    std::unordered_map<uint64_t, size_t> rest;
    for (size_t j = half; j < copies.size(); ++j) ++rest[copies[j]];
    for (const auto& [key, n] : rest) {
      ASSERT_TRUE(f.contains(key)) << key;
      ASSERT_GE(f.count(key), n) << key;
    }
    ASSERT_EQ(f.size(), copies.size() - half);
    // Erasing the other half too leaves every level empty.
    for (size_t j = half; j < copies.size(); ++j) ASSERT_TRUE(f.erase(copies[j])) << copies[j];
    EXPECT_EQ(f.size(), 0u);
    EXPECT_EQ(CoreAccess::core(f).count_entries(), 0u);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Repeated and crafted keys: no unbounded growth, no key lost.

TEST(GrowthHostile, OneKeyRepeatedIsStoredTwoBTimesAndRefusedAlone) {
  for (unsigned b : {2u, 4u, 8u}) {
    Options o;
    o.growable = true;
    o.bucket_size = b;
    CuckooFilter f(o);
    const Bytes empty = f.serialize();
    unsigned stored = 0;
    for (int k = 0; k < 100'000; ++k) stored += f.insert(std::string_view("again")) ? 1 : 0;
    EXPECT_EQ(stored, 2 * b);
    EXPECT_EQ(f.levels(), 1u);
    EXPECT_EQ(f.size(), 2 * b);
    EXPECT_EQ(f.count(std::string_view("again")), 2 * b);
    EXPECT_FALSE(f.is_full());
    // Other keys are unaffected.
    for (uint64_t key = 0; key < 500; ++key) ASSERT_TRUE(f.insert(key)) << key;
    for (uint64_t key = 0; key < 500; ++key) ASSERT_TRUE(f.contains(key)) << key;
    for (unsigned k = 0; k < 2 * b; ++k) ASSERT_TRUE(f.erase(std::string_view("again")));
    for (uint64_t key = 0; key < 500; ++key) ASSERT_TRUE(f.erase(key)) << key;
    EXPECT_EQ(f.serialize().size(), empty.size());
    EXPECT_EQ(f.size(), 0u);
  }
}

// The inverse of hash_u64 for a known seed: XXH3 of 8 bytes is a bijection (hash.h, SeededU64Hash), so an
// attacker who knows the seed can pick the key hashes. Used to craft keys.
class HashInverter {
 public:
  explicit HashInverter(uint64_t seed) {
    const uint64_t mixed_seed = seed ^ (uint64_t{XXH_swap32(static_cast<uint32_t>(seed))} << 32);
    bitflip_ = (XXH_readLE64(XXH3_kSecret + 8) ^ XXH_readLE64(XXH3_kSecret + 16)) - mixed_seed;
    // The GF(2)-linear step x ^ rotl(x, 49) ^ rotl(x, 24), inverted by Gauss-Jordan elimination: row j of
    // the augmented system says which input bits make output bit j.
    uint64_t rows[64], inverse[64];
    for (int j = 0; j < 64; ++j) {
      rows[j] = 0;
      inverse[j] = uint64_t{1} << j;
    }
    for (int i = 0; i < 64; ++i) {
      const uint64_t out = linear(uint64_t{1} << i);
      for (int j = 0; j < 64; ++j)
        if ((out >> j) & 1) rows[j] |= uint64_t{1} << i;
    }
    for (int col = 0; col < 64; ++col) {
      int pivot = col;
      while (!((rows[pivot] >> col) & 1)) ++pivot;  // the step is a bijection: a pivot exists
      std::swap(rows[col], rows[pivot]);
      std::swap(inverse[col], inverse[pivot]);
      for (int j = 0; j < 64; ++j) {
        if (j != col && ((rows[j] >> col) & 1)) {
          rows[j] ^= rows[col];
          inverse[j] ^= inverse[col];
        }
      }
    }
    std::copy(inverse, inverse + 64, inverse_rows_);
    prime_inverse_ = kPrime;
    for (int k = 0; k < 6; ++k) prime_inverse_ *= 2 - kPrime * prime_inverse_;  // Newton: inverse mod 2^64
  }

  // The key whose hash_u64 is h.
  uint64_t key_for(uint64_t h) const {
    h ^= (h >> 28) ^ (h >> 56);  // undo xorshift64(h, 28)
    h *= prime_inverse_;
    h ^= (h >> 35) + 8;  // undo h ^= (h >> 35) + len: the top 35 bits are unchanged by it
    h *= prime_inverse_;
    uint64_t x = 0;
    for (int i = 0; i < 64; ++i) x |= static_cast<uint64_t>(__builtin_parityll(inverse_rows_[i] & h)) << i;
    const uint64_t swapped = x ^ bitflip_;
    return (swapped << 32) | (swapped >> 32);
  }

 private:
  static constexpr uint64_t kPrime = 0x9FB21C651E98DF25ull;
  static uint64_t linear(uint64_t x) { return x ^ XXH_rotl64(x, 49) ^ XXH_rotl64(x, 24); }
  uint64_t bitflip_ = 0, prime_inverse_ = 0;
  uint64_t inverse_rows_[64];
};

TEST(GrowthHostile, HashInverterFindsTheKey) {
  for (uint64_t seed : {0ull, 1ull, 0xDEADBEEFCAFEull}) {
    const HashInverter inverter(seed);
    std::mt19937_64 rng(seed);
    for (int k = 0; k < 10000; ++k) {
      const uint64_t h = rng();
      ASSERT_EQ(cuckoo::internal::hash_u64(inverter.key_for(h), seed), h);
    }
  }
}

// Ordinary traffic with hot keys: a third of the inserts repeat one of 300 keys, so their buckets fill
// with copies and other keys' walks through them fail below half load, in levels large enough to refuse
// such walks (4096 slots or more). Each refusal must leave the filter as it was, in plain and in
// semi-sorted levels; a sample of them is checked byte for byte, and every key at the end.
TEST(GrowthHostile, HotKeysLoseNothing) {
  for (bool semi : {false, true}) {
    SCOPED_TRACE(semi ? "semi-sorted" : "plain");
    Options o;
    o.growable = true;
    o.semi_sort = semi;
    o.seed = 11;
    CuckooFilter f(o);
    std::mt19937_64 rng(semi ? 5 : 6);
    std::unordered_map<uint64_t, size_t> live;
    uint64_t refused = 0;
    for (uint64_t k = 0; k < 60000; ++k) {
      const uint64_t key = rng() % 3 == 0 ? rng() % 300 : (uint64_t{1} << 32) + k;
      const bool check = refused % 64 == 0;
      const Bytes before = check ? f.serialize() : Bytes{};
      if (f.insert(key)) {
        ++live[key];
      } else {
        if (check) ASSERT_EQ(f.serialize(), before) << "a refused insert of " << key << " changed the bytes";
        ++refused;
      }
    }
    EXPECT_GT(refused, 1000u);
    size_t copies = 0;
    for (const auto& [key, n] : live) {
      ASSERT_TRUE(f.contains(key)) << key;
      ASSERT_GE(f.count(key), n) << key;
      copies += n;
    }
    EXPECT_EQ(f.size(), copies);
  }
}

// Keys with one bucket pair {A, B} in level 0 and distinct fingerprints: once the pair holds 2b of them,
// the next one's walk can only move entries between A and B, and fails (a crafted jam).
std::vector<uint64_t> keys_sharing_a_pair(const CuckooFilter& f, size_t n, uint64_t salt) {
  const cuckoo::Config& c = f.config();
  const BucketHasher level0(c.bucket_count, c.fingerprint_bits);
  const HashInverter inverter(c.seed);
  std::mt19937_64 rng(salt);
  const uint64_t low = rng() & 0xFFFFFFFFu;  // every key's hash ends in these bits: bucket A
  const uint64_t a = level0.index(low);
  const uint64_t fp_range = (uint64_t{1} << c.fingerprint_bits) - 1;
  std::vector<uint64_t> keys;
  uint64_t b = 0;
  for (uint64_t fp = 1 + rng() % fp_range; keys.size() < n; fp = 1 + fp % fp_range) {
    const uint64_t high = ((fp - 1) << 32) / fp_range + 1;  // the smallest high half with this fingerprint
    const uint64_t h = (high << 32) | low;
    if (level0.fingerprint(h) != fp) continue;
    if (keys.empty()) b = level0.alt_index(a, static_cast<uint32_t>(fp));
    if (level0.alt_index(a, static_cast<uint32_t>(fp)) != b) continue;
    keys.push_back(inverter.key_for(h));
    EXPECT_EQ(f.hash(keys.back()), h);
  }
  return keys;
}

// A walk that fails below half load is undone, in plain levels and in semi-sorted ones, whose buckets
// re-sort on every write (so an undo cannot replay the kicks by slot): the refused insert changes no byte
// and loses no key.
TEST(GrowthHostile, ARefusedWalkChangesNothing) {
  for (bool semi : {false, true}) {
    SCOPED_TRACE(semi ? "semi-sorted" : "plain");
    CuckooFilter f(growable(4, 16, semi, 1024, 7));  // 4096 slots: level 0 refuses jams below half load
    std::vector<uint64_t> stored;
    unsigned refused = 0;
    for (uint64_t key : keys_sharing_a_pair(f, 12, 3)) {
      const Bytes before = f.serialize();
      if (f.insert(key)) {
        stored.push_back(key);
      } else {
        ++refused;
        EXPECT_EQ(f.serialize(), before) << "a refused insert changed the bytes";
      }
      for (uint64_t k : stored) ASSERT_TRUE(f.contains(k)) << "lost " << k << " after " << stored.size() << " stored";
    }
    EXPECT_EQ(stored.size(), 8u);
    EXPECT_EQ(refused, 4u);
    EXPECT_EQ(f.levels(), 1u);
    EXPECT_EQ(f.size(), 8u);
  }
}

// Keys whose hashes have the same low 32 bits as `target` (so the same bucket index at every level) and the
// same level-0 fingerprint (so the same bucket pair at every level, as alt_s depends on fp0 only), with the
// remaining fingerprint bits random: distinct keys that level 0 cannot tell apart, and that every newer
// level stores in the same two buckets.
std::vector<uint64_t> crafted_keys(const CuckooFilter& f, uint64_t target_hash, size_t n, uint64_t salt) {
  const cuckoo::Config& c = f.config();
  const BucketHasher level0(c.bucket_count, c.fingerprint_bits);
  const uint64_t i = level0.index(target_hash);
  const uint32_t fp0 = level0.fingerprint(target_hash);
  const HashInverter inverter(c.seed);
  std::mt19937_64 rng(salt);
  std::vector<uint64_t> keys;
  while (keys.size() < n) {
    const uint64_t h = (rng() << 32) | (target_hash & 0xFFFFFFFFu);
    if (level0.fingerprint(h) != fp0) continue;
    EXPECT_EQ(level0.index(h), i);
    keys.push_back(inverter.key_for(h));
    EXPECT_EQ(f.hash(keys.back()), h);
  }
  return keys;
}

// Levels of fewer than 4096 slots grow when a walk fails at any load; larger ones refuse a walk that fails
// below half load, and grow at their growth point (a fixed filter's target load) or when a walk fails above
// half load. So without erases every level of 4096 slots or more but the newest holds at least half its
// slots, and since level s has 2^s times level 0's: L <= small + log2(2 size / slots_0 + 1) + 1, where
// `small` counts the levels under 4096 slots.
unsigned level_bound(const CuckooFilter& f, uint64_t slots0) {
  unsigned small = 0;
  while ((slots0 << small) < 4096) ++small;
  unsigned levels = 1;
  while ((uint64_t{1} << levels) <= 2 * f.size() / slots0 + 1) ++levels;
  return small + levels;
}

// Crafted keys alone, then legit keys with a crafted one after every `every`-th. Legit keys may be refused
// only as the documented refusals do (a legit key that the newest level cannot tell from 2b stored crafted
// ones, or whose walk fails below half load): at most `legit_refusals` of them.
void attack(const Options& options, size_t crafted_n, size_t legit_n, size_t every, size_t legit_refusals,
            uint64_t salt) {
  CuckooFilter f(options);
  const uint64_t slots0 = f.slot_count();
  std::mt19937_64 rng(salt);
  const std::vector<uint64_t> crafted = crafted_keys(f, f.hash(uint64_t{rng()}), crafted_n, salt);
  // Crafted keys alone: the pair holds 2b of them per level; the filter stays within its bound.
  std::vector<uint64_t> stored;
  for (uint64_t key : crafted)
    if (f.insert(key)) stored.push_back(key);
  EXPECT_LE(f.levels(), level_bound(f, slots0)) << "crafted keys alone";
  unsigned small = 0;
  while ((slots0 << small) < 4096) ++small;
  EXPECT_LE(f.levels(), small + 1) << "crafted keys alone: past 4096 slots a level refuses them";
  // Then legit keys interleaved with crafted ones: every legit key goes in, and growth stays bounded.
  size_t legit_stored = 0;
  for (size_t k = 0; k < legit_n; ++k) {
    const uint64_t key = rng();
    if (f.insert(key)) {
      stored.push_back(key);
      ++legit_stored;
    }
    if (k % every != 0) continue;
    const uint64_t bad = crafted[(k / every) % crafted.size()];
    if (f.insert(bad)) stored.push_back(bad);
  }
  EXPECT_GE(legit_stored + legit_refusals, legit_n) << "legit keys refused";
  EXPECT_LE(f.levels(), level_bound(f, slots0)) << f.size() << " items";
  for (uint64_t key : stored) ASSERT_TRUE(f.contains(key)) << key;
  EXPECT_EQ(f.size(), stored.size());
  std::printf("  n0=%llu: %zu crafted + %zu legit keys tried, %zu stored, %u levels (bound %u)\n",
              static_cast<unsigned long long>(options.bucket_count.value_or(f.config().bucket_count)), crafted_n,
              legit_n, stored.size(), f.levels(), level_bound(f, slots0));
}

TEST(GrowthHostile, KeysCraftedToShareABucketPairOnTinyFilters) {
  for (unsigned b : {2u, 4u}) {
    for (uint64_t n0 : {2u, 8u, 16u}) {
      SCOPED_TRACE("b=" + std::to_string(b) + " n0=" + std::to_string(n0));
      attack(growable(b, 8, false, n0, 77 + n0), 5000, 2000, 1, 20, n0 * 31 + b);
    }
  }
}

TEST(GrowthHostile, KeysCraftedToShareABucketPairOnARealisticFilter) {
  Options o;
  o.growable = true;
  o.capacity = 100'000;
  o.seed = 12345;
  o.huge_pages = false;
  // 2.5 times the initial capacity, so that the filter grows twice while the attack goes on.
  const size_t legit = static_cast<size_t>(std::max(20'000.0, 250'000 * test_scale()));
  attack(o, 5000, legit, 16, 0, 9);
}

// ---------------------------------------------------------------------------------------------------------
// max_memory_bytes.

TEST(GrowthLimit, MaxMemoryStopsGrowthAndLosesNothing) {
  for (unsigned b : {2u, 4u}) {
    Options o = growable(b, 8, false, 4, 5);
    uint64_t limit = 0;
    for (unsigned s = 0; s < 5; ++s) limit += cuckoo::internal::level_config(cuckoo::resolve(o), s).table_bytes();
    o.max_memory_bytes = limit + 3;  // room for exactly 5 levels
    CuckooFilter f(o);
    std::vector<uint64_t> stored;
    std::mt19937_64 rng(b);
    uint64_t refused = 0;
    while (!f.is_full()) {
      const uint64_t key = rng();
      if (f.insert(key)) {
        stored.push_back(key);
      } else {
        ASSERT_LT(++refused, 100u) << "refusals without being full";
      }
    }
    EXPECT_EQ(f.levels(), 5u);
    EXPECT_LE(CoreAccess::core(f).table_bytes(), o.max_memory_bytes);
    EXPECT_EQ(f.size(), stored.size());
    const Bytes before = f.serialize();
    for (int k = 0; k < 100; ++k) EXPECT_FALSE(f.insert(rng()));
    EXPECT_EQ(f.serialize(), before) << "a refused insert into a full filter changed it";
    for (uint64_t key : stored) ASSERT_TRUE(f.contains(key)) << key;
    // The limit is part of the file.
    CuckooFilter copy = CuckooFilter::deserialize(before.data(), before.size());
    EXPECT_EQ(copy.config().max_memory_bytes, o.max_memory_bytes);
    EXPECT_TRUE(copy.is_full());
    EXPECT_EQ(copy.levels(), 5u);
    EXPECT_FALSE(copy.insert(rng()));
    EXPECT_EQ(copy.serialize(), before);
    // An erase makes room again (the parked victim goes home first), and growth stays stopped.
    ASSERT_TRUE(copy.erase(stored.front()));
    for (size_t j = 1; j < stored.size(); ++j) ASSERT_TRUE(copy.contains(stored[j])) << stored[j];
    EXPECT_EQ(copy.levels(), 5u);
  }
}

// The widest first level a growable filter may have (28 bits: level 15 adds 4) still grows to 16 levels,
// then fills up like a fixed filter and refuses inserts without losing any key. A wider one is refused at
// creation, with its fpr or fingerprint_bits named.
TEST(GrowthLimit, TheWidestFirstLevelGrowsToSixteenLevels) {
  CuckooFilter f(growable(4, 28, false, 2, 5));
  std::vector<uint64_t> stored;
  std::mt19937_64 rng(28);
  while (!f.is_full()) {
    const uint64_t key = rng();
    if (f.insert(key)) stored.push_back(key);
  }
  EXPECT_EQ(f.levels(), 16u);
  const Bytes before = f.serialize();
  EXPECT_FALSE(f.insert(rng()));
  EXPECT_EQ(f.serialize(), before);
  for (uint64_t key : stored) ASSERT_TRUE(f.contains(key)) << key;

  Options wider = growable(4, 29, false, 2, 5);
  EXPECT_THROW(
      {
        try {
          CuckooFilter g(wider);
        } catch (const std::invalid_argument& e) {
          EXPECT_NE(std::string(e.what()).find("fingerprint_bits must be at most 28 (got 29)"), std::string::npos)
              << e.what();
          throw;
        }
      },
      std::invalid_argument);
  Options tiny;
  tiny.growable = true;
  tiny.fpr = 1e-7;  // f0 = 29
  EXPECT_THROW(CuckooFilter g(tiny), std::invalid_argument);
  tiny.fpr = 2.1e-7;  // f0 = 27: 32 levels
  EXPECT_NO_THROW(CuckooFilter g(tiny));
}

// ---------------------------------------------------------------------------------------------------------
// Format version 2.

constexpr size_t kLevelCountAt = 12, kTotalItemsAt = 32, kMaxMemoryAt = 40, kReservedAt = 48;
// Offsets inside a level header.
constexpr size_t kLevelItems = 0, kLevelVictimIndex = 8, kLevelVictimFp = 24, kLevelFlags = 28;

void put_le(Bytes& b, size_t offset, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; ++i) b.at(offset + i) = static_cast<uint8_t>(v >> (8 * i));
}
uint64_t get_le(const Bytes& b, size_t offset, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint64_t{b.at(offset + i)} << (8 * i);
  return v;
}
Bytes reseal(Bytes b) {
  const size_t body = b.size() - cuckoo::kChecksumBytes;
  put_le(b, body, XXH3_64bits(b.data(), body), 8);
  return b;
}
std::string rejection(const Bytes& b) {
  try {
    CuckooFilter::deserialize(b.data(), b.size());
  } catch (const FormatError& e) {
    return e.what();
  }
  return "";
}

#define EXPECT_REJECTED(bytes, phrase)                                                      \
  do {                                                                                      \
    const std::string why_ = rejection(bytes);                                              \
    EXPECT_NE(why_, "") << "accepted, expected an error containing \"" << (phrase) << "\""; \
    EXPECT_NE(why_.find(phrase), std::string::npos) << "message: " << why_;                 \
  } while (0)

// A growing filter of 4 levels whose level 1 holds a parked victim, and where each level has items.
struct V2File {
  Bytes bytes;
  std::vector<size_t> level_at;  // offset of each level header
  cuckoo::Config config;
};

V2File v2_file(bool semi = false) {
  // No kicks: a key whose buckets are full parks at once, so levels park victims before their growth point.
  CuckooFilter f(growable(4, semi ? 9 : 8, semi, 2, 21, 0));
  std::mt19937_64 rng(21);
  while (f.levels() < 4) f.insert(rng());
  for (int k = 0; k < 10; ++k) f.insert(rng());
  V2File file{f.serialize(), {}, f.config()};
  size_t at = cuckoo::kHeaderBytes;
  for (unsigned s = 0; s < f.levels(); ++s) {
    file.level_at.push_back(at);
    at += cuckoo::kLevelHeaderBytes + growing(f).level(s).table_bytes();
  }
  EXPECT_EQ(at + cuckoo::kChecksumBytes, file.bytes.size());
  return file;
}

TEST(GrowthFormat, RoundTripIsExactAndKeepsWorking) {
  for (bool semi : {false, true}) {
    CuckooFilter f(growable(4, semi ? 9 : 8, semi, 2, 3, 1));  // one kick: walks fail, victims park
    std::mt19937_64 rng(3);
    std::vector<uint64_t> keys;
    while (f.levels() < 6) {
      const uint64_t key = rng();
      if (f.insert(key)) keys.push_back(key);
    }
    bool some_victim = false;
    for (unsigned s = 0; s < f.levels(); ++s) some_victim |= growing(f).level(s).victim().used;
    EXPECT_TRUE(some_victim) << "the round trip should cover a parked victim";
    const Bytes bytes = f.serialize();
    EXPECT_EQ(bytes[4], cuckoo::kGrowingFormatVersion);
    EXPECT_EQ(bytes.size(), f.serialized_size());
    EXPECT_EQ(get_le(bytes, kLevelCountAt, 4), f.levels());
    EXPECT_EQ(get_le(bytes, kTotalItemsAt, 8), f.size());
    CuckooFilter g = CuckooFilter::deserialize(bytes.data(), bytes.size());
    EXPECT_TRUE(g.config().growable);
    EXPECT_EQ(g.levels(), f.levels());
    EXPECT_EQ(g.size(), f.size());
    EXPECT_EQ(g.serialize(), bytes);
    for (uint64_t key : keys) ASSERT_TRUE(g.contains(key));
    for (int k = 0; k < 3000; ++k) {
      const uint64_t key = rng();
      ASSERT_EQ(f.insert(key), g.insert(key));
    }
    EXPECT_EQ(f.serialize(), g.serialize());
  }
}

TEST(GrowthFormat, VersionOneFilesStillLoad) {
  Options o;
  o.capacity = 100;
  CuckooFilter fixed(o);
  for (uint64_t k = 0; k < 100; ++k) ASSERT_TRUE(fixed.insert(k));
  const Bytes bytes = fixed.serialize();
  EXPECT_EQ(bytes[4], cuckoo::kFormatVersion);
  CuckooFilter g = CuckooFilter::deserialize(bytes.data(), bytes.size());
  EXPECT_FALSE(g.config().growable);
  EXPECT_EQ(g.levels(), 1u);
  EXPECT_EQ(g.serialize(), bytes);
}

TEST(GrowthFormat, EveryTruncationIsRejected) {
  const Bytes bytes = v2_file().bytes;
  for (size_t n = 0; n < bytes.size(); ++n) {
    const Bytes cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    ASSERT_NE(rejection(cut), "") << "accepted " << n << " of " << bytes.size() << " bytes";
  }
  Bytes longer = bytes;
  longer.push_back(0);
  EXPECT_REJECTED(longer, "trailing bytes");
}

TEST(GrowthFormat, EveryBitFlipIsRejected) {
  const Bytes bytes = v2_file().bytes;
  for (size_t bit = 0; bit < bytes.size() * 8; ++bit) {
    Bytes flipped = bytes;
    flipped[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    ASSERT_NE(rejection(flipped), "") << "accepted a flip of bit " << bit;
  }
}

TEST(GrowthFormat, ResealedCorruptionsAreNamed) {
  const V2File file = v2_file();
  const size_t levels = file.level_at.size();
  auto edit = [&](auto mutate) {
    Bytes b = file.bytes;
    mutate(b);
    return reseal(b);
  };
  ASSERT_EQ(rejection(reseal(file.bytes)), "");

  EXPECT_REJECTED(edit([](Bytes& b) { put_le(b, kLevelCountAt, 0, 4); }), "level count 0");
  EXPECT_REJECTED(edit([](Bytes& b) { put_le(b, kLevelCountAt, 33, 4); }), "level count 33");
  EXPECT_REJECTED(edit([&](Bytes& b) { put_le(b, kLevelCountAt, levels + 1, 4); }), "truncated input");
  EXPECT_REJECTED(edit([&](Bytes& b) { put_le(b, kLevelCountAt, levels - 1, 4); }), "trailing bytes");
  EXPECT_REJECTED(edit([](Bytes& b) { put_le(b, kReservedAt, 1, 8); }), "reserved field is not zero");
  EXPECT_REJECTED(edit([](Bytes& b) { b[7] |= 2; }), "unknown flag bits");  // version 1's victim flag
  EXPECT_REJECTED(edit([&](Bytes& b) { put_le(b, file.level_at[2] + kLevelFlags, 2, 4); }),
                  "level 2: unknown flag bits");
  // A level's item count that disagrees with its table, with the total adjusted to match.
  EXPECT_REJECTED(edit([&](Bytes& b) {
                    const size_t at = file.level_at[1] + kLevelItems;
                    put_le(b, at, get_le(b, at, 8) + 1, 8);
                    put_le(b, kTotalItemsAt, get_le(b, kTotalItemsAt, 8) + 1, 8);
                  }),
                  "level 1: item count");
  EXPECT_REJECTED(edit([&](Bytes& b) {
                    const size_t at = file.level_at[0] + kLevelItems;
                    put_le(b, at, 1'000'000, 8);
                  }),
                  "level 0: item count 1000000 exceeds");
  EXPECT_REJECTED(edit([](Bytes& b) { put_le(b, kTotalItemsAt, get_le(b, kTotalItemsAt, 8) + 1, 8); }),
                  "does not match the levels'");
  // Victim fields of a level without a victim, and bad victims.
  size_t plain = levels, parked = levels;
  for (size_t s = 0; s < levels; ++s) {
    const bool used = get_le(file.bytes, file.level_at[s] + kLevelFlags, 4) & 1;
    (used ? parked : plain) = std::min(used ? parked : plain, s);
  }
  ASSERT_LT(plain, levels);
  ASSERT_LT(parked, levels) << "the file should have a parked victim";
  const std::string plain_at = "level " + std::to_string(plain) + ": ";
  const std::string parked_at = "level " + std::to_string(parked) + ": ";
  EXPECT_REJECTED(edit([&](Bytes& b) { put_le(b, file.level_at[plain] + kLevelVictimFp, 5, 4); }),
                  plain_at + "victim fields set without the victim flag");
  EXPECT_REJECTED(edit([&](Bytes& b) { put_le(b, file.level_at[plain] + kLevelVictimIndex, 1, 8); }),
                  plain_at + "victim fields set without the victim flag");
  EXPECT_REJECTED(edit([&](Bytes& b) { put_le(b, file.level_at[parked] + kLevelVictimFp, 0, 4); }),
                  parked_at + "invalid victim fingerprint");
  const unsigned parked_bits = file.config.fingerprint_bits + level_extra_bits(static_cast<unsigned>(parked));
  EXPECT_REJECTED(edit([&](Bytes& b) {
                    put_le(b, file.level_at[parked] + kLevelVictimFp, uint64_t{1} << parked_bits, 4);
                  }),
                  parked_at + "invalid victim fingerprint");
  EXPECT_REJECTED(edit([&](Bytes& b) {
                    put_le(b, file.level_at[parked] + kLevelVictimIndex, file.config.bucket_count << parked, 8);
                  }),
                  parked_at + "victim bucket index out of range");
  // An entry or a victim below 2^d_s in a level s >= 1: its level-0 fingerprint would be 0, which no key
  // has (and a merge would coarsen it into an empty entry).
  {
    const size_t table_at = file.level_at[1] + cuckoo::kLevelHeaderBytes;
    const unsigned bits = file.config.fingerprint_bits + level_extra_bits(1);  // bucket size 4, packed
    auto field = [&](const Bytes& b, size_t k) {
      uint64_t v = 0;
      for (unsigned j = 0; j < bits; ++j) {
        const size_t bit = k * bits + j;
        v |= uint64_t{(b[table_at + bit / 8] >> (bit % 8)) & 1u} << j;
      }
      return v;
    };
    size_t occupied = 0;
    while (field(file.bytes, occupied) == 0) ++occupied;
    EXPECT_REJECTED(edit([&](Bytes& b) {
                      for (unsigned j = 0; j < bits; ++j) {
                        const size_t bit = occupied * bits + j;
                        b[table_at + bit / 8] &= static_cast<uint8_t>(~(1u << (bit % 8)));
                      }
                      b[table_at + occupied * bits / 8] |= static_cast<uint8_t>(1u << (occupied * bits % 8));
                    }),
                    "level 1: a fingerprint that no key has in this level");
  }
  if (parked > 0)
    EXPECT_REJECTED(edit([&](Bytes& b) { put_le(b, file.level_at[parked] + kLevelVictimFp, 1, 4); }),
                    parked_at + "invalid victim fingerprint");
  // Clearing the victim flag leaves its fields set; dropping the whole victim breaks the item count.
  EXPECT_REJECTED(edit([&](Bytes& b) { put_le(b, file.level_at[parked] + kLevelFlags, 0, 4); }),
                  parked_at + "victim fields set without the victim flag");
  EXPECT_REJECTED(edit([&](Bytes& b) {
                    put_le(b, file.level_at[parked] + kLevelFlags, 0, 4);
                    put_le(b, file.level_at[parked] + kLevelVictimFp, 0, 4);
                    put_le(b, file.level_at[parked] + kLevelVictimIndex, 0, 8);
                  }),
                  parked_at + "item count");
  // max_memory_bytes below what the levels take (but not below level 0's table, which the header check
  // names on its own).
  uint64_t tables = 0;
  for (size_t s = 0; s < levels; ++s) tables += cuckoo::internal::level_config(file.config, s).table_bytes();
  EXPECT_REJECTED(edit([&](Bytes& b) { put_le(b, kMaxMemoryAt, tables - 1, 8); }), "more than max_memory_bytes");
  EXPECT_REJECTED(edit([&](Bytes& b) { put_le(b, kMaxMemoryAt, 1, 8); }), "max_memory_bytes");
  EXPECT_EQ(rejection(edit([&](Bytes& b) { put_le(b, kMaxMemoryAt, tables, 8); })), "");
  // Header fields that no growing filter has.
  EXPECT_REJECTED(edit([](Bytes& b) { b[6] = 32; }), "invalid header");
  EXPECT_REJECTED(edit([](Bytes& b) { put_le(b, 24, 3, 8); }), "invalid header");
  // A version 1 file relabelled as version 2, and the reverse.
  {
    Options o;
    o.capacity = 50;
    CuckooFilter fixed(o);
    for (uint64_t k = 0; k < 50; ++k) fixed.insert(k);
    Bytes b = fixed.serialize();
    b[4] = cuckoo::kGrowingFormatVersion;
    EXPECT_NE(rejection(reseal(b)), "");
  }
  EXPECT_NE(rejection(edit([](Bytes& b) { b[4] = cuckoo::kFormatVersion; })), "");
}

}  // namespace

namespace {

// docs/growth.md's test vectors: n0 = 1000, f0 = 12, seed 0.
TEST(GrowthSpec, TestVectorsOfGrowthMd) {
  struct Vector {
    const char* key;
    unsigned level;
    uint64_t index, fingerprint, alt;
  };
  const Vector vectors[] = {
      {"abc", 0, 535, 1931, 888},
      {"abc", 1, 1071, 3862, 1776},
      {"abc", 2, 2143, 7725, 3553},
      {"abc", 3, 4287, 7725, 7107},
      {"abc", 4, 8574, 15451, 14215},
      {"key-0", 0, 439, 2074, 364},
      {"key-0", 4, 7027, 16595, 5830},
  };
  for (const Vector& v : vectors) {
    const std::string_view key(v.key);
    const uint64_t h = cuckoo::internal::hash_bytes(key.data(), key.size(), 0);
    const LevelHasher hasher(1000, 12, v.level);
    SCOPED_TRACE(std::string(v.key) + " level " + std::to_string(v.level));
    EXPECT_EQ(hasher.index(h), v.index);
    EXPECT_EQ(hasher.fingerprint(h), v.fingerprint);
    EXPECT_EQ(hasher.alt_index(hasher.index(h), hasher.fingerprint(h)), v.alt);
  }
}

// docs/format.md's worked example 4, byte for byte.
TEST(GrowthSpec, WorkedExampleOfFormatMd) {
  Options o;
  o.growable = true;
  o.bucket_count = 2;
  o.bucket_size = 2;
  o.fingerprint_bits = 8;
  o.seed = 1;
  CuckooFilter f(o);
  for (const char* key : {"apple", "banana", "cherry", "date", "elder", "fig"}) ASSERT_TRUE(f.insert(key));
  const Bytes bytes = f.serialize();
  ASSERT_EQ(bytes.size(), 141u);
  EXPECT_EQ(f.levels(), 2u);
  const Bytes level0_table = {0x60, 0x00, 0x2e, 0x43};
  const Bytes level1_table = {0x5f, 0xb1, 0x33, 0x06, 0, 0, 0, 0, 0};
  const Bytes checksum = {0x71, 0xb5, 0x9d, 0x2b, 0xf5, 0x18, 0xad, 0x8a};
  EXPECT_EQ(Bytes(bytes.begin() + 0x58, bytes.begin() + 0x5c), level0_table);
  EXPECT_EQ(Bytes(bytes.begin() + 0x7c, bytes.begin() + 0x85), level1_table);
  EXPECT_EQ(Bytes(bytes.begin() + 0x85, bytes.end()), checksum);
}

}  // namespace
