// native-tests/shape_test.cpp: the code with a fingerprint width baked in and the run-time-width code
// are the same filter.
//
// make_core() serves the common widths with a table whose width is a template parameter and every other
// width with one that reads it at run time; the WASM build bakes in fewer widths than the native one
// (core/src/make_core.cpp). Native and WASM filters must still write the same bytes, so for every baked-in
// shape both tables run the same operations here and must agree on every answer and every byte: table,
// item count, victim and kick generator, through fills to the first failure and erases.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "filter_core.h"
#include "hash.h"
#include "packed_table.h"
#include "semi_sorted_table.h"

namespace {

using cuckoo::Config;
using cuckoo::internal::CuckooCore;
using cuckoo::internal::FilterCore;
using cuckoo::internal::hash_u64;
using cuckoo::internal::PackedTable;
using cuckoo::internal::SemiSortedTable;

void expect_same_state(const FilterCore& baked, const FilterCore& runtime, const std::string& when) {
  SCOPED_TRACE(when);
  ASSERT_EQ(baked.size(), runtime.size());
  ASSERT_EQ(baked.victim().used, runtime.victim().used);
  ASSERT_EQ(baked.victim().index, runtime.victim().index);
  ASSERT_EQ(baked.victim().fingerprint, runtime.victim().fingerprint);
  ASSERT_EQ(baked.rng_state(), runtime.rng_state());
  ASSERT_EQ(0, std::memcmp(baked.table_data(), runtime.table_data(), baked.config().table_bytes()))
      << "the table bytes differ";
}

// Fills both cores to their first failure with single inserts (u64 and byte keys mixed), erases a third
// of the keys, refills with insert_many, and compares answers and state along the way.
template <typename BakedTable, typename RuntimeTable>
void expect_same_filter(unsigned b, unsigned f, bool semi_sort) {
  for (uint64_t seed : {1ull, 0x9E3779B97F4A7C15ull}) {
    SCOPED_TRACE("b=" + std::to_string(b) + " f=" + std::to_string(f) + (semi_sort ? " semi-sorted" : "") +
                 " seed=" + std::to_string(seed));
    Config config;
    config.bucket_size = b;
    config.fingerprint_bits = f;
    config.semi_sort = semi_sort;
    config.seed = seed;
    config.bucket_count = 302;  // not a power of two, as sizing usually makes it
    config.huge_pages = false;
    auto baked_core = std::make_unique<CuckooCore<BakedTable>>(config);
    auto runtime_core = std::make_unique<CuckooCore<RuntimeTable>>(config);
    ASSERT_EQ(baked_core->table().bits(), f);
    ASSERT_EQ(runtime_core->table().bits(), f);
    FilterCore* baked = baked_core.get();  // the interface make_core() hands out
    FilterCore* runtime = runtime_core.get();

    std::mt19937_64 rng(seed);
    std::vector<uint64_t> inserted;
    for (;;) {
      const uint64_t key = rng();
      bool ok_baked, ok_runtime;
      if (key & 1) {
        ok_baked = baked->insert_u64_key(key);
        ok_runtime = runtime->insert_u64_key(key);
      } else {
        ok_baked = baked->insert_bytes_key(&key, 7);
        ok_runtime = runtime->insert_bytes_key(&key, 7);
      }
      ASSERT_EQ(ok_baked, ok_runtime) << "after " << inserted.size() << " inserts";
      if (!ok_baked) break;
      inserted.push_back(key);
    }
    expect_same_state(*baked, *runtime, "full");

    std::vector<uint64_t> queries(inserted.begin(), inserted.end());
    for (int i = 0; i < 2000; ++i) queries.push_back(rng() | 1);  // mostly absent; odd keys were inserted as u64
    std::vector<uint8_t> answers_baked(queries.size()), answers_runtime(queries.size());
    baked->contains_many(queries.data(), queries.size(), answers_baked.data());
    runtime->contains_many(queries.data(), queries.size(), answers_runtime.data());
    ASSERT_EQ(answers_baked, answers_runtime);
    for (uint64_t key : queries) {
      const bool is_u64 = key & 1;
      ASSERT_EQ(is_u64 ? baked->contains_u64_key(key) : baked->contains_bytes_key(&key, 7),
                is_u64 ? runtime->contains_u64_key(key) : runtime->contains_bytes_key(&key, 7));
    }

    for (size_t i = 0; i < inserted.size(); i += 3) {
      const uint64_t key = inserted[i];
      const uint64_t hash = (key & 1) ? hash_u64(key, seed) : cuckoo::internal::hash_bytes(&key, 7, seed);
      ASSERT_EQ(baked->count(hash), runtime->count(hash));
      ASSERT_EQ(baked->erase(hash), runtime->erase(hash));
    }
    expect_same_state(*baked, *runtime, "after erasing a third");

    std::vector<std::string> words;
    for (int i = 0; i < 4000; ++i) words.push_back("word-" + std::to_string(rng() % 100000));
    const std::vector<std::string_view> views(words.begin(), words.end());
    ASSERT_EQ(baked->insert_many(views.data(), views.size()), runtime->insert_many(views.data(), views.size()));
    expect_same_state(*baked, *runtime, "after insert_many");
  }
}

template <unsigned b, unsigned f>
void expect_same_packed() {
  expect_same_filter<PackedTable<b, f>, PackedTable<b, 0, (b * f <= 57)>>(b, f, false);
}

template <unsigned b>
void expect_same_packed_widths() {
  expect_same_packed<b, 4>();
  expect_same_packed<b, 8>();
  expect_same_packed<b, 12>();
  expect_same_packed<b, 16>();
  expect_same_packed<b, 32>();
}

TEST(TableShapes, BakedInWidthsMatchTheRunTimeWidthCodeB2) { expect_same_packed_widths<2>(); }
TEST(TableShapes, BakedInWidthsMatchTheRunTimeWidthCodeB4) {
  expect_same_packed_widths<4>();
  expect_same_packed<4, 10>();  // b = 4 only: the widths a target rate of 1% and 0.1% picks
  expect_same_packed<4, 13>();
}
TEST(TableShapes, BakedInWidthsMatchTheRunTimeWidthCodeB8) { expect_same_packed_widths<8>(); }

TEST(TableShapes, BakedInSemiSortedWidthsMatchTheRunTimeWidthCode) {
  expect_same_filter<SemiSortedTable<9>, SemiSortedTable<0>>(4, 9, true);
  expect_same_filter<SemiSortedTable<13>, SemiSortedTable<0>>(4, 13, true);
  expect_same_filter<SemiSortedTable<17>, SemiSortedTable<0>>(4, 17, true);
}

}  // namespace
