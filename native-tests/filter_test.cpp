// native-tests/filter_test.cpp: every public CuckooFilter operation, in every configuration.
//
// Configurations: bucket size 2/4/8 x fingerprint bits 4/8/12/16/32 (the widths compiled in), the odd widths
// 5/13/17/31 (the run-time-width code path), and semi-sorted buckets (b = 4) at 4..32 bits, including the
// fixed semi-sorted widths 9/13/17. Each test is one concern, checked for each configuration; the random
// operation mix against a model is property_test.cpp, fill-to-failure is load_test.cpp.
#include <gtest/gtest.h>

#include <cuckoo/cuckoo.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core_access.h"
#include "filter_core.h"
#include "hash.h"
#include "test_support.h"

namespace {

using cuckoo_test::all_shapes;
using cuckoo_test::le_bytes;
using cuckoo_test::options_for;
using cuckoo_test::Shape;
using cuckoo_test::shape_name;

using cuckoo::CuckooFilter;
using cuckoo::Options;
using cuckoo::internal::CoreAccess;

// Distinct pseudo-random keys (a bijection of 0..n-1, so never a repeat).
std::vector<uint64_t> keys(size_t n, uint64_t salt) {
  std::vector<uint64_t> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = (i + salt * 0x100000000ull) * 0x9E3779B97F4A7C15ull;
  return out;
}

// Entries actually in the table (a full scan), plus a parked victim: must always equal size().
uint64_t stored_items(const CuckooFilter& f) {
  return CoreAccess::core(f).count_entries() + (f.is_full() ? 1 : 0);
}

class FilterTest : public ::testing::TestWithParam<Shape> {
 protected:
  Shape shape() const { return GetParam(); }
  // How many keys a filter of this shape takes without any chance of an insert failing: half the slots,
  // except for 4-bit fingerprints in buckets of 2, which fill only to ~26% (load_test.cpp: with 15
  // fingerprint values, a bucket has only 15 possible partners and the cuckoo graph jams early).
  size_t comfortable(const CuckooFilter& f, double fraction = 0.5) const {
    if (shape().b == 2 && shape().f == 4) fraction = std::min(fraction, 0.15);
    return static_cast<size_t>(f.slot_count() * fraction);
  }
  Options options(uint64_t bucket_count = 1024, uint64_t seed = 0) const { return options_for(GetParam(), bucket_count, seed); }
  // A fixed filter of this shape sized for 1000 keys.
  CuckooFilter filter_for_1000(uint64_t seed) const {
    Options o = options(2, seed);
    o.bucket_count.reset();
    o.capacity = 1000;
    return CuckooFilter(o);
  }
};

// Fills a filter sized for 1000 keys that already holds `copies` copies of repeated keys with other keys up
// to 1000 items: it never fills up, refuses at most 3 of them alone, and loses none it stored.
void expect_room_for_the_rest(CuckooFilter& filter, size_t copies, uint64_t seed) {
  std::vector<uint64_t> stored;
  for (uint64_t k = 0; k < 1000 - copies; ++k) {
    const uint64_t size_before = filter.size();
    if (filter.insert(k)) {
      stored.push_back(k);
      continue;
    }
    ASSERT_FALSE(filter.is_full()) << "seed " << seed << ": full after " << k << " keys";
    ASSERT_EQ(filter.size(), size_before);
  }
  EXPECT_GE(stored.size(), 1000 - copies - 3) << "seed " << seed;
  for (uint64_t k : stored) ASSERT_TRUE(filter.contains(k)) << "seed " << seed << ": lost key " << k;
}

TEST_P(FilterTest, EmptyFilterAnswersNo) {
  const CuckooFilter filter(options());
  EXPECT_EQ(filter.size(), 0u);
  EXPECT_FALSE(filter.is_full());
  EXPECT_EQ(filter.load_factor(), 0.0);
  EXPECT_TRUE(std::isinf(filter.bits_per_item()));
  EXPECT_EQ(filter.bucket_count(), 1024u);
  EXPECT_EQ(filter.slot_count(), 1024u * shape().b);
  // No entry in the table, so no fingerprint can match: exactly false, not "probably".
  for (uint64_t k : keys(2000, 1)) {
    ASSERT_FALSE(filter.contains(k));
    ASSERT_EQ(filter.count(k), 0u);
  }
  EXPECT_FALSE(filter.contains(""));
  CuckooFilter mutable_copy(filter);
  EXPECT_FALSE(mutable_copy.erase(uint64_t{1}));
  EXPECT_FALSE(mutable_copy.erase("absent"));
  EXPECT_EQ(mutable_copy.size(), 0u);
}

TEST_P(FilterTest, InsertContainsCountErase) {
  CuckooFilter filter(options());
  const auto ks = keys(comfortable(filter), 2);  // no insert may fail
  for (size_t i = 0; i < ks.size(); ++i) {
    ASSERT_TRUE(filter.insert(ks[i])) << i;
    ASSERT_TRUE(filter.contains(ks[i])) << i;
    ASSERT_GE(filter.count(ks[i]), 1u);
    ASSERT_EQ(filter.size(), i + 1);
  }
  EXPECT_FALSE(filter.is_full());
  EXPECT_EQ(stored_items(filter), ks.size());
  for (uint64_t k : ks) ASSERT_TRUE(filter.contains(k)) << "false negative for " << k;
  // Accounting.
  const auto& c = filter.config();
  EXPECT_DOUBLE_EQ(filter.load_factor(), static_cast<double>(ks.size()) / filter.slot_count());
  EXPECT_DOUBLE_EQ(filter.bits_per_item(), c.table_bytes() * 8.0 / ks.size());
  EXPECT_EQ(c.bits_per_entry(), shape().semi_sort ? shape().f - 1 : shape().f);
  EXPECT_NEAR(filter.bits_per_item() * filter.load_factor(), c.bits_per_entry(), 0.01);
  // Erase in a different order than inserted: each succeeds once and size follows.
  for (size_t i = ks.size(); i-- > 0;) {
    const size_t before = filter.count(ks[i]);
    ASSERT_TRUE(filter.erase(ks[i])) << i;
    ASSERT_EQ(filter.count(ks[i]), before - 1) << i;
    ASSERT_EQ(filter.size(), i);
    // The keys not yet erased are all still there (checked on a sample to keep this linear).
    if (i % 97 == 0)
      for (size_t j = 0; j < i; ++j) ASSERT_TRUE(filter.contains(ks[j])) << "erase of " << i << " lost " << j;
  }
  EXPECT_EQ(CoreAccess::core(filter).count_entries(), 0u);
  for (uint64_t k : ks) ASSERT_FALSE(filter.contains(k)) << "the table is empty";
  EXPECT_EQ(filter.load_factor(), 0.0);
}

TEST_P(FilterTest, EraseOfAnAbsentKeyReturnsFalse) {
  CuckooFilter filter(options());
  const auto present = keys(comfortable(filter, 0.33), 3);
  for (uint64_t k : present) ASSERT_TRUE(filter.insert(k));
  const auto before = filter.serialize();
  // An absent key's erase may only succeed if its fingerprint collides with a stored one (count > 0);
  // with count == 0 it must fail and change nothing.
  size_t refused = 0;
  for (uint64_t k : keys(2000, 4)) {
    if (filter.count(k) != 0) continue;
    ASSERT_FALSE(filter.erase(k));
    ++refused;
  }
  EXPECT_GT(refused, 100u);
  EXPECT_EQ(filter.serialize(), before);
}

TEST_P(FilterTest, ClearKeepsConfigurationAndMemory) {
  CuckooFilter filter(options(1024, 99));
  const auto ks = keys(filter.slot_count() * 9 / 10, 5);
  for (uint64_t k : ks)
    if (!filter.insert(k)) break;
  ASSERT_GT(filter.size(), 0u);
  const size_t memory = filter.memory_bytes();
  filter.clear();
  EXPECT_EQ(filter.size(), 0u);
  EXPECT_FALSE(filter.is_full());
  EXPECT_EQ(CoreAccess::core(filter).count_entries(), 0u);
  EXPECT_EQ(filter.memory_bytes(), memory);
  EXPECT_EQ(filter.config().bucket_count, 1024u);
  EXPECT_EQ(filter.config().seed, 99u);
  for (uint64_t k : ks) ASSERT_FALSE(filter.contains(k));
  // As if new: the same inserts give the same bytes as in a fresh filter (kick walk included).
  {
    CuckooFilter fresh(options(1024, 99));
    CuckooFilter cleared = filter;
    for (uint64_t k : ks) {
      const bool in_fresh = fresh.insert(k);
      ASSERT_EQ(cleared.insert(k), in_fresh);
      if (!in_fresh) break;
    }
    EXPECT_EQ(cleared.serialize(), fresh.serialize());
  }
  // Usable again.
  for (size_t i = 0; i < 100; ++i) ASSERT_TRUE(filter.insert(ks[i]));
  for (size_t i = 0; i < 100; ++i) ASSERT_TRUE(filter.contains(ks[i]));
  EXPECT_EQ(filter.size(), 100u);
}

TEST_P(FilterTest, MemoryBytesCoversTheTable) {
  for (uint64_t buckets : {uint64_t{2}, uint64_t{1024}, uint64_t{1} << 18}) {
    const CuckooFilter filter(options(buckets));
    const size_t table = filter.config().table_bytes();
    EXPECT_GE(filter.memory_bytes(), table);
    // Within a page (huge-page mappings round to 4 KiB) plus the fixed-size objects, and the alternate
    // targets a large whole-byte table keeps for its inline lookups (at most 1/16 of it, filter_core.h).
    EXPECT_LE(filter.memory_bytes(), table + table / 16 + 4096 + 1024) << "buckets=" << buckets;
  }
}

// The relocation log (max_kicks entries of 16 bytes) is allocated by the first walk that may be undone,
// below the load the filter was sized for; memory_bytes() counts it from then on, clear() included.
TEST_P(FilterTest, MemoryBytesCountsTheKickLog) {
  Options o = options(1024, 3);
  o.max_kicks = 1 << 16;
  CuckooFilter filter(o);
  const size_t fresh = filter.memory_bytes();
  const size_t log = size_t{1 << 16} * 16;
  // Until the first walk: at ~50% load in most shapes, past 90% with buckets of 8. Below the load it was
  // sized for, a walk that fails is undone and its key refused, which is allowed here.
  for (uint64_t k : keys(filter.slot_count(), 8)) {
    filter.insert(k);
    if (filter.memory_bytes() != fresh) break;
  }
  if (shape().b == 2 && shape().f <= 5) {
    // Shapes sized for a low load (b = 2 with 4- or 5-bit fingerprints) pass it before their first walk,
    // and a walk past it parks a victim instead: they never need the log.
    EXPECT_EQ(filter.memory_bytes(), fresh);
    EXPECT_GE(filter.size(), cuckoo::internal::items_at_target_load(filter.config()));
  } else {
    EXPECT_GE(filter.memory_bytes(), fresh + log);
    EXPECT_LE(filter.memory_bytes(), fresh + log + 1024);
  }
  const size_t filled = filter.memory_bytes();
  filter.clear();
  EXPECT_EQ(filter.memory_bytes(), filled);
}

TEST_P(FilterTest, CopyIsDeepAndIdentical) {
  CuckooFilter original(options(256, 7));
  const auto ks = keys(comfortable(original), 6);
  for (size_t i = 0; i < ks.size() / 2; ++i) ASSERT_TRUE(original.insert(ks[i]));

  CuckooFilter copy(original);
  EXPECT_EQ(copy.serialize(), original.serialize());
  EXPECT_EQ(copy.size(), original.size());
  // Independent: changing the copy leaves the original alone...
  for (size_t i = ks.size() / 2; i < ks.size(); ++i) ASSERT_TRUE(copy.insert(ks[i]));
  EXPECT_EQ(original.size(), ks.size() / 2);
  // ...and the same operations on both give the same bytes (the kick RNG state is copied too).
  for (size_t i = ks.size() / 2; i < ks.size(); ++i) ASSERT_TRUE(original.insert(ks[i]));
  EXPECT_EQ(copy.serialize(), original.serialize());

  CuckooFilter assigned(options(2));
  assigned = original;
  EXPECT_EQ(assigned.serialize(), original.serialize());
  EXPECT_EQ(assigned.bucket_count(), 256u);
  ASSERT_TRUE(assigned.erase(ks[0]));
  EXPECT_TRUE(original.contains(ks[0]));
  // Self-assignment is a no-op.
  CuckooFilter& alias = assigned;
  assigned = alias;
  EXPECT_EQ(assigned.size(), original.size() - 1);
}

TEST_P(FilterTest, MoveTransfersTheFilter) {
  CuckooFilter original(options(256, 8));
  const auto ks = keys(300, 7);
  for (uint64_t k : ks) ASSERT_TRUE(original.insert(k));
  const auto bytes = original.serialize();

  CuckooFilter moved(std::move(original));
  EXPECT_EQ(moved.serialize(), bytes);
  for (uint64_t k : ks) ASSERT_TRUE(moved.contains(k));

  CuckooFilter target(options(2));
  target = std::move(moved);
  EXPECT_EQ(target.serialize(), bytes);
  EXPECT_EQ(target.size(), ks.size());
  // A moved-from filter can be assigned again and is then fully usable.
  moved = CuckooFilter(options(64));
  EXPECT_TRUE(moved.insert(uint64_t{1}));
  EXPECT_TRUE(moved.contains(uint64_t{1}));
  static_assert(std::is_nothrow_move_constructible_v<CuckooFilter>);
  static_assert(std::is_nothrow_move_assignable_v<CuckooFilter>);
}

// A uint64_t key is its 8 little-endian bytes: all three overloads must be the same key, for every operation.
// Integer types convert to the uint64_t key (documented); floating-point ones must not compile, since
// they would convert too and silently store a truncated integer. Neither may nullptr.
template <typename Key, typename = void>
struct AcceptsKey : std::false_type {};
template <typename Key>
struct AcceptsKey<Key, std::void_t<decltype(std::declval<CuckooFilter&>().insert(std::declval<Key>())),
                                   decltype(std::declval<const CuckooFilter&>().contains(std::declval<Key>())),
                                   decltype(std::declval<CuckooFilter&>().erase(std::declval<Key>())),
                                   decltype(std::declval<const CuckooFilter&>().count(std::declval<Key>())),
                                   decltype(std::declval<const CuckooFilter&>().hash(std::declval<Key>()))>>
    : std::true_type {};
static_assert(AcceptsKey<uint64_t>::value && AcceptsKey<int>::value && AcceptsKey<char>::value);
static_assert(AcceptsKey<std::string_view>::value && AcceptsKey<const char*>::value);
static_assert(!AcceptsKey<double>::value && !AcceptsKey<float>::value && !AcceptsKey<long double>::value);
static_assert(!AcceptsKey<std::nullptr_t>::value, "nullptr would reach strlen through std::string_view");

TEST_P(FilterTest, IntegerKeysEqualTheirLittleEndianBytes) {
  CuckooFilter by_int(options(512, 3)), by_bytes(options(512, 3)), by_pointer(options(512, 3));
  const auto ks = keys(comfortable(by_int), 8);
  for (uint64_t k : ks) {
    const std::string b = le_bytes(k);
    ASSERT_EQ(by_int.hash(k), by_int.hash(std::string_view(b)));
    ASSERT_TRUE(by_int.insert(k));
    ASSERT_TRUE(by_bytes.insert(std::string_view(b)));
    ASSERT_TRUE(by_pointer.insert(b.data(), b.size()));
  }
  EXPECT_EQ(by_int.serialize(), by_bytes.serialize());
  EXPECT_EQ(by_int.serialize(), by_pointer.serialize());
  for (uint64_t k : keys(3000, 9)) {  // present and absent keys alike
    const std::string b = le_bytes(k);
    ASSERT_EQ(by_int.contains(k), by_int.contains(std::string_view(b)));
    ASSERT_EQ(by_int.contains(k), by_int.contains(b.data(), b.size()));
    ASSERT_EQ(by_int.count(k), by_int.count(std::string_view(b)));
    ASSERT_EQ(by_int.count(k), by_int.count(b.data(), b.size()));
  }
  // Erasing through any overload removes the same entry.
  for (size_t i = 0; i < ks.size(); ++i) {
    const std::string b = le_bytes(ks[i]);
    switch (i % 3) {
      case 0:
        ASSERT_TRUE(by_int.erase(std::string_view(b)));
        break;
      case 1:
        ASSERT_TRUE(by_int.erase(b.data(), b.size()));
        break;
      default:
        ASSERT_TRUE(by_int.erase(ks[i]));
        break;
    }
  }
  EXPECT_EQ(by_int.size(), 0u);
  EXPECT_EQ(CoreAccess::core(by_int).count_entries(), 0u);
}

// Byte keys are any bytes: empty, long, with NUL bytes (a string_view is not a C string).
TEST_P(FilterTest, EmptyLongAndNulKeys) {
  CuckooFilter filter(options(256));
  const std::string empty;
  const std::string long_key(1 << 20, 'x');
  std::string long_key2 = long_key;
  long_key2.back() = 'y';  // differs only in the last of a million bytes
  const std::string nul1("a\0b", 3), nul2("a\0c", 3), nul3("\0\0\0", 3), nul4("\0", 1);
  const std::vector<std::string> all = {empty, long_key, long_key2, nul1, nul2, nul3, nul4, "a"};
  // Distinct keys hash differently (no truncation at a NUL, no length cap).
  for (size_t i = 0; i < all.size(); ++i)
    for (size_t j = i + 1; j < all.size(); ++j)
      EXPECT_NE(filter.hash(all[i]), filter.hash(all[j])) << i << " vs " << j;

  EXPECT_TRUE(filter.insert(std::string_view(empty)));
  EXPECT_TRUE(filter.contains(std::string_view()));
  EXPECT_TRUE(filter.contains(static_cast<const void*>(nullptr), 0)) << "nullptr + 0 is the empty key";
  EXPECT_TRUE(filter.insert(long_key));
  EXPECT_TRUE(filter.insert(nul1));
  EXPECT_TRUE(filter.insert(nul3.data(), nul3.size()));
  for (const std::string& k : {empty, long_key, nul1, nul3}) EXPECT_TRUE(filter.contains(k));
  EXPECT_EQ(filter.size(), 4u);
  EXPECT_TRUE(filter.erase(nul1));
  EXPECT_TRUE(filter.erase(std::string_view()));
  EXPECT_TRUE(filter.erase(long_key));
  EXPECT_TRUE(filter.erase(nul3));
  EXPECT_EQ(filter.size(), 0u);
  EXPECT_EQ(CoreAccess::core(filter).count_entries(), 0u);
}

// The same key 2b times fills exactly its two buckets; erasing it 2b times empties them again.
TEST_P(FilterTest, SameKeyTwiceBucketSizeTimes) {
  CuckooFilter filter(options(64));
  const unsigned copies = 2 * shape().b;
  for (unsigned i = 1; i <= copies; ++i) {
    ASSERT_TRUE(filter.insert("dup")) << "copy " << i;
    ASSERT_EQ(filter.count("dup"), i);
    ASSERT_FALSE(filter.is_full()) << "copy " << i << " still had room";
  }
  for (unsigned i = copies; i-- > 0;) {
    ASSERT_TRUE(filter.erase("dup"));
    ASSERT_EQ(filter.count("dup"), i);
  }
  // Nothing else was ever stored, so the answer is exactly false.
  EXPECT_FALSE(filter.contains("dup"));
  EXPECT_FALSE(filter.erase("dup"));
  EXPECT_EQ(filter.size(), 0u);
}

// Copy 2b + 1 of one key would overflow its two buckets (paper section 3) and, parked as the victim, block
// every later insert of every key. It is refused alone instead: false, nothing changed, other keys go in.
TEST_P(FilterTest, RepeatedKeyIsRefusedAlone) {
  CuckooFilter filter(options(64));
  const unsigned copies = 2 * shape().b;
  for (unsigned i = 0; i < copies; ++i) ASSERT_TRUE(filter.insert(uint64_t{77}));
  const auto bytes = filter.serialize();
  for (int i = 0; i < 1000; ++i) ASSERT_FALSE(filter.insert(uint64_t{77})) << "copy " << copies + 1 + i;
  EXPECT_EQ(filter.serialize(), bytes) << "a refused insert changes nothing";
  EXPECT_FALSE(filter.is_full());
  EXPECT_EQ(filter.count(uint64_t{77}), copies);
  EXPECT_TRUE(filter.insert(uint64_t{78}));
  EXPECT_TRUE(filter.contains(uint64_t{78}));
  ASSERT_TRUE(filter.erase(uint64_t{77}));
  EXPECT_TRUE(filter.insert(uint64_t{77})) << "room again after an erase";
  EXPECT_EQ(stored_items(filter), filter.size());
  for (unsigned i = copies; i-- > 0;) ASSERT_TRUE(filter.erase(uint64_t{77}));
  EXPECT_FALSE(filter.contains(uint64_t{77}));
}

// A key stored 2b times must not cost other keys their room. Its copies fill its two buckets with entries
// that can only move between them, and a walk that entered them used to bounce copies there until it ran
// out, leaving the filter full at a fraction of its capacity. Now walks steer clear of such pairs, and only
// a key whose own two buckets are that pair is refused (alone: the filter is not full).
TEST_P(FilterTest, RepeatedKeyLeavesRoomForOtherKeys) {
  if (shape().f < 8) GTEST_SKIP() << "short fingerprints fill before capacity anyway (fpr_test.cpp)";
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    CuckooFilter filter = filter_for_1000(seed);
    unsigned copies = 0;
    for (int i = 0; i < 20; ++i) copies += filter.insert("dup") ? 1 : 0;
    ASSERT_EQ(copies, 2 * shape().b);
    expect_room_for_the_rest(filter, copies, seed);
    if (HasFatalFailure()) return;
    EXPECT_EQ(filter.count("dup"), copies);
  }
}

