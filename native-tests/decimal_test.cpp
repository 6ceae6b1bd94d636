// native-tests/decimal_test.cpp: core/src/decimal.h against the C library it replaces. format_general must
// write exactly what snprintf("%.*g") writes, and reads_back must agree with strtod, for every kind of
// double: random bit patterns over the whole range (subnormals, huge values), short decimals as users type
// them, the boundaries, and the values whose rounding carries into a new digit.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "decimal.h"

namespace {

using cuckoo::internal::format_general;
using cuckoo::internal::reads_back;

std::string printf_general(double value, int precision) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", precision, value);
  return text;
}

void check(double value) {
  for (int precision = 1; precision <= 17; ++precision) {
    const std::string expected = printf_general(value, precision);
    ASSERT_EQ(format_general(value, precision), expected) << "precision " << precision;
    if (std::isfinite(value) && value != 0) {
      const bool expected_back = std::strtod(expected.c_str(), nullptr) == value;
      ASSERT_EQ(reads_back(value, precision), expected_back) << expected;
    }
  }
}

double from_bits(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

TEST(Decimal, SpecialValues) {
  EXPECT_EQ(format_general(std::numeric_limits<double>::quiet_NaN(), 6), "nan");
  EXPECT_EQ(format_general(-std::numeric_limits<double>::quiet_NaN(), 6), "-nan");
  EXPECT_EQ(format_general(std::numeric_limits<double>::infinity(), 6), "inf");
  EXPECT_EQ(format_general(-std::numeric_limits<double>::infinity(), 6), "-inf");
  EXPECT_EQ(format_general(0.0, 6), "0");
  EXPECT_EQ(format_general(-0.0, 6), "-0");
  EXPECT_TRUE(reads_back(std::numeric_limits<double>::quiet_NaN(), 6));
}

TEST(Decimal, BoundariesAndCarries) {
  const std::vector<double> values = {
      DBL_MAX,
      -DBL_MAX,
      DBL_MIN,
      DBL_TRUE_MIN,
      std::nextafter(DBL_MIN, 0.0),
      std::nextafter(DBL_MIN, 1.0),
      1.0,
      0.1,
      0.5,
      1.0000001,
      0.999999,
      0.9999995,
      0.99999949999999,
      9.5,
      99999.95,
      999999.5,
      1e-5,
      1e-4,
      0.00012345,
      1e15,
      1e16,
      1e17,
      1e21,
      123456789012345678.0,
      0.3,
      2.5,
      0.125,
      1e-300,
      1e-320,
      4294967296.0,
      1.6677181699666577e+10,
      0.001,
      0.01,
      1e-12,
      0.97,
      0.955,
      5e-324,
  };
  for (double v : values) {
    SCOPED_TRACE(printf_general(v, 17));
    check(v);
    check(-v);
    check(std::nextafter(v, 0.0));
    check(std::nextafter(v, INFINITY));
  }
  // Powers of two and ten across the range: the points where the lower gap halves, and exact decimals.
  for (int e = -1074; e <= 1023; ++e) {
    SCOPED_TRACE(e);
    check(std::ldexp(1.0, e));
  }
  for (int e = -323; e <= 308; ++e) {
    SCOPED_TRACE(e);
    check(std::strtod(("1e" + std::to_string(e)).c_str(), nullptr));
  }
}

TEST(Decimal, RandomBitPatterns) {
  std::mt19937_64 rng(20261126);
  for (int i = 0; i < 20000; ++i) {
    const double v = from_bits(rng());
    SCOPED_TRACE(printf_general(v, 17));
    check(v);
  }
}

TEST(Decimal, ShortDecimalsAsTyped) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    // digits.digits with an exponent: what a user writes for fpr, target_load or a capacity.
    const std::string text = std::to_string(rng() % 100000000) + "e" + std::to_string(static_cast<int>(rng() % 40) - 30);
    const double v = std::strtod(text.c_str(), nullptr);
    SCOPED_TRACE(text);
    check(v);
  }
}

}  // namespace
