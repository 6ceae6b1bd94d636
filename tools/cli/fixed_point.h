// tools/cli/fixed_point.h: numbers in fixed-point decimal text, digit for digit as js/cli/fixed_point.js
// writes them.
//
// printf("%.2f") and JS's toFixed(2) agree except on exact ties, which printf rounds to even and toFixed
// up (3.125 -> "3.12" / "3.13"). These functions round in integer arithmetic, half up, on the exact
// value: a ratio of integers, or a double's exact binary value (the same double in both tools, since the
// core computes it with the same IEEE operations natively and in WebAssembly).
#pragma once

#include <cstdint>
#include <string>

namespace cuckoo_cli {

// numerator / denominator (denominator > 0) with `decimals` (0..4) digits after the point.
std::string fixed_ratio(uint64_t numerator, uint64_t denominator, int decimals);

// value (finite, 0 <= value * 10^decimals < 2^63) with `decimals` (0..4) digits after the point.
std::string fixed_double(double value, int decimals);

}  // namespace cuckoo_cli
