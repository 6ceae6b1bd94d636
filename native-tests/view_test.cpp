// native-tests/view_test.cpp: FilterView (cuckoo/view.h) answers exactly as the filter deserialize loads
// from the same bytes, for every shape, fixed and growing, semi-sorted, full (a parked victim), the golden
// files of both format versions, from a file and from bytes at any alignment; it rejects bad structure
// with deserialize's FormatError, and verify_checksum() catches what the structural checks let through.
// Under ASan, views over heap copies of exactly the serialized size also check that no probe reads past
// the bytes.
#include <gtest/gtest.h>

#include <cuckoo/cuckoo.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <regex>
#include <string>
#include <system_error>
#include <vector>

#include "hash.h"  // XXH3, to reseal edited bytes
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using cuckoo::CuckooFilter;
using cuckoo::FilterView;
using cuckoo::FormatError;
using cuckoo::Options;
using cuckoo::ViewOptions;
using cuckoo_test::Shape;
using Bytes = std::vector<uint8_t>;

// Bytes at a chosen misalignment, in a heap block of exactly their size (ASan then flags any read past
// them). `offset` bytes of a larger allocation would hide such a read, so the block is allocated to fit.
class PlacedBytes {
 public:
  PlacedBytes(const Bytes& bytes, size_t misalignment) : block_(new uint8_t[bytes.size() + misalignment]) {
    // The view must be the allocation's tail: block_ + misalignment .. end.
    data_ = block_.get() + misalignment;
    if (!bytes.empty()) std::memcpy(data_, bytes.data(), bytes.size());
    size_ = bytes.size();
  }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  std::unique_ptr<uint8_t[]> block_;
  uint8_t* data_;
  size_t size_;
};

struct Keys {
  std::vector<uint64_t> ints;
  std::vector<std::string> strings;
};

void expect_same_properties(const CuckooFilter& loaded, const FilterView& view) {
  EXPECT_EQ(view.size(), loaded.size());
  EXPECT_EQ(view.bucket_count(), loaded.bucket_count());
  EXPECT_EQ(view.slot_count(), loaded.slot_count());
  EXPECT_EQ(view.is_full(), loaded.is_full());
  EXPECT_EQ(view.levels(), loaded.levels());
  EXPECT_EQ(view.false_positive_bound(), loaded.false_positive_bound());
  EXPECT_EQ(view.load_factor(), loaded.load_factor());
  EXPECT_EQ(view.bits_per_item(), loaded.bits_per_item());
  const cuckoo::Config &a = view.config(), &b = loaded.config();
  EXPECT_EQ(a.bucket_size, b.bucket_size);
  EXPECT_EQ(a.fingerprint_bits, b.fingerprint_bits);
  EXPECT_EQ(a.semi_sort, b.semi_sort);
  EXPECT_EQ(a.max_kicks, b.max_kicks);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.bucket_count, b.bucket_count);
  EXPECT_EQ(a.growable, b.growable);
  EXPECT_EQ(a.max_memory_bytes, b.max_memory_bytes);
  EXPECT_EQ(view.serialized_size(), loaded.serialized_size());
}

// Every answer of the view equals the loaded filter's, key by key and in batches.
void expect_same_answers(const CuckooFilter& loaded, const FilterView& view, const Keys& keys) {
  expect_same_properties(loaded, view);
  size_t differing = 0;
  for (uint64_t k : keys.ints) {
    differing += view.contains(k) != loaded.contains(k);
    differing += view.count(k) != loaded.count(k);
    differing += view.hash(k) != loaded.hash(k);
  }
  for (const std::string& k : keys.strings) {
    differing += view.contains(k) != loaded.contains(k);
    differing += view.contains(k.data(), k.size()) != loaded.contains(k);
    differing += view.count(k) != loaded.count(k);
  }
  EXPECT_EQ(differing, 0u);
  std::vector<uint8_t> a(keys.ints.size()), b(keys.ints.size());
  view.contains_many(keys.ints.data(), keys.ints.size(), a.data());
  loaded.contains_many(keys.ints.data(), keys.ints.size(), b.data());
  EXPECT_EQ(a, b);
  std::vector<std::string_view> views(keys.strings.begin(), keys.strings.end());
  a.assign(views.size(), 0);
  b.assign(views.size(), 0);
  view.contains_many(views.data(), views.size(), a.data());
  loaded.contains_many(views.data(), views.size(), b.data());
  EXPECT_EQ(a, b);
}

