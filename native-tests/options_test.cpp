// native-tests/options_test.cpp: Options -> Config (cuckoo::resolve) and its error reporting.
//
// Impossible options must fail loudly and say which option is wrong (cuckoo::OptionError, a
// std::invalid_argument whose what() names it), both from resolve() and from the CuckooFilter constructors; valid ones must resolve to the
// documented shape (smallest sufficient fingerprint, enough even buckets for the capacity at the target load).
// Whether a filter sized from intent really holds `capacity` keys at the promised rate is measured in
// fpr_test.cpp.
#include <gtest/gtest.h>
#include <algorithm>

#include <cuckoo/cuckoo.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "option_names.h"

namespace {

using cuckoo::Config;
using cuckoo::CuckooFilter;
using cuckoo::Options;

// what() of the std::invalid_argument that resolve(o) throws, or "" if it does not throw.
std::string resolve_error(const Options& o) {
  try {
    cuckoo::resolve(o);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// Both entry points must reject the options with a message naming `option`.
void expect_rejected(const Options& o, const std::string& option) {
  const std::string why = resolve_error(o);
  EXPECT_NE(why, "") << "resolve() accepted options that should fail on " << option;
  EXPECT_NE(why.find(option), std::string::npos) << "message does not name " << option << ": " << why;
  EXPECT_EQ(why.rfind("cuckoo: ", 0), 0u) << why;
  try {
    CuckooFilter filter(o);
    ADD_FAILURE() << "CuckooFilter(Options) accepted options that should fail on " << option;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(option), std::string::npos) << e.what();
  }
}

Options with_capacity(uint64_t capacity = 1000) {
  Options o;
  o.capacity = capacity;
  return o;
}

TEST(OptionsErrors, BucketSize) {
  for (unsigned b : {0u, 1u, 3u, 5u, 16u}) {
    Options o = with_capacity();
    o.bucket_size = b;
    expect_rejected(o, "bucket_size");
  }
}

TEST(OptionsErrors, FingerprintBits) {
  // 0 is a value like any other, not "unset" (that is an empty std::optional): it is refused.
  for (unsigned f : {0u, 1u, 2u, 3u, 33u, 40u, 64u}) {
    Options o = with_capacity();
    o.fingerprint_bits = f;
    expect_rejected(o, "fingerprint_bits must be in 4..32 (got " + std::to_string(f) + ")");
  }
  // Unset, it is derived from fpr (the default 0.01 here).
  EXPECT_EQ(cuckoo::resolve(with_capacity()).fingerprint_bits, cuckoo::fingerprint_bits_for(cuckoo::kDefaultFpr, 4));
  // Through a Config (no derivation there), 0 and 3 are errors.
  for (unsigned f : {0u, 3u, 40u}) {
    Config c;
    c.fingerprint_bits = f;
    std::string why;
    EXPECT_FALSE(cuckoo::is_valid_config(c, &why));
    EXPECT_NE(why.find("fingerprint_bits"), std::string::npos) << why;
    EXPECT_THROW(CuckooFilter{c}, std::invalid_argument);
  }
}

TEST(OptionsErrors, Capacity) {
  expect_rejected(with_capacity(0), "capacity");
  // More than 2^32 buckets: the index is a 32-bit fast-range reduction.
  for (unsigned b : {2u, 4u, 8u}) {
    Options o = with_capacity(uint64_t{1} << 40);
    o.bucket_size = b;
    expect_rejected(o, "capacity");
  }
  expect_rejected(with_capacity(std::numeric_limits<uint64_t>::max()), "capacity");
  // The message says how far the user can go: ~2^32 buckets x 4 slots x the default load.
  try {
    cuckoo::resolve(with_capacity(uint64_t{1} << 40));
    ADD_FAILURE() << "capacity 2^40 resolved";
  } catch (const std::invalid_argument& e) {
    const std::string why = e.what();
    EXPECT_NE(why.find("with bucket_size 4 and the default target_load, the most is about 1.6"), std::string::npos) << why;
  }
  // Just under the limit resolves (to at most 2^32 buckets) without allocating anything.
  Options o = with_capacity(uint64_t{1} << 32);
  o.target_load = 1.0;
  EXPECT_LE(cuckoo::resolve(o).bucket_count, cuckoo::kMaxBucketCount);
}

TEST(OptionsErrors, Fpr) {
  for (double fpr : {0.0, -0.0, 1.0, -1.0, 1.5, -0.0001, std::nan(""), std::numeric_limits<double>::infinity(),
                     -std::numeric_limits<double>::infinity()}) {
    Options o = with_capacity();
    o.fpr = fpr;
    expect_rejected(o, "fpr");
  }
  // Below what 32-bit fingerprints can give (2b / (2^32 - 1) ~ 1.9e-9 at b = 4).
  Options o = with_capacity();
  o.fpr = 1e-10;
  expect_rejected(o, "fpr");
  // The message shows the value as given, not std::to_string's fixed "0.000000".
  EXPECT_NE(resolve_error(o).find("fpr 1e-10 "), std::string::npos) << resolve_error(o);
  // Unset, the default 0.01 applies.
  EXPECT_EQ(cuckoo::resolve(with_capacity()).fingerprint_bits, cuckoo::fingerprint_bits_for(cuckoo::kDefaultFpr, 4));
  EXPECT_THROW(cuckoo::fingerprint_bits_for(0.0, 4), std::invalid_argument);
  EXPECT_THROW(cuckoo::fingerprint_bits_for(1.0, 4), std::invalid_argument);
}

TEST(OptionsErrors, FprAndFingerprintBitsTogether) {
  Options o = with_capacity();
  o.fpr = 0.01;
  o.fingerprint_bits = 12;
  EXPECT_EQ(resolve_error(o), "cuckoo: set either fpr or fingerprint_bits, not both (got fpr 0.01 and fingerprint_bits 12)");
  EXPECT_THROW(CuckooFilter{o}, std::invalid_argument);
  // A caller who expects 0 to mean "unset" learns from the message which 0 is taken as a value.
  o.fpr = 0.0;
  EXPECT_NE(resolve_error(o).find("(got fpr 0 and fingerprint_bits 12)"), std::string::npos) << resolve_error(o);
}

TEST(OptionsErrors, SemiSortNeedsBucketSize4) {
  for (unsigned b : {2u, 8u}) {
    Options o = with_capacity();
    o.bucket_size = b;
    o.semi_sort = true;
    expect_rejected(o, "semi_sort");
  }
  Options o = with_capacity();
  o.semi_sort = true;
  EXPECT_TRUE(cuckoo::resolve(o).semi_sort);
}

TEST(OptionsErrors, MaxKicks) {
  for (unsigned kicks : {(1u << 20) + 1, 1u << 30, std::numeric_limits<unsigned>::max()}) {
    Options o = with_capacity();
    o.max_kicks = kicks;
    expect_rejected(o, "max_kicks");
  }
  // 0 kicks is a legitimate (if odd) choice: a full pair of buckets parks the newcomer at once.
  Options o = with_capacity();
  o.max_kicks = 0;
  EXPECT_EQ(cuckoo::resolve(o).max_kicks, 0u);
}

TEST(OptionsErrors, TargetLoad) {
  for (double load : {0.0, -0.5, 1.01, 2.0, std::nan("")}) {
    Options o = with_capacity();
    o.target_load = load;
    expect_rejected(o, "target_load");
    // Also when bucket_count makes it unused: a bad value is a mistake either way.
    o.bucket_count = 1000;
    expect_rejected(o, "target_load");
  }
  // A tiny target load, not the capacity, is what overflows the bucket count: the message says so.
  Options o = with_capacity();
  o.target_load = 1e-300;
  expect_rejected(o, "at target_load 1e-300");
  // Just above 1: shown with the digits that tell it from 1, which the range allows.
  o.target_load = 1.0000001;
  expect_rejected(o, "target_load must be in (0, 1] (got 1.0000001)");
  o.fpr = 0.1 + 0.9;  // exactly 1
  o.target_load.reset();
  expect_rejected(o, "fpr must be in (0, 1) (got 1)");
}

TEST(OptionsErrors, HelpersRejectWhatResolveRejects) {
  EXPECT_THROW(cuckoo::fingerprint_bits_for(0.01, 3), std::invalid_argument);
  EXPECT_THROW(cuckoo::fingerprint_bits_for(0.01, 0), std::invalid_argument);
  for (unsigned f : {0u, 3u, 33u}) {
    Config c;
    c.fingerprint_bits = f;
    EXPECT_THROW(cuckoo::false_positive_bound(c), std::invalid_argument) << f;
  }
}

TEST(OptionsErrors, BucketCount) {
  Options o;
  o.bucket_count = (uint64_t{1} << 32) + 2;
  expect_rejected(o, "bucket_count must be at most 2^32");
  // 0 is refused, not taken as "unset" (which would ask for a capacity instead).
  o.bucket_count = 0;
  expect_rejected(o, "bucket_count must be at least 1 (got 0)");
  for (uint64_t n : {uint64_t{0}, uint64_t{1}, uint64_t{3}, (uint64_t{1} << 32) + 2}) {
    Config c;
    c.bucket_count = n;
    std::string why;
    EXPECT_FALSE(cuckoo::is_valid_config(c, &why)) << n;
    EXPECT_NE(why.find("bucket_count"), std::string::npos) << why;
    EXPECT_THROW(CuckooFilter{c}, std::invalid_argument);
  }
}

// ----- What valid options resolve to -----

TEST(OptionsResolve, FingerprintIsTheSmallestMeetingTheBound) {
  for (unsigned b : {2u, 4u, 8u}) {
    for (double fpr = 0.5; fpr > 2e-9; fpr *= 0.37) {
      if (2.0 * b / (std::ldexp(1.0, 32) - 1) > fpr) break;  // beyond 32 bits: OptionsErrors.Fpr
      const unsigned f = cuckoo::fingerprint_bits_for(fpr, b);
      ASSERT_GE(f, cuckoo::kMinFingerprintBits);
      ASSERT_LE(f, cuckoo::kMaxFingerprintBits);
      // The documented rule: 2b / (2^f - 1) <= fpr, and f - 1 bits would not do (unless f is the minimum).
      EXPECT_LE(2.0 * b / (std::ldexp(1.0, f) - 1), fpr) << "b=" << b << " fpr=" << fpr;
      if (f > cuckoo::kMinFingerprintBits)
        EXPECT_GT(2.0 * b / (std::ldexp(1.0, f - 1) - 1), fpr) << "b=" << b << " fpr=" << fpr;
      Options o = with_capacity();
      o.bucket_size = b;
      o.fpr = fpr;
      const Config c = cuckoo::resolve(o);
      EXPECT_EQ(c.fingerprint_bits, std::max(f, cuckoo::min_fingerprint_bits_for_load(b)))
          << "resolve() takes the bound's width, raised to the shortest that fills well";
      // Sizing keeps the paper's bound (for a full table) at or below the requested rate.
      EXPECT_LE(cuckoo::false_positive_bound(c), fpr);
    }
  }
  // The paper's rule of thumb: f >= log2(2b / eps). Default fpr 0.01 at b = 4 gives 10 bits.
  EXPECT_EQ(cuckoo::fingerprint_bits_for(0.01, 4), 10u);
  EXPECT_EQ(cuckoo::fingerprint_bits_for(0.5, 2), 4u);
}

// An impossible option is a cuckoo::OptionError saying which option and which value, and naming the
// options as a front end writes them (message(spelling)) in the very message the WebAssembly binding gets
// by passing its names to the core (internal::resolve): no C++ name with an underscore is left in it.
TEST(OptionsErrors, SayWhichOptionAndValueAndNameOptionsAsAFrontEndDoes) {
  using cuckoo::Option;
  using cuckoo::OptionError;
  const cuckoo::OptionSpelling spelled = {"CAPACITY", "FPR", "FINGERPRINT-BITS", "BUCKET-SIZE",
                                          "MAX-KICKS", "SEED", "SEMI-SORT", "TARGET-LOAD",
                                          "BUCKET-COUNT", "GROWABLE", "MAX-MEMORY-BYTES"};
  struct Case {
    Options options;
    bool capacity_given;
    Option named;
    std::string value;
  };
  std::vector<Case> cases;
  auto add = [&cases](Option named, std::string value, auto set, bool capacity_given = false) {
    Options o = with_capacity();
    set(o);
    cases.push_back({o, capacity_given, named, std::move(value)});
  };
  add(Option::bucket_size, "3", [](Options& o) { o.bucket_size = 3; });
  add(Option::fpr, "0", [](Options& o) { o.fpr = 0; });
  add(Option::fpr, "1e-12", [](Options& o) { o.fpr = 1e-12; });
  add(Option::fpr, "1e-09", [](Options& o) { o.fpr = 1e-9, o.growable = true; });
  add(Option::fingerprint_bits, "3", [](Options& o) { o.fingerprint_bits = 3; });
  add(Option::fingerprint_bits, "8", [](Options& o) { o.fingerprint_bits = 8, o.fpr = 0.01; });
  add(Option::fingerprint_bits, "32", [](Options& o) { o.fingerprint_bits = 32, o.growable = true; });
  add(Option::max_kicks, "2097152", [](Options& o) { o.max_kicks = 1u << 21; });
  add(Option::semi_sort, "true", [](Options& o) { o.semi_sort = true, o.bucket_size = 8; });
  add(Option::target_load, "0", [](Options& o) { o.target_load = 0; });
  add(Option::target_load, "1e-09", [](Options& o) { o.capacity = 1'000'000, o.target_load = 1e-9; });
  add(Option::bucket_count, "0", [](Options& o) { o.bucket_count = 0; });
  add(Option::bucket_count, "4294967298", [](Options& o) { o.bucket_count = (uint64_t{1} << 32) + 2; });
  add(Option::max_memory_bytes, "100", [](Options& o) { o.max_memory_bytes = 100; });
  add(Option::max_memory_bytes, "100", [](Options& o) { o.max_memory_bytes = 100, o.growable = true; });
  add(Option::capacity, "1099511627776", [](Options& o) { o.capacity = uint64_t{1} << 40; });
  add(Option::capacity, "0", [](Options& o) { o.capacity = 0; });
  // Options reads a capacity of 0 as "not given", which a growable filter allows; a front end that was
  // given the 0 says so, and the 0 is refused.
  add(
      Option::capacity, "0", [](Options& o) { o.capacity = 0, o.growable = true; }, /*capacity_given=*/true);
  const auto cpp_name = [](Option o) { return std::string(cuckoo::cpp_option_spelling()[static_cast<unsigned>(o)]); };
  for (const Case& c : cases) {
    const std::string named = cpp_name(c.named);
    try {
      cuckoo::internal::resolve(c.options, cuckoo::internal::kMessageNames, c.capacity_given);
      ADD_FAILURE() << named << " accepted";
      continue;
    } catch (const OptionError& e) {
      EXPECT_EQ(cpp_name(e.option()), named) << e.what();
      EXPECT_EQ(e.value(), c.value) << e.what();
      if (!c.capacity_given) EXPECT_EQ(e.what(), resolve_error(c.options));
      EXPECT_NE(std::string(e.what()).find(named), std::string::npos) << e.what();
      const std::string front = e.message(spelled);
      EXPECT_NE(front.find(spelled[static_cast<unsigned>(c.named)]), std::string::npos) << front;
      for (const char* name : cuckoo::cpp_option_spelling()) {
        if (std::strchr(name, '_') != nullptr) EXPECT_EQ(front.find(name), std::string::npos) << front;
      }
      EXPECT_EQ(front.find('\x1f'), std::string::npos) << front;
      try {
        cuckoo::internal::resolve(c.options, spelled, c.capacity_given);
        ADD_FAILURE() << named << " accepted with the front end's names";
      } catch (const std::invalid_argument& direct) {
        EXPECT_EQ(direct.what(), front);
      }
    }
  }
  // Given or not, a capacity that is not 0 resolves alike.
  Options growing = with_capacity(5000);
  growing.growable = true;
  EXPECT_EQ(cuckoo::internal::resolve(growing, spelled, true).bucket_count, cuckoo::resolve(growing).bucket_count);
  // The constructors throw it too, and what() is the message C++ names.
  try {
    Options o = with_capacity();
    o.bucket_size = 3;
    CuckooFilter g(o);
    ADD_FAILURE() << "bucket_size 3 accepted";
  } catch (const OptionError& e) {
    EXPECT_EQ(e.option(), Option::bucket_size);
    EXPECT_STREQ(e.what(), "cuckoo: bucket_size must be 2, 4 or 8 (got 3)");
    EXPECT_EQ(e.message(cuckoo::cpp_option_spelling()), e.what());
  }
}

TEST(OptionsResolve, BucketsHoldTheCapacityAtTheTargetLoad) {
  for (unsigned b : {2u, 4u, 8u}) {
    for (uint64_t capacity : {1ull, 2ull, 7ull, 10ull, 100ull, 1000ull, 12345ull, 1000000ull, 1ull << 31}) {
      Options o = with_capacity(capacity);
      o.bucket_size = b;
      const Config c = cuckoo::resolve(o);
      EXPECT_EQ(c.bucket_count % 2, 0u) << "bucket counts are even (alt() needs it)";
      EXPECT_GE(c.bucket_count, 2u);
      const double load = cuckoo::default_target_load(b, c.fingerprint_bits);
      EXPECT_GE(static_cast<double>(c.slot_count()) * load, static_cast<double>(capacity) - 1e-6)
          << "b=" << b << " capacity=" << capacity;
      // ...and not much more: the documented slack of 2 sqrt(buckets) for small tables (whose fill level
      // varies more), plus one even-rounding step.
      const double base = std::ceil(capacity / (b * load));
      EXPECT_LE(c.bucket_count, base + std::ceil(2 * std::sqrt(base)) + 2) << "b=" << b << " capacity=" << capacity;
      if (capacity >= 1000000) EXPECT_LE(c.bucket_count, base * 1.01) << "slack above 1% at capacity " << capacity;
    }
  }
  // The documented default loads, a little under the paper's achieved 84% / 95% / 98%, and no higher for
  // short fingerprints, which fill less (load_test.cpp, Figure2).
  for (unsigned f = 4; f <= 32; ++f) {
    EXPECT_LT(cuckoo::default_target_load(2, f), 0.84);
    EXPECT_LT(cuckoo::default_target_load(4, f), 0.95);
    EXPECT_LT(cuckoo::default_target_load(8, f), 0.98);
    for (unsigned b : {2u, 4u, 8u})
      if (f > 4) EXPECT_GE(cuckoo::default_target_load(b, f), cuckoo::default_target_load(b, f - 1));
  }
}

TEST(OptionsResolve, ExplicitBucketCountIsRoundedUpToEven) {
  const std::vector<std::pair<uint64_t, uint64_t>> cases = {{1, 2}, {2, 2}, {3, 4}, {1001, 1002}, {1u << 20, 1u << 20}};
  for (auto [asked, expected] : cases) {
    Options o;
    o.bucket_count = asked;
    EXPECT_EQ(cuckoo::resolve(o).bucket_count, expected) << asked;
  }
  Options o;
  o.bucket_count = uint64_t{1} << 32;
  EXPECT_EQ(cuckoo::resolve(o).bucket_count, uint64_t{1} << 32);
}

TEST(OptionsResolve, EveryFieldIsCarriedOver) {
  Options o = with_capacity(5000);
  o.bucket_size = 4;
  o.fingerprint_bits = 13;
  o.semi_sort = true;
  o.max_kicks = 77;
  o.seed = 0xDEADBEEF;
  o.huge_pages = false;
  const Config c = cuckoo::resolve(o);
  EXPECT_EQ(c.bucket_size, 4u);
  EXPECT_EQ(c.fingerprint_bits, 13u);
  EXPECT_TRUE(c.semi_sort);
  EXPECT_EQ(c.max_kicks, 77u);
  EXPECT_EQ(c.seed, 0xDEADBEEFu);
  EXPECT_FALSE(c.huge_pages);
  EXPECT_EQ(c.bits_per_entry(), 12u);
  EXPECT_EQ(c.bits_per_bucket(), 48u);
  EXPECT_EQ(c.table_bytes(), c.bucket_count * 6);
  const CuckooFilter filter(o);
  EXPECT_EQ(filter.config().bucket_count, c.bucket_count);
  EXPECT_EQ(filter.config().fingerprint_bits, 13u);
  EXPECT_EQ(filter.config().seed, 0xDEADBEEFu);
}

TEST(OptionsResolve, FalsePositiveBoundFormula) {
  for (unsigned b : {2u, 4u, 8u}) {
    for (unsigned f = 4; f <= 32; ++f) {
      Config c;
      c.bucket_size = b;
      c.fingerprint_bits = f;
      // 1 - (1 - p)^(2b), in long double and without cancellation.
      const long double p = 1.0L / (std::ldexp(1.0L, static_cast<int>(f)) - 1.0L);
      const long double exact = -std::expm1l(2.0L * b * std::log1pl(-p));
      const double bound = cuckoo::false_positive_bound(c);
      EXPECT_LE(std::fabs(static_cast<double>((bound - exact) / exact)), 4 * 0x1p-52) << "b " << b << " f " << f;
      EXPECT_LE(bound, 2.0 * b / (std::ldexp(1.0, static_cast<int>(f)) - 1.0));
    }
  }
}

// The same doubles as fprBound in JS (js-tests/filter.test.js holds this table too): the WASM build runs
// this code with its own libc, so the bound uses only correctly rounded operations (no pow).
TEST(OptionsResolve, FalsePositiveBoundIsTheSameDoubleEverywhere) {
  const struct {
    unsigned b, f;
    double bound;
  } cases[] = {{2, 4, 0.24116543209876543}, {4, 5, 0.23073409005615597}, {4, 12, 0.0019519330235979807}, {8, 8, 0.060933000395866077}, {8, 32, 3.7252902928240628e-09}, {2, 32, 9.313225745070583e-10}};
  for (const auto& k : cases) {
    Config c;
    c.bucket_size = k.b;
    c.fingerprint_bits = k.f;
    EXPECT_EQ(cuckoo::false_positive_bound(c), k.bound) << "b " << k.b << " f " << k.f;
  }
}

}  // namespace