// Two keys repeated 20 times each whose bucket pairs {A, B} and {A, C} share one bucket: their copies fill
// A, B and C with entries that can only move among them, which walks cannot steer clear of. A walk that
// fails there (a further copy, or another key whose pair lies among them) is undone and the key refused
// alone, because the filter is below its capacity, where it used to park a victim and leave the filter
// full at a fraction of its capacity.
TEST_P(FilterTest, RepeatedKeysWhosePairsOverlapLeaveRoom) {
  if (shape().f < 8) GTEST_SKIP() << "short fingerprints fill before capacity anyway (fpr_test.cpp)";
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    CuckooFilter filter = filter_for_1000(seed);
    const cuckoo::internal::BucketHasher hasher(filter.config().bucket_count, filter.config().fingerprint_bits);
    auto pair_of = [&](uint64_t key) {
      const uint64_t h = filter.hash(key);
      const uint64_t i = hasher.index(h);
      return std::array<uint64_t, 2>{i, hasher.alt_index(i, hasher.fingerprint(h))};
    };
    const uint64_t first = 1u << 30;
    const auto pair = pair_of(first);
    uint64_t second = first + 1;
    while (true) {
      const auto other = pair_of(second);
      const int shared = (other[0] == pair[0]) + (other[0] == pair[1]) + (other[1] == pair[0]) + (other[1] == pair[1]);
      if (shared == 1) break;
      ++second;
    }
    for (int i = 0; i < 20; ++i) {
      filter.insert(first);
      filter.insert(second);
    }
    ASSERT_FALSE(filter.is_full()) << "seed " << seed;
    const size_t copies = filter.count(first) + filter.count(second);
    expect_room_for_the_rest(filter, copies, seed);
    if (HasFatalFailure()) return;
    EXPECT_EQ(filter.count(first) + filter.count(second), copies);
  }
}

