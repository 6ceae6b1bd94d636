// cuckoo/options.h: what a user asks for (Options) and what the filter becomes (Config).
//
// Options speak in intent (capacity, false-positive rate); Config is the resolved, exact shape of the
// table (bucket size, fingerprint bits, bucket count). resolve() turns one into the other and is the only
// place sizing decisions are made, so the native build, the WASM build and the benchmark all size alike.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "cuckoo/export.h"

namespace cuckoo {

// Limits. Every Config satisfies them (see is_valid_config()).
inline constexpr unsigned kMinFingerprintBits = 4;
inline constexpr unsigned kMaxFingerprintBits = 32;
// The bucket index is a 32-bit fast-range reduction (see core/src/hash.h), so at most 2^32 buckets.
inline constexpr uint64_t kMaxBucketCount = uint64_t{1} << 32;
inline constexpr unsigned kDefaultMaxKicks = 500;
inline constexpr double kDefaultFpr = 0.01;
// A growing filter's first level holds this many items unless Options::capacity says otherwise.
inline constexpr uint64_t kDefaultInitialCapacity = 1024;

// The optional fields are unset by default, which picks the documented default; any value that is set is
// checked, so fpr = 0 or fingerprint_bits = 0 is an error, not a quiet "use the default". The
// "= std::nullopt" initialisers keep -Wmissing-field-initializers quiet for callers who use designated
// initialisers. One thing std::optional gives up: a brace initialiser does not reject narrowing into it,
// so .fingerprint_bits = 12.7 compiles (as 12), as an assignment does.
struct Options {
  // Number of items the filter must accept, at least 1. Required unless bucket_count is set or the filter
  // is growable; for a growable filter, the size of its first level (default kDefaultInitialCapacity).
  uint64_t capacity = 0;
  // Target false-positive rate in (0, 1). Set either fpr or fingerprint_bits; with neither, fpr = 0.01.
  // The fingerprint is the shortest meeting the paper's bound 2b / (2^f - 1) <= fpr, but never shorter
  // than min_fingerprint_bits_for_load(bucket_size). A growable filter keeps the rate at every size: its
  // first level's fingerprint is the shortest with 3.5 * 2b / (2^f - 1) <= fpr (docs/growth.md).
  std::optional<double> fpr = std::nullopt;
  // Fingerprint length in bits, 4..32. With semi_sort, each entry stores fingerprint_bits - 1 bits.
  std::optional<unsigned> fingerprint_bits = std::nullopt;
  // Entries per bucket: 2, 4 or 8.
  unsigned bucket_size = 4;
  // Relocations tried before an insert gives up (paper: 500); at most 2^20. It then parks the last victim
  // and the filter is full, or, for a fixed filter below the load it was sized for, undoes them and
  // refuses the key alone (filter.h, insert). Very few (0, 1, ...) make inserts fail well before
  // `capacity`.
  unsigned max_kicks = kDefaultMaxKicks;
  // Seeds the key hash and the relocation random walk. Same keys + options + seed = same bytes.
  uint64_t seed = 0;
  // Semi-sorted buckets (paper section 5.2): one bit less per entry, bucket_size 4 only.
  bool semi_sort = false;
  // Fraction of slots expected to be used at `capacity` items, in (0, 1]; unset picks a safe default per
  // bucket size (see default_target_load()). Lower values trade memory for faster inserts near capacity.
  std::optional<double> target_load = std::nullopt;
  // Advanced: the exact number of buckets, 1..2^32 (rounded up to even). Overrides capacity-based sizing.
  std::optional<uint64_t> bucket_count = std::nullopt;
  // Ask the kernel to back large tables with transparent huge pages (native Linux only; a hint).
  bool huge_pages = true;
  // A filter that grows instead of filling up (docs/growth.md): when its newest level is full, an insert
  // adds a level twice as large, with a few more fingerprint bits so that the false-positive rate stays
  // within fpr. Lookups and erases visit every level (newest first).
  bool growable = false;
  // Growable filters only: the most bytes their tables may take together; 0 = no limit. A growth past it
  // is refused, and inserts into the full filter return false.
  uint64_t max_memory_bytes = 0;
};

// The exact shape of a filter. Two filters with equal Configs hash and place keys identically.
struct Config {
  unsigned bucket_size = 4;
  unsigned fingerprint_bits = 12;
  bool semi_sort = false;
  unsigned max_kicks = kDefaultMaxKicks;
  uint64_t seed = 0;
  uint64_t bucket_count = 2;
  bool huge_pages = true;
  // A growing filter: bucket_size, fingerprint_bits and bucket_count describe its level 0.
  bool growable = false;
  uint64_t max_memory_bytes = 0;

