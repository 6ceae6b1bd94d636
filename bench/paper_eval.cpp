// bench/paper_eval.cpp: the paper's Section 7 on this machine (Fan et al., "Cuckoo Filter: Practically
// Better Than Bloom", CoNEXT 2014), plus Figures 2 and 4 of Sections 4-5, as one program.
//
// Each result lives in its own file in bench/paper/, whose header says what it reproduces and what its
// output looks like:
//   table3.cpp                Table 3: space efficiency and construction speed
//   figure5.cpp               Figure 5: lookups vs fraction of positive queries (single and batched)
//   figure6_7.cpp             Figures 6 and 7: lookups and inserts vs occupancy
//   figure8.cpp               Figure 8: delete-until-empty vs occupancy
//   batch_and_huge_pages.cpp  our CF and ss-CF: insert_many, huge pages on vs off, the memory ceiling
//   figure2.cpp               Figure 2: load at the first failure vs fingerprint bits (simulation)
//   figure4.cpp               Figure 4: bits per item vs false-positive rate
// Shared: lifecycle.{h,cpp} (one fill / measure / delete lifecycle per filter gives Table 3 and
// Figures 5-8), lookup_timing.h (how lookups are timed), options.{h,cpp} (flags, config.txt),
// report.{h,cpp} (stdout/stderr/text helpers); csv.h, svg_plot.h and keys.h in bench/.
//
// Usage: paper_eval [--full] [--out DIR] [--table-mb N] [--queries N] [--steps N] [--skip-fig2] [--skip-fig4]
//                   [--skip-filters] (Table 3 and Figures 5-8; leaves insert_many and huge pages on/off)
// Output: the tables on stdout, progress on stderr, CSV + SVG + table3.txt + machine.txt + config.txt in DIR.

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "paper/lifecycle.h"
#include "paper/options.h"
#include "paper/results.h"
#include "report.h"
#include "timer.h"

namespace bench::paper {
namespace {

int run(int argc, char** argv) {
  const EvalConfig config = parse_args(argc, argv);
  Timer total;
  const std::string config_text = describe_config(config);
  const std::string machine = write_run_description(config.out_dir, config_text);
  std::printf("Machine\n%s\nConfiguration\n%s\n", machine.c_str(), config_text.c_str());
  std::fflush(stdout);

  std::vector<FilterResult> results;
  if (config.filters) results = evaluate_filters(config);
  const std::vector<BatchResult> batch = measure_batch_and_huge_pages(config);

  const std::string table3 = render_table3(results, config);
  const std::string fig5 = render_figure5(results);
  const std::string occupancy = render_occupancy_table(results) + render_delete_summary(results);
  const std::string summary = render_cuckoo_summary(results, batch, config);
  bool ok = true;
  const std::string checks = render_checks(results, &ok);
  std::printf("\n%s\n%s\n%s\n%s\n%s", table3.c_str(), fig5.c_str(), occupancy.c_str(), summary.c_str(),
              checks.c_str());
  std::fflush(stdout);
  write_text(config.out_dir + "/table3.txt", table3 + "\n" + fig5 + "\n" + occupancy + "\n" + summary + "\n" + checks);
  write_table3_csv(results, config);
  write_batch_and_huge_pages_csv(batch, config);
  write_figure5(results, config);
  write_figures6_7(results, config);
  write_figure8(results, config);

  if (config.fig2) run_figure2(config);
  if (config.fig4) run_figure4(config);

  std::printf("\nchecksum %llu; total %.1f s; results in %s/\n", (unsigned long long)g_checksum_sink,
              total.seconds(), config.out_dir.c_str());
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace bench::paper

int main(int argc, char** argv) {
  try {
    return bench::paper::run(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "paper_eval: %s\n", error.what());
    return 2;
  }
}