// Two buckets: every key maps to {0, 1}, so exactly 2b keys fit in the table, one more parks as the victim
// (insert returns true), and the next insert returns false without changing anything.
TEST_P(FilterTest, VictimSlotSemantics) {
  CuckooFilter filter(options(2, 5));
  const auto ks = keys(100, 10);
  const size_t slots = filter.slot_count();
  size_t accepted = 0;
  for (; accepted < ks.size(); ++accepted) {
    const bool was_full = filter.is_full();
    const auto before = filter.serialize();
    const bool ok = filter.insert(ks[accepted]);
    ASSERT_EQ(ok, !was_full) << "insert fails exactly when the victim slot is taken";
    if (!ok) {
      ASSERT_EQ(filter.serialize(), before);
      break;
    }
  }
  EXPECT_EQ(accepted, slots + 1);
  EXPECT_TRUE(filter.is_full());
  EXPECT_EQ(filter.size(), slots + 1);
  EXPECT_EQ(filter.load_factor(), 1.0) << "size counts the victim; the load, the slots in use, does not";
  EXPECT_EQ(CoreAccess::core(filter).count_entries(), slots);
  for (size_t i = 0; i < accepted; ++i) ASSERT_TRUE(filter.contains(ks[i])) << "lost key " << i;
  EXPECT_FALSE(filter.insert(ks[accepted + 1]));
  // Copies and round trips carry the victim.
  const CuckooFilter copy(filter);
  const auto bytes = filter.serialize();
  const CuckooFilter loaded = CuckooFilter::deserialize(bytes.data(), bytes.size());
  for (size_t i = 0; i < accepted; ++i) {
    ASSERT_TRUE(copy.contains(ks[i]));
    ASSERT_TRUE(loaded.contains(ks[i]));
  }
  EXPECT_TRUE(loaded.is_full());
  // Erasing any key frees a slot the victim can take.
  ASSERT_TRUE(filter.erase(ks[3]));
  EXPECT_FALSE(filter.is_full());
  EXPECT_EQ(filter.size(), slots);
  EXPECT_EQ(CoreAccess::core(filter).count_entries(), slots);
  for (size_t i = 0; i < accepted; ++i)
    if (i != 3) ASSERT_TRUE(filter.contains(ks[i])) << "lost key " << i;
  EXPECT_TRUE(filter.insert(ks[3]));
  EXPECT_TRUE(filter.is_full());
}

