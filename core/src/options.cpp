// core/src/options.cpp: sizing. Options (intent) -> Config (exact table shape), and Config validation.
#include "cuckoo/options.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <utility>

#include "bits.h"
#include "decimal.h"
#include "hash.h"
#include "level_hasher.h"
#include "option_names.h"

namespace cuckoo {

#define CUCKOO_OPTION_CPP_NAME(field, js_name) #field,
const OptionSpelling internal::kCppOptionNames = {CUCKOO_OPTIONS(CUCKOO_OPTION_CPP_NAME)};
#undef CUCKOO_OPTION_CPP_NAME

const OptionSpelling& cpp_option_spelling() { return internal::kCppOptionNames; }

#if !CUCKOO_PLAIN_OPTION_ERRORS
namespace {
constexpr char kPlaceholders[kOptionCount][3] = {
#define CUCKOO_OPTION_PLACEHOLDER(field, js_name) {'\x1f', static_cast<char>('A' + internal::index(Option::field)), '\0'},
    CUCKOO_OPTIONS(CUCKOO_OPTION_PLACEHOLDER)
#undef CUCKOO_OPTION_PLACEHOLDER
};
template <size_t... I>
constexpr OptionSpelling placeholders(std::index_sequence<I...>) {
  return {kPlaceholders[I]...};
}
}  // namespace
const OptionSpelling internal::kPlaceholderNames = placeholders(std::make_index_sequence<kOptionCount>());
#endif

std::string OptionError::placeholder(Option option) { return internal::kMessageNames[internal::index(option)]; }

namespace {
// `text` with each placeholder replaced by the option's name in `spelling`.
std::string spell(const std::string& text, const OptionSpelling& spelling) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool marked = text[i] == '\x1f' && i + 1 < text.size();
    const unsigned option = marked ? static_cast<unsigned>(text[i + 1] - 'A') : kOptionCount;
    if (option < kOptionCount) {
      out += spelling[option];
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}
}  // namespace

OptionError::OptionError(Option option, std::string value, std::string text)
    : std::invalid_argument("cuckoo: " + spell(text, internal::kCppOptionNames)),
      option_(option),
      value_(std::move(value)),
      text_(std::move(text)) {}

std::string OptionError::message(const OptionSpelling& spelling) const { return "cuckoo: " + spell(text_, spelling); }

// In internal rather than an unnamed namespace: check_config() takes them and is an ordinary function of
// the library (one with internal linkage would be emitted after the others, and lay out the web module's
// constants differently).
namespace internal {
// The value an OptionError reports for an option, kept as the number until the error is made.
struct Given {
  Given(uint64_t n) : integer(n) {}
  Given(unsigned n) : integer(n) {}
  Given(double x) : kind(kReal), real(x) {}
  Given(bool on) : kind(kFlag), integer(on) {}
  // As the messages write it: "3", "1e-12", "true".
  std::string text() const;

