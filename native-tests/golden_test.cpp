// native-tests/golden_test.cpp: the committed golden files (testdata/golden/) load and answer as recorded.
//
// The golden files are the format's memory: a filter serialized by an older build must load in this one
// with the same answers. Each <name>.bin has a <name>.json sidecar (testdata/golden/README.md). Checked,
// for every sidecar in the directory whoever wrote it (tools/make_golden.cpp, or the JS generator for the
// js_* files): answers for present/absent keys, size, load, levels, byte-identical re-serialization, and
// that rebuilding from the sidecar's options and keys gives the same bytes. The hashes of the files
// tools/make_golden.cpp writes are pinned below, so changing the layout or the hashing spec cannot go
// unnoticed: it must come with a bump of kFormatVersion (fixed filters) or kGrowingFormatVersion (growing).
#include <gtest/gtest.h>

#include <cuckoo/cuckoo.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core_access.h"
#include "hash.h"  // XXH3, for the pinned file hashes

namespace {

namespace fs = std::filesystem;
using cuckoo::internal::CoreAccess;

const fs::path kGoldenDir = fs::path(CUCKOO_SOURCE_DIR) / "testdata" / "golden";

// The format versions the golden files were written with (fixed filters, growing filters), and
// XXH3_64bits of each .bin file that tools/make_golden.cpp writes.
constexpr unsigned kPinnedFormatVersion = 1;
constexpr unsigned kPinnedGrowingFormatVersion = 2;
constexpr const char* kNativeGenerator = "tools/make_golden.cpp";
const std::map<std::string, uint64_t> kPinnedHashes = {
    {"b2_f5_padding_u64.bin", 0xe9cd192a68da414e},
    {"b2_f8_strings.bin", 0x7ce806df7bc58c65},
    {"b4_f12_u64.bin", 0xddb3eb4f172e3df1},
    {"b4_f32_u64.bin", 0xecad677515a6d1ee},
    {"b4_f7_full_u64.bin", 0x424ea3d8790c1294},
    {"b8_f16_strings.bin", 0x27156beb6f69b0b7},
    {"grow_b2_u64_limit.bin", 0xae61618d0b6db971},
    {"grow_b4_strings.bin", 0x1f9049eae2872240},
    {"grow_ss_b4_strings.bin", 0xc051d22beaca400c},
    {"ss_b4_f13_strings.bin", 0x81ae63502ec589b7},
    {"ss_b4_f24_u64.bin", 0x96767371977d60c8},
    {"ss_b4_f9_full_strings.bin", 0xf1cfe851f9a4398e},
    {"tiny_b2_f8.bin", 0x9f8e3059eb47c7f3},
    {"tiny_ss_b4_f9.bin", 0xe0b1f64876b4f299},
};
constexpr const char* kHowToRegenerate =
    "If you changed the binary layout or the hashing spec on purpose: bump kFormatVersion in "
    "core/include/cuckoo/format.h (kGrowingFormatVersion for growing filters; old files must not load as if "
    "nothing changed), regenerate with\n"
    "  cmake --build build --target make_golden && build/tools/make_golden testdata/golden\n"
    "and update kPinnedFormatVersion, kPinnedGrowingFormatVersion and kPinnedHashes in "
    "native-tests/golden_test.cpp. Otherwise the change broke compatibility with every stored filter: undo it.";

constexpr const char* kRebuildDiffers =
    "The same options and keys no longer give the committed bytes. If the insert algorithm changed (which "
    "entry or bucket a fingerprint goes to, the kick walk), that is allowed without a version bump as long as "
    "the committed files still load and answer correctly (the other golden tests): then regenerate (see "
    "testdata/golden/README.md) and update the pinned hashes. If the layout or hashing changed, bump "
    "kFormatVersion.";

// --- A minimal JSON reader: enough for the sidecars (objects, arrays, strings, integers, booleans). ---
struct Json {
  enum Kind { kNull,
              kBool,
              kNumber,
              kString,
              kArray,
              kObject } kind = kNull;
  bool boolean = false;
  uint64_t number = 0;
  std::string string;
  std::vector<Json> array;
  std::map<std::string, Json> object;

