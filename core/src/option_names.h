// core/src/option_names.h: the option rules for every front end. resolve() is the one place that checks
// Options (ranges, defaults, combinations) and words the errors (OptionError); these entry points give a
// front end that spells options its own way (the WebAssembly binding: maxKicks for max_kicks) the same
// checks, and OptionError::message() the same messages, naming each option as its users write it.
#pragma once

#include <optional>

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

static_assert(kOptionNameCount == kOptionCount && kMaxMemoryBytes == static_cast<unsigned>(Option::max_memory_bytes),
              "OptionName and cuckoo::Option list the options in the same order");

// How a front end spells each option, indexed by OptionName.
using OptionNames = OptionSpelling;

// C++'s spelling, the Options field names: what the public resolve() and is_valid_config() say.
extern const OptionNames kCppOptionNames;

// resolve(). Options reads a capacity of 0 as "not given"; a front end that can tell a given 0 from a
// missing capacity passes capacity_given, and a given 0 is then refused as out of range, as it is for
// every other option. Its OptionError's message(spelling) names the options as the front end spells them.
Config resolve(const Options& options, bool capacity_given);

// The first limit `config` breaks (is_valid_config()), as the error resolve() throws for it.
std::optional<OptionError> config_error(const Config& config);

}  // namespace cuckoo::internal
