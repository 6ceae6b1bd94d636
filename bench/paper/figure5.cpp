// bench/paper/figure5.cpp: Figure 5 of the paper: lookup throughput on full filters against the
// fraction p of queries that hit inserted keys (0, 25, 50, 75, 100%). Every filter is timed with
// single-key contains(); the CF and ss-CF also with batched contains_many() (lookup_timing.h), a line
// the paper does not have. Each point is the median of 3 passes (lifecycle.cpp).
//
// Output: figure5_lookup_vs_positive.csv (filter, mode, positive_fraction, mops; single and batched rows
// for every filter and fraction), figure5_lookup_vs_positive.svg, and on stdout (rates depend on the
// machine and its load; batched CF lookups run ~1.5-4x as fast as single ones, the QF and dl-CBF trail):
//
//   Figure 5: lookup throughput (M queries/s, median of 3 passes) vs fraction of positive queries, full filters
//   filter                    0%       25%       50%       75%      100%
//   CF single              26.54     23.21     26.46     25.77     23.31
//   CF batched             95.72     72.98     94.72     93.70     71.62
//   ss-CF single ... ss-CF batched ... BF ... blocked BF ... QF ... dl-CBF   (one line each)
#include <cstdio>
#include <iterator>
#include <sstream>

#include "csv.h"
#include "paper/lookup_timing.h"
#include "paper/results.h"
#include "svg_plot.h"

namespace bench::paper {

std::string render_figure5(const std::vector<FilterResult>& results) {
  std::ostringstream out;
  char line[256];
  out << "Figure 5: lookup throughput (M queries/s, median of " << kRepetitions
      << " passes) vs fraction of positive queries, full filters\n";
  std::snprintf(line, sizeof line, "%-18s", "filter");
  out << line;
  for (double p : kFractions) {
    std::snprintf(line, sizeof line, "%9.0f%%", 100 * p);
    out << line;
  }
  out << "\n";
  auto row = [&](const std::string& name, const std::vector<double>& values) {
    std::snprintf(line, sizeof line, "%-18s", name.c_str());
    out << line;
    for (double v : values) {
      std::snprintf(line, sizeof line, "%10.2f", v);
      out << line;
    }
    out << "\n";
  };
  for (const auto& r : results) {
    row(r.name + (r.has_batched_line ? " single" : ""), r.fig5_single);
    if (r.has_batched_line) row(r.name + " batched", r.fig5_batched);
  }
  return out.str();
}

void write_figure5(const std::vector<FilterResult>& results, const EvalConfig& config) {
  CsvWriter csv(config.out_dir + "/figure5_lookup_vs_positive.csv", {"filter", "mode", "positive_fraction", "mops"});
  Plot plot;
  plot.title = "Figure 5: lookup throughput, full filters";
  plot.x_label = "p: fraction of queries on existing items";
  plot.y_label = "lookup throughput (M ops/s)";
  plot.x_tick_labels = {"0%", "25%", "50%", "75%", "100%"};
  for (const auto& r : results) {
    Series single{r.name + (r.has_batched_line ? " single" : ""), {}, false, false};
    Series batched{r.name + " batched", {}, true, false};
    for (size_t i = 0; i < std::size(kFractions); ++i) {
      single.points.push_back({kFractions[i], r.fig5_single[i]});
      batched.points.push_back({kFractions[i], r.fig5_batched[i]});
      csv.row({r.name, "single", CsvWriter::cell(kFractions[i]), CsvWriter::cell(r.fig5_single[i])});
      csv.row({r.name, "batched", CsvWriter::cell(kFractions[i]), CsvWriter::cell(r.fig5_batched[i])});
    }
    plot.series.push_back(single);
    if (r.has_batched_line) plot.series.push_back(batched);
  }
  write_svg(plot, config.out_dir + "/figure5_lookup_vs_positive.svg");
}

}  // namespace bench::paper
