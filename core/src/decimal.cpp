// core/src/decimal.cpp: see decimal.h.
//
// A finite double is m * 2^e with an integer m < 2^53. Its decimal expansion is finite: m * 2^e for e >= 0,
// and (m * 5^-e) * 10^e for e < 0, so its digits are those of one big integer. Rounding to P digits then
// works on that digit string, exactly as printf does. Reading back is a comparison: P digits d read back
// as the double v if d lies strictly inside v's rounding interval (between the midpoints to its
// neighbours), or on a midpoint when v's m is even (ties to even). Both sides of that comparison are
// integers times powers of 2 and 10, compared exactly as big integers.
#include "decimal.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace cuckoo::internal {

namespace {

// A non-negative big integer in base 10^9, least significant limb first, no leading zero limbs.
class Big {
 public:
  explicit Big(uint64_t value) {
    while (value != 0) {
      limbs_.push_back(static_cast<uint32_t>(value % kBase));
      value /= kBase;
    }
  }

  // *this = *this * factor + addend (factor, addend < 2^32).
  void mul_add(uint32_t factor, uint32_t addend = 0) {
    uint64_t carry = addend;
    for (uint32_t& limb : limbs_) {
      const uint64_t x = uint64_t{limb} * factor + carry;
      limb = static_cast<uint32_t>(x % kBase);
      carry = x / kBase;
    }
    while (carry != 0) {
      limbs_.push_back(static_cast<uint32_t>(carry % kBase));
      carry /= kBase;
    }
    while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
  }

  void mul_pow(uint32_t base, int exponent) {
    // base^k stays below 2^32 for k = 13 with base 5, 31 with base 2 and 9 with base 10.
    const int step = base == 2 ? 31 : base == 5 ? 13
                                                : 9;
    uint32_t chunk = 1;
    for (int i = 0; i < step; ++i) chunk *= base;
    for (; exponent >= step; exponent -= step) mul_add(chunk);
    uint32_t rest = 1;
    for (; exponent > 0; --exponent) rest *= base;
    mul_add(rest);
  }

  std::string digits() const {
    if (limbs_.empty()) return "0";
    std::string text = std::to_string(limbs_.back());
    for (size_t i = limbs_.size() - 1; i-- > 0;) {
      char chunk[9];
      uint32_t limb = limbs_[i];
      for (int j = 8; j >= 0; --j, limb /= 10) chunk[j] = static_cast<char>('0' + limb % 10);
      text.append(chunk, 9);
    }
    return text;
  }

  friend int compare(const Big& a, const Big& b) {
    if (a.limbs_.size() != b.limbs_.size()) return a.limbs_.size() < b.limbs_.size() ? -1 : 1;
    for (size_t i = a.limbs_.size(); i-- > 0;) {
      if (a.limbs_[i] != b.limbs_[i]) return a.limbs_[i] < b.limbs_[i] ? -1 : 1;
    }
    return 0;
  }

