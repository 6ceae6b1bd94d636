// native-tests/load_test.cpp: fill to failure on 2^20 buckets (the paper's section 4 / Figure 2 experiment).
//
// Distinct keys go in until insert() returns false. Then:
// - nothing is lost: every key for which insert() returned true is found, including the one parked in the
//   victim slot (insert() returns true while parking; the NEXT insert returns false and changes nothing);
// - the load reached is at least the paper's: 95% at b = 4, 98% at b = 8, 84% at b = 2 (f large enough);
// - after an erase the filter takes keys again and still loses nothing.
// Loads for small fingerprints (the paper's Figure 2: load falls when f is too small for the table) are
// printed and recorded as test properties without assertions. 2^20 buckets of 8 entries is 8M keys, so
// only a handful of configurations run at full size; sanitizer builds use 2^16 buckets.
#include <gtest/gtest.h>

#include <cuckoo/cuckoo.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core_access.h"
#include "filter_core.h"
#include "test_support.h"

namespace {

using cuckoo_test::test_scale;

using cuckoo::CuckooFilter;
using cuckoo::Options;
using cuckoo::internal::CoreAccess;

// 2^20 buckets at scale 1; a smaller power of two under a smaller scale (never below 2^14).
uint64_t bucket_count_for_scale() {
  int log2n = 20 + static_cast<int>(std::floor(std::log2(std::min(1.0, test_scale()))));
  if (log2n < 14) log2n = 14;
  return uint64_t{1} << log2n;
}

// Keys 0, 1, 2, ...: distinct, and cheap to regenerate instead of storing 8M of them.
struct FillResult {
  uint64_t inserted = 0;   // keys 0..inserted-1 were offered; all but `saturated` of them accepted
  uint64_t saturated = 0;  // refused alone (2b copies, or a walk that failed below capacity)
  double load = 0;
};

FillResult fill_to_failure(CuckooFilter& filter) {
  FillResult r;
  bool parked = false;
  while (true) {
    const bool was_full = filter.is_full();
    if (!filter.insert(r.inserted)) {
      // Refused alone: a key whose two buckets hold 2b copies of its fingerprint (with 4-bit fingerprints
      // distinct keys get there), or whose walk failed below the filter's capacity (filter_core.h). Skip
      // it, as a caller would, and go on filling.
      const cuckoo::Config& c = filter.config();
      const uint64_t capacity = cuckoo::internal::items_at_target_load(c);
      if (!was_full && (filter.count(r.inserted) >= 2 * c.bucket_size || filter.size() < capacity)) {
        ++r.inserted;
        ++r.saturated;
        continue;
      }
      EXPECT_TRUE(was_full) << "insert refused while the victim slot was free (key " << r.inserted << ")";
      break;
    }
    EXPECT_FALSE(was_full) << "insert accepted while the victim slot was taken";
    parked = filter.is_full();
    ++r.inserted;
  }
  EXPECT_TRUE(parked) << "the last accepted insert should be the one that parked a victim";
  r.load = filter.load_factor();
  return r;
}

// Every key in [from, to) is found (batched: contains_many is exercised on a big table here too).
void expect_all_found(const CuckooFilter& filter, uint64_t from, uint64_t to, uint64_t skip = ~uint64_t{0}) {
  std::vector<uint64_t> batch;
  std::vector<uint8_t> out;
  uint64_t missing = 0, first_missing = 0;
  for (uint64_t start = from; start < to; start += 65536) {
    const uint64_t end = std::min(to, start + 65536);
    batch.clear();
    for (uint64_t k = start; k < end; ++k) batch.push_back(k);
    out.assign(batch.size(), 0);
    filter.contains_many(batch.data(), batch.size(), out.data());
    for (size_t i = 0; i < batch.size(); ++i) {
      if (out[i] || batch[i] == skip) continue;
      if (missing++ == 0) first_missing = batch[i];
    }
  }
  EXPECT_EQ(missing, 0u) << "lost " << missing << " keys, the first being " << first_missing;
}

struct LoadCase {
  unsigned b, f;
  bool semi_sort;
  double min_load;  // 0: record only (Figure 2)
};

void PrintTo(const LoadCase& c, std::ostream* os) {
  *os << "b=" << c.b << " f=" << c.f << (c.semi_sort ? " semi-sorted" : "");
}

std::string case_name(const ::testing::TestParamInfo<LoadCase>& info) {
  return "b" + std::to_string(info.param.b) + "_f" + std::to_string(info.param.f) +
         (info.param.semi_sort ? "_semisort" : "");
}

class LoadTest : public ::testing::TestWithParam<LoadCase> {};

TEST_P(LoadTest, FillToFailureLosesNothing) {
  const LoadCase c = GetParam();
  Options o;
  o.bucket_count = bucket_count_for_scale();
  o.bucket_size = c.b;
  o.fingerprint_bits = c.f;
  o.semi_sort = c.semi_sort;
  o.seed = 2014;
  CuckooFilter filter(o);
  const FillResult r = fill_to_failure(filter);
  if (HasFailure()) return;

  std::printf("fill to failure, %llu buckets, b=%u f=%u%s: load %.4f (%llu items)\n",
              static_cast<unsigned long long>(*o.bucket_count), c.b, c.f, c.semi_sort ? " semi-sorted" : "", r.load,
              static_cast<unsigned long long>(r.inserted));
  RecordProperty("load", std::to_string(r.load));
  RecordProperty("bucket_count", std::to_string(*o.bucket_count));

  // State after the failure: the victim is parked and counted, the table holds the rest.
  EXPECT_TRUE(filter.is_full());
  EXPECT_EQ(filter.size(), r.inserted - r.saturated);
  EXPECT_EQ(CoreAccess::core(filter).count_entries() + 1, r.inserted - r.saturated);
  // The refused insert changed nothing, and refusing again still changes nothing.
  const auto bytes = filter.serialize();
  EXPECT_FALSE(filter.insert(r.inserted + 1));
  EXPECT_FALSE(filter.insert("another key"));
  EXPECT_EQ(filter.serialize(), bytes);

  expect_all_found(filter, 0, r.inserted);
  if (c.min_load > 0) EXPECT_GE(r.load, c.min_load) << "below the paper's achieved load";

  // An erase frees a slot; the filter takes keys again and loses nothing on the way.
  ASSERT_TRUE(filter.erase(uint64_t{0}));
  EXPECT_EQ(filter.size(), r.inserted - r.saturated - 1);
  EXPECT_EQ(CoreAccess::core(filter).count_entries() + (filter.is_full() ? 1 : 0), r.inserted - r.saturated - 1);
  uint64_t next = r.inserted;
  if (!filter.is_full()) {
    EXPECT_TRUE(filter.insert(next));
    ++next;
  }
  expect_all_found(filter, 1, next);
}

// Asserted: the paper's loads (b = 4: 95%, b = 8: 98%, b = 2: 84%) with fingerprints large enough.
INSTANTIATE_TEST_SUITE_P(PaperLoads, LoadTest,
                         ::testing::Values(LoadCase{4, 8, false, 0.95}, LoadCase{4, 12, false, 0.95},
                                           LoadCase{4, 13, true, 0.95}, LoadCase{8, 12, false, 0.98},
                                           LoadCase{2, 12, false, 0.84}, LoadCase{2, 16, false, 0.84}),
                         case_name);

// Recorded only: small fingerprints, where the load falls (Figure 2), and b = 2 where it falls hardest.
INSTANTIATE_TEST_SUITE_P(Figure2, LoadTest,
                         ::testing::Values(LoadCase{4, 4, false, 0}, LoadCase{4, 5, false, 0},
                                           LoadCase{4, 6, false, 0}, LoadCase{4, 7, false, 0},
                                           LoadCase{2, 4, false, 0}, LoadCase{2, 6, false, 0},
                                           LoadCase{2, 8, false, 0}, LoadCase{8, 4, false, 0}),
                         case_name);

}  // namespace
