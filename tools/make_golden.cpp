// tools/make_golden.cpp: writes the golden files in testdata/golden/ (format: testdata/golden/README.md).
//
// Each case is a small filter built from fixed options and keys, serialized (<name>.bin), plus a JSON
// sidecar (<name>.json) listing the options, the keys inserted (in order) and keys the filter must reject.
// Fixed filters are format version 1; growing ones (grow_*: Options::growable) version 2.
// The files pin the binary format and the hashing spec: tests in C++ (native-tests/golden_test.cpp) and JS
// load them and must get the same answers and, rebuilding from the sidecar, the same bytes.
//
//   make_golden <dir>           write every case into <dir>
//   make_golden --check <dir>   regenerate in memory; exit 1 if any file in <dir> differs (ctest runs this)
//
// Everything here is deterministic: the same source gives the same files on every platform.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <cuckoo/cuckoo.h>

namespace {

struct Case {
  std::string name;
  cuckoo::Options options;
  bool int_keys;
  std::vector<std::string> keys;  // candidates, inserted in order (u64 keys as decimal strings)
  bool fill_until_full;           // insert candidates until insert() returns false (victim parked)
};

uint64_t to_u64(const std::string& s) { return std::stoull(s); }

bool insert(cuckoo::CuckooFilter& f, bool int_keys, const std::string& key) {
  return int_keys ? f.insert(to_u64(key)) : f.insert(std::string_view(key));
}
bool contains(const cuckoo::CuckooFilter& f, bool int_keys, const std::string& key) {
  return int_keys ? f.contains(to_u64(key)) : f.contains(std::string_view(key));
}

// Strings worth pinning: empty, multi-byte UTF-8 (2, 3 and 4-byte sequences), spaces, then plain keys.
std::vector<std::string> string_keys(const std::string& prefix, size_t n) {
  std::vector<std::string> keys = {"", "\xC3\xA9" /* é */, "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E" /* 日本語 */,
                                   "na\xC3\xAFve caf\xC3\xA9" /* naïve café */, "\xF0\x9F\x99\x82" /* 🙂 */,
                                   "with space", "quote\" and \\backslash"};
  for (size_t i = 0; keys.size() < n; ++i) keys.push_back(prefix + std::to_string(i));
  keys.resize(n);
  return keys;
}

// u64 keys: the edges (0, 1, 2^53 +- 1 where JS numbers stop being exact, 2^64 - 1), then a spread.
std::vector<std::string> int_keys(uint64_t salt, size_t n) {
  std::vector<std::string> keys = {"0", "1", "9007199254740991", "9007199254740993", "18446744073709551615"};
  for (uint64_t i = 0; keys.size() < n; ++i) keys.push_back(std::to_string((i + salt) * 0x9E3779B97F4A7C15ull));
  keys.resize(n);
  return keys;
}

cuckoo::Options options(uint64_t buckets, unsigned b, unsigned f, bool semi, uint64_t seed, unsigned kicks = 500) {
  cuckoo::Options o;
  o.bucket_count = buckets;
  o.bucket_size = b;
  o.fingerprint_bits = f;
  o.semi_sort = semi;
  o.seed = seed;
  o.max_kicks = kicks;
  o.huge_pages = false;
  return o;
}

// A growing filter: level 0 sized for `capacity`; max_memory_bytes 0 is no limit.
cuckoo::Options grow_options(uint64_t capacity, unsigned b, unsigned f, bool semi, uint64_t seed,
                             uint64_t max_memory_bytes = 0) {
  cuckoo::Options o;
  o.growable = true;
  o.capacity = capacity;
  o.bucket_size = b;
  o.fingerprint_bits = f;
  o.semi_sort = semi;
  o.seed = seed;
  o.max_memory_bytes = max_memory_bytes;
  o.huge_pages = false;
  return o;
}

// One case per configuration family. Changing this list changes the files: regenerate and commit them.
std::vector<Case> cases() {
  return {
      // The worked examples of docs/format.md: a plain table and a semi-sorted one.
      {"tiny_b2_f8", options(2, 2, 8, false, 1), false, {"apple", "date"}, false},
      {"tiny_ss_b4_f9", options(2, 4, 9, true, 1), false, {"apple", "banana", "cherry", "date"}, false},
      {"b2_f8_strings", options(32, 2, 8, false, 2), false, string_keys("s", 40), false},
      {"b4_f12_u64", options(64, 4, 12, false, 3), true, int_keys(3, 200), false},
      {"b8_f16_strings", options(32, 8, 16, false, 4), false, string_keys("key-", 200), false},
      {"b4_f32_u64", options(16, 4, 32, false, 5), true, int_keys(5, 50), false},
      {"ss_b4_f13_strings", options(64, 4, 13, true, 6), false, string_keys("ss-", 220), false},
      // f > 15: semi-sorted buckets wider than one 64-bit load (the per-entry decode path).
      {"ss_b4_f24_u64", options(8, 4, 24, true, 9), true, int_keys(9, 24), false},
      // b = 2, odd f, 6 buckets: 60 bits, so the last table byte has 4 padding bits.
      {"b2_f5_padding_u64", options(6, 2, 5, false, 10), true, int_keys(10, 8), false},
      // Filled until insert() returns false: the last successful insert parked a victim.
      {"b4_f7_full_u64", options(16, 4, 7, false, 7, 50), true, int_keys(7, 1000), true},
      {"ss_b4_f9_full_strings", options(8, 4, 9, true, 8, 50), false, string_keys("full-", 1000), true},
      // Growing filters (version 2), level 0 sized for 8 items. Grown to 4 levels.
      {"grow_b4_strings", grow_options(8, 4, 10, false, 11), false, string_keys("grow-", 400), false},
      // Filled until insert() returns false: max_memory_bytes (400) stops growth at 4 levels.
      {"grow_b2_u64_limit", grow_options(8, 2, 8, false, 12, 400), true, int_keys(12, 1000), true},
      // Semi-sorted levels.
      {"grow_ss_b4_strings", grow_options(8, 4, 9, true, 13), false, string_keys("ss-grow-", 250), false},
  };
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);  // UTF-8 passes through: JSON text is UTF-8
    }
  }
  return out + "\"";
}

