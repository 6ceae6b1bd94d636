// native-tests/insert_if_absent_test.cpp: insert_if_absent and insert_many_if_absent against a model.
//
// The model is the set of keys handled (reported kInserted or kPresent). With no erase, every key handled
// is found afterwards (no false negative), size() counts exactly the keys reported kInserted, a key is
// reported kPresent only when contains() said true before, and nothing changes for kPresent or kRefused.
// The batch gives the same results and the same bytes as the single call in a loop. Keys come repeated
// (many copies, in and across batches), in fixed filters of every shape and in growing ones.
#include <gtest/gtest.h>

#include <cuckoo/cuckoo.h>

#include <algorithm>
#include <random>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "test_support.h"

namespace {

using cuckoo::CuckooFilter;
using cuckoo::InsertResult;
using cuckoo_test::all_shapes;
using cuckoo_test::le_bytes;
using cuckoo_test::options_for;
using cuckoo_test::Shape;
using cuckoo_test::shape_name;
using cuckoo_test::test_scale;

// n distinct keys, each repeated 1..copies times, shuffled.
std::vector<uint64_t> repeated_keys(size_t n, unsigned copies, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> keys;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t key = rng();
    for (unsigned c = 1 + rng() % copies; c > 0; --c) keys.push_back(key);
  }
  std::shuffle(keys.begin(), keys.end(), rng);
  return keys;
}

// Runs insert_if_absent over keys, checking each result against the filter before and after.
// Returns the keys handled before the first refusal (all of them if none).
size_t check_singles(CuckooFilter& f, const std::vector<uint64_t>& keys, std::unordered_set<uint64_t>& handled) {
  for (size_t i = 0; i < keys.size(); ++i) {
    const uint64_t key = keys[i];
    const bool was_there = f.contains(key);
    const uint64_t size_before = f.size();
    const std::vector<uint8_t> bytes_before = i % 97 == 0 ? f.serialize() : std::vector<uint8_t>();
    const InsertResult r = (i % 3 == 0)   ? f.insert_if_absent(key)
                           : (i % 3 == 1) ? f.insert_if_absent(le_bytes(key))
                                          : f.insert_if_absent(le_bytes(key).data(), 8);
    if (r == InsertResult::kInserted) {
      EXPECT_FALSE(was_there) << i;
      EXPECT_EQ(f.size(), size_before + 1) << i;
    } else {
      EXPECT_EQ(was_there, r == InsertResult::kPresent) << i;
      EXPECT_EQ(f.size(), size_before) << i;
      if (!bytes_before.empty()) EXPECT_EQ(f.serialize(), bytes_before) << i;
    }
    if (r == InsertResult::kRefused) return i;
    handled.insert(key);
    EXPECT_TRUE(f.contains(key)) << i;
  }
  return keys.size();
}

void expect_no_false_negatives(const CuckooFilter& f, const std::unordered_set<uint64_t>& handled) {
  size_t missing = 0;
  for (uint64_t key : handled) missing += !f.contains(key);
  EXPECT_EQ(missing, 0u);
}

class InsertIfAbsentShapes : public ::testing::TestWithParam<Shape> {};

TEST_P(InsertIfAbsentShapes, RepeatedKeysAreStoredOnceAndNeverLost) {
  const Shape shape = GetParam();
  const unsigned rounds = std::max(1u, static_cast<unsigned>(4 * test_scale()));
  for (unsigned round = 0; round < rounds; ++round) {
    CuckooFilter single(options_for(shape, 256, round));
    CuckooFilter batch(options_for(shape, 256, round));
    // More distinct keys than slots: the filter fills, so refusals are met too.
    const std::vector<uint64_t> keys = repeated_keys(256 * shape.b * 11 / 10, 6, 1000 + round);
    std::unordered_set<uint64_t> handled;
    const size_t n = check_singles(single, keys, handled);
    expect_no_false_negatives(single, handled);
    EXPECT_LE(single.size(), handled.size());

    // The batch, in uneven chunks, stops where the singles stopped and leaves the same bytes.
    size_t done = 0;
    std::mt19937_64 rng(round);
    while (done < keys.size()) {
      const size_t m = std::min<size_t>(keys.size() - done, 1 + rng() % 700);
      const size_t got = batch.insert_many_if_absent(keys.data() + done, m);
      done += got;
      if (got < m) break;
    }
    EXPECT_EQ(done, n);
    EXPECT_EQ(batch.serialize(), single.serialize());
  }
}

