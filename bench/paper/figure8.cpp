// bench/paper/figure8.cpp: Figure 8 of the paper: delete-until-empty throughput against occupancy, for
// the filters that can delete (CF, ss-CF, QF, dl-CBF). Every inserted key is deleted,
// newest first, in as many steps as the fill had (lifecycle.cpp); a delete that returns false counts as
// a failed delete in the Checks line.
//
// Output: figure8_delete_vs_occupancy.csv (filter, occupancy, delete_mops; one row per deletable filter
// and step), figure8_delete_vs_occupancy.svg, and one stdout line after the Figures 6-7 table, about
// five rate@occupancy pairs per filter:
//
//   delete-until-empty (Figure 8):  CF: 13.16@0.98 11.07@0.78 12.97@0.59 ...  ss-CF: 7.13@0.98 ...  QF: ...
#include <algorithm>
#include <sstream>

#include "csv.h"
#include "paper/results.h"
#include "report.h"
#include "svg_plot.h"

namespace bench::paper {

std::string render_delete_summary(const std::vector<FilterResult>& results) {
  std::ostringstream out;
  out << "delete-until-empty (Figure 8):";
  for (const auto& r : results) {
    if (r.deletes.empty()) continue;
    out << "  " << r.name << ":";
    for (size_t i = 0; i < r.deletes.size(); i += std::max<size_t>(1, r.deletes.size() / 4))
      out << fmt(" %.2f", r.deletes[i].delete_mops) << fmt("@%.2f", r.deletes[i].alpha);
  }
  out << "\n";
  return out.str();
}

void write_figure8(const std::vector<FilterResult>& results, const EvalConfig& config) {
  CsvWriter csv(config.out_dir + "/figure8_delete_vs_occupancy.csv", {"filter", "occupancy", "delete_mops"});
  Plot plot;
  plot.title = "Figure 8: delete-until-empty throughput vs occupancy";
  plot.x_label = "alpha: table occupancy";
  plot.y_label = "delete throughput (M ops/s)";
  for (const auto& r : results) {
    if (r.deletes.empty()) continue;
    Series s{r.name, {}, false, false};
    for (const auto& point : r.deletes) {
      s.points.push_back({point.alpha, point.delete_mops});
      csv.row({r.name, CsvWriter::cell(point.alpha), CsvWriter::cell(point.delete_mops)});
    }
    plot.series.push_back(s);
  }
  write_svg(plot, config.out_dir + "/figure8_delete_vs_occupancy.svg");
}

}  // namespace bench::paper
