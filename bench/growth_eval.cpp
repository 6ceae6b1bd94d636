// bench/growth_eval.cpp: a growing filter (Options::growable) against a right-sized fixed filter
// (Options{capacity = items, same fpr}), side by side in one run, at each requested false-positive rate.
//
//   1. Schedule: insert keys into a growing filter of initial capacity C0 until it holds at least
//      growth * C0 items and its levels are full again; record every item count at which the levels were
//      full (levels() changes on the next insert). Inserts are deterministic (same keys, options and seed
//      give the same bytes), so step 2 meets those states again exactly.
//   2. Curve: a fresh growing filter is filled again, pausing at a geometric grid of sizes and at both
//      sides of every growth: "levels full" (n items, the next insert adds a level) and "just grown"
//      (n + 1 items, the newest level holds one). At each pause, and on a fixed filter created for that
//      many items and filled with the same keys: bits per item, the measured false-positive rate on
//      never-inserted keys with false_positive_bound() beside it, and lookup rates (negative and
//      positive, single and batched; every inserted key queried must be found).
//   3. Rates at the final size, in rounds that alternate which filter goes first: build from empty with
//      single inserts and with insert_many (the amortized rate, every growth included), then lookups
//      at the final size (levels full) and again after one more insert (just grown). At levels full,
//      also bounds on present-key lookups: of any stack of levels, by an oracle that knows where each key
//      is (oracle_rates()), and of designs that move entries when they grow, level stacks included, with
//      the memory each needs at least (moving_design_rates()); and present-key lookups by the level that
//      holds the key (rates_by_level()), which show where the time goes.
//
// Usage: growth_eval [--full] [--out DIR] [--initial N] [--growth X] [--fpr A,B] [--queries N] [--rounds N]
//                    [--growing-max-kicks N]  (an experiment: a shorter relocation walk for the growing filter
//                    only, so that its levels count as full, and it grows, at a lower load)
// Output: the summary on stdout (and summary.txt), progress on stderr, CSV + SVG + config.txt in DIR.

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuckoo/filter.h>
#include <cuckoo/options.h>

#include "growth_eval.h"
#include "keys.h"
#include "report.h"
#include "timer.h"

namespace bench {
namespace {

using cuckoo::CuckooFilter;

GrowthConfig parse_args(int argc, char** argv) {
  GrowthConfig config;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--full") {
      config.full = true;
      config.growth = 16000;  // ~68 M items from C0 = 4096: 14 levels, tables beyond the caches
      config.fpr_queries = size_t{4} << 20;
      config.positive_queries = size_t{1} << 20;
      config.rate_queries = size_t{4} << 20;
      config.rounds = 5;
    } else if (arg == "--out") {
      config.out_dir = value();
    } else if (arg == "--initial") {
      config.initial_capacity = std::stoull(value());
    } else if (arg == "--growth") {
      config.growth = std::stod(value());
    } else if (arg == "--fpr") {
      config.fprs.clear();
      std::stringstream list(value());
      for (std::string item; std::getline(list, item, ',');) config.fprs.push_back(std::stod(item));
    } else if (arg == "--queries") {
      config.fpr_queries = std::stoull(value());
    } else if (arg == "--rounds") {
      config.rounds = std::max(1, std::stoi(value()));
    } else if (arg == "--growing-max-kicks") {
      config.growing_max_kicks = static_cast<unsigned>(std::stoul(value()));
    } else if (arg == "--help" || arg == "-h") {
      std::printf(
          "usage: growth_eval [--full] [--out DIR] [--initial N] [--growth X] [--fpr A,B] [--queries N] "
          "[--rounds N] [--growing-max-kicks N]\n");
      std::exit(0);
    } else {
      throw std::invalid_argument("unknown argument " + arg);
    }
  }
  if (config.initial_capacity == 0 || config.growth < 1 || config.fprs.empty())
    throw std::invalid_argument("--initial, --growth and --fpr need positive values");
  return config;
}

