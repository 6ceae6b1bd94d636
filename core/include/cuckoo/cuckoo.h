// cuckoo/cuckoo.h: the umbrella header. Include this.
//
// cuckoo is the cuckoo filter of Fan, Andersen, Kaminsky and Mitzenmacher, "Cuckoo Filter: Practically
// Better Than Bloom" (CoNEXT 2014): approximate set membership with no false negatives, a tunable
// false-positive rate, and deletion.
//
//   #include <cuckoo/cuckoo.h>
//   cuckoo::Options options;
//   options.capacity = 1'000'000;
//   options.fpr = 0.001;
//   cuckoo::CuckooFilter filter(options);
//   filter.insert("alice");            // true: stored
//   filter.contains("alice");          // true, always
//   filter.contains("bob");            // false, except with probability <= fpr
//   filter.erase("alice");             // true
//   std::vector<uint8_t> bytes = filter.serialize();
//   auto copy = cuckoo::CuckooFilter::deserialize(bytes.data(), bytes.size());
//
// Stability promises:
// - The key -> (bucket, fingerprint) mapping (docs/hashing.md) and the binary format (docs/format.md,
//   version kFormatVersion) are frozen; any change bumps the format version.
// - Same keys, options, seed and operation order give the same bytes on every platform (x86-64, WASM).
// Errors: impossible options throw std::invalid_argument; bad bytes throw cuckoo::FormatError.
#pragma once

#include "cuckoo/filter.h"
#include "cuckoo/format.h"
#include "cuckoo/options.h"
#include "cuckoo/view.h"