// insert_many/contains_many are the single operations, batched: same answers, same bytes.
TEST_P(FilterTest, BatchOperationsAgreeWithSingleOperations) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{31}, size_t{256}, size_t{257}, size_t{1500}}) {
    CuckooFilter single(options(4096, 11)), batch(options(4096, 11)), batch_sv(options(4096, 11));
    const auto ks = keys(n, 11);
    std::vector<std::string> strings;
    for (uint64_t k : ks) strings.push_back(le_bytes(k));
    const std::vector<std::string_view> views(strings.begin(), strings.end());
    for (uint64_t k : ks) ASSERT_TRUE(single.insert(k));
    EXPECT_EQ(batch.insert_many(ks.data(), n), n);
    EXPECT_EQ(batch_sv.insert_many(views.data(), n), n);
    EXPECT_EQ(batch.serialize(), single.serialize()) << "n=" << n;
    EXPECT_EQ(batch_sv.serialize(), single.serialize()) << "n=" << n;

    // Lookups: present keys interleaved with absent ones (including false-positive-prone small fps).
    std::vector<uint64_t> queries;
    for (size_t i = 0; i < n; ++i) queries.push_back(ks[i]);
    for (uint64_t k : keys(n + 300, 12)) queries.push_back(k);
    std::shuffle(queries.begin(), queries.end(), std::mt19937_64(n));
    std::vector<std::string> qstrings;
    for (uint64_t k : queries) qstrings.push_back(le_bytes(k));
    const std::vector<std::string_view> qviews(qstrings.begin(), qstrings.end());
    std::vector<uint8_t> out(queries.size(), 0xAA), out_sv(queries.size(), 0xAA);
    single.contains_many(queries.data(), queries.size(), out.data());
    single.contains_many(qviews.data(), qviews.size(), out_sv.data());
    for (size_t i = 0; i < queries.size(); ++i) {
      ASSERT_EQ(out[i], single.contains(queries[i]) ? 1 : 0) << i;
      ASSERT_EQ(out_sv[i], out[i]) << i;
    }
  }
}

