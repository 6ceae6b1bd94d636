// bench/paper/lifecycle.h: one lifecycle per filter, the measurements behind Table 3 and Figures 5-8.
//
// Every filter goes through the adapter contract of filter_api.h and gets the same table bytes:
//   fill in occupancy steps (Figure 7: insert throughput per step; Figure 6: positive and negative lookups
//   after each step) until the first failure (CF, ss-CF, dl-CBF) or the design capacity (the others)
//   -> Table 3 (items, bits/item, construction rate = items / total insert time), the measured FPR,
//   Figure 5 (lookups vs fraction of positive queries, single-key and batched)
//   -> delete until empty in steps (Figure 8, deletable filters only).
// table3.cpp, figure5.cpp, figure6_7.cpp and figure8.cpp report what it records.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "paper/options.h"

namespace bench::paper {

struct OccupancyPoint {
  double alpha;        // items / design capacity after the step
  double insert_mops;  // inserts during this step
  double lookup_pos_mops, lookup_neg_mops;
};

struct DeletePoint {
  double alpha;  // occupancy at the start of the step
  double delete_mops;
};

struct FilterResult {
  std::string name;
  uint64_t items = 0;
  double bits_per_item = 0, fpr = 0, construction_mops = 0;
  std::vector<double> fig5_single, fig5_batched;  // at kFractions
  bool has_batched_line = false;
  std::vector<OccupancyPoint> occupancy;
  std::vector<DeletePoint> deletes;
  uint64_t delete_misses = 0;  // erase() of an inserted key that returned false: must be 0
  uint64_t false_negatives = 0;
};

// Warms the process's memory (stdout says how long it took), then runs the lifecycle on the six filters
// of Table 3 in the table's order: CF, ss-CF, BF, blocked BF, QF, dl-CBF.
std::vector<FilterResult> evaluate_filters(const EvalConfig& config);

// The "Checks:" line: false negatives and failed deletes per filter, then OK or FAILED. *ok is set to
// whether every count is 0.
std::string render_checks(const std::vector<FilterResult>& results, bool* ok);

}  // namespace bench::paper