// Present keys 0..n and the strings "k0".."kn" (as many as went in), absent ones after them.
Keys fill(CuckooFilter& f, size_t n, uint64_t salt) {
  Keys keys;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t k = i * 0x9E3779B97F4A7C15ull + salt;
    if (f.insert(k)) keys.ints.push_back(k);
    const std::string s = "k" + std::to_string(i) + "-" + std::to_string(salt);
    if (f.insert(s)) keys.strings.push_back(s);
  }
  for (size_t i = 0; i < 3 * n + 200; ++i) {
    keys.ints.push_back(~(i * 0xD6E8FEB86659FD93ull + salt));
    keys.strings.push_back("absent-" + std::to_string(i) + "-" + std::to_string(salt));
  }
  return keys;
}

fs::path temp_file(const std::string& name) {
  return fs::temp_directory_path() / ("cuckoo_view_test_" + std::to_string(::getpid()) + "_" + name);
}

void write_file(const fs::path& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// The view from bytes at misalignments 0..7 and from a mapped file, each against the loaded filter.
void check_everywhere(const Bytes& bytes, const Keys& keys, const std::string& name) {
  const CuckooFilter loaded = CuckooFilter::deserialize(bytes.data(), bytes.size());
  for (size_t misalignment : {0, 1, 3, 7}) {
    SCOPED_TRACE("misalignment " + std::to_string(misalignment));
    PlacedBytes placed(bytes, misalignment);
    const FilterView view = FilterView::from_bytes(placed.data(), placed.size());
    EXPECT_EQ(view.data(), placed.data());
    expect_same_answers(loaded, view, keys);
  }
  const fs::path path = temp_file(name);
  write_file(path, bytes);
  {
    SCOPED_TRACE("mapped file");
    FilterView view = FilterView::open(path.string());
    FilterView moved = std::move(view);
    expect_same_answers(loaded, moved, keys);
    moved.verify_checksum();
  }
  fs::remove(path);
}

class ViewShapeTest : public ::testing::TestWithParam<Shape> {};

TEST_P(ViewShapeTest, FixedFilterAnswersAsLoaded) {
  const Shape s = GetParam();
  for (uint64_t buckets : {2ull, 6ull, 1024ull}) {
    SCOPED_TRACE("buckets " + std::to_string(buckets));
    CuckooFilter f(cuckoo_test::options_for(s, buckets, 5 + buckets));
    const size_t n = static_cast<size_t>(buckets * s.b * 0.45);  // two inserts per i: ~90% load
    const Keys keys = fill(f, n, buckets);
    check_everywhere(f.serialize(), keys, "fixed");
  }
}

// Inserts until the filter is full: a victim is parked, which lookups must find too.
TEST_P(ViewShapeTest, FullFilterWithVictim) {
  const Shape s = GetParam();
  Options o = cuckoo_test::options_for(s, 64, 17);
  o.max_kicks = 4;
  CuckooFilter f(o);
  Keys keys;
  for (uint64_t i = 0; !f.is_full() && i < 100000; ++i)
    if (f.insert(i)) keys.ints.push_back(i);
  for (uint64_t i = 0; i < 5000; ++i) keys.ints.push_back(1000000 + i);
  check_everywhere(f.serialize(), keys, "full");
}

TEST_P(ViewShapeTest, GrowingFilterAnswersAsLoaded) {
  const Shape s = GetParam();
  if (s.f > 28) GTEST_SKIP() << "a growable filter's first level has at most 28 bits";
  Options o = cuckoo_test::options_for(s, 4, 23);
  o.bucket_count.reset();
  o.capacity = 8;
  o.growable = true;
  CuckooFilter f(o);
  const Keys keys = fill(f, 400, 9);
  ASSERT_GE(f.levels(), 4u);
  check_everywhere(f.serialize(), keys, "growing");
}

INSTANTIATE_TEST_SUITE_P(AllShapes, ViewShapeTest, ::testing::ValuesIn(cuckoo_test::all_shapes()),
                         cuckoo_test::shape_name);

// Keys from a golden file's sidecar: every JSON string, as a string and, if it is a number, as one.
Keys sidecar_keys(const fs::path& json) {
  std::ifstream in(json);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Keys keys;
  const std::regex quoted("\"((?:[^\"\\\\]|\\\\.)*)\"");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), quoted); it != std::sregex_iterator(); ++it) {
    const std::string s = (*it)[1];
    keys.strings.push_back(s);
    if (!s.empty() && s.size() <= 20 && s.find_first_not_of("0123456789") == std::string::npos)
      keys.ints.push_back(std::stoull(s));
  }
  for (uint64_t i = 0; i < 2000; ++i) {
    keys.ints.push_back(i * 0x9E3779B97F4A7C15ull);
    keys.strings.push_back("golden-absent-" + std::to_string(i));
  }
  return keys;
}