// insert_many stops at the first key that does not fit: the keys before it are in, it and the rest are not,
// exactly as single inserts stopping at their first false.
TEST_P(FilterTest, InsertManyStopsAtTheFirstFailure) {
  CuckooFilter single(options(64, 12)), batch(options(64, 12));
  const auto ks = keys(single.slot_count() * 2, 13);  // far more than fits
  size_t fitted = 0;
  while (single.insert(ks[fitted])) ++fitted;
  ASSERT_LT(fitted, ks.size());
  EXPECT_EQ(batch.insert_many(ks.data(), ks.size()), fitted);
  EXPECT_EQ(batch.size(), fitted);
  EXPECT_TRUE(batch.is_full());
  EXPECT_EQ(batch.serialize(), single.serialize());
  std::vector<uint8_t> out(fitted);
  batch.contains_many(ks.data(), fitted, out.data());
  for (size_t i = 0; i < fitted; ++i) ASSERT_EQ(out[i], 1) << "lost key " << i << " (victim slot included)";
  // A full filter takes nothing more, via either batch overload.
  EXPECT_EQ(batch.insert_many(ks.data() + fitted, 10), 0u);
  const std::string s = le_bytes(ks[fitted]);
  const std::string_view sv = s;
  EXPECT_EQ(batch.insert_many(&sv, 1), 0u);
  EXPECT_EQ(batch.serialize(), single.serialize());
}

