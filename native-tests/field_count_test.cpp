// native-tests/field_count_test.cpp: core/src/field_count.h's SWAR count of nonzero fields, against a
// field-by-field count, for every width, any range and fields of every value pattern (0, 1, top bit only,
// all ones, random), which is where a carry between fields would show.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "bits.h"
#include "field_count.h"

namespace {

using cuckoo::internal::count_nonzero_fields;

uint64_t field_at(const std::vector<uint8_t>& stream, uint64_t k, unsigned w) {
  uint64_t v = 0;
  for (unsigned j = 0; j < w; ++j) {
    const uint64_t bit = k * w + j;
    v |= uint64_t{(stream[bit / 8] >> (bit % 8)) & 1u} << j;
  }
  return v;
}

void set_field(std::vector<uint8_t>& stream, uint64_t k, unsigned w, uint64_t v) {
  for (unsigned j = 0; j < w; ++j) {
    const uint64_t bit = k * w + j;
    stream[bit / 8] = static_cast<uint8_t>((stream[bit / 8] & ~(1u << (bit % 8))) | (((v >> j) & 1u) << (bit % 8)));
  }
}

TEST(FieldCount, MatchesAFieldByFieldCountForEveryWidthAndRange) {
  std::mt19937_64 rng(7);
  for (unsigned w = 1; w <= 32; ++w) {
    SCOPED_TRACE("width " + std::to_string(w));
    const uint64_t fields = 301;
    const uint64_t mask = (uint64_t{1} << w) - 1;
    // Padding after the stream as the tables keep it, filled with ones: the count must ignore it.
    std::vector<uint8_t> stream((fields * w + 7) / 8 + cuckoo::internal::kTablePadding, 0xFF);
    const uint64_t patterns[] = {0, 1, uint64_t{1} << (w - 1), mask};
    for (uint64_t k = 0; k < fields; ++k)
      set_field(stream, k, w, k % 3 == 0 ? patterns[rng() % 4] : (rng() % 2 ? 0 : rng() & mask));
    for (int trial = 0; trial < 200; ++trial) {
      uint64_t first = rng() % (fields + 1);
      uint64_t end = rng() % (fields + 1);
      if (first > end) std::swap(first, end);
      uint64_t expected = 0;
      for (uint64_t k = first; k < end; ++k) expected += field_at(stream, k, w) != 0;
      ASSERT_EQ(count_nonzero_fields(stream.data(), first, end, w), expected) << first << ".." << end;
    }
    uint64_t all = 0;
    for (uint64_t k = 0; k < fields; ++k) all += field_at(stream, k, w) != 0;
    EXPECT_EQ(count_nonzero_fields(stream.data(), 0, fields, w), all);
  }
}

// Every field nonzero: each load's marks are all set, the largest sum its count takes.
TEST(FieldCount, CountsATableWhoseFieldsAreAllFull) {
  for (unsigned w = 1; w <= 32; ++w) {
    const uint64_t fields = 1000;
    const std::vector<uint8_t> stream((fields * w + 7) / 8 + cuckoo::internal::kTablePadding, 0xFF);
    for (uint64_t first : {uint64_t{0}, uint64_t{5}})
      EXPECT_EQ(count_nonzero_fields(stream.data(), first, fields, w), fields - first) << "width " << w;
  }
}

}  // namespace
