// native-tests/format_test.cpp: the binary format (docs/format.md) round-trips exactly and rejects bad bytes.
//
// Round trips: every configuration family loads with the same answers, size, load and bytes, and the
// loaded copy then behaves exactly like the original (same bytes after the same further operations, which
// also checks that the kick RNG state travels with the filter).
// Rejection: truncation at every length, every single-bit flip, and each header/table check reached on
// its own by recomputing the checksum after the edit, with the error message naming the problem.
#include <gtest/gtest.h>

#include <cuckoo/cuckoo.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "hash.h"  // XXH3, to recompute checksums after deliberate edits

namespace {

using cuckoo::CuckooFilter;
using cuckoo::FormatError;
using Bytes = std::vector<uint8_t>;

// Header offsets (docs/format.md).
constexpr size_t kVersion = 4, kBucketSize = 5, kFingerprintBits = 6, kFlags = 7, kMaxKicks = 8, kVictimFp = 12,
                 kSeed = 16, kBucketCount = 24, kItemCount = 32, kVictimIndex = 40, kTable = 56;

void put_le(Bytes& b, size_t offset, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; ++i) b.at(offset + i) = static_cast<uint8_t>(v >> (8 * i));
}
uint64_t get_le(const Bytes& b, size_t offset, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint64_t{b[offset + i]} << (8 * i);
  return v;
}

// Recomputes the trailing checksum so that a deliberate edit reaches the check behind the checksum.
Bytes reseal(Bytes b) {
  const size_t body = b.size() - cuckoo::kChecksumBytes;
  put_le(b, body, XXH3_64bits(b.data(), body), 8);
  return b;
}

// The message of the FormatError that deserialize throws, or "" if it accepted the bytes.
std::string rejection(const void* data, size_t size) {
  try {
    CuckooFilter::deserialize(data, size);
  } catch (const FormatError& e) {
    return e.what();
  }
  return "";
}
std::string rejection(const Bytes& b) { return rejection(b.data(), b.size()); }

#define EXPECT_REJECTED(bytes, phrase)                                                      \
  do {                                                                                      \
    const std::string why_ = rejection(bytes);                                              \
    EXPECT_NE(why_, "") << "accepted, expected an error containing \"" << (phrase) << "\""; \
    EXPECT_NE(why_.find(phrase), std::string::npos) << "message: " << why_;                 \
    EXPECT_EQ(why_.rfind("cuckoo: ", 0), 0u) << "message: " << why_;                        \
  } while (0)

cuckoo::Options opts(unsigned b, unsigned f, bool semi, uint64_t buckets, uint64_t seed = 42, unsigned kicks = 500) {
  cuckoo::Options o;
  o.bucket_size = b;
  o.fingerprint_bits = f;
  o.semi_sort = semi;
  o.bucket_count = buckets;
  o.seed = seed;
  o.max_kicks = kicks;
  return o;
}

// Inserts keys 0, 1, 2, ... until `n` are in or the filter is full; returns how many went in.
uint64_t fill(CuckooFilter& f, uint64_t n, uint64_t first = 0) {
  uint64_t k = first;
  while (k - first < n && f.insert(k)) ++k;
  return k - first;
}

// Inserts keys first, first + 1, ... until a victim is parked. Below its capacity a fixed filter refuses a
// key whose walk fails alone (filter_core.h), so some keys on the way may be refused.
void fill_until_full(CuckooFilter& f, uint64_t first = 0) {
  for (uint64_t k = first; !f.is_full() && k < first + 10000000; ++k) f.insert(k);
}

// A small filter of the given shape, about 90% full.
Bytes small_filter(unsigned b, unsigned f, bool semi, uint64_t buckets = 8) {
  CuckooFilter filter(opts(b, f, semi, buckets));
  fill(filter, buckets * b * 9 / 10);
  return filter.serialize();
}