std::string describe_config(const GrowthConfig& c) {
  std::ostringstream out;
  out << "mode:               " << (c.full ? "--full" : "default (about a minute per rate)") << "\n"
      << "growing filter:     Options{capacity = " << c.initial_capacity << ", fpr, growable = true}\n"
      << "fixed filter:       Options{capacity = items at that point, same fpr}\n"
      << "growth:             to at least " << c.growth << " x the initial capacity, then until the levels are full\n"
      << "fpr:               ";
  for (double fpr : c.fprs) out << " " << fpr;
  out << "\ncurve grid:         " << c.points_per_doubling << " points per doubling, plus both sides of each growth\n"
      << "negative queries:   " << c.fpr_queries << " per curve point (false-positive rate and negative lookups)\n"
      << "positive queries:   " << c.positive_queries << " per curve point\n"
      << "rate queries:       " << c.rate_queries << " per lookup pass at the final size\n"
      << "rounds:             " << c.rounds << " (alternating which filter goes first)\n"
      << "growing max_kicks:  " << (c.growing_max_kicks ? std::to_string(c.growing_max_kicks) : "default") << "\n"
      << "seed:               0x" << std::hex << c.seed << std::dec << "\n"
      << "keys:               splitmix64 finalizer of disjoint even/odd counters (bench/keys.h)\n";
  return out.str();
}

cuckoo::Options growing_options(const GrowthConfig& config, double fpr) {
  cuckoo::Options options;
  options.capacity = config.initial_capacity;
  options.fpr = fpr;
  options.growable = true;
  options.seed = config.seed;
  if (config.growing_max_kicks != 0) options.max_kicks = config.growing_max_kicks;
  return options;
}

cuckoo::Options fixed_options(const GrowthConfig& config, double fpr, uint64_t items) {
  cuckoo::Options options;
  options.capacity = items;
  options.fpr = fpr;
  options.seed = config.seed;
  return options;
}

// ---------------------------------------------------------------------------------------------------------
// Timed passes

constexpr size_t kBatch = 8192;  // keys per contains_many / insert_many call

struct Pass {
  double mops = 0;
  uint64_t hits = 0;
};

Pass single_lookups(const CuckooFilter& filter, const uint64_t* keys, size_t n) {
  uint64_t hits = 0;
  Timer timer;
  for (size_t i = 0; i < n; ++i) hits += filter.contains(keys[i]);
  const double seconds = timer.seconds();
  consume(hits);
  return {mops(n, seconds), hits};
}

Pass batched_lookups(const CuckooFilter& filter, const uint64_t* keys, size_t n) {
  std::vector<uint8_t> out(kBatch);
  uint64_t hits = 0;
  Timer timer;
  for (size_t start = 0; start < n; start += kBatch) {
    const size_t m = std::min(kBatch, n - start);
    filter.contains_many(keys + start, m, out.data());
    for (size_t i = 0; i < m; ++i) hits += out[i];
  }
  const double seconds = timer.seconds();
  consume(hits);
  return {mops(n, seconds), hits};
}

// The median rate of three passes over thirds of the keys (a pass another process interrupted does not
// count), and the hits over all of them.
template <class Lookup>
Pass median_of_thirds(const std::vector<uint64_t>& keys, Lookup lookup) {
  const size_t third = keys.size() / 3;
  double rates[3];
  uint64_t hits = 0;
  for (int r = 0; r < 3; ++r) {
    const size_t n = r < 2 ? third : keys.size() - 2 * third;
    const Pass pass = lookup(keys.data() + r * third, n);
    rates[r] = pass.mops;
    hits += pass.hits;
  }
  std::sort(rates, rates + 3);
  return {rates[1], hits};
}

// Inserts keys [from, to) one at a time; returns how many were refused.
uint64_t insert_range(CuckooFilter& filter, const KeyStream& keys, uint64_t from, uint64_t to) {
  uint64_t refused = 0;
  for (uint64_t i = from; i < to; ++i) refused += !filter.insert(keys.positive(i));
  return refused;
}