// Seeds change the hash (and so the layout); equal seeds give equal filters.
TEST_P(FilterTest, SeedSelectsTheHash) {
  CuckooFilter a(options(1024, 1)), b(options(1024, 1)), c(options(1024, 2));
  EXPECT_NE(a.hash(uint64_t{5}), c.hash(uint64_t{5}));
  for (uint64_t k : keys(200, 14)) {
    ASSERT_TRUE(a.insert(k));
    ASSERT_TRUE(b.insert(k));
    ASSERT_TRUE(c.insert(k));
    ASSERT_TRUE(c.contains(k));
  }
  EXPECT_EQ(a.serialize(), b.serialize());
  EXPECT_NE(a.serialize(), c.serialize());
}

INSTANTIATE_TEST_SUITE_P(AllShapes, FilterTest, ::testing::ValuesIn(all_shapes()), shape_name);

// A container or span of bytes is the key its bytes make, the same as (data, size) and std::string_view.
static_assert(cuckoo::internal::IsByteRange<std::vector<uint8_t>>::value);
static_assert(cuckoo::internal::IsByteRange<std::vector<char>>::value);
static_assert(cuckoo::internal::IsByteRange<std::array<std::byte, 4>>::value);
static_assert(!cuckoo::internal::IsByteRange<std::string>::value, "std::string goes to std::string_view");
static_assert(!cuckoo::internal::IsByteRange<char[4]>::value, "a literal is its text, without the NUL");
static_assert(!cuckoo::internal::IsByteRange<std::vector<uint16_t>>::value, "not bytes");
static_assert(!cuckoo::internal::IsByteRange<std::vector<bool>>::value);
static_assert(cuckoo::internal::IsByteRange<unsigned char[16]>::value, "no literal is unsigned char: all 16 bytes");
static_assert(cuckoo::internal::IsByteRange<std::byte[16]>::value);

