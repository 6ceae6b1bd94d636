// bench/paper/figure2.cpp: Figure 2 of the paper: the load factor a cuckoo table reaches at its first
// failed insert against the fingerprint size f = 1..20 bits, for buckets of b = 4 and b = 8 entries and
// tables of 2^10, 2^15 and 2^20 buckets (plus 2^23 with --full). The core only takes f >= 4, so this is a
// simulation (load_sim.h) with the core's hash.h index, fingerprint and alternate-bucket functions,
// plain uint32 slots and the paper's insert (no look-ahead). Two worker threads share the simulations.
//
// Output: figure2_load_vs_fingerprint.csv (bucket_size, buckets, fingerprint_bits, load_at_first_failure;
// one row per b, table size and f), figure2_b4.svg, figure2_b8.svg, and on stdout: load climbs with f
// and levels off near 0.95-0.98 (b = 4) and 0.99 (b = 8) from f ~ 6; small f fails early, more so in
// bigger tables:
//
//   Figure 2: load factor at the first failure vs fingerprint bits (simulation with the core's
//   hash.h index/fingerprint/alt functions and plain uint32 slots; the core itself takes f >= 4)
//   b = 4   f:    1    2    3    4    5    6    7    8    9   10   11   12   13   14   15   16   17   18   19   20
//     m = 2^10   0.34 0.75 0.86 0.94 0.96 0.97 0.97 0.97 0.97 0.98 0.97 0.96 0.97 0.98 0.97 0.98 0.97 0.97 0.98 0.98
//     m = 2^15   ...
//     m = 2^20   0.12 0.34 0.60 0.85 0.91 0.94 0.95 0.96 0.95 0.96 0.96 0.96 0.96 0.96 0.96 0.96 0.95 0.96 0.96 0.96
//   b = 8   f: ...   (the same three rows)
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>

#include "csv.h"
#include "load_sim.h"
#include "paper/results.h"
#include "report.h"
#include "svg_plot.h"

namespace bench::paper {

void run_figure2(const EvalConfig& config) {
  struct Job {
    unsigned b, f;
    uint64_t buckets;
    double load;
  };
  std::vector<Job> jobs;
  for (unsigned b : {4u, 8u})
    for (uint64_t buckets : config.fig2_buckets)
      for (unsigned f = 1; f <= 20; ++f) jobs.push_back({b, f, buckets, 0});
  // Largest tables first so the two workers finish together.
  std::sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) { return a.buckets * a.b > b.buckets * b.b; });
  std::atomic<size_t> next{0}, done{0};
  std::mutex print_mutex;
  auto worker = [&] {
    for (size_t i; (i = next++) < jobs.size();) {
      Job& job = jobs[i];
      job.load = simulate_load_at_first_failure(job.buckets, job.b, job.f, config.seed + job.f * 131 + job.b);
      std::lock_guard<std::mutex> lock(print_mutex);
      progress("\r[Figure 2] %zu / %zu simulations   ", ++done, jobs.size());
    }
  };
  const unsigned threads = std::max(1u, std::min(2u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  progress("\n");
  std::sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) {
    return std::tie(a.b, a.buckets, a.f) < std::tie(b.b, b.buckets, b.f);
  });

  CsvWriter csv(config.out_dir + "/figure2_load_vs_fingerprint.csv",
                {"bucket_size", "buckets", "fingerprint_bits", "load_at_first_failure"});
  std::printf(
      "\nFigure 2: load factor at the first failure vs fingerprint bits (simulation with the core's\n"
      "hash.h index/fingerprint/alt functions and plain uint32 slots; the core itself takes f >= 4)\n");
  for (unsigned b : {4u, 8u}) {
    Plot plot;
    plot.title = "Figure 2: achieved load vs fingerprint size, b = " + std::to_string(b);
    plot.x_label = "fingerprint size f (bits)";
    plot.y_label = "load factor at first failure";
    std::printf("b = %u   f:", b);
    for (unsigned f = 1; f <= 20; ++f) std::printf("%5u", f);
    std::printf("\n");
    for (uint64_t buckets : config.fig2_buckets) {
      Series series;
      series.name = "m = 2^" + std::to_string(int(std::log2(double(buckets))));
      std::printf("  %-10s", series.name.c_str());
      for (const Job& job : jobs) {
        if (job.b != b || job.buckets != buckets) continue;
        series.points.push_back({double(job.f), job.load});
        std::printf("%5.2f", job.load);
        csv.row({CsvWriter::cell(b), CsvWriter::cell(double(buckets)), CsvWriter::cell(job.f),
                 CsvWriter::cell(job.load)});
      }
      std::printf("\n");
      plot.series.push_back(series);
    }
    write_svg(plot, config.out_dir + "/figure2_b" + std::to_string(b) + ".svg");
  }
}

}  // namespace bench::paper
