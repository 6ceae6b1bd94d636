// native-tests/test_support.h: what several test files share: the operation budget's scale, the
// configurations every per-shape test runs over and the options that build one, and integer keys as bytes.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <ostream>
#include <string>
#include <vector>

#include "cuckoo/options.h"

namespace cuckoo_test {

// Op counts shrink under sanitizers (~10x slower) and in unoptimised builds; CUCKOO_TEST_SCALE overrides.
inline double test_scale() {
  if (const char* s = std::getenv("CUCKOO_TEST_SCALE")) {
    const double v = std::atof(s);
    if (v > 0) return v;
  }
#if defined(__SANITIZE_ADDRESS__)
  return 0.1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return 0.1;
#endif
#endif
#ifndef NDEBUG
  return 0.2;
#else
  return 1.0;
#endif
}

// A filter configuration: bucket size, fingerprint bits, semi-sorting.
struct Shape {
  unsigned b, f;
  bool semi_sort;
};

inline void PrintTo(const Shape& s, std::ostream* os) {
  *os << "b=" << s.b << " f=" << s.f << (s.semi_sort ? " semi-sorted" : "");
}

inline std::vector<Shape> all_shapes() {
  std::vector<Shape> shapes;
  for (unsigned b : {2u, 4u, 8u})
    for (unsigned f : {4u, 8u, 12u, 16u, 32u, 5u, 13u, 17u, 31u}) shapes.push_back({b, f, false});
  for (unsigned f : {4u, 5u, 8u, 9u, 12u, 13u, 16u, 17u, 31u, 32u}) shapes.push_back({4, f, true});
  return shapes;
}

// Options for a table of exactly this shape and bucket count (no sizing from capacity).
inline cuckoo::Options options_for(const Shape& s, uint64_t bucket_count = 1024, uint64_t seed = 0) {
  cuckoo::Options o;
  o.bucket_size = s.b;
  o.fingerprint_bits = s.f;
  o.semi_sort = s.semi_sort;
  o.bucket_count = bucket_count;
  o.seed = seed;
  return o;
}

inline std::string shape_name(const ::testing::TestParamInfo<Shape>& info) {
  return "b" + std::to_string(info.param.b) + "_f" + std::to_string(info.param.f) +
         (info.param.semi_sort ? "_semisort" : "");
}

// An integer key's 8 little-endian bytes: the byte key that hashes like the integer.
inline std::string le_bytes(uint64_t v) {
  std::string s(8, '\0');
  for (int b = 0; b < 8; ++b) s[b] = static_cast<char>(v >> (8 * b));
  return s;
}

}  // namespace cuckoo_test
