// tools/cli/fixed_point.h: numbers in fixed-point decimal text, as docs/cli.md's "Number formatting"
// specifies for both tools (js/cli/fixed_point.js is the other implementation): rounded in integer
// arithmetic, half up, on the exact value of a ratio of integers or of a double.
#pragma once

#include <cstdint>
#include <string>

namespace cuckoo_cli {

// numerator / denominator (denominator > 0) with `decimals` (0..4) digits after the point.
std::string fixed_ratio(uint64_t numerator, uint64_t denominator, int decimals);

// value (finite, 0 <= value * 10^decimals < 2^63) with `decimals` (0..4) digits after the point.
std::string fixed_double(double value, int decimals);

}  // namespace cuckoo_cli