std::string json_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ",\n    " : "\n    ") + json_string(items[i]);
  return out + "\n  ]";
}

struct Output {
  std::string name;
  std::vector<uint8_t> bin;
  std::string json;
};

Output build(const Case& c) {
  cuckoo::CuckooFilter filter(c.options);
  std::vector<std::string> present;
  for (const std::string& key : c.keys) {
    if (!insert(filter, c.int_keys, key)) break;
    present.push_back(key);
  }
  if (c.fill_until_full != filter.is_full() || (!c.fill_until_full && present.size() != c.keys.size()))
    throw std::runtime_error(c.name + ": the case did not come out as intended (full=" +
                             std::to_string(filter.is_full()) + ", inserted " + std::to_string(present.size()) + ")");

  // Absent keys: candidates the filter rejects, checked here so the lists never hold a false positive.
  std::vector<std::string> absent;
  const std::vector<std::string> candidates =
      c.int_keys ? int_keys(0xABCDEF, 200) : string_keys("absent-", 200);
  for (const std::string& key : candidates) {
    if (absent.size() == 20) break;
    bool inserted = false;
    for (const std::string& p : present) inserted |= p == key;
    if (!inserted && !contains(filter, c.int_keys, key)) absent.push_back(key);
  }
  if (absent.size() < 10) throw std::runtime_error(c.name + ": too few negative keys");

  const cuckoo::Config& cfg = filter.config();
  std::ostringstream j;
  j << "{\n"
    << "  \"file\": " << json_string(c.name + ".bin") << ",\n"
    << "  \"generator\": \"tools/make_golden.cpp\",\n";
  if (cfg.growable) {
    // A growing filter's options as given (level 0 is sized from capacity), and its level count.
    j << "  \"formatVersion\": " << unsigned{cuckoo::kGrowingFormatVersion} << ",\n"
      << "  \"options\": {\"growable\": true, \"capacity\": " << c.options.capacity
      << ", \"bucketSize\": " << cfg.bucket_size << ", \"fingerprintBits\": " << cfg.fingerprint_bits
      << ", \"semiSort\": " << (cfg.semi_sort ? "true" : "false") << ", \"maxKicks\": " << cfg.max_kicks
      << ", \"seed\": " << cfg.seed << ", \"maxMemoryBytes\": " << cfg.max_memory_bytes << "},\n"
      << "  \"intKeys\": " << (c.int_keys ? "true" : "false") << ",\n"
      << "  \"levels\": " << filter.levels() << ",\n";
  } else {
    j << "  \"formatVersion\": " << unsigned{cuckoo::kFormatVersion} << ",\n"
      << "  \"options\": {\"bucketCount\": " << cfg.bucket_count << ", \"bucketSize\": " << cfg.bucket_size
      << ", \"fingerprintBits\": " << cfg.fingerprint_bits << ", \"semiSort\": " << (cfg.semi_sort ? "true" : "false")
      << ", \"maxKicks\": " << cfg.max_kicks << ", \"seed\": " << cfg.seed << "},\n"
      << "  \"intKeys\": " << (c.int_keys ? "true" : "false") << ",\n";
  }
  j << "  \"size\": " << filter.size() << ",\n"
    << "  \"isFull\": " << (filter.is_full() ? "true" : "false") << ",\n"
    << "  \"fileBytes\": " << filter.serialized_size() << ",\n"
    << "  \"present\": " << json_list(present) << ",\n"
    << "  \"absent\": " << json_list(absent) << "\n"
    << "}\n";
  return {c.name, filter.serialize(), j.str()};
}

