// core/src/options.cpp: sizing. Options (intent) -> Config (exact table shape), and Config validation.
#include "cuckoo/options.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>

#include "bits.h"
#include "decimal.h"
#include "hash.h"
#include "level_hasher.h"
#include "option_names.h"

namespace cuckoo {

const internal::OptionNames internal::kCppOptionNames = {
    "capacity",
    "fpr",
    "fingerprint_bits",
    "bucket_size",
    "max_kicks",
    "seed",
    "semi_sort",
    "target_load",
    "bucket_count",
    "growable",
    "max_memory_bytes",
};

namespace {
using internal::OptionNames;
constexpr unsigned kMaxMaxKicks = 1u << 20;  // beyond this a full filter's insert would take seconds
[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument("cuckoo: " + message); }

bool bucket_size_ok(unsigned b, std::string* why, const OptionNames& names) {
  if (b == 2 || b == 4 || b == 8) return true;
  if (why) *why = std::string(names[internal::kBucketSize]) + " must be 2, 4 or 8 (got " + std::to_string(b) + ")";
  return false;
}

void require_bucket_size(unsigned b, const OptionNames& names) {
  std::string why;
  if (!bucket_size_ok(b, &why, names)) fail(why);
}

// A double as a user would write it: std::to_string prints fixed 6 decimals, so fpr 1e-12 read "0.000000".
// 6 significant digits for a figure we computed (approximate = true); for a value the user gave, the
// fewest (6 or more) that read back as it: at a fixed 6, target_load 1.0000001 would be refused as "must
// be in (0, 1] (got 1)". The text is printf's "%.*g" (decimal.h writes it without printf).
std::string show(double value, bool approximate = false) {
  int digits = 6;
  while (!approximate && digits < 17 && !internal::reads_back(value, digits)) ++digits;
  return internal::format_general(value, digits);
}
// The one check of a fingerprint width, for Options, Config and false_positive_bound alike.
bool fingerprint_bits_ok(unsigned f, std::string* why, const OptionNames& names) {
  if (f >= kMinFingerprintBits && f <= kMaxFingerprintBits) return true;
  if (why) *why = std::string(names[internal::kFingerprintBits]) + " must be in 4..32 (got " + std::to_string(f) + ")";
  return false;
}

void require_fingerprint_bits(unsigned f, const OptionNames& names) {
  std::string why;
  if (!fingerprint_bits_ok(f, &why, names)) fail(why);
}

void require_fpr(double fpr, const OptionNames& names) {
  if (!(fpr > 0.0 && fpr < 1.0)) fail(std::string(names[internal::kFpr]) + " must be in (0, 1) (got " + show(fpr) + ")");
}
}  // namespace

// What a table too large for size_t exceeds. Only a 32-bit build can get there (a table has at most 2^32
// buckets of 32 bytes), and the one this repo makes is wasm32, whose address space is WebAssembly memory.
#ifdef __EMSCRIPTEN__
constexpr char kAddressSpace[] = "the 4 GiB of WebAssembly memory";
#else
constexpr char kAddressSpace[] = "this platform's address space";
#endif

bool is_valid_config(const Config& c, std::string* why) {
  return internal::is_valid_config(c, why, internal::kCppOptionNames);
}

bool internal::is_valid_config(const Config& c, std::string* why, const OptionNames& names) {
  auto reject = [why](const std::string& message) {
    if (why) *why = message;
    return false;
  };
  auto name = [&names](OptionName option) { return std::string(names[option]); };
  if (!bucket_size_ok(c.bucket_size, why, names)) return false;
  if (!fingerprint_bits_ok(c.fingerprint_bits, why, names)) return false;
  if (c.semi_sort && c.bucket_size != 4)
    return reject(name(kSemiSort) + " requires " + name(kBucketSize) + " 4 (got " + std::to_string(c.bucket_size) + ")");
  if (c.max_kicks > kMaxMaxKicks)
    return reject(name(kMaxKicks) + " must be at most " + std::to_string(kMaxMaxKicks) + " (got " +
                  std::to_string(c.max_kicks) + ")");
  static_assert(internal::kMaxGrowableFingerprintBits == 28 && internal::kMinLevelLimit == 16, "the messages");
  if (c.growable && c.fingerprint_bits > internal::kMaxGrowableFingerprintBits)
    return reject("a growable filter's " + name(kFingerprintBits) + " must be at most 28 (got " +
                  std::to_string(c.fingerprint_bits) + "): its levels add bits to it, up to 16 levels");
  if (!c.growable && c.max_memory_bytes != 0)
    return reject(name(kMaxMemoryBytes) + " applies to growable filters only");
  if (!is_valid_bucket_count(c.bucket_count))
    return reject(name(kBucketCount) + " must be even and in 2..2^32 (got " + std::to_string(c.bucket_count) + ")");
  if (c.table_bytes() > std::numeric_limits<size_t>::max() - kTablePadding - 4096)
    return reject("a table of " + std::to_string(c.bucket_count) + " buckets (" + std::to_string(c.table_bytes()) +
                  " bytes) exceeds " + kAddressSpace);
  if (c.max_memory_bytes != 0 && c.table_bytes() > c.max_memory_bytes)
    return reject(name(kMaxMemoryBytes) + " " + std::to_string(c.max_memory_bytes) + " is less than the first level's " +
                  std::to_string(c.table_bytes()) + "-byte table");
  return true;
}

double default_target_load(unsigned bucket_size, unsigned fingerprint_bits) {
  // Measured fill-to-failure loads (native-tests/load_test.cpp, bench Figure 2; the lowest of several seeds)
  // minus a margin. Short fingerprints fill less, and less the larger the table: with 2^f - 1 fingerprint
  // values a bucket has only that many partner buckets, so keys pile onto the same pairs, and the chance
  // that some cluster of buckets jams grows with the table. At b = 2 the lowest first-failure loads seen on
  // 2^24 and 2^26 buckets were f = 4: 0.148, 0.122; f = 5: 0.296, 0.315; f = 6: 0.286, 0.466; f = 7: 0.707,
  // 0.677 (f = 8: 0.862), where 2^16 buckets reach 0.43-0.86; and sized for 16 M keys with targets of 0.20,
  // f = 5 and 6 still jammed at loads 0.126 and 0.18 in 1 of 8 seeds. The b = 2 targets below took 4 M and
  // 16 M keys in 8 of 8 seeds for every f; beyond that, these short widths may refuse keys before
  // `capacity`: no fixed target is safe at every size. resolve() never picks them on its own (see
  // min_fingerprint_bits_for_load()); they are here for callers who set fingerprint_bits.
  const unsigned f = fingerprint_bits;
  switch (bucket_size) {
    case 2:
      return f == 4 ? 0.05 : f == 5 ? 0.10
                         : f == 6   ? 0.12
                         : f == 7   ? 0.55
                                    : 0.82;
    case 8:
      return f == 4 ? 0.85 : f == 5 ? 0.92
                         : f <= 7   ? 0.95
                                    : 0.97;
    default:
      return f == 4 ? 0.60 : f == 5 ? 0.85
                         : f <= 7   ? 0.90
                                    : 0.94;
  }
}

unsigned min_fingerprint_bits_for_load(unsigned bucket_size) {
  // The shortest fingerprint whose fill-to-failure load stays within a few percent of the paper's figure as
  // tables grow (measured on 2^20 and 2^23 buckets: b = 2, f = 8: 0.86; b = 4, f = 6: 0.95; b = 8, f = 5:
  // 0.97). One more bit costs ~8-15% of memory; a shorter one can cost half the table's capacity.
  switch (bucket_size) {
    case 2:
      return 8;
    case 8:
      return 5;
    default:
      return 6;
  }
}

namespace {
// fingerprint_bits_for() with its messages naming options as `names` spells them.
unsigned fixed_fingerprint_bits_for(double fpr, unsigned bucket_size, const OptionNames& names) {
  require_bucket_size(bucket_size, names);
  require_fpr(fpr, names);
  for (unsigned f = kMinFingerprintBits; f <= kMaxFingerprintBits; ++f) {
    if (2.0 * bucket_size / (std::ldexp(1.0, static_cast<int>(f)) - 1.0) <= fpr) return f;
  }
  fail(std::string(names[internal::kFpr]) + " " + show(fpr) + " needs more than 32 fingerprint bits");
}

// The first level's fingerprint of a growable filter: the shortest whose bound over every level it can
// grow to, kLevelBoundFactor * 2b / (2^f - 1), is within fpr.
unsigned growable_fingerprint_bits_for(double fpr, unsigned bucket_size, const OptionNames& names) {
  require_bucket_size(bucket_size, names);
  require_fpr(fpr, names);
  for (unsigned f = kMinFingerprintBits; f <= internal::kMaxGrowableFingerprintBits; ++f) {
    if (internal::kLevelBoundFactor * 2.0 * bucket_size / (std::ldexp(1.0, static_cast<int>(f)) - 1.0) <= fpr)
      return f;
  }
  fail(std::string(names[internal::kFpr]) + " " + show(fpr) +
       " is too small for a growable filter, which must have room for 16 levels; use a fixed filter");
}
}  // namespace

unsigned fingerprint_bits_for(double fpr, unsigned bucket_size) {
  return fixed_fingerprint_bits_for(fpr, bucket_size, internal::kCppOptionNames);
}

Config resolve(const Options& options) { return internal::resolve(options, internal::kCppOptionNames, false); }

Config internal::resolve(const Options& o, const OptionNames& names, bool capacity_given) {
  auto name = [&names](OptionName option) { return std::string(names[option]); };
  Config c;
  c.bucket_size = o.bucket_size;
  c.semi_sort = o.semi_sort;
  c.max_kicks = o.max_kicks;
  c.seed = o.seed;
  c.huge_pages = o.huge_pages;
  c.growable = o.growable;
  c.max_memory_bytes = o.max_memory_bytes;
  if (!o.growable && o.max_memory_bytes != 0) fail(name(kMaxMemoryBytes) + " applies to growable filters only");

  require_bucket_size(o.bucket_size, names);
  if (o.fpr && o.fingerprint_bits)
    fail("set either " + name(kFpr) + " or " + name(kFingerprintBits) + ", not both (got " + name(kFpr) + " " +
         show(*o.fpr) + " and " + name(kFingerprintBits) + " " + std::to_string(*o.fingerprint_bits) + ")");
  if (o.fingerprint_bits) {
    require_fingerprint_bits(*o.fingerprint_bits, names);
    c.fingerprint_bits = *o.fingerprint_bits;
  } else {
    // A large fpr would allow fingerprints so short that the table jams far below its target load; a
    // longer one only lowers the false-positive rate.
    const double fpr = o.fpr.value_or(kDefaultFpr);
    c.fingerprint_bits = std::max(o.growable ? growable_fingerprint_bits_for(fpr, o.bucket_size, names)
                                             : fixed_fingerprint_bits_for(fpr, o.bucket_size, names),
                                  min_fingerprint_bits_for_load(o.bucket_size));
  }

  // Checked even when bucket_count makes it unused: a NaN or 5 is a mistake either way.
  if (o.target_load && !(*o.target_load > 0.0 && *o.target_load <= 1.0))
    fail(name(kTargetLoad) + " must be in (0, 1] (got " + show(*o.target_load) + ")");
  const auto no_capacity = [&] { fail(name(kCapacity) + " must be at least 1 (got 0)"); };
  if (capacity_given && o.capacity == 0) no_capacity();
  if (o.bucket_count) {
    if (*o.bucket_count == 0) fail(name(kBucketCount) + " must be at least 1 (got 0)");
    if (*o.bucket_count > kMaxBucketCount)
      fail(name(kBucketCount) + " must be at most 2^32 (got " + std::to_string(*o.bucket_count) + ")");
    c.bucket_count = *o.bucket_count + (*o.bucket_count & 1);
  } else {
    const uint64_t capacity = o.capacity == 0 && o.growable ? kDefaultInitialCapacity : o.capacity;
    if (capacity == 0) no_capacity();
    const double load = o.target_load.value_or(default_target_load(o.bucket_size, c.fingerprint_bits));
    // Name target_load when the user set it: a tiny one, not the capacity, is then what overflows.
    auto too_many = [&] {
      // The largest capacity that resolves: m + 2 sqrt(m) buckets of slack must stay within 2^32.
      const double max_buckets = static_cast<double>(kMaxBucketCount);
      const double most = std::floor((max_buckets - 2.0 * std::sqrt(max_buckets) - 2.0) * o.bucket_size * load);
      const bool default_load = !o.target_load;
      return name(kCapacity) + " " + std::to_string(capacity) +
             (default_load ? "" : " at " + name(kTargetLoad) + " " + show(load)) +
             " needs more than 2^32 buckets (with " + name(kBucketSize) + " " + std::to_string(o.bucket_size) +
             (default_load ? " and the default " : " and this ") + name(kTargetLoad) + ", the most is about " +
             show(most, /*approximate=*/true) + ")";
    };
    double buckets = std::ceil(static_cast<double>(capacity) / (o.bucket_size * load));
    // The load a table fills to before the first failure varies more the smaller the table (its spread
    // shrinks like 1/sqrt(buckets)), so add 2 sqrt(buckets) of slack: tiny filters take their capacity
    // too (almost always: in a soak of 1.16 M random small filters, 7 with b = 2 and 38-129 keys got a
    // key set that no placement could hold and filled early), and from 10^6 items on the slack is under
    // 0.5% of the memory.
    buckets += std::ceil(2.0 * std::sqrt(buckets));
    if (buckets > static_cast<double>(kMaxBucketCount)) fail(too_many());
    uint64_t n = static_cast<uint64_t>(buckets);
    n = n < 2 ? 2 : n + (n & 1);
    if (n > kMaxBucketCount) fail(too_many());
    c.bucket_count = n;
  }

  std::string why;
  if (!internal::is_valid_config(c, &why, names)) fail(why);
  return c;
}

namespace {
// 1 - (1 - p)^(2b): the chance that one of a key's 2b entries matches it, each with probability p.
double match_bound(double p, unsigned bucket_size) {
  // 1 - (1 - p)^(2b) = p * (1 + x + ... + x^(2b - 1)) with x = 1 - p: only +, * and /, which IEEE
  // arithmetic rounds the same everywhere, so the native and the WASM build (JS's fprBound) give the same
  // double whatever their libm (with pow, native and JS differed in the last bit at b = 4, f = 5). It is
  // also within 4 ulp for long fingerprints, where 1 - pow(1 - p, 2b) cancels (up to 7.5e-9 relative error).
  const double x = 1.0 - p;
  double sum = 0.0;
  double power = 1.0;
  for (unsigned k = 0; k < 2 * bucket_size; ++k) {
    sum += power;
    power *= x;
  }
  return p * sum;
}
}  // namespace

double internal::level_false_positive_bound(const Config& growing, unsigned levels) {
  // Level s's fingerprints take (2^f0 - 1) * 2^d_s values (fp0 >= 1, any extra bits), equally likely.
  const double fp0_values = std::ldexp(1.0, static_cast<int>(growing.fingerprint_bits)) - 1.0;
  double sum = 0.0;
  for (unsigned s = 0; s < levels; ++s) {
    const double values = std::ldexp(fp0_values, static_cast<int>(internal::level_extra_bits(s)));
    sum += match_bound(1.0 / values, growing.bucket_size);
  }
  return sum;
}

double false_positive_bound(const Config& c) {
  require_fingerprint_bits(c.fingerprint_bits, internal::kCppOptionNames);
  if (c.growable) return internal::level_false_positive_bound(c, internal::level_limit(c));
  return match_bound(1.0 / (std::ldexp(1.0, static_cast<int>(c.fingerprint_bits)) - 1.0), c.bucket_size);
}

}  // namespace cuckoo