// User types: a signed size could be negative, volatile memory is not plain bytes, and a type that
// converts to an integer is the integer key.
struct SignedSizeBytes {
  const char* data() const { return "ab"; }
  int size() const { return 2; }
};
struct VolatileBytes {
  const volatile unsigned char* data() const { return nullptr; }
  size_t size() const { return 0; }
};
struct BytesAndInteger {
  const char* data() const { return "ab"; }
  size_t size() const { return 2; }
  operator uint64_t() const { return 7; }
};
static_assert(!cuckoo::internal::IsByteRange<SignedSizeBytes>::value);
static_assert(!cuckoo::internal::IsByteRange<VolatileBytes>::value);
static_assert(!cuckoo::internal::IsByteRange<BytesAndInteger>::value);

TEST(FilterKeys, ByteContainersAreTheirBytes) {
  Options o;
  o.capacity = 1000;
  o.seed = 42;
  CuckooFilter filter(o);
  const std::string_view view("key-\xff\x00z", 7);  // a non-ASCII byte and a NUL
  const std::vector<uint8_t> u8(view.begin(), view.end());
  const std::vector<char> chars(view.begin(), view.end());
  std::array<std::byte, 7> bytes{};
  std::memcpy(bytes.data(), view.data(), bytes.size());
  const uint64_t h = filter.hash(view);
  EXPECT_EQ(filter.hash(u8), h);
  EXPECT_EQ(filter.hash(chars), h);
  EXPECT_EQ(filter.hash(bytes), h);
  EXPECT_EQ(filter.hash(view.data(), view.size()), h);
  EXPECT_EQ(filter.hash("abc"), filter.hash(std::string_view("abc", 3))) << "a literal's NUL is not hashed";
  const unsigned char raw[7] = {'k', 'e', 'y', '-', 0xff, 0x00, 'z'};
  EXPECT_EQ(filter.hash(raw), h) << "an unsigned char array is all its bytes";
  EXPECT_EQ(filter.hash(BytesAndInteger{}), filter.hash(uint64_t{7}));

  EXPECT_TRUE(filter.insert(u8));
  EXPECT_TRUE(filter.contains(view));
  EXPECT_TRUE(filter.contains(chars));
  EXPECT_TRUE(filter.insert(bytes));
  EXPECT_EQ(filter.count(u8), 2u);
  EXPECT_EQ(filter.count(view), 2u);
  EXPECT_TRUE(filter.erase(chars));
  EXPECT_TRUE(filter.erase(bytes));
  EXPECT_FALSE(filter.erase(u8));
  EXPECT_EQ(filter.size(), 0u);
  // An empty container is the empty key (its data() may be null).
  const std::vector<uint8_t> none;
  EXPECT_EQ(filter.hash(none), filter.hash(std::string_view()));
  EXPECT_TRUE(filter.insert(none));
  EXPECT_TRUE(filter.contains(std::string_view()));
}

// Constructing from a Config gives the same filter as the Options it resolves from.
TEST(FilterConstruction, FromConfigEqualsFromOptions) {
  Options o;
  o.capacity = 10000;
  o.fpr = 0.001;
  o.seed = 5;
  CuckooFilter a(o), b(cuckoo::resolve(o));
  for (uint64_t k : keys(5000, 15)) {
    ASSERT_TRUE(a.insert(k));
    ASSERT_TRUE(b.insert(k));
  }
  EXPECT_EQ(a.serialize(), b.serialize());
  EXPECT_EQ(a.config().fingerprint_bits, cuckoo::resolve(o).fingerprint_bits);
}

}  // namespace
