// tools/cli/fixed_point.cpp: see fixed_point.h.
#include "fixed_point.h"

#include <cmath>
#include <stdexcept>

namespace cuckoo_cli {

namespace {

constexpr uint64_t kPow10[] = {1, 10, 100, 1000, 10000};

void check_decimals(int decimals) {
  if (decimals < 0 || decimals > 4) throw std::logic_error("fixed-point text has 0..4 decimals");
}

// scaled / 10^decimals as text: "3.13" for (313, 2).
std::string text_of(uint64_t scaled, int decimals) {
  std::string s = std::to_string(scaled / kPow10[decimals]);
  if (decimals == 0) return s;
  const std::string fraction = std::to_string(scaled % kPow10[decimals]);
  return s + "." + std::string(decimals - fraction.size(), '0') + fraction;
}

}  // namespace

std::string fixed_ratio(uint64_t numerator, uint64_t denominator, int decimals) {
  check_decimals(decimals);
  // Long division, so that numerator * 10^decimals cannot overflow.
  const uint64_t whole = numerator / denominator;
  uint64_t remainder = numerator % denominator;
  uint64_t fraction = 0;
  for (int i = 0; i < decimals; ++i) {
    const uint64_t wide = remainder * 10;  // remainder < denominator; exact below 2^60 (a filter's counts are)
    fraction = fraction * 10 + wide / denominator;
    remainder = wide % denominator;
  }
  const bool round_up = remainder >= denominator - remainder;  // remainder / denominator >= 1/2
  return text_of(whole * kPow10[decimals] + fraction + (round_up ? 1 : 0), decimals);
}

std::string fixed_double(double value, int decimals) {
  check_decimals(decimals);
  if (!(value >= 0) || !std::isfinite(value)) throw std::logic_error("fixed_double needs a finite value >= 0");
  if (value == 0) return text_of(0, decimals);
  // value = mantissa * 2^-shift exactly, with a 53-bit integer mantissa. Then value * 10^decimals =
  // mantissa * 5^decimals * 2^(decimals - shift), and mantissa * 5^decimals < 2^53 * 625 < 2^63.
  int exponent = 0;
  const double fraction = std::frexp(value, &exponent);  // value = fraction * 2^exponent, fraction in [0.5, 1)
  const uint64_t mantissa = static_cast<uint64_t>(std::ldexp(fraction, 53));
  const uint64_t scaled = mantissa * (kPow10[decimals] >> decimals);  // 10^d / 2^d = 5^d
  const int shift = 53 - exponent - decimals;
  if (shift <= 0) {
    if (-shift >= 64 || scaled > (UINT64_MAX >> -shift)) throw std::logic_error("fixed_double: value too large");
    return text_of(scaled << -shift, decimals);
  }
  if (shift >= 64) return text_of(0, decimals);  // below 2^63 / 2^64: rounds to 0
  const uint64_t half_bit = (scaled >> (shift - 1)) & 1;
  return text_of((scaled >> shift) + half_bit, decimals);
}

}  // namespace cuckoo_cli
