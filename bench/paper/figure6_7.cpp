// bench/paper/figure6_7.cpp: Figures 6 and 7 of the paper, against occupancy alpha (items / design
// capacity) as each filter fills in steps (10 by default, 20 with --full): Figure 6a negative and 6b
// positive single-key lookups after each step, Figure 7 the insert throughput of each step
// (lifecycle.cpp). Cuckoo inserts slow down sharply in the last steps before the first failure; Bloom
// filters' inserts stay flat.
//
// Output: figure6_7_occupancy.csv (filter, occupancy, insert_mops, lookup_positive_mops,
// lookup_negative_mops; one row per filter and step), figure6a_negative_lookup_vs_occupancy.svg,
// figure6b_positive_lookup_vs_occupancy.svg, figure7_insert_vs_occupancy.svg, and on stdout about six
// rows per filter (every fifth step and the last), followed by Figure 8's line (figure8.cpp):
//
//   Figures 6-8 (M ops/s by occupancy; full series in the CSV and SVG files)
//   filter        alpha    insert   lookup+   lookup-
//   CF             0.10     23.14     26.30     25.98
//   ...
//   CF             0.98      1.03     26.04     26.32
//   ss-CF          0.10     10.65     21.94     21.48
//   ...
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "csv.h"
#include "paper/results.h"
#include "svg_plot.h"

namespace bench::paper {

std::string render_occupancy_table(const std::vector<FilterResult>& results) {
  std::ostringstream out;
  char line[256];
  out << "Figures 6-8 (M ops/s by occupancy; full series in the CSV and SVG files)\n";
  std::snprintf(line, sizeof line, "%-12s %6s %9s %9s %9s\n", "filter", "alpha", "insert", "lookup+", "lookup-");
  out << line;
  for (const auto& r : results) {
    const size_t stride = std::max<size_t>(1, r.occupancy.size() / 5);
    for (size_t i = 0; i < r.occupancy.size(); ++i) {
      if (i % stride != 0 && i + 1 != r.occupancy.size()) continue;
      const auto& p = r.occupancy[i];
      std::snprintf(line, sizeof line, "%-12s %6.2f %9.2f %9.2f %9.2f\n", r.name.c_str(), p.alpha, p.insert_mops,
                    p.lookup_pos_mops, p.lookup_neg_mops);
      out << line;
    }
  }
  return out.str();
}

void write_figures6_7(const std::vector<FilterResult>& results, const EvalConfig& config) {
  CsvWriter csv(config.out_dir + "/figure6_7_occupancy.csv",
                {"filter", "occupancy", "insert_mops", "lookup_positive_mops", "lookup_negative_mops"});
  Plot neg, pos, ins;
  neg.title = "Figure 6a: negative lookups vs occupancy";
  pos.title = "Figure 6b: positive lookups vs occupancy";
  ins.title = "Figure 7: insert throughput vs occupancy";
  for (Plot* p : {&neg, &pos, &ins}) {
    p->x_label = "alpha: occupancy (items / design capacity; QF: / 90% of its slots)";
    p->y_label = p == &ins ? "insert throughput (M ops/s)" : "lookup throughput (M ops/s)";
  }
  for (const auto& r : results) {
    Series sn{r.name, {}, false, false}, sp{r.name, {}, false, false}, si{r.name, {}, false, false};
    for (const auto& point : r.occupancy) {
      sn.points.push_back({point.alpha, point.lookup_neg_mops});
      sp.points.push_back({point.alpha, point.lookup_pos_mops});
      si.points.push_back({point.alpha, point.insert_mops});
      csv.row({r.name, CsvWriter::cell(point.alpha), CsvWriter::cell(point.insert_mops),
               CsvWriter::cell(point.lookup_pos_mops), CsvWriter::cell(point.lookup_neg_mops)});
    }
    neg.series.push_back(sn), pos.series.push_back(sp), ins.series.push_back(si);
  }
  write_svg(neg, config.out_dir + "/figure6a_negative_lookup_vs_occupancy.svg");
  write_svg(pos, config.out_dir + "/figure6b_positive_lookup_vs_occupancy.svg");
  write_svg(ins, config.out_dir + "/figure7_insert_vs_occupancy.svg");
}

}  // namespace bench::paper
