// native-tests/property_test.cpp: long random operation sequences checked against a model.
//
// The model is the multiset of keys inserted and not erased (std::unordered_multiset). Whatever the
// operation order, a cuckoo filter must never report a false negative: contains(k) for every k in the
// model, count(k) >= the model's count of k, size() == the model's size, and the entries really in the
// table (a full scan, plus a parked victim) always equal size(). insert() may refuse only when the victim
// slot is taken (is_full()), and then changes nothing; erase() of a key in the model always succeeds.
//
// At least 10^7 operations in total in an optimised build (insert, erase of inserted keys, contains,
// count, clear, batch lookups), spread over every configuration and over several table sizes, with an
// operation mix that swings the filter between half full and full so that kicks, the victim slot and
// its re-homing after erases are all exercised. Keys are used through all three overloads (uint64_t,
// string_view of the 8 little-endian bytes, pointer + length), which must be the same key. In the
// middle of each run the filter is serialized, deserialized and the run continues on the loaded copy.
#include <gtest/gtest.h>

#include <cuckoo/cuckoo.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core_access.h"
#include "filter_core.h"
#include "hash.h"
#include "test_support.h"

namespace {

using cuckoo_test::all_shapes;
using cuckoo_test::Shape;
using cuckoo_test::shape_name;
using cuckoo_test::test_scale;

using cuckoo::CuckooFilter;
using cuckoo::Options;
using cuckoo::internal::CoreAccess;

// The whole suite's budget, split evenly over the configurations.
constexpr uint64_t kTotalOps = 10'000'000;
uint64_t ops_per_shape() {
  const uint64_t per = (kTotalOps + all_shapes().size() - 1) / all_shapes().size();
  const uint64_t v = static_cast<uint64_t>(static_cast<double>(per) * test_scale());
  return v < 10000 ? 10000 : v;
}

std::string le_bytes(uint64_t v) {
  std::string s(8, '\0');
  for (int b = 0; b < 8; ++b) s[b] = static_cast<char>(v >> (8 * b));
  return s;
}

class ModelRun {
 public:
  ModelRun(const Shape& shape, uint64_t bucket_count, uint64_t seed)
      : shape_(shape), filter_(make_options(shape, bucket_count, seed)), rng_(seed * 7919 + 17) {}

  // Runs `ops` random operations; returns false (after recording the failure) as soon as a check fails.
  void run(uint64_t ops) {
    const uint64_t round_trip_at = ops / 2;
    uint64_t next_full_check = 1000;
    filling_ = true;
    for (uint64_t op = 0; op < ops; ++op) {
      step(op);
      if (::testing::Test::HasFatalFailure()) return;
      if (op == round_trip_at) round_trip(op);
      if (op + 1 == next_full_check) {
        full_check(op);
        // Amortised O(1): a full check costs O(size + buckets), so space them by at least that much.
        next_full_check += std::max<uint64_t>(1000, model_.size() + filter_.bucket_count());
      }
      if (::testing::Test::HasFatalFailure()) return;
    }
    round_trip(ops);
    full_check(ops);
  }

  uint64_t inserts_refused() const { return refused_; }
  uint64_t victims_seen() const { return victims_; }
  double max_load() const { return max_load_; }

 private:
  static Options make_options(const Shape& s, uint64_t bucket_count, uint64_t seed) {
    Options o = cuckoo_test::options_for(s, bucket_count, seed);
    // Small fingerprints in small buckets jam early (load_test.cpp); fewer kicks keep those runs quick.
    o.max_kicks = (s.b == 2 && s.f <= 5) ? 50 : 500;
    return o;
  }

  // Each key goes in through one of the three overloads at random: all must be the same key.
  // Whether the key's two buckets are full of entries whose alternate bucket is the other one of the pair,
  // in a table of more than two buckets: a fixed filter refuses such a key alone (filter_core.h, walk()).
  bool pair_is_closed(uint64_t k) const {
    const auto& core = CoreAccess::core(filter_);
    const cuckoo::Config& c = filter_.config();
    if (c.bucket_count <= 2) return false;
    const cuckoo::internal::BucketHasher hasher(c.bucket_count, c.fingerprint_bits);
    const uint64_t h = filter_.hash(k);
    const uint64_t pair[2] = {hasher.index(h), hasher.alt_index(hasher.index(h), hasher.fingerprint(h))};
    uint32_t entries[8];
    for (int side = 0; side < 2; ++side) {
      core.read_bucket(pair[side], entries);
      for (unsigned s = 0; s < c.bucket_size; ++s)
        if (entries[s] == 0 || core.alt_index(pair[side], entries[s]) != pair[1 - side]) return false;
    }
    return true;
  }

  // The items at which a fixed filter stops refusing keys whose walk fails (filter_core.h).
  uint64_t capacity_items() const { return cuckoo::internal::items_at_target_load(filter_.config()); }

