// native-tests/concurrency_test.cpp: filter.h promises that const member functions may run from many
// threads at once. Several threads read one shared filter through every const entry point and must see
// exactly what a single thread sees. (Run once under -fsanitize=thread to check for data races; the
// ASan/UBSan build in CI runs it too.)
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "cuckoo/cuckoo.h"
#include "test_support.h"

namespace {

using cuckoo::CuckooFilter;
using cuckoo_test::Shape;

constexpr unsigned kThreads = 4;

struct Answers {
  std::vector<uint8_t> contains_u64, contains_bytes;
  std::vector<size_t> count;
  std::vector<uint8_t> bytes;
};

Answers answers_of(const CuckooFilter& f, const std::vector<uint64_t>& keys,
                   const std::vector<std::string>& byte_keys) {
  Answers a;
  for (uint64_t k : keys) {
    a.contains_u64.push_back(f.contains(k));
    a.count.push_back(f.count(k));
  }
  for (const std::string& k : byte_keys) a.contains_bytes.push_back(f.contains(k));
  a.bytes = f.serialize();
  return a;
}

class ConcurrentReads : public ::testing::TestWithParam<Shape> {};

TEST_P(ConcurrentReads, EveryConstCallAgreesWithOneThread) {
  const Shape s = GetParam();
  CuckooFilter filter(cuckoo_test::options_for(s, 1 << 12, /*seed=*/7));
  // Filled to its first failure, so the victim slot is in use and every lookup path (table and victim) runs.
  std::mt19937_64 rng(s.b * 100 + s.f);
  uint64_t inserted = 0;
  while (filter.insert(rng())) ++inserted;
  ASSERT_TRUE(filter.is_full());

  // Half present (replay the same generator), half absent.
  std::vector<uint64_t> keys;
  std::mt19937_64 replay(s.b * 100 + s.f);
  for (uint64_t i = 0; i < inserted; ++i) keys.push_back(replay());
  for (uint64_t i = 0; i < inserted; ++i) keys.push_back(rng());
  std::vector<std::string> byte_keys;
  std::vector<std::string_view> views;
  for (uint64_t k : keys) byte_keys.push_back(cuckoo_test::le_bytes(k));
  for (const std::string& k : byte_keys) views.push_back(k);

  const Answers expected = answers_of(filter, keys, byte_keys);
  for (uint64_t i = 0; i < inserted; ++i) ASSERT_TRUE(expected.contains_u64[i]) << "false negative, key " << i;

  const CuckooFilter& shared = filter;
  std::atomic<size_t> mismatches{0};
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      size_t bad = 0;
      for (int round = 0; round < 3; ++round) {
        // Each thread starts at a different offset, so that threads read the same buckets at different times.
        const size_t n = keys.size(), start = (t * n) / kThreads;
        for (size_t j = 0; j < n; ++j) {
          const size_t i = (start + j) % n;
          bad += shared.contains(keys[i]) != static_cast<bool>(expected.contains_u64[i]);
          bad += shared.count(keys[i]) != expected.count[i];
          bad += shared.contains(byte_keys[i]) != static_cast<bool>(expected.contains_bytes[i]);
        }
        std::vector<uint8_t> out(n);
        shared.contains_many(keys.data(), n, out.data());
        bad += out != expected.contains_u64;
        shared.contains_many(views.data(), n, out.data());
        bad += out != expected.contains_bytes;
        bad += shared.serialize() != expected.bytes;
        const CuckooFilter copy(shared);
        bad += copy.serialize() != expected.bytes;
        bad += shared.size() != inserted || !shared.is_full();
      }
      mismatches += bad;
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(mismatches.load(), 0u);
}

// Fixed and run-time widths, one- and multi-load buckets, semi-sorted with and without its lookup tables.
INSTANTIATE_TEST_SUITE_P(Shapes, ConcurrentReads,
                         ::testing::Values(Shape{4, 12, false}, Shape{4, 13, false}, Shape{2, 8, false},
                                           Shape{8, 16, false}, Shape{8, 31, false}, Shape{4, 9, true},
                                           Shape{4, 13, true}, Shape{4, 17, true}),
                         cuckoo_test::shape_name);

// Semi-sorted tables build their per-width lookup tables on first use: filters constructed on several
// threads at once must all work (ctest runs each test in its own process, so these widths are built here).
TEST(ConcurrentConstruction, SemiSortedTablesBuiltOnFirstUse) {
  std::atomic<size_t> failures{0};
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < kThreads; ++t) {
    threads.emplace_back([&failures] {
      for (unsigned f : {5u, 6u, 7u, 10u, 11u, 14u, 15u}) {
        CuckooFilter filter(cuckoo_test::options_for({4, f, true}, 256));
        for (uint64_t k = 0; k < 500; ++k) failures += !filter.insert(k);
        for (uint64_t k = 0; k < 500; ++k) failures += !filter.contains(k);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0u);
}

}  // namespace
