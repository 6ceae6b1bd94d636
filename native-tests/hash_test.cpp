// native-tests/hash_test.cpp: the frozen key -> (bucket, fingerprint) spec of core/src/hash.h and
// docs/hashing.md.
//
// Two kinds of checks:
// - Properties BucketHasher must have for the cuckoo filter to be correct, over many random hashes and
//   bucket counts (even, including non-powers of two and the maximum 2^32): alt() is an involution with no
//   fixed point, indexes are in range, fingerprints are in [1, 2^f - 1] (0 means "empty").
// - Frozen test vectors. Stored filters and the WASM build depend on the mapping never changing, so a few
//   (key, seed, n, f) -> (h, i1, fp, i2) results are pinned here. The test prints them as markdown rows
//   that docs/hashing.md can copy. Changing any of them means a format-version bump, not a test edit.
#include <gtest/gtest.h>

#include <cuckoo/cuckoo.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "hash.h"
#include "test_support.h"

namespace {

using cuckoo_test::le_bytes;
using cuckoo_test::test_scale;

using cuckoo::internal::BucketHasher;
using cuckoo::internal::hash_bytes;
using cuckoo::internal::hash_u64;

size_t scaled(size_t n, size_t minimum = 1) {
  const size_t v = static_cast<size_t>(static_cast<double>(n) * test_scale());
  return v < minimum ? minimum : v;
}

// Bucket counts the index map must support: tiny, non-powers of two, powers of two, the 2^32 maximum, and
// random even values over the whole range.
std::vector<uint64_t> bucket_counts_under_test() {
  std::vector<uint64_t> counts = {2, 4, 6, 10, 1000, 1002,
                                  uint64_t{1} << 20, 3 * (uint64_t{1} << 20) + 2, uint64_t{1} << 31,
                                  (uint64_t{1} << 32) - 2, uint64_t{1} << 32};
  std::mt19937_64 rng(20140101);
  for (int k = 0; k < 40; ++k) counts.push_back(2 + 2 * (rng() % (uint64_t{1} << 31)));  // even, 2..2^32
  return counts;
}

const unsigned kWidths[] = {4, 5, 8, 12, 13, 16, 17, 31, 32};

// hash_bytes splits off keys over 240 bytes (XXH3's long-input path, kept out of line): every length
// across XXH3's size classes (0-16, 17-128, 129-240, 241+) and their edges still hashes exactly as XXH3.
TEST(HashBytes, EveryLengthMatchesXxh3) {
  std::mt19937_64 rng(7);
  std::vector<unsigned char> bytes(2048);
  for (auto& b : bytes) b = static_cast<unsigned char>(rng());
  for (size_t len = 0; len <= bytes.size(); len += (len < 300 ? 1 : 37)) {
    const uint64_t seed = rng();
    EXPECT_EQ(cuckoo::internal::hash_bytes(bytes.data(), len, seed), XXH3_64bits_withSeed(bytes.data(), len, seed))
        << len;
  }
}

TEST(HashSpec, IndexFingerprintAndAltIndexProperties) {
  std::mt19937_64 rng(42);
  const size_t per_shape = scaled(4000, 200);
  for (uint64_t n : bucket_counts_under_test()) {
    for (unsigned f : kWidths) {
      const BucketHasher hasher(n, f);
      const uint32_t max_fp = static_cast<uint32_t>((uint64_t{1} << f) - 1);
      for (size_t k = 0; k < per_shape; ++k) {
        const uint64_t h = rng();
        const uint64_t i = hasher.index(h);
        const uint32_t fp = hasher.fingerprint(h);
        ASSERT_LT(i, n) << "h=" << h << " n=" << n;
        ASSERT_GE(fp, 1u) << "a fingerprint of 0 would read as an empty entry; h=" << h << " f=" << f;
        ASSERT_LE(fp, max_fp) << "h=" << h << " f=" << f;
        const uint64_t alt = hasher.alt_index(i, fp);
        ASSERT_LT(alt, n) << "i=" << i << " fp=" << fp << " n=" << n;
        ASSERT_NE(alt, i) << "every key needs two distinct buckets; i=" << i << " fp=" << fp << " n=" << n;
        ASSERT_EQ(hasher.alt_index(alt, fp), i) << "alt must be its own inverse; i=" << i << " fp=" << fp
                                                << " n=" << n;
      }
    }
  }
}

// Exhaustive over small tables: every bucket, every 8-bit fingerprint.
TEST(HashSpec, AltIndexIsAnInvolutionWithoutFixedPointsExhaustively) {
  for (uint64_t n = 2; n <= 130; n += 2) {
    const BucketHasher hasher(n, 8);
    for (uint64_t i = 0; i < n; ++i) {
      for (uint32_t fp = 1; fp < 256; ++fp) {
        const uint64_t alt = hasher.alt_index(i, fp);
        ASSERT_LT(alt, n);
        ASSERT_NE(alt, i) << "n=" << n << " i=" << i << " fp=" << fp;
        ASSERT_EQ(hasher.alt_index(alt, fp), i) << "n=" << n << " i=" << i << " fp=" << fp;
      }
    }
  }
}

// The extremes of the fast-range maps: h = 0 gives bucket 0 and fingerprint 1, h = 2^64 - 1 the last bucket
// and the largest fingerprint, so both ranges are covered exactly (no off-by-one at either end).
TEST(HashSpec, RangesAreCoveredToTheirEnds) {
  for (uint64_t n : {uint64_t{2}, uint64_t{1000}, uint64_t{1} << 32}) {
    for (unsigned f : kWidths) {
      const BucketHasher hasher(n, f);
      EXPECT_EQ(hasher.index(0), 0u);
      EXPECT_EQ(hasher.fingerprint(0), 1u);
      EXPECT_EQ(hasher.index(~uint64_t{0}), n - 1) << "n=" << n;
      EXPECT_EQ(hasher.fingerprint(~uint64_t{0}), (uint64_t{1} << f) - 1) << "f=" << f;
    }
  }
  // Every 4-bit fingerprint value and every bucket of a small table is reachable.
  const BucketHasher hasher(14, 4);
  std::set<uint32_t> fps;
  std::set<uint64_t> buckets;
  std::mt19937_64 rng(7);
  for (int k = 0; k < 10000; ++k) {
    const uint64_t h = rng();
    fps.insert(hasher.fingerprint(h));
    buckets.insert(hasher.index(h));
  }
  EXPECT_EQ(fps.size(), 15u);
  EXPECT_EQ(buckets.size(), 14u);
}

// alt() depends on a hash of the fingerprint, not the fingerprint itself (paper section 3.1): from one bucket
// of a large table, different fingerprints lead to many different partner buckets spread over the table,
// not a window of 2^f buckets.
TEST(HashSpec, AltIndexSpreadsOverTheTable) {
  const uint64_t n = uint64_t{1} << 24;
  const BucketHasher hasher(n, 8);
  std::set<uint64_t> partners;
  uint64_t lo = n, hi = 0;
  for (uint32_t fp = 1; fp < 256; ++fp) {
    const uint64_t alt = hasher.alt_index(12345, fp);
    partners.insert(alt);
    lo = std::min(lo, alt);
    hi = std::max(hi, alt);
  }
  EXPECT_GE(partners.size(), 250u);
  EXPECT_GT(hi - lo, n / 2) << "partners confined to a window";
}

// Index and fingerprint come from disjoint halves of h: the low 32 bits alone decide the bucket, the high
// 32 bits alone the fingerprint.
TEST(HashSpec, IndexAndFingerprintUseDisjointHalves) {
  const BucketHasher hasher(1000, 12);
  std::mt19937_64 rng(3);
  for (int k = 0; k < 10000; ++k) {
    const uint64_t h = rng(), other = rng();
    EXPECT_EQ(hasher.index(h), hasher.index((h & 0xFFFFFFFFu) | (other << 32)));
    EXPECT_EQ(hasher.fingerprint(h), hasher.fingerprint((h & ~uint64_t{0xFFFFFFFFu}) | (other >> 32)));
  }
}

// A uint64_t key is its 8 little-endian bytes; the filter's public hash() is XXH3_64bits_withSeed.
TEST(HashSpec, KeysAreHashedAsSpecified) {
  std::mt19937_64 rng(11);
  for (int k = 0; k < 1000; ++k) {
    const uint64_t key = rng(), seed = k % 3 == 0 ? 0 : rng();
    unsigned char le[8];
    for (int b = 0; b < 8; ++b) le[b] = static_cast<unsigned char>(key >> (8 * b));
    EXPECT_EQ(hash_u64(key, seed), XXH3_64bits_withSeed(le, 8, seed));
    EXPECT_EQ(hash_bytes(le, 8, seed), XXH3_64bits_withSeed(le, 8, seed));
    cuckoo::Options o;
    o.bucket_count = 64;
    o.seed = seed;
    const cuckoo::CuckooFilter filter(o);
    EXPECT_EQ(filter.hash(key), XXH3_64bits_withSeed(le, 8, seed));
    EXPECT_EQ(filter.hash(std::string_view(reinterpret_cast<const char*>(le), 8)), filter.hash(key));
  }
}

// The lookup path's hash of a uint64_t key folds the seed in once per filter; it must stay XXH3 bit for
// bit, for every seed (including the edge seeds whose halves are 0 or all ones).
TEST(HashSpec, SeededU64HashIsXxh3WithSeed) {
  std::mt19937_64 rng(12);
  const uint64_t edge_seeds[] = {0, 1, ~uint64_t{0}, 0xFFFFFFFFu, ~uint64_t{0} << 32, 0x8000000000000000ull};
  for (int s = 0; s < 200; ++s) {
    const uint64_t seed = s < 6 ? edge_seeds[s] : rng();
    const cuckoo::internal::SeededU64Hash seeded(seed);
    for (int k = 0; k < 5000; ++k) {
      const uint64_t key = k < 3 ? (k == 0 ? 0 : k == 1 ? ~uint64_t{0}
                                                        : seed)
                                 : rng();
      ASSERT_EQ(seeded(key), hash_u64(key, seed)) << "key " << key << " seed " << seed;
    }
  }
}

// ----- Frozen vectors -----

struct Vector {
  const char* label;  // how docs/hashing.md names the key
  std::string bytes;  // the key bytes
  uint64_t seed;
  uint64_t n;
  unsigned f;
  uint64_t h, i1;
  uint32_t fp;
  uint64_t i2;
};

// The first block is the table of docs/hashing.md (n = 1000, f = 12). The others pin the same keys for a
// power-of-two table with 16-bit fingerprints, the largest table (2^32 buckets, 32-bit fingerprints), and a
// tiny non-power-of-two table with 4-bit fingerprints.
const std::vector<Vector>& frozen_vectors() {
  static const std::vector<Vector> v = {
      {"\"\" (empty)", "", 0, 1000, 12, 0x2d06800538d394c2, 221, 721, 382},
      {"\"abc\"", "abc", 0, 1000, 12, 0x78af5f94892f3950, 535, 1931, 888},
      {"\"abc\"", "abc", 1, 1000, 12, 0x6b4467b443c76228, 264, 1716, 283},
      {"\"key-0\"", "key-0", 0, 1000, 12, 0x819f6b51706f0178, 439, 2074, 364},
      {"\"\xc3\xa9\" (UTF-8 c3 a9)", "\xc3\xa9", 0, 1000, 12, 0xf7940a006cf10cb3, 425, 3961, 608},
      {"uint64 0", le_bytes(0), 0, 1000, 12, 0xc77b3abb6f87acd9, 435, 3191, 712},
      {"uint64 7", le_bytes(7), 0, 1000, 12, 0x81671e58d6b596af, 838, 2070, 493},
      {"uint64 2^64\xe2\x88\x92"
       "1",
       le_bytes(~uint64_t{0}), 0, 1000, 12, 0x5111c7e47d784413, 490, 1297, 101},

      {"\"abc\"", "abc", 0, 1048576, 16, 0x78af5f94892f3950, 561907, 30895, 654528},
      {"\"key-0\"", "key-0", 0, 1048576, 16, 0x819f6b51706f0178, 460528, 33183, 820673},
      {"uint64 7", le_bytes(7), 0, 1048576, 16, 0x81671e58d6b596af, 879449, 33127, 810798},
      {"\"abc\"", "abc", 42, 1048576, 16, 0xd8438def21bbdcc3, 138173, 55363, 88024},

      {"\"abc\"", "abc", 0, 4294967296, 32, 0x78af5f94892f3950, 2301573456, 2024759188, 2928142911},
      {"uint64 2^64\xe2\x88\x92"
       "1",
       le_bytes(~uint64_t{0}), 0, 4294967296, 32, 0x5111c7e47d784413,
       2105033747, 1360119780, 1378311242},

      {"\"abc\"", "abc", 0, 6, 4, 0x78af5f94892f3950, 3, 8, 2},
      {"uint64 0", le_bytes(0), 0, 6, 4, 0xc77b3abb6f87acd9, 2, 12, 1},
  };
  return v;
}

TEST(HashSpec, FrozenTestVectors) {
  std::printf("| key | seed | n | f | h = XXH3_64bits_withSeed | i1 | fp | i2 |\n");
  std::printf("|-----|------|---|---|--------------------------|----|----|----|\n");
  for (const Vector& v : frozen_vectors()) {
    const uint64_t h = hash_bytes(v.bytes.data(), v.bytes.size(), v.seed);
    const BucketHasher hasher(v.n, v.f);
    const uint64_t i1 = hasher.index(h);
    const uint32_t fp = hasher.fingerprint(h);
    const uint64_t i2 = hasher.alt_index(i1, fp);
    std::printf("| %s | %" PRIu64 " | %" PRIu64 " | %u | 0x%016" PRIx64 " | %" PRIu64 " | %u | %" PRIu64 " |\n",
                v.label, v.seed, v.n, v.f, h, i1, fp, i2);
    EXPECT_EQ(h, v.h) << v.label << " seed " << v.seed;
    EXPECT_EQ(i1, v.i1) << v.label << " n=" << v.n;
    EXPECT_EQ(fp, v.fp) << v.label << " f=" << v.f;
    EXPECT_EQ(i2, v.i2) << v.label << " n=" << v.n << " f=" << v.f;
  }
}

// The filter puts a key where the spec says: into the first entry of bucket i1 of an empty table, and once
// i1 is full, into i2. Read back from the serialized table (docs/format.md: the packed table follows the
// 56-byte header; entry j of bucket i is the f-bit field number i * b + j, little-endian bit order).
TEST(HashSpec, FilterPlacesKeysWhereTheSpecSays) {
  auto field = [](const std::vector<uint8_t>& bytes, uint64_t index, unsigned f) {
    uint64_t v = 0;
    for (unsigned bit = 0; bit < f; ++bit) {
      const uint64_t pos = index * f + bit;
      v |= uint64_t{(bytes[cuckoo::kHeaderBytes + pos / 8] >> (pos % 8)) & 1u} << bit;
    }
    return v;
  };
  cuckoo::Options o;
  o.bucket_count = 1000;
  o.fingerprint_bits = 12;
  o.bucket_size = 4;
  cuckoo::CuckooFilter filter(o);
  // "abc", seed 0: i1 = 535, fp = 1931, i2 = 888 (docs/hashing.md).
  ASSERT_TRUE(filter.insert("abc"));
  auto bytes = filter.serialize();
  EXPECT_EQ(field(bytes, 535 * 4 + 0, 12), 1931u);
  for (int k = 0; k < 4; ++k) ASSERT_TRUE(filter.insert("abc"));
  bytes = filter.serialize();
  for (unsigned s = 0; s < 4; ++s) EXPECT_EQ(field(bytes, 535 * 4 + s, 12), 1931u) << "slot " << s;
  EXPECT_EQ(field(bytes, 888 * 4 + 0, 12), 1931u) << "the fifth copy belongs in the alternate bucket";
  EXPECT_EQ(filter.count("abc"), 5u);
}

}  // namespace