  bool insert(uint64_t k) {
    switch (rng_() % 3) {
      case 0:
        return filter_.insert(k);
      case 1: {
        const std::string b = le_bytes(k);
        return filter_.insert(std::string_view(b));
      }
      default: {
        const std::string b = le_bytes(k);
        return filter_.insert(b.data(), b.size());
      }
    }
  }
  bool erase(uint64_t k) {
    switch (rng_() % 3) {
      case 0:
        return filter_.erase(k);
      case 1: {
        const std::string b = le_bytes(k);
        return filter_.erase(std::string_view(b));
      }
      default: {
        const std::string b = le_bytes(k);
        return filter_.erase(b.data(), b.size());
      }
    }
  }
  bool contains(uint64_t k) const {
    switch (k % 3) {  // deterministic per key, not per call: keeps the rng sequence independent of lookups
      case 0:
        return filter_.contains(k);
      case 1: {
        const std::string b = le_bytes(k);
        return filter_.contains(std::string_view(b));
      }
      default: {
        const std::string b = le_bytes(k);
        return filter_.contains(b.data(), b.size());
      }
    }
  }
  size_t count(uint64_t k) const {
    if (k & 1) return filter_.count(k);
    const std::string b = le_bytes(k);
    return filter_.count(std::string_view(b));
  }

  uint64_t random_live_key() { return live_[rng_() % live_.size()]; }

  void add(uint64_t k) {
    model_.insert(k);
    live_.push_back(k);
  }
  void remove_live(size_t index) {
    const uint64_t k = live_[index];
    model_.erase(model_.find(k));  // one copy
    live_[index] = live_.back();
    live_.pop_back();
  }

  void step(uint64_t op) {
    const double load = filter_.load_factor();
    max_load_ = std::max(max_load_, load);
    // Swing between filling (until the filter refuses an insert) and draining (down to ~40% load).
    if (filling_ && filter_.is_full()) filling_ = false;
    if (!filling_ && load < 0.4) filling_ = true;
    const unsigned dice = static_cast<unsigned>(rng_() % 1000);
    if (dice == 0 && rng_() % 64 == 0) {  // clear: rare, so runs spend their time at high load
      filter_.clear();
      model_.clear();
      live_.clear();
      ASSERT_EQ(filter_.size(), 0u);
      ASSERT_EQ(CoreAccess::core(filter_).count_entries(), 0u);
      return;
    }
    const unsigned insert_share = filling_ ? 550 : 150, erase_share = filling_ ? 100 : 500;
    if (dice < insert_share) {
      uint64_t k = rng_();
      // Some duplicates: a key already present gets another copy (at most 3, well under 2b overflow
      // for b >= 2 with other keys around, though a parked victim is fine too).
      if (!live_.empty() && dice % 10 == 0) {
        const uint64_t d = random_live_key();
        if (model_.count(d) < 3) k = d;
      }
      const bool was_full = filter_.is_full();
      const uint64_t size_before = filter_.size();
      // Refused when the victim slot is taken or the key's buckets hold 2b copies of its fingerprint
      // (short fingerprints in tiny tables get there with distinct keys) or only entries of that pair;
      // otherwise only when its walk fails below the filter's capacity.
      const bool saturated = filter_.count(k) >= 2 * shape_.b || pair_is_closed(k);
      const bool ok = insert(k);
      if (was_full || saturated) {
        ASSERT_FALSE(ok) << "op " << op << ": insert accepted while the victim slot was taken or the pair full";
      } else if (!ok) {
        ASSERT_LT(size_before, capacity_items()) << "op " << op << ": insert refused past capacity, no victim parked";
      }
      if (ok) {
        add(k);
        if (filter_.is_full()) ++victims_;
      } else {
        ++refused_;
        ASSERT_EQ(filter_.size(), size_before) << "op " << op << ": a refused insert changed the filter";
      }
    } else if (dice < insert_share + erase_share) {
      if (live_.empty()) return;
      const size_t index = rng_() % live_.size();
      const uint64_t k = live_[index];
      ASSERT_TRUE(erase(k)) << "op " << op << ": erase of an inserted key failed";
      remove_live(index);
      // The other copies of k (if any) must survive the erase.
      ASSERT_GE(count(k), model_.count(k)) << "op " << op;
    } else if (dice < insert_share + erase_share + 150) {
      if (live_.empty()) return;
      const uint64_t k = random_live_key();
      ASSERT_TRUE(contains(k)) << "op " << op << ": false negative";
    } else if (dice < insert_share + erase_share + 250) {
      // A random key, usually absent: no claim unless the model holds it.
      const uint64_t k = rng_() % 4 == 0 && !live_.empty() ? random_live_key() : rng_();
      const size_t m = model_.count(k);
      const size_t c = count(k);
      ASSERT_GE(c, m) << "op " << op << ": count below the number of copies stored";
      ASSERT_EQ(contains(k), c > 0) << "op " << op << ": contains and count disagree";
    } else {
      // A batch lookup of live keys and random ones.
      std::vector<uint64_t> batch;
      for (int i = 0; i < 40; ++i) batch.push_back(i % 2 == 0 && !live_.empty() ? random_live_key() : rng_());
      std::vector<uint8_t> out(batch.size());
      filter_.contains_many(batch.data(), batch.size(), out.data());
      for (size_t i = 0; i < batch.size(); ++i) {
        if (model_.count(batch[i]) > 0) ASSERT_EQ(out[i], 1) << "op " << op << ": false negative in contains_many";
        ASSERT_EQ(out[i] != 0, filter_.contains(batch[i])) << "op " << op;
      }
    }
    ASSERT_EQ(filter_.size(), model_.size()) << "op " << op;
  }