  enum Kind : unsigned char {
    kInteger,
    kReal,
    kFlag,
  };
  Kind kind = kInteger;
  uint64_t integer = 0;
  double real = 0;
};

#if CUCKOO_PLAIN_OPTION_ERRORS
// Nothing reports which option and value an error is about: empty, so passing them costs nothing.
struct Unreported {
  template <typename T>
  constexpr Unreported(T) {}
};
using Blamed = Unreported;
using Value = Unreported;
#else
using Blamed = Option;
using Value = Given;
#endif

// Where check_config() reports which field of a Config is at fault: nowhere (a default Report), or into
// *option, with its value into *value.
struct Report {
#if CUCKOO_PLAIN_OPTION_ERRORS
  void operator()(Blamed, const Config&) const {}
#else
  Option* option = nullptr;
  Given* value = nullptr;
  void operator()(Option field, const Config& c) const;
#endif
};

bool check_config(const Config& c, std::string* why, const OptionSpelling& names, Report report);
}  // namespace internal

namespace {
using internal::Blamed;
using internal::Given;
using internal::index;
using internal::Report;
using internal::Value;
constexpr unsigned kMaxMaxKicks = 1u << 20;  // beyond this a full filter's insert would take seconds

// Throws the error for an impossible option: which one, the value it was given, and the message (naming
// options as the caller's table does). The web module's is a plain std::invalid_argument.
[[noreturn]] void fail(Blamed option, Value value, const std::string& message) {
#if CUCKOO_PLAIN_OPTION_ERRORS
  static_cast<void>(option), static_cast<void>(value);
  throw std::invalid_argument("cuckoo: " + message);
#else
  throw OptionError(option, value.text(), message);
#endif
}

bool bucket_size_ok(unsigned b, std::string* why, const OptionSpelling& names) {
  if (b == 2 || b == 4 || b == 8) return true;
  if (why) *why = std::string(names[index(Option::bucket_size)]) + " must be 2, 4 or 8 (got " + std::to_string(b) + ")";
  return false;
}

void require_bucket_size(unsigned b, const OptionSpelling& names) {
  std::string why;
  if (!bucket_size_ok(b, &why, names)) fail(Option::bucket_size, b, why);
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

}  // namespace

std::string Given::text() const {
  switch (kind) {
    case kReal:
      return show(real);
    case kFlag:
      return integer != 0 ? "true" : "false";
    default:
      return std::to_string(integer);
  }
}

namespace {

// The one check of a fingerprint width, for Options, Config and false_positive_bound alike.
bool fingerprint_bits_ok(unsigned f, std::string* why, const OptionSpelling& names) {
  if (f >= kMinFingerprintBits && f <= kMaxFingerprintBits) return true;
  if (why) *why = std::string(names[index(Option::fingerprint_bits)]) + " must be in 4..32 (got " + std::to_string(f) + ")";
  return false;
}

void require_fingerprint_bits(unsigned f, const OptionSpelling& names) {
  std::string why;
  if (!fingerprint_bits_ok(f, &why, names)) fail(Option::fingerprint_bits, f, why);
}

void require_fpr(double fpr, const OptionSpelling& names) {
  if (!(fpr > 0.0 && fpr < 1.0))
    fail(Option::fpr, fpr, std::string(names[index(Option::fpr)]) + " must be in (0, 1) (got " + show(fpr) + ")");
}
}  // namespace

// What a table too large for size_t exceeds. Only a 32-bit build can get there (a table has at most 2^32
// buckets of 32 bytes), and the one this repo makes is wasm32, whose address space is WebAssembly memory.
#ifdef __EMSCRIPTEN__
constexpr char kAddressSpace[] = "the 4 GiB of WebAssembly memory";
#else
constexpr char kAddressSpace[] = "this platform's address space";
#endif

// is_valid_config() with its messages naming fields as `names` does; report(field, value) says which
// field is at fault.
bool internal::check_config(const Config& c, std::string* why, const OptionSpelling& names, Report report) {
  auto reject = [why, report, &c](Blamed field, const std::string& message) {
    if (why) *why = message;
    report(field, c);
    return false;
  };
  auto name = [&names](Option option) { return std::string(names[index(option)]); };
  if (!bucket_size_ok(c.bucket_size, why, names)) {
    report(Option::bucket_size, c);
    return false;
  }
  if (!fingerprint_bits_ok(c.fingerprint_bits, why, names)) {
    report(Option::fingerprint_bits, c);
    return false;
  }
  if (c.semi_sort && c.bucket_size != 4)
    return reject(Option::semi_sort,
                  name(Option::semi_sort) + " requires " + name(Option::bucket_size) + " 4 (got " +
                      std::to_string(c.bucket_size) + ")");
  if (c.max_kicks > kMaxMaxKicks)
    return reject(Option::max_kicks,
                  name(Option::max_kicks) + " must be at most " + std::to_string(kMaxMaxKicks) + " (got " +
                      std::to_string(c.max_kicks) + ")");
  static_assert(internal::kMaxGrowableFingerprintBits == 28 && internal::kMinLevelLimit == 16, "the messages");
  if (c.growable && c.fingerprint_bits > internal::kMaxGrowableFingerprintBits)
    return reject(Option::fingerprint_bits,
                  "a growable filter's " + name(Option::fingerprint_bits) + " must be at most 28 (got " +
                      std::to_string(c.fingerprint_bits) + "): its levels add bits to it, up to 16 levels");
  if (!c.growable && c.max_memory_bytes != 0)
    return reject(Option::max_memory_bytes,
                  name(Option::max_memory_bytes) + " applies to growable filters only");
  if (!internal::is_valid_bucket_count(c.bucket_count))
    return reject(Option::bucket_count,
                  name(Option::bucket_count) + " must be even and in 2..2^32 (got " + std::to_string(c.bucket_count) + ")");
  if (c.table_bytes() > std::numeric_limits<size_t>::max() - internal::kTablePadding - 4096)
    return reject(Option::bucket_count,
                  "a table of " + std::to_string(c.bucket_count) + " buckets (" + std::to_string(c.table_bytes()) +
                      " bytes) exceeds " + kAddressSpace);
  if (c.max_memory_bytes != 0 && c.table_bytes() > c.max_memory_bytes)
    return reject(Option::max_memory_bytes,
                  name(Option::max_memory_bytes) + " " + std::to_string(c.max_memory_bytes) +
                      " is less than the first level's " + std::to_string(c.table_bytes()) + "-byte table");
  return true;
}

#if !CUCKOO_PLAIN_OPTION_ERRORS
void internal::Report::operator()(Option field, const Config& c) const {
  if (option) *option = field;
  if (!value) return;
  switch (field) {
    case Option::bucket_size:
      *value = c.bucket_size;
      break;
    case Option::fingerprint_bits:
      *value = c.fingerprint_bits;
      break;
    case Option::semi_sort:
      *value = c.semi_sort;
      break;
    case Option::max_kicks:
      *value = c.max_kicks;
      break;
    case Option::max_memory_bytes:
      *value = c.max_memory_bytes;
      break;
    default:
      *value = c.bucket_count;
  }
}
#endif

bool is_valid_config(const Config& c, std::string* why) {
  return check_config(c, why, internal::kCppOptionNames, Report{});
}

double default_target_load(unsigned bucket_size, unsigned fingerprint_bits) {
  // The lowest fill-to-failure loads measured for each shape, minus a margin (bench/README.md, "Figures
  // behind the core's design choices"). Short fingerprints fill less, and less the larger the table: with
  // 2^f - 1 fingerprint values a bucket has only that many partner buckets, so keys pile onto the same
  // pairs, and the chance that some cluster of buckets jams grows with the table. No fixed target for the
  // widths below min_fingerprint_bits_for_load() is safe at every size: past the sizes measured, they may
  // refuse keys before `capacity`. resolve() never picks them on its own; they are here for callers who
  // set fingerprint_bits.
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
  // tables grow (bench/README.md, "Figures behind the core's design choices"); a shorter one can cost half
  // the table's capacity.
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
unsigned fixed_fingerprint_bits_for(double fpr, unsigned bucket_size, const OptionSpelling& names) {
  require_bucket_size(bucket_size, names);
  require_fpr(fpr, names);
  for (unsigned f = kMinFingerprintBits; f <= kMaxFingerprintBits; ++f) {
    if (2.0 * bucket_size / (std::ldexp(1.0, static_cast<int>(f)) - 1.0) <= fpr) return f;
  }
  fail(Option::fpr, fpr, std::string(names[index(Option::fpr)]) + " " + show(fpr) + " needs more than 32 fingerprint bits");
}

// The first level's fingerprint of a growable filter: the shortest whose bound over every level it can
// grow to, kLevelBoundFactor * 2b / (2^f - 1), is within fpr.
unsigned growable_fingerprint_bits_for(double fpr, unsigned bucket_size, const OptionSpelling& names) {
  require_bucket_size(bucket_size, names);
  require_fpr(fpr, names);
  for (unsigned f = kMinFingerprintBits; f <= internal::kMaxGrowableFingerprintBits; ++f) {
    if (internal::kLevelBoundFactor * 2.0 * bucket_size / (std::ldexp(1.0, static_cast<int>(f)) - 1.0) <= fpr)
      return f;
  }
  fail(Option::fpr, fpr,
       std::string(names[index(Option::fpr)]) + " " + show(fpr) + " is too small for a growable filter, which must have room for 16 levels; use a fixed filter");
}
}  // namespace

unsigned fingerprint_bits_for(double fpr, unsigned bucket_size) {
  return fixed_fingerprint_bits_for(fpr, bucket_size, internal::kMessageNames);
}

Config resolve(const Options& options) { return internal::resolve(options, internal::kMessageNames, false); }

Config internal::resolve(const Options& o, const OptionSpelling& names, bool capacity_given) {
  auto name = [&names](Option option) { return std::string(names[index(option)]); };
  Config c;
  c.bucket_size = o.bucket_size;
  c.semi_sort = o.semi_sort;
  c.max_kicks = o.max_kicks;
  c.seed = o.seed;
  c.huge_pages = o.huge_pages;
  c.growable = o.growable;
  c.max_memory_bytes = o.max_memory_bytes;
  if (!o.growable && o.max_memory_bytes != 0) fail(Option::max_memory_bytes, o.max_memory_bytes, name(Option::max_memory_bytes) + " applies to growable filters only");

  require_bucket_size(o.bucket_size, names);
  if (o.fpr && o.fingerprint_bits)
    fail(Option::fingerprint_bits, *o.fingerprint_bits, "set either " + name(Option::fpr) + " or " + name(Option::fingerprint_bits) + ", not both (got " + name(Option::fpr) + " " + show(*o.fpr) + " and " + name(Option::fingerprint_bits) + " " + std::to_string(*o.fingerprint_bits) + ")");
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
    fail(Option::target_load, *o.target_load, name(Option::target_load) + " must be in (0, 1] (got " + show(*o.target_load) + ")");
  const auto no_capacity = [&] { fail(Option::capacity, uint64_t{0}, name(Option::capacity) + " must be at least 1 (got 0)"); };
  if (capacity_given && o.capacity == 0) no_capacity();
  if (o.bucket_count) {
    if (*o.bucket_count == 0) fail(Option::bucket_count, uint64_t{0}, name(Option::bucket_count) + " must be at least 1 (got 0)");
    if (*o.bucket_count > kMaxBucketCount)
      fail(Option::bucket_count, *o.bucket_count, name(Option::bucket_count) + " must be at most 2^32 (got " + std::to_string(*o.bucket_count) + ")");
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
      return name(Option::capacity) + " " + std::to_string(capacity) +
             (default_load ? "" : " at " + name(Option::target_load) + " " + show(load)) +
             " needs more than 2^32 buckets (with " + name(Option::bucket_size) + " " + std::to_string(o.bucket_size) +
             (default_load ? " and the default " : " and this ") + name(Option::target_load) + ", the most is about " +
             show(most, /*approximate=*/true) + ")";
    };
    double buckets = std::ceil(static_cast<double>(capacity) / (o.bucket_size * load));
    // The load a table fills to before the first failure varies more the smaller the table (its spread
    // shrinks like 1/sqrt(buckets)), so add 2 sqrt(buckets) of slack: tiny filters take their capacity
    // too (almost always: bench/README.md), and from 10^6 items on the slack is under 0.5% of the memory.
    buckets += std::ceil(2.0 * std::sqrt(buckets));
    // The option to blame: target_load when the user set it, else the capacity.
    const Blamed blamed = o.target_load ? Option::target_load : Option::capacity;
    const Value given = o.target_load ? Value(load) : Value(capacity);
    if (buckets > static_cast<double>(kMaxBucketCount)) fail(blamed, given, too_many());
    uint64_t n = static_cast<uint64_t>(buckets);
    n = n < 2 ? 2 : n + (n & 1);
    if (n > kMaxBucketCount) fail(blamed, given, too_many());
    c.bucket_count = n;
  }

  std::string why;
#if CUCKOO_PLAIN_OPTION_ERRORS
  if (!check_config(c, &why, names, Report{})) fail(Option::bucket_count, c.bucket_count, why);
#else
  Option option = Option::bucket_count;
  Given value = c.bucket_count;
  if (!check_config(c, &why, names, Report{&option, &value})) fail(option, value, why);
#endif
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
  require_fingerprint_bits(c.fingerprint_bits, internal::kMessageNames);
  if (c.growable) return internal::level_false_positive_bound(c, internal::level_limit(c));
  return match_bound(1.0 / (std::ldexp(1.0, static_cast<int>(c.fingerprint_bits)) - 1.0), c.bucket_size);
}

}  // namespace cuckoo