// Every shape: b = 2, 4, 8 with f = 4..32, and semi-sorted b = 4 with f = 4..32.
struct Shape {
  unsigned b, f;
  bool semi;
};
std::vector<Shape> all_shapes() {
  std::vector<Shape> shapes;
  for (unsigned f = 4; f <= 32; ++f) {
    for (unsigned b : {2u, 4u, 8u}) shapes.push_back({b, f, false});
    shapes.push_back({4, f, true});
  }
  return shapes;
}

std::string name(const Shape& s) {
  return "b=" + std::to_string(s.b) + " f=" + std::to_string(s.f) + (s.semi ? " semi" : "");
}

// ---------------------------------------------------------------------------------------------------
// Round trips

TEST(FormatRoundTrip, EveryShapeIsExact) {
  for (const Shape& s : all_shapes()) {
    SCOPED_TRACE(name(s));
    // 30 buckets (= 2 mod 4): b=2 with odd f leaves 4 padding bits at the end of the table.
    CuckooFilter original(opts(s.b, s.f, s.semi, 30, s.f * 7 + s.b));
    const uint64_t inserted = fill(original, 30 * s.b * 85 / 100);
    const Bytes bytes = original.serialize();
    ASSERT_EQ(bytes.size(), original.serialized_size());
    ASSERT_EQ(bytes.size(), cuckoo::kFormatOverhead + original.config().table_bytes());

    CuckooFilter copy = CuckooFilter::deserialize(bytes.data(), bytes.size());
    EXPECT_EQ(copy.size(), original.size());
    EXPECT_EQ(copy.load_factor(), original.load_factor());
    EXPECT_EQ(copy.is_full(), original.is_full());
    EXPECT_EQ(copy.bucket_count(), original.bucket_count());
    EXPECT_EQ(copy.config().seed, original.config().seed);
    EXPECT_EQ(copy.config().max_kicks, original.config().max_kicks);
    for (uint64_t k = 0; k < inserted; ++k) ASSERT_TRUE(copy.contains(k)) << k;
    // Same answers for keys never inserted, false positives included.
    for (uint64_t k = 1000000; k < 1002000; ++k) ASSERT_EQ(copy.contains(k), original.contains(k)) << k;
    for (uint64_t k = 0; k < inserted + 50; ++k) ASSERT_EQ(copy.count(k), original.count(k)) << k;
    EXPECT_EQ(copy.serialize(), bytes);

    // The same further operations give the same bytes: erase some, then insert until full (kicks use the
    // restored RNG state, and the last one parks a victim).
    for (CuckooFilter* f : {&original, &copy}) {
      for (uint64_t k = 0; k < inserted; k += 3) ASSERT_TRUE(f->erase(k)) << k;
      fill_until_full(*f, 5000000);
      EXPECT_TRUE(f->is_full());
    }
    EXPECT_EQ(copy.serialize(), original.serialize());

    // And a full filter with a parked victim round-trips too, and still lets an erase rehome the victim.
    const Bytes full = original.serialize();
    CuckooFilter full_copy = CuckooFilter::deserialize(full.data(), full.size());
    EXPECT_TRUE(full_copy.is_full());
    EXPECT_EQ(full_copy.size(), original.size());
    EXPECT_EQ(full_copy.serialize(), full);
    ASSERT_TRUE(full_copy.erase(uint64_t{1}));
    ASSERT_TRUE(original.erase(uint64_t{1}));
    EXPECT_EQ(full_copy.serialize(), original.serialize());
  }
}

TEST(FormatRoundTrip, EmptyAndStringKeys) {
  CuckooFilter empty(opts(4, 12, false, 2));
  const Bytes e = empty.serialize();
  EXPECT_EQ(e.size(), cuckoo::kFormatOverhead + 12);  // 2 buckets x 4 x 12 bits = 12 bytes
  EXPECT_EQ(CuckooFilter::deserialize(e.data(), e.size()).size(), 0u);

  CuckooFilter f(opts(4, 16, false, 64));
  const std::vector<std::string> keys = {"", "\xC3\xA9", "a", std::string(1000, 'x'), std::string("\0\1", 2)};
  for (const auto& k : keys) ASSERT_TRUE(f.insert(k));
  const Bytes b = f.serialize();
  const CuckooFilter g = CuckooFilter::deserialize(b.data(), b.size());
  for (const auto& k : keys) EXPECT_TRUE(g.contains(k)) << k;
}

