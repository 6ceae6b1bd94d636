// bench/growth_eval.h: what growth_eval measures, shared by its driver (growth_eval.cpp) and its report
// (growth_report.cpp): a growing filter side by side with a right-sized fixed filter in the same run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

struct GrowthConfig {
  bool full = false;
  std::string out_dir = "bench/results/manual/growth";
  uint64_t initial_capacity = 4096;  // C0: Options::capacity of the growing filter (its level 0)
  double growth = 1000;              // grow to at least growth * C0 items, then on until the levels are full
  std::vector<double> fprs = {0.001, 0.01};
  int points_per_doubling = 4;                // the curve's grid, besides the points around every growth
  size_t fpr_queries = size_t{1} << 20;       // negative keys per curve point (also timed as lookups)
  size_t positive_queries = size_t{1} << 18;  // positive keys per curve point
  size_t rate_queries = size_t{1} << 20;      // keys per lookup pass at the final size
  int rounds = 3;                             // alternating growing / fixed rounds at the final size
  unsigned growing_max_kicks = 0;             // an experiment: Options::max_kicks of the growing filter (0: default)
  uint64_t seed = 0x243F6A8885A308D3ull;
};

// One filter at one size.
struct Measured {
  uint64_t items = 0;
  unsigned levels = 1;
  double bits_per_item = 0;
  double fpr = 0;                          // measured on GrowthConfig::fpr_queries never-inserted keys
  double bound = 0;                        // false_positive_bound() as the filter is
  double neg_single = 0, neg_batched = 0;  // M lookups/s, never-inserted keys
  double pos_single = 0, pos_batched = 0;  // M lookups/s, inserted keys
  uint64_t false_negatives = 0;            // must be 0
  uint64_t failed_inserts = 0;             // the fixed filter, sized for these items: must be 0
};

// A point of the curve: the growing filter and a fixed filter created for exactly its item count.
struct CurvePoint {
  enum Kind { kGrid,
              kLevelsFull,
              kJustGrown };
  Kind kind = kGrid;
  Measured growing, fixed;
};

// Medians over GrowthConfig::rounds at the final size; ratio = median of the per-round growing / fixed.
struct Rate {
  std::string what;
  double growing = 0, fixed = 0, ratio = 0;
};

struct GrowthResult {
  double fpr = 0;
  uint64_t final_items = 0;         // levels full, at least growth * C0
  std::vector<uint64_t> growth_at;  // item counts at which the levels were full (the next insert grew)
  std::vector<CurvePoint> curve;    // ordered by items
  std::vector<Rate> rates;
  double seconds = 0;
};

const char* kind_name(CurvePoint::Kind kind);

// growth_report.cpp: the text summary (stdout and summary.txt), CSV files and SVG figures.
std::string render_summary(const GrowthConfig& config, const std::vector<GrowthResult>& results);
void write_csv(const GrowthConfig& config, const std::vector<GrowthResult>& results);
void write_figures(const GrowthConfig& config, const std::vector<GrowthResult>& results);

// The targets, checked by the summary.
inline constexpr double kMemoryTargetFull = 1.7;                     // levels full, at >= 1000x
inline constexpr double kMemoryTargetGrown = 2 * kMemoryTargetFull;  // right after that growth
inline constexpr double kRateTarget = 0.6;                           // inserts, positive lookups

}  // namespace bench