Bytes read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(ViewGolden, EveryGoldenFileAnswersAsLoaded) {
  const fs::path dir = fs::path(CUCKOO_SOURCE_DIR) / "testdata" / "golden";
  unsigned versions_seen[3] = {0, 0, 0};
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".bin") continue;
    SCOPED_TRACE(entry.path().filename().string());
    const Bytes bytes = read_file(entry.path());
    ASSERT_GE(bytes.size(), 5u);
    ++versions_seen[bytes[4] <= 2 ? bytes[4] : 0];
    fs::path json = entry.path();
    json.replace_extension(".json");
    check_everywhere(bytes, sidecar_keys(json), "golden");
    const FilterView view = FilterView::open(entry.path().string(), ViewOptions{true});
    EXPECT_EQ(view.serialized_size(), bytes.size());
  }
  EXPECT_GT(versions_seen[1], 0u);
  EXPECT_GT(versions_seen[2], 0u);
}

// --- Rejection ---

std::string deserialize_error(const Bytes& b) {
  try {
    CuckooFilter::deserialize(b.data(), b.size());
  } catch (const FormatError& e) {
    return e.what();
  }
  return "";
}

std::string view_error(const Bytes& b, bool verify = false) {
  PlacedBytes placed(b, 0);
  try {
    const FilterView view = FilterView::from_bytes(placed.data(), placed.size(), ViewOptions{verify});
    // Whatever it opened must answer without reading outside the bytes.
    for (uint64_t k = 0; k < 64; ++k) (void)view.contains(k), (void)view.count(k);
    const uint64_t keys[3] = {1, 2, 3};
    uint8_t out[3];
    view.contains_many(keys, 3, out);
  } catch (const FormatError& e) {
    return e.what();
  }
  return "";
}

// Messages of the checks a view skips because they scan the table (docs/format.md, "Views").
bool needs_table_scan(const std::string& message) {
  return message.find("invalid table:") != std::string::npos ||
         message.find("fingerprints stored") != std::string::npos ||
         message.find("a fingerprint that no key has") != std::string::npos;
}

void put_le(Bytes& b, size_t offset, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; ++i) b.at(offset + i) = static_cast<uint8_t>(v >> (8 * i));
}
Bytes reseal(Bytes b) {
  const size_t body = b.size() - cuckoo::kChecksumBytes;
  put_le(b, body, XXH3_64bits(b.data(), body), 8);
  return b;
}

