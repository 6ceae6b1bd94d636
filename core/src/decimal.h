// core/src/decimal.h: doubles as decimal text for messages, without printf or strtod.
//
// printf's floating-point path (and strtod's, for the read-back test) is the largest part of a small
// WebAssembly build: formatting code, long-double soft-float and their tables. These routines compute the
// same text from the exact binary value with a small big-integer type instead (decimal.cpp).
#pragma once

#include <string>

namespace cuckoo::internal {

// value as printf("%.*g", precision, value) writes it (precision 1..17): rounded half to even on the exact
// binary value, "nan", "inf", "-0" and the e+NN exponent form included.
std::string format_general(double value, int precision);

// Whether strtod would read `precision` significant digits of value, rounded as format_general rounds
// them, back as value itself (round to nearest, ties to even). Always true for NaN, infinities and zeros.
bool reads_back(double value, int precision);

}  // namespace cuckoo::internal