  // Every key of the model, and the table's actual contents, against the model.
  void full_check(uint64_t op) {
    ASSERT_EQ(filter_.size(), model_.size()) << "op " << op;
    ASSERT_EQ(CoreAccess::core(filter_).count_entries() + (filter_.is_full() ? 1 : 0), filter_.size())
        << "op " << op << ": entries in the table (plus the victim) differ from size()";
    std::unordered_map<uint64_t, size_t> copies;
    for (uint64_t k : live_) ++copies[k];
    for (const auto& [k, n] : copies) {
      ASSERT_TRUE(filter_.contains(k)) << "op " << op << ": false negative";
      ASSERT_GE(filter_.count(k), n) << "op " << op;
    }
  }

  // serialize -> deserialize -> the same bytes and answers; the run then continues on the loaded copy.
  void round_trip(uint64_t op) {
    const std::vector<uint8_t> bytes = filter_.serialize();
    ASSERT_EQ(bytes.size(), filter_.serialized_size());
    CuckooFilter loaded = CuckooFilter::deserialize(bytes.data(), bytes.size());
    ASSERT_EQ(loaded.serialize(), bytes) << "op " << op;
    ASSERT_EQ(loaded.size(), filter_.size());
    ASSERT_EQ(loaded.is_full(), filter_.is_full());
    for (uint64_t k : live_) ASSERT_TRUE(loaded.contains(k)) << "op " << op << ": false negative after reload";
    filter_ = std::move(loaded);
    full_check(op);
  }

  Shape shape_;
  CuckooFilter filter_;
  std::mt19937_64 rng_;
  std::unordered_multiset<uint64_t> model_;
  std::vector<uint64_t> live_;  // one entry per stored copy, for O(1) random choice
  bool filling_ = true;
  uint64_t refused_ = 0, victims_ = 0;
  double max_load_ = 0;
};

class PropertyTest : public ::testing::TestWithParam<Shape> {};

// Each configuration runs over three table sizes: 2 buckets (every key shares the same two buckets, so the
// victim slot is in play constantly), a few hundred buckets, and a few thousand.
TEST_P(PropertyTest, RandomOperationsMatchTheModel) {
  const Shape s = GetParam();
  const uint64_t total = ops_per_shape();
  const struct {
    uint64_t buckets;
    double share;
  } sizes[] = {{2, 0.1}, {250, 0.4}, {4096, 0.5}};
  uint64_t done = 0, refused = 0, victims = 0;
  double max_load = 0;
  for (size_t i = 0; i < 3; ++i) {
    const uint64_t ops = i == 2 ? total - done : static_cast<uint64_t>(total * sizes[i].share);
    SCOPED_TRACE("bucket_count " + std::to_string(sizes[i].buckets));
    ModelRun run(s, sizes[i].buckets, 1000 * s.b + 10 * s.f + s.semi_sort + i);
    run.run(ops);
    if (HasFatalFailure()) return;
    done += ops;
    refused += run.inserts_refused();
    victims += run.victims_seen();
    max_load = std::max(max_load, run.max_load());
  }
  EXPECT_EQ(done, total);
  // The mix must really reach the interesting states, or the test proves little.
  EXPECT_GT(victims, 0u) << "never parked a victim";
  EXPECT_GT(refused, 0u) << "never refused an insert";
  RecordProperty("operations", std::to_string(done));
  std::printf("%u/%u%s: %llu ops, %llu victims parked, %llu inserts refused\n", s.b, s.f, s.semi_sort ? "/ss" : "",
              static_cast<unsigned long long>(done), static_cast<unsigned long long>(victims),
              static_cast<unsigned long long>(refused));
}

INSTANTIATE_TEST_SUITE_P(AllShapes, PropertyTest, ::testing::ValuesIn(all_shapes()), shape_name);

// The budget: in an optimised build the configurations above add up to at least 10^7 operations.
TEST(PropertyBudget, AtLeastTenMillionOperationsInTotal) {
  const uint64_t total = ops_per_shape() * all_shapes().size();
  RecordProperty("total_operations", std::to_string(total));
  std::printf("property tests: %llu operations in total (scale %.3g)\n", static_cast<unsigned long long>(total),
              test_scale());
  if (test_scale() >= 1.0) EXPECT_GE(total, kTotalOps);
}

}  // namespace