 private:
  static constexpr uint32_t kBase = 1000000000;
  std::vector<uint32_t> limbs_;
};

// |value| = mantissa * 2^exponent, for a finite non-zero value.
struct Binary {
  uint64_t mantissa;
  int exponent;
  bool lower_gap_halves;  // the next double down is half as far away as the next one up (m = 2^52)
};

uint64_t bits_of(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

Binary decompose(double value) {
  const uint64_t bits = bits_of(value);
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  const uint64_t fraction = bits & ((uint64_t{1} << 52) - 1);
  if (biased == 0) return {fraction, -1074, false};
  return {fraction | (uint64_t{1} << 52), biased - 1075, fraction == 0 && biased > 1};
}

// The P leading significant digits of |value| (finite, non-zero), rounded half to even, and the decimal
// exponent of the first one: |value| ~ d.ddd * 10^exponent.
struct Rounded {
  std::string digits;
  int exponent;
};

Rounded round_to(double value, int precision) {
  const Binary b = decompose(value);
  Big n(b.mantissa);
  int shift = 0;  // |value| = n * 10^shift
  if (b.exponent >= 0) {
    n.mul_pow(2, b.exponent);
  } else {
    n.mul_pow(5, -b.exponent);
    shift = b.exponent;
  }
  std::string all = n.digits();
  Rounded r{all.substr(0, precision), static_cast<int>(all.size()) - 1 + shift};
  if (all.size() <= static_cast<size_t>(precision)) {
    r.digits.append(precision - all.size(), '0');
    return r;
  }
  const char next = all[precision];
  const bool rest_zero = all.find_first_not_of('0', precision + 1) == std::string::npos;
  const bool up = next > '5' || (next == '5' && (!rest_zero || (r.digits.back() - '0') % 2 == 1));
  if (up) {
    int i = precision - 1;
    for (; i >= 0 && r.digits[i] == '9'; --i) r.digits[i] = '0';
    if (i >= 0) {
      ++r.digits[i];
    } else {
      r.digits.insert(r.digits.begin(), '1');
      r.digits.pop_back();
      ++r.exponent;
    }
  }
  return r;
}

// Compares digits * 10^ten with mantissa * 2^two exactly: <0, 0 or >0.
int compare_scaled(const std::string& digits, int ten, uint64_t mantissa, int two) {
  Big lhs(0);
  for (char c : digits) lhs.mul_add(10, static_cast<uint32_t>(c - '0'));
  Big rhs(mantissa);
  // Bring both to integers: multiply each side by what the other's negative exponents need.
  if (ten >= 0) lhs.mul_pow(10, ten);
  else rhs.mul_pow(10, -ten);
  if (two >= 0) rhs.mul_pow(2, two);
  else lhs.mul_pow(2, -two);
  return compare(lhs, rhs);
}

bool is_special(double value) { return value != value || value == 0 || value - value != 0; }

}  // namespace

std::string format_general(double value, int precision) {
  std::string text = (bits_of(value) >> 63) != 0 ? "-" : "";
  if (value != value) return text + "nan";
  if (value == 0) return text + "0";
  if (value - value != 0) return text + "inf";

  const Rounded r = round_to(value, precision);
  const int x = r.exponent;
  std::string body;
  if (x < precision && x >= -4) {
    // Fixed notation with precision - 1 - x decimals.
    if (x >= 0) {
      body = r.digits.substr(0, x + 1) + "." + r.digits.substr(x + 1);
    } else {
      body = "0." + std::string(-x - 1, '0') + r.digits;
    }
  } else {
    body = r.digits.substr(0, 1) + "." + r.digits.substr(1);
  }
  // %g drops trailing zeros of the fraction, and the point if nothing follows it.
  body.erase(body.find_last_not_of('0') + 1);
  if (body.back() == '.') body.pop_back();
  text += body;
  if (!(x < precision && x >= -4)) {
    const int magnitude = x < 0 ? -x : x;
    text += x < 0 ? "e-" : "e+";
    if (magnitude < 10) text += '0';
    text += std::to_string(magnitude);
  }
  return text;
}

bool reads_back(double value, int precision) {
  if (is_special(value)) return true;
  const Rounded r = round_to(value, precision);
  const int ten = r.exponent - (precision - 1);  // |decimal| = digits * 10^ten
  const Binary b = decompose(value);
  // The midpoints to the neighbours: (2m + 1) * 2^(e-1) above, (2m - 1) * 2^(e-1) below, or
  // (4m - 1) * 2^(e-2) below when the next double down is half as far. Past the largest double the upper
  // midpoint is where strtod overflows to infinity, which the same comparison handles.
  const bool even = b.mantissa % 2 == 0;
  const int above = compare_scaled(r.digits, ten, 2 * b.mantissa + 1, b.exponent - 1);
  const int below = b.lower_gap_halves ? compare_scaled(r.digits, ten, 4 * b.mantissa - 1, b.exponent - 2)
                                       : compare_scaled(r.digits, ten, 2 * b.mantissa - 1, b.exponent - 1);
  return (above < 0 || (above == 0 && even)) && (below > 0 || (below == 0 && even));
}

}  // namespace cuckoo::internal