  uint64_t slot_count() const { return bucket_count * bucket_size; }
  // Bits stored per entry: fingerprint_bits, or one less when semi-sorted.
  unsigned bits_per_entry() const { return semi_sort ? fingerprint_bits - 1 : fingerprint_bits; }
  // Bits per bucket in the table (and in the serialized format).
  uint64_t bits_per_bucket() const { return uint64_t{bits_per_entry()} * bucket_size; }
  // Bytes of the packed table: ceil(bucket_count * bits_per_bucket / 8).
  uint64_t table_bytes() const { return (bucket_count * bits_per_bucket() + 7) / 8; }
};

// Every option, in one order: Option's, the WebAssembly binding's (bit i of cuckoo_create's mask, the
// parameters after it: wasm/bindings.cpp) and js/options.js's kOptions (js-tests/protocol.test.js checks
// it). X(the Options field, its name in the npm package). Adding an option to Options adds it here.
#define CUCKOO_OPTIONS(X)              \
  X(capacity, capacity)                \
  X(fpr, fpr)                          \
  X(fingerprint_bits, fingerprintBits) \
  X(bucket_size, bucketSize)           \
  X(max_kicks, maxKicks)               \
  X(seed, seed)                        \
  X(semi_sort, semiSort)               \
  X(target_load, targetLoad)           \
  X(bucket_count, bucketCount)         \
  X(growable, growable)                \
  X(max_memory_bytes, maxMemoryBytes)

// An option, by its Options field.
enum class Option : unsigned {
#define CUCKOO_OPTION_ENUMERATOR(field, js_name) field,
  CUCKOO_OPTIONS(CUCKOO_OPTION_ENUMERATOR)
#undef CUCKOO_OPTION_ENUMERATOR
};
#define CUCKOO_OPTION_ONE(field, js_name) +1
inline constexpr unsigned kOptionCount = 0 CUCKOO_OPTIONS(CUCKOO_OPTION_ONE);
#undef CUCKOO_OPTION_ONE

// How a front end names each option in its messages, indexed by Option (a command line: "--bucket-size").
using OptionSpelling = std::array<const char*, kOptionCount>;
// C++'s names, the Options fields ("bucket_size"): how what() names them.
CUCKOO_API const OptionSpelling& cpp_option_spelling();

// An impossible option, as resolve() and fingerprint_bits_for() report it: which option (option()), the
// value it was given, as text ("3", "1e-12", "true"), and the message: what() names the options as C++
// does, message(spelling) as a front end does, so that a command line can name its flags without
// rewriting the text. A std::invalid_argument, so code that catches that still does.
class CUCKOO_API OptionError : public std::invalid_argument {
 public:
  // `text`: the message, without "cuckoo: ", naming option o as placeholder(o).
  OptionError(Option option, std::string value, std::string text);
  Option option() const noexcept { return option_; }
  const std::string& value() const noexcept { return value_; }
  // "cuckoo: " and the message, naming each option o as spelling[o]; what() is message(cpp_option_spelling()).
  std::string message(const OptionSpelling& spelling) const;
  // How `text` names option o: the two bytes "\x1f" and 'A' + o.
  static std::string placeholder(Option option);

 private:
  Option option_;
  std::string value_;
  std::string text_;
};

// Checks a Config against the limits above; on failure returns false and, if `why` is given, names the
// offending field. Used by resolve() and by the deserializer before it trusts a header.
CUCKOO_API bool is_valid_config(const Config& config, std::string* why = nullptr);

// Default target load for a bucket size and fingerprint width: a little under the loads measured at the
// first failure (paper: b=2: 84%, b=4: 95%, b=8: 98%; much less for short fingerprints on large tables), so
// that `capacity` distinct items fit. resolve() adds 2 sqrt(buckets) of slack for small tables. This is a
// probability, not a promise: a key set can be one that no placement holds (rarely, and only seen at
// b = 2: bench/README.md); then a fingerprint is parked in the victim slot, later inserts return false
// before `capacity`, and nothing inserted is lost.
// For fingerprints shorter than min_fingerprint_bits_for_load() (only by explicit fingerprint_bits) the
// targets are low (b=2: 0.05 at f=4 to 0.55 at f=7), and tables larger than those measured
// (bench/README.md) may refuse inserts before `capacity`.
CUCKOO_API double default_target_load(unsigned bucket_size, unsigned fingerprint_bits = 12);

// Shortest fingerprint resolve() picks from an fpr (b=2: 8, b=4: 6, b=8: 5 bits): shorter ones jam large
// tables far below the paper's loads. An explicit Options::fingerprint_bits may still go down to 4.
CUCKOO_API unsigned min_fingerprint_bits_for_load(unsigned bucket_size);

// Smallest fingerprint that keeps the false-positive bound 2b / (2^f - 1) at or below fpr (4..32).
// Throws OptionError if bucket_size is not 2, 4 or 8, fpr is outside (0, 1) or needs more than 32 bits.
CUCKOO_API unsigned fingerprint_bits_for(double fpr, unsigned bucket_size);

// Options -> Config. Throws OptionError naming the option on impossible input (bucket_size 3,
// fingerprint_bits 0 or 40, capacity 0, fpr outside (0,1), target_load outside (0,1], sizes that
// overflow, ...). The one check of options for every front end: the WebAssembly binding calls it too
// (core/src/option_names.h), naming the options as JS does.
CUCKOO_API Config resolve(const Options& options);

// Upper bound of the false-positive rate of a full filter with this Config: 1 - (1 - 1/(2^f-1))^(2b). For a
// growable Config, the sum of that bound over every level it can grow to (CuckooFilter's member
// false_positive_bound() gives the bound for the levels it has). Throws OptionError if
// fingerprint_bits is outside 4..32.
CUCKOO_API double false_positive_bound(const Config& config);

}  // namespace cuckoo