  const Json& operator[](const std::string& key) const {
    static const Json missing;
    auto it = object.find(key);
    return it == object.end() ? missing : it->second;
  }
};

class JsonReader {
 public:
  explicit JsonReader(const std::string& text) : s_(text) {}
  Json parse() {
    Json v = value();
    space();
    if (i_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("JSON: " + why + " at offset " + std::to_string(i_));
  }
  void space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
  }
  bool eat(char c) {
    space();
    if (i_ < s_.size() && s_[i_] == c) return ++i_, true;
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  Json value() {
    space();
    if (i_ >= s_.size()) fail("unexpected end");
    Json v;
    const char c = s_[i_];
    if (c == '{') {
      v.kind = Json::kObject;
      ++i_;
      if (eat('}')) return v;
      do {
        space();
        std::string key = string();
        expect(':');
        v.object[key] = value();
      } while (eat(','));
      expect('}');
    } else if (c == '[') {
      v.kind = Json::kArray;
      ++i_;
      if (eat(']')) return v;
      do v.array.push_back(value());
      while (eat(','));
      expect(']');
    } else if (c == '"') {
      v.kind = Json::kString;
      v.string = string();
    } else if (s_.compare(i_, 4, "true") == 0 || s_.compare(i_, 5, "false") == 0) {
      v.kind = Json::kBool;
      v.boolean = c == 't';
      i_ += v.boolean ? 4 : 5;
    } else if (c >= '0' && c <= '9') {
      v.kind = Json::kNumber;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') v.number = v.number * 10 + (s_[i_++] - '0');
    } else {
      fail("unsupported value");
    }
    return v;
  }
  std::string string() {
    if (s_[i_] != '"') fail("expected a string");
    std::string out;
    for (++i_; i_ < s_.size() && s_[i_] != '"'; ++i_) {
      if (s_[i_] != '\\') {
        out += s_[i_];
        continue;
      }
      const char e = s_[++i_];
      if (e == 'u') {  // only \u00XX (control characters) is written by make_golden
        out += static_cast<char>(std::stoi(s_.substr(i_ + 1, 4), nullptr, 16));
        i_ += 4;
      } else {
        out += e == 'n' ? '\n' : e == 't' ? '\t'
                                          : e;
      }
    }
    if (i_ >= s_.size()) fail("unterminated string");
    ++i_;
    return out;
  }
  const std::string& s_;
  size_t i_ = 0;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// One golden case: the sidecar and the bytes.
struct Golden {
  std::string name;
  Json meta;
  std::vector<uint8_t> bytes;
};

std::vector<Golden> load_all() {
  std::vector<Golden> all;
  for (const auto& entry : fs::directory_iterator(kGoldenDir)) {
    if (entry.path().extension() != ".json") continue;
    Golden g;
    g.name = entry.path().stem().string();
    g.meta = JsonReader(read_file(entry.path())).parse();
    const std::string bin = read_file(kGoldenDir / g.meta["file"].string);
    g.bytes.assign(bin.begin(), bin.end());
    all.push_back(std::move(g));
  }
  std::sort(all.begin(), all.end(), [](const Golden& a, const Golden& b) { return a.name < b.name; });
  return all;
}

bool contains(const cuckoo::CuckooFilter& f, const Golden& g, const std::string& key) {
  return g.meta["intKeys"].boolean ? f.contains(uint64_t{std::stoull(key)}) : f.contains(std::string_view(key));
}
bool insert(cuckoo::CuckooFilter& f, const Golden& g, const std::string& key) {
  return g.meta["intKeys"].boolean ? f.insert(uint64_t{std::stoull(key)}) : f.insert(std::string_view(key));
}
bool erase(cuckoo::CuckooFilter& f, const Golden& g, const std::string& key) {
  return g.meta["intKeys"].boolean ? f.erase(uint64_t{std::stoull(key)}) : f.erase(std::string_view(key));
}

bool is_growing(const Golden& g) { return g.meta["options"]["growable"].boolean; }

// The sidecar's options: a fixed filter's exact bucketCount, or a growing filter's capacity (level 0's
// size) and maxMemoryBytes.
cuckoo::Options options_of(const Golden& g) {
  const Json& o = g.meta["options"];
  cuckoo::Options opt;
  if (is_growing(g)) {
    opt.growable = true;
    opt.capacity = o["capacity"].number;
    opt.max_memory_bytes = o["maxMemoryBytes"].number;
  } else {
    opt.bucket_count = o["bucketCount"].number;
  }
  opt.bucket_size = static_cast<unsigned>(o["bucketSize"].number);
  opt.fingerprint_bits = static_cast<unsigned>(o["fingerprintBits"].number);
  opt.semi_sort = o["semiSort"].boolean;
  opt.max_kicks = static_cast<unsigned>(o["maxKicks"].number);
  opt.seed = o["seed"].number;
  opt.huge_pages = false;
  return opt;
}

class GoldenTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { all_ = std::make_unique<std::vector<Golden>>(load_all()); }
  static void TearDownTestSuite() { all_.reset(); }
  static const std::vector<Golden>& all() { return *all_; }

 private:
  static std::unique_ptr<std::vector<Golden>> all_;
};
std::unique_ptr<std::vector<Golden>> GoldenTest::all_;

// Every pinned file is there, and every file tools/make_golden.cpp writes is pinned. Files of other
// generators (JS) are checked like the rest but not pinned here: their own tests pin them.
TEST_F(GoldenTest, FilesArePresent) {
  size_t native = 0;
  for (const Golden& g : all()) {
    if (g.meta["generator"].string != kNativeGenerator) continue;
    ++native;
    EXPECT_EQ(kPinnedHashes.count(g.meta["file"].string), 1u) << g.name << " is not pinned. " << kHowToRegenerate;
  }
  ASSERT_EQ(native, kPinnedHashes.size()) << "testdata/golden/ and kPinnedHashes disagree. " << kHowToRegenerate;
}

// The tripwire: the committed bytes are the bytes this version is known to write.
TEST_F(GoldenTest, FormatVersionAndBytesArePinned) {
  EXPECT_EQ(unsigned{cuckoo::kFormatVersion}, kPinnedFormatVersion)
      << "kFormatVersion changed: regenerate the golden files and update the pins. " << kHowToRegenerate;
  EXPECT_EQ(unsigned{cuckoo::kGrowingFormatVersion}, kPinnedGrowingFormatVersion)
      << "kGrowingFormatVersion changed: regenerate the golden files and update the pins. " << kHowToRegenerate;
  for (const Golden& g : all()) {
    SCOPED_TRACE(g.name);
    const std::string file = g.meta["file"].string;
    const unsigned version = is_growing(g) ? kPinnedGrowingFormatVersion : kPinnedFormatVersion;
    ASSERT_EQ(g.meta["formatVersion"].number, version);
    ASSERT_GT(g.bytes.size(), 4u);
    EXPECT_EQ(g.bytes[4], version) << "version byte of " << file;
    EXPECT_LE(g.bytes.size(), 4096u) << "golden files stay small";
    if (g.meta["generator"].string != kNativeGenerator) continue;  // pinned by its own generator's tests
    const auto pin = kPinnedHashes.find(file);
    ASSERT_NE(pin, kPinnedHashes.end()) << file << " is not pinned. " << kHowToRegenerate;
    const uint64_t hash = XXH3_64bits(g.bytes.data(), g.bytes.size());
    char pin_line[96];
    std::snprintf(pin_line, sizeof pin_line, "{\"%s\", 0x%016llx},", file.c_str(),
                  static_cast<unsigned long long>(hash));
    EXPECT_EQ(hash, pin->second) << file << " differs from the pinned bytes (now " << pin_line << "). "
                                 << kHowToRegenerate;
  }
}

TEST_F(GoldenTest, AnswersAsRecorded) {
  for (const Golden& g : all()) {
    SCOPED_TRACE(g.name);
    const cuckoo::CuckooFilter f = cuckoo::CuckooFilter::deserialize(g.bytes.data(), g.bytes.size());
    // The shape the options resolve to (for a growing filter: level 0's).
    const cuckoo::Config c = cuckoo::resolve(options_of(g));
    EXPECT_EQ(f.config().growable, c.growable);
    EXPECT_EQ(f.config().bucket_count, c.bucket_count);
    EXPECT_EQ(f.config().bucket_size, c.bucket_size);
    EXPECT_EQ(f.config().fingerprint_bits, c.fingerprint_bits);
    EXPECT_EQ(f.config().semi_sort, c.semi_sort);
    EXPECT_EQ(f.config().max_kicks, c.max_kicks);
    EXPECT_EQ(f.config().seed, c.seed);
    EXPECT_EQ(f.config().max_memory_bytes, c.max_memory_bytes);
    if (is_growing(g)) {
      EXPECT_EQ(f.levels(), g.meta["levels"].number);
      EXPECT_GE(f.levels(), 1u);
      // Level s has n0 * 2^s buckets.
      EXPECT_EQ(f.bucket_count(), c.bucket_count * ((uint64_t{1} << f.levels()) - 1));
    } else {
      EXPECT_EQ(f.levels(), 1u);
      EXPECT_EQ(f.bucket_count(), c.bucket_count);
    }
    EXPECT_EQ(f.size(), g.meta["size"].number);
    EXPECT_EQ(f.size(), g.meta["present"].array.size());
    EXPECT_EQ(f.is_full(), g.meta["isFull"].boolean);
    EXPECT_DOUBLE_EQ(f.load_factor(), static_cast<double>(CoreAccess::core(f).count_entries()) /
                                          static_cast<double>(f.slot_count()));
    EXPECT_EQ(f.serialized_size(), g.meta["fileBytes"].number);
    for (const Json& k : g.meta["present"].array) EXPECT_TRUE(contains(f, g, k.string)) << "present: " << k.string;
    EXPECT_GE(g.meta["absent"].array.size(), 10u);
    for (const Json& k : g.meta["absent"].array) EXPECT_FALSE(contains(f, g, k.string)) << "absent: " << k.string;
    EXPECT_EQ(f.serialize(), g.bytes) << "re-serialization is not byte-identical";
  }
}

// Same options + same keys in the same order = the same bytes, today and in every future build.
TEST_F(GoldenTest, RebuildingFromTheSidecarGivesTheSameBytes) {
  for (const Golden& g : all()) {
    SCOPED_TRACE(g.name);
    cuckoo::CuckooFilter f(options_of(g));
    for (const Json& k : g.meta["present"].array) ASSERT_TRUE(insert(f, g, k.string)) << k.string;
    EXPECT_EQ(f.serialize(), g.bytes) << kRebuildDiffers;
  }
}

// A loaded filter is a working filter: every recorded key can be erased, and it can be refilled.
TEST_F(GoldenTest, LoadedFiltersKeepWorking) {
  for (const Golden& g : all()) {
    SCOPED_TRACE(g.name);
    cuckoo::CuckooFilter f = cuckoo::CuckooFilter::deserialize(g.bytes.data(), g.bytes.size());
    for (const Json& k : g.meta["present"].array) ASSERT_TRUE(erase(f, g, k.string)) << k.string;
    EXPECT_EQ(f.size(), 0u);
    EXPECT_FALSE(f.is_full());
    const auto empty = f.serialize();
    EXPECT_EQ(empty, cuckoo::CuckooFilter(cuckoo::CuckooFilter::deserialize(empty.data(), empty.size())).serialize());
    // Refill. A full filter's kick walks now start from another RNG state, so it may fill up earlier.
    size_t refilled = 0;
    for (const Json& k : g.meta["present"].array) {
      if (!insert(f, g, k.string)) break;
      ++refilled;
    }
    if (!g.meta["isFull"].boolean) {
      EXPECT_EQ(refilled, g.meta["present"].array.size());
    }
    for (size_t i = 0; i < refilled; ++i) EXPECT_TRUE(contains(f, g, g.meta["present"].array[i].string));
  }
}

// docs/format.md's worked examples are dumps of golden files; they must show the committed bytes.
TEST_F(GoldenTest, DocsShowTheCommittedBytes) {
  const std::string doc = read_file(fs::path(CUCKOO_SOURCE_DIR) / "docs" / "format.md");
  for (const Golden& g : all()) {
    if (g.name.rfind("tiny_", 0) != 0 && g.name != "b4_f7_full_u64") continue;
    SCOPED_TRACE(g.name);
    // The dump's first table line and (for the tiny files) checksum line.
    char checksum[40];
    uint64_t stored = 0;
    for (size_t i = 0; i < 8; ++i) stored |= uint64_t{g.bytes[g.bytes.size() - 8 + i]} << (8 * i);
    std::snprintf(checksum, sizeof checksum, "0x%016llx", static_cast<unsigned long long>(stored));
    std::string first_bucket = "0038 ";
    const unsigned entry_bits = (g.bytes[7] & 1) ? g.bytes[6] - 1u : g.bytes[6];
    const size_t bucket_bytes = std::min<size_t>(4, (g.bytes[5] * entry_bits + 7) / 8);
    for (size_t i = 56; i < 56 + bucket_bytes; ++i) {
      char hex[4];
      std::snprintf(hex, sizeof hex, " %02x", g.bytes[i]);
      first_bucket += hex;
    }
    EXPECT_NE(doc.find(first_bucket), std::string::npos)
        << "docs/format.md does not show " << g.name << ".bin's first table bytes; redo its dumps with "
        << "build/tools/format_dump (commands in the doc)";
    if (g.name.rfind("tiny_", 0) == 0) {
      EXPECT_NE(doc.find(checksum), std::string::npos)
          << "docs/format.md does not show " << g.name << ".bin's checksum " << checksum
          << "; redo its dumps with build/tools/format_dump (commands in the doc)";
    }
  }
}

}  // namespace