// The view rejects what deserialize rejects, with the same message, unless the check needs the table:
// then it may open the bytes (and answer wrongly, but within them).
void expect_rejected_alike(const Bytes& b) {
  const std::string loaded = deserialize_error(b);
  const std::string viewed = view_error(b);
  if (loaded.empty()) {
    EXPECT_EQ(viewed, "");
  } else if (needs_table_scan(loaded)) {
    SUCCEED();
  } else if (loaded.find("checksum mismatch") != std::string::npos) {
    EXPECT_EQ(view_error(b, /*verify=*/true), loaded);
  } else {
    EXPECT_EQ(viewed, loaded);
    EXPECT_EQ(view_error(b, /*verify=*/true), loaded);
  }
}

std::vector<Bytes> sample_filters() {
  std::vector<Bytes> out;
  for (const Shape& s : {Shape{2, 5, false}, Shape{4, 12, false}, Shape{4, 13, true}, Shape{8, 16, false}}) {
    Options o = cuckoo_test::options_for(s, 8, 3);
    o.max_kicks = 2;
    CuckooFilter f(o);
    for (uint64_t i = 0; !f.is_full() && i < 1000; ++i) f.insert(i);  // ends with a victim
    out.push_back(f.serialize());
    Options g = cuckoo_test::options_for(s, 2, 4);
    g.bucket_count.reset();
    g.capacity = 2;
    g.growable = true;
    CuckooFilter grow(g);
    for (uint64_t i = 0; i < 60; ++i) grow.insert(i);
    out.push_back(grow.serialize());
  }
  return out;
}

TEST(ViewRejects, TruncationAtEveryLengthAsDeserialize) {
  for (const Bytes& full : sample_filters()) {
    for (size_t n = 0; n < full.size(); ++n) {
      const Bytes cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
      const std::string loaded = deserialize_error(cut);
      ASSERT_NE(loaded, "");
      EXPECT_EQ(view_error(cut), loaded) << n;
    }
    Bytes longer = full;
    longer.push_back(0);
    EXPECT_EQ(view_error(longer), deserialize_error(longer));
  }
  EXPECT_EQ(view_error(Bytes{}), deserialize_error(Bytes{}));
  EXPECT_THROW(FilterView::from_bytes(nullptr, 10), FormatError);
}

// Every bit of every header (and level header) flipped, resealed so that the checks behind the checksum
// see it, and not resealed.
TEST(ViewRejects, HeaderBitFlipsAsDeserialize) {
  for (const Bytes& full : sample_filters()) {
    std::vector<size_t> header_bytes;
    for (size_t i = 0; i < cuckoo::kHeaderBytes; ++i) header_bytes.push_back(i);
    if (full[4] == cuckoo::kGrowingFormatVersion) {
      const CuckooFilter f = CuckooFilter::deserialize(full.data(), full.size());
      size_t at = cuckoo::kHeaderBytes;
      for (unsigned s = 0; s < f.levels(); ++s) {
        for (size_t i = 0; i < cuckoo::kLevelHeaderBytes; ++i) header_bytes.push_back(at + i);
        cuckoo::Config level = f.config();
        level.bucket_count <<= s;
        level.fingerprint_bits += s == 0 ? 0 : 32 - __builtin_clz(s);  // level_extra_bits
        at += cuckoo::kLevelHeaderBytes + level.table_bytes();
      }
    }
    for (size_t i : header_bytes) {
      for (unsigned bit = 0; bit < 8; ++bit) {
        Bytes b = full;
        b[i] ^= static_cast<uint8_t>(1u << bit);
        SCOPED_TRACE("byte " + std::to_string(i) + " bit " + std::to_string(bit));
        expect_rejected_alike(b);
        expect_rejected_alike(reseal(b));
      }
    }
  }
}

// Table bytes that pass the structural checks give answers, not crashes: random tables under every
// shape's header (checksum resealed or not, it is not verified).
TEST(ViewRejects, HostileTablesAnswerWithinTheBytes) {
  std::mt19937_64 rng(12345);
  for (const Bytes& full : sample_filters()) {
    for (int round = 0; round < 20; ++round) {
      Bytes b = full;
      const size_t first_table = cuckoo::kHeaderBytes + (full[4] == cuckoo::kGrowingFormatVersion ? 32 : 0);
      for (size_t i = first_table; i + cuckoo::kChecksumBytes < b.size(); ++i) b[i] = static_cast<uint8_t>(rng());
      expect_rejected_alike(b);
      expect_rejected_alike(reseal(b));
    }
  }
}

