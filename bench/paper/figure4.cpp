// bench/paper/figure4.cpp: Figure 4 of the paper: bits per item against the false-positive rate. The
// curves are the paper's Table 2 formulas with load alpha = 95.5%: Bloom 1.44 log2(1/e), CF
// (log2(1/e) + 3) / alpha, ss-CF (log2(1/e) + 2) / alpha and the lower bound log2(1/e). The points are
// our CF (f = 6..16) and ss-CF (f = 7..17) with 2^16 buckets of 4 (2^20 with --full), filled to the
// first failure, their FPR measured on up to 4 M never-inserted keys.
//
// Output: figure4_curves.csv (epsilon, bloom, cf, ss_cf, lower_bound; 51 rows from 1e-6 to 1e-1),
// figure4_measured.csv (filter, fingerprint_bits, items, measured_fpr, bits_per_item; 12 rows),
// figure4_bits_vs_fpr.svg, and on stdout one line per point: the load is ~0.97-0.98, bits per item about
// f + 0.3 (CF) or f - 0.7 (ss-CF), the FPR halves with each extra bit:
//
//   Figure 4: bits per item vs target false-positive rate (curves: paper's Table 2 with alpha = 95.5%;
//   points: our filters filled to the first failure, 65536 buckets x 4)
//     CF     f =  6: load 0.954, bits/item   6.29, measured FPR 0.114 (478328 / 4194304)
//     ...
//     CF     f = 16: load 0.978, bits/item  16.36, measured FPR 0.000121 (507 / 4194304)
//     ss-CF  f =  7: load 0.971, bits/item   6.18, measured FPR 0.0595 (249358 / 4194304)
//     ...
//     ss-CF  f = 17: load 0.978, bits/item  16.36, measured FPR 5.75e-05 (241 / 4194304)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "csv.h"
#include "cuckoo_adapter.h"
#include "keys.h"
#include "paper/results.h"
#include "report.h"
#include "svg_plot.h"

namespace bench::paper {
namespace {

template <bool kSemi>
std::vector<std::pair<double, double>> measure_space_points(const EvalConfig& config, std::vector<unsigned> widths,
                                                            CsvWriter& csv) {
  using F = CuckooAdapter<kSemi>;
  std::vector<std::pair<double, double>> points;
  const KeyStream keys(config.seed);
  for (unsigned f : widths) {
    F filter = F::with_shape(config.fig4_buckets, f, config.seed + f);
    uint64_t n = 0;
    while (filter.insert(keys.positive(n))) ++n;
    const size_t queries = std::min<size_t>(config.fpr_queries, size_t{4} << 20);
    uint64_t hits = 0;
    for (size_t j = 0; j < queries; ++j) hits += filter.contains(keys.negative(j));
    const double fpr = double(hits) / queries;
    const double bits = filter.memory_bytes() * 8.0 / n;
    points.push_back({fpr, bits});
    csv.row({F::kName, CsvWriter::cell(f), CsvWriter::cell(double(n)), CsvWriter::cell(fpr), CsvWriter::cell(bits)});
    std::printf("  %-6s f = %2u: load %.3f, bits/item %6.2f, measured FPR %.3g (%llu / %zu)\n", F::kName, f,
                double(n) / filter.filter().slot_count(), bits, fpr, (unsigned long long)hits, queries);
    progress("\r[Figure 4] %s f = %u   ", F::kName, f);
  }
  return points;
}

}  // namespace

void run_figure4(const EvalConfig& config) {
  std::printf(
      "\nFigure 4: bits per item vs target false-positive rate (curves: paper's Table 2 with alpha = 95.5%%;\n"
      "points: our filters filled to the first failure, %llu buckets x 4)\n",
      (unsigned long long)config.fig4_buckets);
  CsvWriter csv(config.out_dir + "/figure4_measured.csv",
                {"filter", "fingerprint_bits", "items", "measured_fpr", "bits_per_item"});
  Plot plot;
  plot.title = "Figure 4: bits per item vs false-positive rate";
  plot.x_label = "false-positive rate epsilon (log)";
  plot.y_label = "bits per item";
  plot.log_x = true;
  const double alpha = 0.955;
  Series bloom{"Bloom 1.44 log2(1/e)", {}, true, false};
  Series cf{"CF (log2(1/e)+3)/a", {}, true, false};
  Series ss{"ss-CF (log2(1/e)+2)/a", {}, true, false};
  Series lower{"lower bound log2(1/e)", {}, true, false};
  CsvWriter curves(config.out_dir + "/figure4_curves.csv", {"epsilon", "bloom", "cf", "ss_cf", "lower_bound"});
  for (double e = -6; e <= -0.99; e += 0.1) {
    const double eps = std::pow(10.0, e), l = std::log2(1 / eps);
    bloom.points.push_back({eps, 1.44 * l});
    cf.points.push_back({eps, (l + 3) / alpha});
    ss.points.push_back({eps, (l + 2) / alpha});
    lower.points.push_back({eps, l});
    curves.row({CsvWriter::cell(eps), CsvWriter::cell(1.44 * l), CsvWriter::cell((l + 3) / alpha),
                CsvWriter::cell((l + 2) / alpha), CsvWriter::cell(l)});
  }
  Series cf_points{"CF measured", measure_space_points<false>(config, {6, 8, 10, 12, 14, 16}, csv), false, true};
  Series ss_points{"ss-CF measured", measure_space_points<true>(config, {7, 9, 11, 13, 15, 17}, csv), false, true};
  progress("\n");
  plot.series = {bloom, cf, ss, lower, cf_points, ss_points};
  write_svg(plot, config.out_dir + "/figure4_bits_vs_fpr.svg");
}

}  // namespace bench::paper