INSTANTIATE_TEST_SUITE_P(AllShapes, InsertIfAbsentShapes, ::testing::ValuesIn(all_shapes()), shape_name);

// A filter sized for the distinct keys takes every copy: copies are found, not stored again.
TEST(InsertIfAbsent, ManyCopiesFitAFilterSizedForTheDistinctKeys) {
  const size_t distinct = static_cast<size_t>(20000 * test_scale()) + 100;
  for (bool growable : {false, true}) {
    cuckoo::Options o;
    o.capacity = growable ? 0 : distinct;
    o.growable = growable;
    o.seed = 7;
    CuckooFilter f(o);
    const std::vector<uint64_t> keys = repeated_keys(distinct, 20, 42);
    std::vector<std::string> text;
    text.reserve(keys.size());
    for (uint64_t k : keys) text.push_back("key-" + std::to_string(k));
    std::vector<std::string_view> views(text.begin(), text.end());
    EXPECT_EQ(f.insert_many_if_absent(views.data(), views.size()), views.size()) << growable;
    EXPECT_LE(f.size(), distinct);
    EXPECT_GE(f.size(), distinct - distinct / 100) << "only false positives are skipped";
    std::vector<uint8_t> found(views.size());
    f.contains_many(views.data(), views.size(), found.data());
    EXPECT_EQ(std::count(found.begin(), found.end(), 1), static_cast<long>(views.size())) << growable;
    // A second pass changes nothing.
    const std::vector<uint8_t> bytes = f.serialize();
    EXPECT_EQ(f.insert_many_if_absent(views.data(), views.size()), views.size());
    EXPECT_EQ(f.serialize(), bytes);
  }
}

// Singles and batches agree in growing filters too, growth included; keys inserted and later erased
// (only those reported kInserted) leave every other key reported kInserted found.
TEST(InsertIfAbsent, GrowingFiltersAndErasesOfInsertedKeys) {
  cuckoo::Options o;
  o.fpr = 0.001;
  o.growable = true;
  o.seed = 3;
  CuckooFilter single(o);
  CuckooFilter batch(o);
  const std::vector<uint64_t> keys = repeated_keys(static_cast<size_t>(30000 * test_scale()) + 500, 4, 9);
  std::unordered_set<uint64_t> handled;
  EXPECT_EQ(check_singles(single, keys, handled), keys.size());
  EXPECT_GT(single.levels(), 1u);
  EXPECT_EQ(batch.insert_many_if_absent(keys.data(), keys.size()), keys.size());
  EXPECT_EQ(batch.serialize(), single.serialize());
  expect_no_false_negatives(single, handled);

  CuckooFilter f(o);
  std::unordered_set<uint64_t> inserted;
  std::mt19937_64 rng(5);
  for (uint64_t key : keys) {
    if (f.insert_if_absent(key) == InsertResult::kInserted) inserted.insert(key);
    if (rng() % 4 == 0 && !inserted.empty()) {
      const uint64_t victim = *inserted.begin();
      ASSERT_TRUE(f.erase(victim));
      inserted.erase(victim);
    }
  }
  expect_no_false_negatives(f, inserted);
}

// A full filter refuses a key that is not there, changing nothing, and still reports present ones.
TEST(InsertIfAbsent, AFullFilterRefusesNewKeysOnly) {
  CuckooFilter f(options_for({4, 16, false}, 8, 1));
  uint64_t key = 0;
  while (!f.is_full()) f.insert(++key);
  const std::vector<uint8_t> bytes = f.serialize();
  EXPECT_EQ(f.insert_if_absent(uint64_t{1}), InsertResult::kPresent);
  uint64_t absent = 1u << 30;
  while (f.contains(absent)) ++absent;
  EXPECT_EQ(f.insert_if_absent(absent), InsertResult::kRefused);
  const uint64_t batch[] = {1, 2, absent, 3};
  EXPECT_EQ(f.insert_many_if_absent(batch, 4), 2u);
  EXPECT_EQ(f.serialize(), bytes);
}

}  // namespace
