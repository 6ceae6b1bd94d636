// core/src/option_names.h: the option rules for every front end. resolve() is the one place that checks
// Options (ranges, defaults, combinations) and words the errors; these entry points give a front end that
// names options its own way (the WebAssembly binding: maxKicks for max_kicks) the same checks and the same
// messages.
//
// A message names each option through a table (OptionSpelling). The public resolve() passes
// kMessageNames: placeholders, which the cuckoo::OptionError thrown spells, what() as C++ does and
// message(spelling) as a front end does. The web WebAssembly module, built for size
// (CUCKOO_PLAIN_OPTION_ERRORS), has no OptionError: its binding passes the names JS uses, and a refused
// option is a plain std::invalid_argument with that text.
#pragma once

#include <string>

#include "cuckoo/options.h"

namespace cuckoo::internal {

// C++'s names, the Options field names.
extern const OptionSpelling kCppOptionNames;

// How the public resolve() names options in its messages: OptionError's placeholders (C++'s names where
// CUCKOO_PLAIN_OPTION_ERRORS).
#if CUCKOO_PLAIN_OPTION_ERRORS
inline constexpr const OptionSpelling& kMessageNames = kCppOptionNames;
#else
extern const OptionSpelling kPlaceholderNames;
inline constexpr const OptionSpelling& kMessageNames = kPlaceholderNames;
#endif

// An option's index in an OptionSpelling.
constexpr unsigned index(Option option) { return static_cast<unsigned>(option); }

// resolve() with its messages naming options as `names` does. Options reads a capacity of 0 as "not
// given"; a front end that can tell a given 0 from a missing capacity passes capacity_given, and a given
// 0 is then refused as out of range, as it is for every other option.
Config resolve(const Options& options, const OptionSpelling& names, bool capacity_given);

}  // namespace cuckoo::internal