// The huge-page hint is the caller's, not the file's: it follows the argument, and the bytes are the same.
TEST(FormatRoundTrip, HugePageHintIsTheCallersChoice) {
  CuckooFilter f(opts(4, 12, false, 1024));
  for (uint64_t k = 0; k < 3000; ++k) ASSERT_TRUE(f.insert(k));
  const Bytes b = f.serialize();
  const CuckooFilter by_default = CuckooFilter::deserialize(b.data(), b.size());
  const CuckooFilter without = CuckooFilter::deserialize(b.data(), b.size(), /*huge_pages=*/false);
  EXPECT_TRUE(by_default.config().huge_pages);
  EXPECT_FALSE(without.config().huge_pages);
  EXPECT_EQ(without.serialize(), b);
  EXPECT_EQ(by_default.serialize(), b);
  for (uint64_t k = 0; k < 3000; ++k) ASSERT_TRUE(without.contains(k));
}

// The header holds exactly what the spec says, at the documented offsets.
TEST(FormatRoundTrip, HeaderFieldsAreWhereTheSpecSays) {
  CuckooFilter f(opts(8, 13, false, 10, 0x0123456789ABCDEFull, 77));
  fill(f, 20);
  const Bytes b = f.serialize();
  EXPECT_EQ(std::string(b.begin(), b.begin() + 4), "CKOO");
  EXPECT_EQ(b[kVersion], cuckoo::kFormatVersion);
  EXPECT_EQ(b[kBucketSize], 8);
  EXPECT_EQ(b[kFingerprintBits], 13);
  EXPECT_EQ(b[kFlags], 0);
  EXPECT_EQ(get_le(b, kMaxKicks, 4), 77u);
  EXPECT_EQ(get_le(b, kVictimFp, 4), 0u);
  EXPECT_EQ(get_le(b, kSeed, 8), 0x0123456789ABCDEFull);
  EXPECT_EQ(get_le(b, kBucketCount, 8), 10u);
  EXPECT_EQ(get_le(b, kItemCount, 8), 20u);
  EXPECT_EQ(get_le(b, kVictimIndex, 8), 0u);
  EXPECT_EQ(b.size(), kTable + (10 * 8 * 13 + 7) / 8 + 8);
  EXPECT_EQ(get_le(b, b.size() - 8, 8), XXH3_64bits(b.data(), b.size() - 8));
}

// ---------------------------------------------------------------------------------------------------
// Rejection

TEST(FormatReject, NullAndEmptyInput) {
  EXPECT_NE(rejection(nullptr, 0).find("truncated input"), std::string::npos);
  EXPECT_NE(rejection(nullptr, 100).find("null input"), std::string::npos);
  const uint8_t one = 'C';
  EXPECT_NE(rejection(&one, 0).find("truncated input"), std::string::npos);
}

TEST(FormatReject, TruncatedAtEveryLength) {
  for (const Shape& s : {Shape{2, 8, false}, Shape{4, 12, false}, Shape{8, 7, false}, Shape{4, 13, true}}) {
    SCOPED_TRACE(name(s));
    const Bytes full = small_filter(s.b, s.f, s.semi);
    for (size_t n = 0; n < full.size(); ++n) {
      // A buffer of exactly n bytes, so AddressSanitizer catches any read past the end.
      auto exact = std::make_unique<uint8_t[]>(n);
      std::memcpy(exact.get(), full.data(), n);
      const std::string why = rejection(exact.get(), n);
      EXPECT_NE(why.find("truncated input"), std::string::npos) << "length " << n << ": " << why;
    }
    // Beyond the header, the message says how long the input should be.
    const Bytes cut(full.begin(), full.end() - 1);
    EXPECT_REJECTED(cut, "expected " + std::to_string(full.size()) + " bytes, got " + std::to_string(cut.size()));
  }
}