TEST(ViewChecksum, DetectsAFlippedTableBit) {
  CuckooFilter f(cuckoo_test::options_for(Shape{4, 12, false}, 1024, 1));
  for (uint64_t i = 0; i < 3000; ++i) f.insert(i);
  Bytes bytes = f.serialize();
  bytes[cuckoo::kHeaderBytes + 100] ^= 0x10;
  const FilterView view = FilterView::from_bytes(bytes.data(), bytes.size());  // opens: structure is fine
  try {
    view.verify_checksum();
    FAIL() << "verify_checksum accepted a flipped bit";
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()), "cuckoo: checksum mismatch: the bytes are corrupted");
  }
  EXPECT_THROW(FilterView::from_bytes(bytes.data(), bytes.size(), ViewOptions{true}), FormatError);
  const fs::path path = temp_file("flipped");
  write_file(path, bytes);
  EXPECT_NO_THROW(FilterView::open(path.string()));
  EXPECT_THROW(FilterView::open(path.string()).verify_checksum(), FormatError);
  EXPECT_THROW(FilterView::open(path.string(), ViewOptions{true}), FormatError);
  fs::remove(path);
}

TEST(ViewFile, MissingEmptyAndDirectory) {
  EXPECT_THROW(FilterView::open(temp_file("does-not-exist").string()), std::system_error);
  EXPECT_THROW(FilterView::open(fs::temp_directory_path().string()), std::system_error);
  const fs::path path = temp_file("empty");
  write_file(path, Bytes{});
  try {
    FilterView::open(path.string());
    FAIL() << "an empty file opened";
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()), deserialize_error(Bytes{}));
  }
  fs::remove(path);
}

// A view stays valid after the file is replaced by rename (how the CLI rewrites filters): it keeps the
// old file's pages.
TEST(ViewFile, SurvivesReplacementByRename) {
  CuckooFilter a(cuckoo_test::options_for(Shape{4, 16, false}, 64, 1));
  a.insert("old");
  CuckooFilter b(cuckoo_test::options_for(Shape{4, 16, false}, 64, 1));
  b.insert("new");
  const fs::path path = temp_file("renamed"), next = temp_file("renamed.next");
  write_file(path, a.serialize());
  const FilterView view = FilterView::open(path.string());
  write_file(next, b.serialize());
  fs::rename(next, path);
  EXPECT_TRUE(view.contains("old"));
  EXPECT_TRUE(FilterView::open(path.string()).contains("new"));
  fs::remove(path);
}

}  // namespace

namespace {

// Every width 4..32 at every bucket size, plain and semi-sorted, fixed and growing (whose levels reach
// widths a first level cannot have), in small tables.
TEST(ViewEveryWidth, AnswersAsLoaded) {
  for (unsigned f = 4; f <= 32; ++f) {
    for (unsigned b : {2u, 4u, 8u}) {
      for (bool semi : {false, true}) {
        if (semi && b != 4) continue;
        SCOPED_TRACE("b=" + std::to_string(b) + " f=" + std::to_string(f) + (semi ? " semi-sorted" : ""));
        CuckooFilter fixed(cuckoo_test::options_for(Shape{b, f, semi}, 30, f));
        check_everywhere(fixed.serialize(), fill(fixed, 50, f), "width");
        if (f > 28) continue;
        Options o = cuckoo_test::options_for(Shape{b, f, semi}, 2, f);
        o.bucket_count.reset();
        o.capacity = 2;
        o.growable = true;
        CuckooFilter growing(o);
        const Keys keys = fill(growing, 120, f);
        check_everywhere(growing.serialize(), keys, "width-growing");
      }
    }
  }
}

}  // namespace