std::string read_file(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  *ok = static_cast<bool>(in);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool write_file(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  const bool check = argc == 3 && std::string(argv[1]) == "--check";
  if (!(argc == 2 || check)) {
    std::fprintf(stderr, "usage: make_golden <dir> | make_golden --check <dir>\n");
    return 2;
  }
  const std::string dir = argv[argc - 1];
  int stale = 0;
  try {
    for (const Case& c : cases()) {
      const Output out = build(c);
      const std::pair<std::string, std::string> files[] = {
          {dir + "/" + out.name + ".bin", std::string(out.bin.begin(), out.bin.end())},
          {dir + "/" + out.name + ".json", out.json}};
      for (const auto& [path, data] : files) {
        if (check) {
          bool ok = false;
          if (read_file(path, &ok) != data || !ok) {
            std::fprintf(stderr, "%s: %s\n", path.c_str(), ok ? "differs from the generator's output" : "missing");
            ++stale;
          }
        } else if (!write_file(path, data)) {
          std::fprintf(stderr, "cannot write %s\n", path.c_str());
          return 1;
        } else {
          std::printf("wrote %s (%zu bytes)\n", path.c_str(), data.size());
        }
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_golden: %s\n", e.what());
    return 1;
  }
  if (stale != 0) {
    std::fprintf(stderr,
                 "%d golden file(s) differ from what the generator makes now. If you changed the binary layout or "
                 "the hashing spec, bump kFormatVersion (core/include/cuckoo/format.h); if only the insert "
                 "algorithm changed, check that the committed files still pass golden_test first. Then "
                 "regenerate and update the pinned hashes in native-tests/golden_test.cpp:\n"
                 "  cmake --build <build> --target make_golden && <build>/tools/make_golden testdata/golden\n",
                 stale);
    return 1;
  }
  return 0;
}