// Inserts keys [0, n) through insert_many in blocks of kBatch; returns how many were refused.
uint64_t insert_range_many(CuckooFilter& filter, const KeyStream& keys, uint64_t n) {
  std::vector<uint64_t> block(kBatch);
  uint64_t refused = 0;
  for (uint64_t start = 0; start < n; start += kBatch) {
    const size_t m = static_cast<size_t>(std::min<uint64_t>(kBatch, n - start));
    for (size_t j = 0; j < m; ++j) block[j] = keys.positive(start + j);
    refused += m - filter.insert_many(block.data(), m);
  }
  return refused;
}

// ---------------------------------------------------------------------------------------------------------
// 1. Schedule

// The item counts at which the growing filter's levels are full (its next insert adds a level), up to the
// first one at or past min_items.
std::vector<uint64_t> growth_schedule(const cuckoo::Options& options, const KeyStream& keys, uint64_t min_items) {
  std::vector<uint64_t> full_at;
  CuckooFilter filter(options);
  unsigned levels = filter.levels();
  for (uint64_t i = 0;; ++i) {
    if (!filter.insert(keys.positive(i))) throw std::runtime_error("growing filter refused a random key");
    if (filter.levels() != levels) {
      levels = filter.levels();
      full_at.push_back(i);  // before key i it held i items, and inserting key i added a level
      if (i >= min_items) return full_at;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// 2. Curve

Measured measure(const CuckooFilter& filter, const GrowthConfig& config, const std::vector<uint64_t>& negatives,
                 const std::vector<uint64_t>& positives) {
  Measured m;
  m.items = filter.size();
  m.levels = filter.levels();
  m.bits_per_item = filter.bits_per_item();
  m.bound = filter.false_positive_bound();
  const Pass neg = median_of_thirds(negatives, [&](const uint64_t* k, size_t n) { return single_lookups(filter, k, n); });
  const Pass neg_b = median_of_thirds(negatives, [&](const uint64_t* k, size_t n) { return batched_lookups(filter, k, n); });
  const Pass pos = median_of_thirds(positives, [&](const uint64_t* k, size_t n) { return single_lookups(filter, k, n); });
  const Pass pos_b = median_of_thirds(positives, [&](const uint64_t* k, size_t n) { return batched_lookups(filter, k, n); });
  if (neg.hits != neg_b.hits) throw std::runtime_error("contains and contains_many disagree");
  m.fpr = double(neg.hits) / config.fpr_queries;
  m.neg_single = neg.mops, m.neg_batched = neg_b.mops;
  m.pos_single = pos.mops, m.pos_batched = pos_b.mops;
  m.false_negatives = (positives.size() - pos.hits) + (positives.size() - pos_b.hits);
  return m;
}

std::vector<CurvePoint> measure_curve(const GrowthConfig& config, double fpr, const KeyStream& keys,
                                      const std::vector<uint64_t>& full_at, uint64_t final_items) {
  // The pauses: the grid from C0 (1x), then both sides of every growth; ordered, without duplicates.
  std::vector<std::pair<uint64_t, CurvePoint::Kind>> stops;
  for (double n = double(config.initial_capacity); n < final_items; n *= std::exp2(1.0 / config.points_per_doubling))
    stops.push_back({static_cast<uint64_t>(n), CurvePoint::kGrid});
  for (uint64_t n : full_at) {
    stops.push_back({n, CurvePoint::kLevelsFull});
    stops.push_back({n + 1, CurvePoint::kJustGrown});
  }
  std::sort(stops.begin(), stops.end());
  stops.erase(std::unique(stops.begin(), stops.end(),
                          [](const auto& a, const auto& b) { return a.first == b.first; }),
              stops.end());

  Rng rng(config.seed ^ 0xC0FFEE);
  uint64_t next_negative = 0;
  CuckooFilter growing(growing_options(config, fpr));
  std::vector<CurvePoint> curve;
  for (const auto& [items, kind] : stops) {
    if (insert_range(growing, keys, growing.size(), items) != 0)
      throw std::runtime_error("growing filter refused a random key");
    CuckooFilter fixed(fixed_options(config, fpr, items));
    CurvePoint point;
    point.kind = kind;
    insert_range(fixed, keys, 0, items);  // the refused ones are counted below
    const auto negatives = make_queries(keys, items, 0.0, config.fpr_queries, rng, &next_negative);
    const auto positives = make_queries(keys, items, 1.0, config.positive_queries, rng, &next_negative);
    point.growing = measure(growing, config, negatives, positives);
    point.fixed = measure(fixed, config, negatives, positives);
    point.fixed.failed_inserts = items - fixed.size();
    // Levels: one more than the growths at or before this size (the growth at n happens at n + 1 items).
    const unsigned expected = 1 + static_cast<unsigned>(std::lower_bound(full_at.begin(), full_at.end(), items) -
                                                        full_at.begin());
    if (point.growing.levels != expected)
      throw std::runtime_error("the curve's growing filter did not grow where the schedule said");
    progress("\r[fpr %g] %10llu items, %2u levels: %5.2f vs %5.2f bits/item, fpr %.5f (bound %.5f)   ", fpr,
             (unsigned long long)items, point.growing.levels, point.growing.bits_per_item,
             point.fixed.bits_per_item, point.growing.fpr, point.growing.bound);
    curve.push_back(point);
  }
  progress("\n");
  return curve;
}

// ---------------------------------------------------------------------------------------------------------
// 3. Rates at the final size

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// Collects per-round rates of one operation on both filters.
struct RoundRates {
  std::string what;
  std::vector<double> growing, fixed;
  Rate summary() const {
    std::vector<double> ratios;
    for (size_t r = 0; r < growing.size(); ++r) ratios.push_back(growing[r] / fixed[r]);
    return {what, median(growing), median(fixed), median(ratios)};
  }
};

// Builds both filters from empty, `rounds` times, alternating which goes first; keeps the last pair.
void time_construction(const GrowthConfig& config, double fpr, const KeyStream& keys, uint64_t items, bool many,
                       RoundRates* rates, std::optional<CuckooFilter>* growing, std::optional<CuckooFilter>* fixed) {
  for (int round = 0; round < config.rounds; ++round) {
    for (int turn = 0; turn < 2; ++turn) {
      const bool is_growing = (turn == 0) == (round % 2 == 0);
      std::optional<CuckooFilter>& slot = is_growing ? *growing : *fixed;
      slot.reset();
      Timer timer;
      slot.emplace(is_growing ? growing_options(config, fpr) : fixed_options(config, fpr, items));
      const uint64_t refused = many ? insert_range_many(*slot, keys, items) : insert_range(*slot, keys, 0, items);
      const double rate = mops(items, timer.seconds());
      if (refused != 0) throw std::runtime_error(std::string(is_growing ? "growing" : "fixed") + " filter refused keys");
      (is_growing ? rates->growing : rates->fixed).push_back(rate);
    }
    progress("\r[fpr %g] %s: round %d of %d   ", fpr, rates->what.c_str(), round + 1, config.rounds);
  }
}

// Lookups of one kind on both filters, `rounds` times, alternating which goes first.
void time_lookups(const GrowthConfig& config, const CuckooFilter& growing, const CuckooFilter& fixed,
                  const std::vector<uint64_t>& queries, bool batched, RoundRates* rates) {
  for (int round = 0; round < config.rounds; ++round) {
    for (int turn = 0; turn < 2; ++turn) {
      const bool is_growing = (turn == 0) == (round % 2 == 0);
      const CuckooFilter& filter = is_growing ? growing : fixed;
      const Pass pass = batched ? batched_lookups(filter, queries.data(), queries.size())
                                : single_lookups(filter, queries.data(), queries.size());
      (is_growing ? rates->growing : rates->fixed).push_back(pass.mops);
    }
  }
}

// A bound's single and batched lookups (the `growing` side of the rates) against the fixed filter's on the
// same queries, `rounds` times, alternating which goes first.
template <typename Single, typename Batched>
void time_bound_against_fixed(const GrowthConfig& config, const CuckooFilter& fixed,
                              const std::vector<uint64_t>& queries, Single bound_single, Batched bound_batched,
                              RoundRates* single, RoundRates* batched) {
  for (int round = 0; round < config.rounds; ++round) {
    for (int turn = 0; turn < 2; ++turn) {
      if ((turn == 0) == (round % 2 == 0)) {
        single->growing.push_back(bound_single());
        batched->growing.push_back(bound_batched());
      } else {
        single->fixed.push_back(single_lookups(fixed, queries.data(), queries.size()).mops);
        batched->fixed.push_back(batched_lookups(fixed, queries.data(), queries.size()).mops);
      }
    }
  }
}

// An upper bound on the present-key lookup rate of any filter built as a stack of levels, newest first,
// the way GrowingCore is: the newest level holds about half the items, so about half the present keys are
// found only after probing the newest level and an older one, and no lookup can tell which keys those are
// before probing. Two fixed filters of the newest two levels' shapes (bucket count, fingerprint width),
// holding those levels' keys, stand in for the levels. An oracle probes, for each query, only what it
// must: the newest twin for keys the newest level holds, both twins for all other keys (older levels are
// free), with the queries sorted by class so that no branch mispredicts. The ratio to the right-sized
// fixed filter in the same rounds is what a perfect lookup of this design could reach.
std::vector<Rate> oracle_rates(const GrowthConfig& config, const CuckooFilter& growing, const CuckooFilter& fixed,
                               const KeyStream& keys, const std::vector<uint64_t>& full_at, Rng& rng) {
  const unsigned levels = growing.levels();
  if (levels < 3 || full_at.size() != levels) return {};
  const cuckoo::Config& level0 = growing.config();
  // Level s: n0 * 2^s buckets, f0 + ceil(log2(s + 1)) bits (docs/growth.md), and the keys inserted while
  // it was the newest: [full_at[s - 1], full_at[s]).
  auto twin = [&](unsigned s) {
    cuckoo::Options o;
    o.bucket_count = level0.bucket_count << s;
    o.fingerprint_bits = level0.fingerprint_bits + static_cast<unsigned>(std::ceil(std::log2(s + 1.0)));
    o.bucket_size = level0.bucket_size;
    o.seed = config.seed;
    CuckooFilter filter(o);
    insert_range(filter, keys, full_at[s - 1], full_at[s]);  // a key it refuses would only make it faster
    return filter;
  };
  const CuckooFilter newest = twin(levels - 1), second = twin(levels - 2);
  std::vector<uint64_t> in_newest, older;  // present keys by the level that holds them
  for (size_t q = 0; q < config.rate_queries; ++q) {
    const uint64_t i = rng.below(full_at.back());
    (i >= full_at[levels - 2] ? in_newest : older).push_back(keys.positive(i));
  }
  std::vector<uint64_t> all = in_newest;
  all.insert(all.end(), older.begin(), older.end());

  RoundRates single{"positive lookups, single, oracle bound of a level stack", {}, {}};
  RoundRates batched{"positive lookups, batched, oracle bound of a level stack", {}, {}};
  std::vector<uint8_t> out(kBatch), out2(kBatch);
  auto oracle_single = [&] {
    uint64_t hits = 0;
    Timer timer;
    for (uint64_t key : in_newest) hits += newest.contains(key);
    for (uint64_t key : older) hits += newest.contains(key) | second.contains(key);
    const double seconds = timer.seconds();
    consume(hits);
    return mops(all.size(), seconds);
  };
  auto oracle_batched = [&] {
    uint64_t hits = 0;
    Timer timer;
    for (size_t start = 0; start < in_newest.size(); start += kBatch) {
      const size_t m = std::min(kBatch, in_newest.size() - start);
      newest.contains_many(in_newest.data() + start, m, out.data());
      for (size_t i = 0; i < m; ++i) hits += out[i];
    }
    for (size_t start = 0; start < older.size(); start += kBatch) {
      const size_t m = std::min(kBatch, older.size() - start);
      newest.contains_many(older.data() + start, m, out.data());
      second.contains_many(older.data() + start, m, out2.data());
      for (size_t i = 0; i < m; ++i) hits += out[i] | out2[i];
    }
    const double seconds = timer.seconds();
    consume(hits);
    return mops(all.size(), seconds);
  };
  time_bound_against_fixed(config, fixed, all, oracle_single, oracle_batched, &single, &batched);
  return {single.summary(), batched.summary()};
}

// Present-key lookups of keys in the newest level, in the second newest, and in older ones, each against
// the fixed filter on the same keys. A lookup probes the levels newest first (the two fullest together),
// so a key pays for the levels before its own: the gap between these rows is the cost of not knowing
// which level holds a key.
std::vector<Rate> rates_by_level(const GrowthConfig& config, const CuckooFilter& growing, const CuckooFilter& fixed,
                                 const KeyStream& keys, const std::vector<uint64_t>& full_at, Rng& rng) {
  const size_t levels = full_at.size();
  if (levels < 3 || growing.levels() != levels) return {};
  // Level s holds the keys inserted while it was the newest: [full_at[s - 1], full_at[s]).
  const struct {
    const char* name;
    uint64_t from, to;
  } classes[] = {{"in the newest level", full_at[levels - 2], full_at[levels - 1]},
                 {"in the second newest level", full_at[levels - 3], full_at[levels - 2]},
                 {"in older levels", 0, full_at[levels - 3]}};
  std::vector<Rate> out;
  for (const auto& c : classes) {
    std::vector<uint64_t> queries(config.rate_queries);
    for (uint64_t& q : queries) q = keys.positive(c.from + rng.below(c.to - c.from));
    for (bool batched : {false, true}) {
      RoundRates rates{std::string("present keys ") + c.name + (batched ? ", batched" : ", single"), {}, {}};
      time_lookups(config, growing, fixed, queries, batched, &rates);
      out.push_back(rates.summary());
    }
  }
  return out;
}

// An upper bound on the present-key lookups, and a lower bound on the memory, of a design that moves
// entries into the new table when it grows (an expanding table, as InfiniFilter and taffy filters do), so
// that more than half of the keys live in the table probed first. A move takes one bit of the bucket index
// from the entry, so an entry that is to survive `a` moves carries a bits beyond the fingerprint it needs,
// and entries of different ages need one more bit to tell their lengths apart; entries out of moves go to
// older tables. An entry then stays in the first table for a + 1 sizes, and at a growth point that table
// holds the newest 1 - 2^-(a+1) of the items. With a = 0 the design is a stack of levels.
//
// Stand-ins, each a fixed filter at a fixed filter's load: table 1 holds those newest keys, with the
// newest level's fingerprint width plus a + 1 bits (plus nothing when a = 0); tables 2 and 3 hold the
// newer and the older half of the other keys, with the next two levels' widths. Real ones are slower
// (their probe decodes variable lengths, and older keys spread over more tables) and larger (older tables
// are not all full). Unlike oracle_rates(), the lookups do not know where a key is: the queries come in a
// random order, and a single lookup takes the fastest of three ways to probe (tables 1, 2, 3 with an early
// exit after each; 1 and 2 without a branch, then 3; all three without a branch).
std::vector<Rate> moving_design_rates(const GrowthConfig& config, const CuckooFilter& growing,
                                      const CuckooFilter& fixed, const KeyStream& keys, uint64_t items, Rng& rng) {
  const unsigned levels = growing.levels();
  if (levels < 4) return {};
  const cuckoo::Config& level0 = growing.config();
  auto width = [&](unsigned s) {  // level s's fingerprint bits: f0 + ceil(log2(s + 1)) (docs/growth.md)
    return level0.fingerprint_bits + static_cast<unsigned>(std::ceil(std::log2(s + 1.0)));
  };
  auto stand_in = [&](uint64_t from, uint64_t to, unsigned bits) {
    cuckoo::Options o;
    o.capacity = to - from;
    o.fingerprint_bits = bits;
    o.bucket_size = level0.bucket_size;
    o.seed = config.seed;
    CuckooFilter filter(o);
    insert_range(filter, keys, from, to);  // a key it refuses would only make it faster
    return filter;
  };
  std::vector<uint64_t> queries(config.rate_queries);
  for (uint64_t& q : queries) q = keys.positive(rng.below(items));

  std::vector<Rate> out;
  std::vector<uint8_t> found(kBatch);
  std::vector<uint64_t> pending(kBatch);
  for (unsigned spare = 0; spare <= 3; ++spare) {
    const uint64_t split = items >> (spare + 1);  // keys [split, items) are in table 1
    const CuckooFilter t1 = stand_in(split, items, width(levels - 1) + (spare == 0 ? 0 : spare + 1));
    const CuckooFilter t2 = stand_in(split / 2, split, width(levels - 2));
    const CuckooFilter t3 = stand_in(0, split / 2, width(levels - 3));
    double bits = 0;
    for (const CuckooFilter* t : {&t1, &t2, &t3}) bits += t->bits_per_item() * double(t->size());
    char design[128];
    std::snprintf(design, sizeof design, "%u spare bit%s (%s%.1f%% in table 1, memory >= %.2fx)", spare,
                  spare == 1 ? "" : "s", spare == 0 ? "a level stack, " : "",
                  100.0 * double(items - split) / double(items), bits / double(items) / fixed.bits_per_item());
    RoundRates single{std::string("positive lookups, single, bound, ") + design, {}, {}};
    RoundRates batched{std::string("positive lookups, batched, bound, ") + design, {}, {}};
    auto lookup_single = [&] {
      uint64_t hits = 0;
      double best = 0;
      for (int way = 0; way < 3; ++way) {
        Timer timer;
        if (way == 0) {
          for (uint64_t key : queries) hits += t1.contains(key) || t2.contains(key) || t3.contains(key);
        } else if (way == 1) {
          for (uint64_t key : queries) hits += (t1.contains(key) | t2.contains(key)) || t3.contains(key);
        } else {
          for (uint64_t key : queries) hits += t1.contains(key) | t2.contains(key) | t3.contains(key);
        }
        best = std::max(best, mops(queries.size(), timer.seconds()));
      }
      consume(hits);
      return best;
    };
    auto lookup_batched = [&] {  // each table probes only the keys the tables before it missed
      uint64_t hits = 0;
      Timer timer;
      for (size_t start = 0; start < queries.size(); start += kBatch) {
        size_t left = std::min(kBatch, queries.size() - start);
        std::copy_n(queries.data() + start, left, pending.data());
        for (const CuckooFilter* t : {&t1, &t2, &t3}) {
          t->contains_many(pending.data(), left, found.data());
          size_t missed = 0;
          for (size_t i = 0; i < left; ++i) {
            hits += found[i];
            pending[missed] = pending[i];
            missed += found[i] == 0;
          }
          left = missed;
        }
      }
      const double seconds = timer.seconds();
      consume(hits);
      return mops(queries.size(), seconds);
    };
    time_bound_against_fixed(config, fixed, queries, lookup_single, lookup_batched, &single, &batched);
    out.push_back(single.summary());
    out.push_back(batched.summary());
  }
  return out;
}

std::vector<Rate> measure_rates(const GrowthConfig& config, double fpr, const KeyStream& keys,
                                const std::vector<uint64_t>& full_at) {
  const uint64_t items = full_at.back();
  std::vector<Rate> out;
  std::optional<CuckooFilter> growing, fixed;
  for (bool many : {false, true}) {
    RoundRates rates{many ? "insert_many (amortized)" : "insert (amortized)", {}, {}};
    time_construction(config, fpr, keys, items, many, &rates, &growing, &fixed);
    out.push_back(rates.summary());
  }
  progress("\n");

  Rng rng(config.seed ^ 0xBEEF);
  uint64_t next_negative = uint64_t{1} << 40;  // away from the curve's negative keys
  const auto positives = make_queries(keys, items, 1.0, config.rate_queries, rng, &next_negative);
  const auto negatives = make_queries(keys, items, 0.0, config.rate_queries, rng, &next_negative);
  for (const char* state : {"levels full", "just grown"}) {
    if (state[0] == 'j') {
      // One more key: the growing filter adds a level that holds only it; the fixed one stores it too.
      const unsigned levels = growing->levels();
      if (!growing->insert(keys.positive(items)) || growing->levels() != levels + 1 || !fixed->insert(keys.positive(items)))
        throw std::runtime_error("the final insert did not grow the filter");
    }
    for (bool positive : {true, false}) {
      for (bool batched : {false, true}) {
        RoundRates rates{std::string(positive ? "positive" : "negative") + " lookups, " +
                             (batched ? "batched" : "single") + ", " + state + " (" +
                             std::to_string(growing->levels()) + " levels)",
                         {},
                         {}};
        time_lookups(config, *growing, *fixed, positive ? positives : negatives, batched, &rates);
        out.push_back(rates.summary());
      }
    }
    if (state[0] == 'l') {
      for (const Rate& rate : oracle_rates(config, *growing, *fixed, keys, full_at, rng)) out.push_back(rate);
      for (const Rate& rate : moving_design_rates(config, *growing, *fixed, keys, items, rng)) out.push_back(rate);
      for (const Rate& rate : rates_by_level(config, *growing, *fixed, keys, full_at, rng)) out.push_back(rate);
    }
    progress("\r[fpr %g] lookups, %s: done   ", fpr, state);
  }
  progress("\n");
  return out;
}

int run(int argc, char** argv) {
  const GrowthConfig config = parse_args(argc, argv);
  Timer total;
  const std::string config_text = describe_config(config);
  write_run_description(config.out_dir, config_text);
  std::printf("Configuration\n%s\n", config_text.c_str());
  std::fflush(stdout);

  const KeyStream keys(config.seed);
  std::vector<GrowthResult> results;
  for (double fpr : config.fprs) {
    Timer timer;
    GrowthResult result;
    result.fpr = fpr;
    const auto min_items = static_cast<uint64_t>(config.growth * config.initial_capacity);
    progress("[fpr %g] growth schedule to %llu items\n", fpr, (unsigned long long)min_items);
    result.growth_at = growth_schedule(growing_options(config, fpr), keys, min_items);
    result.final_items = result.growth_at.back();
    result.curve = measure_curve(config, fpr, keys, result.growth_at, result.final_items);
    result.rates = measure_rates(config, fpr, keys, result.growth_at);
    result.seconds = timer.seconds();
    results.push_back(std::move(result));
  }

  const std::string summary = render_summary(config, results);
  std::printf("%s", summary.c_str());
  write_text(config.out_dir + "/summary.txt", summary);
  write_csv(config, results);
  write_figures(config, results);
  std::printf("\nchecksum %llu; total %.1f s; results in %s/\n", (unsigned long long)g_checksum_sink,
              total.seconds(), config.out_dir.c_str());
  for (const auto& result : results)
    for (const auto& point : result.curve)
      if (point.growing.false_negatives || point.fixed.false_negatives || point.fixed.failed_inserts) return 1;
  return 0;
}

}  // namespace

const char* kind_name(CurvePoint::Kind kind) {
  return kind == CurvePoint::kLevelsFull ? "levels full" : kind == CurvePoint::kJustGrown ? "just grown"
                                                                                          : "grid";
}

}  // namespace bench

int main(int argc, char** argv) {
  try {
    return bench::run(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "growth_eval: %s\n", error.what());
    return 2;
  }
}