TEST(FormatReject, TrailingBytes) {
  Bytes b = small_filter(4, 12, false);
  b.push_back(0);
  EXPECT_REJECTED(b, "trailing bytes");
  EXPECT_REJECTED(reseal(b), "trailing bytes");
}

// The checksum covers every byte: no single-bit flip anywhere is accepted.
TEST(FormatReject, EverySingleBitFlip) {
  for (const Shape& s : {Shape{2, 8, false}, Shape{4, 12, false}, Shape{8, 5, false}, Shape{4, 9, true}}) {
    SCOPED_TRACE(name(s));
    Bytes original = small_filter(s.b, s.f, s.semi, 6);
    for (size_t bit = 0; bit < original.size() * 8; ++bit) {
      Bytes b = original;
      b[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
      EXPECT_NE(rejection(b), "") << "flip of bit " << bit << " (byte " << bit / 8 << ") was accepted";
    }
    // A flip in the table or the checksum is caught by the checksum itself.
    for (size_t byte : {kTable, original.size() - 9, original.size() - 1}) {
      Bytes b = original;
      b[byte] ^= 0x10;
      EXPECT_REJECTED(b, "checksum mismatch");
    }
  }
}

TEST(FormatReject, WrongMagic) {
  Bytes b = small_filter(4, 12, false);
  b[0] = 'X';
  EXPECT_REJECTED(reseal(b), "bad magic");
  Bytes json = {'{', '"', 'a', '"', ':', '1', '}'};
  json.resize(200, ' ');
  EXPECT_REJECTED(json, "bad magic");
}

TEST(FormatReject, WrongVersion) {
  for (uint8_t v : {0, 3, 255}) {
    Bytes b = small_filter(4, 12, false);
    b[kVersion] = v;
    EXPECT_REJECTED(reseal(b), "unsupported format version " + std::to_string(v));
  }
}

TEST(FormatReject, UnknownFlags) {
  for (unsigned bit = 2; bit < 8; ++bit) {
    Bytes b = small_filter(4, 12, false);
    b[kFlags] |= static_cast<uint8_t>(1u << bit);
    EXPECT_REJECTED(reseal(b), "unknown flag bits");
  }
}

TEST(FormatReject, ImpossibleConfiguration) {
  const Bytes good = small_filter(4, 12, false);
  auto edit = [&](size_t offset, uint64_t value, size_t n) {
    Bytes b = good;
    put_le(b, offset, value, n);
    return reseal(b);
  };
  for (uint64_t bs : {0, 1, 3, 16, 255}) EXPECT_REJECTED(edit(kBucketSize, bs, 1), "bucket_size must be 2, 4 or 8");
  for (uint64_t fb : {0, 3, 33, 64, 255}) EXPECT_REJECTED(edit(kFingerprintBits, fb, 1), "fingerprint_bits must be in 4..32");
  EXPECT_REJECTED(edit(kMaxKicks, (1u << 20) + 1, 4), "max_kicks must be at most");
  EXPECT_REJECTED(edit(kMaxKicks, 0xFFFFFFFFu, 4), "max_kicks must be at most");
  // Semi-sorting needs b = 4.
  Bytes semi8 = small_filter(8, 12, false);
  semi8[kFlags] |= 1;
  EXPECT_REJECTED(reseal(semi8), "semi_sort requires bucket_size 4");
}

// Bucket counts the index map cannot use are rejected by the range check, before any length check or
// allocation: a header claiming 2^40 buckets must not make the reader allocate terabytes.
TEST(FormatReject, AbsurdBucketCounts) {
  const Bytes good = small_filter(4, 12, false);
  for (uint64_t n : {uint64_t{0}, uint64_t{1}, uint64_t{7}, uint64_t{9}, (uint64_t{1} << 32) + 2, uint64_t{1} << 40,
                     ~uint64_t{0}}) {
    Bytes b = good;
    put_le(b, kBucketCount, n, 8);
    EXPECT_REJECTED(reseal(b), "bucket_count must be even and in 2..2^32 (got " + std::to_string(n) + ")");
  }
  // 2^32 buckets is a valid shape (a 24 GiB table at b=4, f=12): the length check stops it first.
  Bytes big = good;
  put_le(big, kBucketCount, uint64_t{1} << 32, 8);
  EXPECT_REJECTED(reseal(big), "truncated input: expected");
  // A smaller but wrong even count: the length no longer matches.
  Bytes other = good;
  put_le(other, kBucketCount, 10, 8);
  EXPECT_REJECTED(reseal(other), "truncated input: expected");
  put_le(other, kBucketCount, 6, 8);
  EXPECT_REJECTED(reseal(other), "trailing bytes");
}

TEST(FormatReject, ItemCount) {
  const Bytes good = small_filter(4, 12, false);  // 8 buckets = 32 slots, 28 items
  ASSERT_EQ(get_le(good, kItemCount, 8), 28u);
  for (uint64_t n : {uint64_t{33}, uint64_t{1000}, ~uint64_t{0}}) {
    Bytes b = good;
    put_le(b, kItemCount, n, 8);
    EXPECT_REJECTED(reseal(b), "item count " + std::to_string(n) + " exceeds the 32 slots");
  }
  // Within range but not what the table holds: size() would lie and erase() could wrap it below zero.
  for (uint64_t n : {uint64_t{0}, uint64_t{27}, uint64_t{29}, uint64_t{32}}) {
    Bytes b = good;
    put_le(b, kItemCount, n, 8);
    EXPECT_REJECTED(reseal(b), "item count " + std::to_string(n) + " does not match the 28 fingerprints stored");
  }
}

TEST(FormatReject, BadVictim) {
  // A full filter with a parked victim.
  CuckooFilter f(opts(4, 8, false, 4, 1, 20));
  fill_until_full(f);
  ASSERT_TRUE(f.is_full());
  const Bytes good = f.serialize();
  ASSERT_EQ(good[kFlags], 2);
  ASSERT_NE(CuckooFilter::deserialize(good.data(), good.size()).size(), 0u);
  auto edit = [&](size_t offset, uint64_t value, size_t n) {
    Bytes b = good;
    put_le(b, offset, value, n);
    return reseal(b);
  };
  EXPECT_REJECTED(edit(kVictimFp, 0, 4), "invalid victim fingerprint");
  EXPECT_REJECTED(edit(kVictimFp, 256, 4), "invalid victim fingerprint");  // wider than f = 8 bits
  EXPECT_REJECTED(edit(kVictimFp, 0xFFFFFFFFu, 4), "invalid victim fingerprint");
  EXPECT_REJECTED(edit(kVictimIndex, 4, 8), "victim bucket index out of range");
  EXPECT_REJECTED(edit(kVictimIndex, ~uint64_t{0}, 8), "victim bucket index out of range");
  // Clearing the flag leaves the victim's fields set: refused rather than silently dropping an item.
  EXPECT_REJECTED(edit(kFlags, 0, 1), "victim fields set without the victim flag");
  // Victim fields on a filter without a victim.
  const Bytes plain = small_filter(4, 8, false);
  Bytes b = plain;
  put_le(b, kVictimFp, 5, 4);
  EXPECT_REJECTED(reseal(b), "victim fields set without the victim flag");
  b = plain;
  put_le(b, kVictimIndex, 1, 8);
  EXPECT_REJECTED(reseal(b), "victim fields set without the victim flag");
  // The victim flag with a valid victim but an item count that leaves no room for it.
  Bytes no_room = good;
  put_le(no_room, kItemCount, get_le(good, kItemCount, 8) - 1, 8);
  EXPECT_REJECTED(reseal(no_room), "does not match");
  // A victim parked beside room: a filter with free entries that would refuse every insert. Refused,
  // whether the room is in the victim's own bucket or in its other one.
  CuckooFilter one_item(opts(4, 8, false, 8));
  one_item.insert(uint64_t{7});
  Bytes beside_room = one_item.serialize();  // 31 of 32 entries empty
  beside_room[kFlags] = 2;
  put_le(beside_room, kVictimFp, 1, 4);
  put_le(beside_room, kItemCount, get_le(beside_room, kItemCount, 8) + 1, 8);
  EXPECT_REJECTED(reseal(beside_room), "victim parked although one of its buckets has an empty entry");
  for (const size_t bucket_offset : {size_t{0}, size_t{1}}) {
    // The victim's bucket, then the other one, get an entry cleared; the item count follows.
    Bytes b = good;
    const uint64_t index = get_le(good, kVictimIndex, 8);
    const uint32_t fp = static_cast<uint32_t>(get_le(good, kVictimFp, 4));
    const uint64_t bucket = bucket_offset == 0 ? index : cuckoo::internal::BucketHasher(4, 8).alt_index(index, fp);
    b[kTable + bucket * 4] = 0;  // b = 4, f = 8: entry 0 of the bucket is this byte
    put_le(b, kItemCount, get_le(good, kItemCount, 8) - 1, 8);
    EXPECT_REJECTED(reseal(b), "victim parked although one of its buckets has an empty entry");
  }
}

// Semi-sorted buckets start with a 12-bit code < 3876; 3876..4095 name no nibble tuple.
TEST(FormatReject, InvalidSemiSortCode) {
  for (unsigned f : {4u, 9u, 13u, 32u}) {
    SCOPED_TRACE(f);
    const Bytes good = small_filter(4, f, true, 4);
    const uint64_t bucket_bits = 4 * uint64_t{f} - 4;
    for (uint64_t bucket : {0, 3}) {
      for (unsigned code : {3876u, 4095u}) {
        Bytes b = good;
        // Write the 12 code bits at the bucket's first bit (little-endian bit stream).
        const uint64_t pos = kTable * 8 + bucket * bucket_bits;
        for (unsigned i = 0; i < 12; ++i) {
          const uint64_t bit = pos + i;
          b[bit / 8] = static_cast<uint8_t>((b[bit / 8] & ~(1u << (bit % 8))) | (((code >> i) & 1u) << (bit % 8)));
        }
        EXPECT_REJECTED(reseal(b), "invalid semi-sort code in bucket " + std::to_string(bucket));
      }
    }
  }
}

TEST(FormatReject, NonzeroPaddingBits) {
  // The table is n * b * f' bits with n even, so it only ends inside a byte for b = 2, odd f and
  // n = 2 (mod 4): then the top 4 bits of the last byte are padding and must be zero.
  for (unsigned f : {5u, 13u, 31u}) {
    for (uint64_t n : {2u, 6u}) {
      SCOPED_TRACE("f=" + std::to_string(f) + " n=" + std::to_string(n));
      CuckooFilter filter(opts(2, f, false, n));
      fill(filter, n);
      const Bytes good = filter.serialize();
      ASSERT_EQ(good.size(), cuckoo::kFormatOverhead + (n * 2 * f + 7) / 8);
      const size_t last = good.size() - cuckoo::kChecksumBytes - 1;
      for (unsigned bit = 4; bit < 8; ++bit) {
        Bytes b = good;
        b[last] |= static_cast<uint8_t>(1u << bit);
        EXPECT_REJECTED(reseal(b), "nonzero padding bits");
      }
    }
  }
}

// The table's own checks run only on bytes whose checksum is right.
TEST(FormatReject, ChecksumIsCheckedBeforeTheTable) {
  Bytes b = small_filter(4, 13, true, 4);
  b[kTable] = 0xFF;  // likely an invalid code; the checksum speaks first
  b[kTable + 1] = 0xFF;
  EXPECT_REJECTED(b, "checksum mismatch");
}

TEST(FormatReject, FormatErrorIsARuntimeError) {
  const uint8_t junk[3] = {1, 2, 3};
  EXPECT_THROW(CuckooFilter::deserialize(junk, sizeof junk), std::runtime_error);
  EXPECT_THROW(CuckooFilter::deserialize(junk, sizeof junk), FormatError);
}

}  // namespace
