// core/src/option_names.h: the option rules for every front end. resolve() is the one place that checks
// Options (ranges, defaults, combinations) and words the errors; these entry points let a front end that
// spells options its own way (the WebAssembly binding: maxKicks for max_kicks) have the same checks and
// the same messages, naming each option as its users write it.
#pragma once

#include <array>
#include <string>

#include "cuckoo/options.h"

namespace cuckoo::internal {

// The Options fields that messages name. The WebAssembly binding's mask of given options uses the same
// order (bit i: option i; wasm/bindings.cpp, js/options.js).
enum OptionName : unsigned {
  kCapacity,
  kFpr,
  kFingerprintBits,
  kBucketSize,
  kMaxKicks,
  kSeed,
  kSemiSort,
  kTargetLoad,
  kBucketCount,
  kGrowable,
  kMaxMemoryBytes,
  kOptionNameCount,
};

// How a front end spells each option, indexed by OptionName.
using OptionNames = std::array<const char*, kOptionNameCount>;

// C++'s spelling, the Options field names: what the public resolve() and is_valid_config() say.
extern const OptionNames kCppOptionNames;

// resolve() with its messages naming options as `names` spells them. Options reads a capacity of 0 as
// "not given"; a front end that can tell a given 0 from a missing capacity passes capacity_given, and a
// given 0 is then refused as out of range, as it is for every other option.
Config resolve(const Options& options, const OptionNames& names, bool capacity_given);

// is_valid_config() with its messages naming fields as `names` spells them.
bool is_valid_config(const Config& config, std::string* why, const OptionNames& names);

}  // namespace cuckoo::internal
