// bench/paper/results.h: one entry per result paper_eval reports, each implemented in its own file
// whose header comment says what it reproduces and what its output looks like. paper_eval.cpp calls
// them in order; render_* return the text for stdout and table3.txt, write_* write the CSV and SVG files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "paper/lifecycle.h"
#include "paper/options.h"

namespace bench::paper {

// Table 3: space efficiency and construction speed (table3.cpp).
std::string render_table3(const std::vector<FilterResult>& results, const EvalConfig& config);
void write_table3_csv(const std::vector<FilterResult>& results, const EvalConfig& config);

// Figure 5: lookups vs fraction of positive queries (figure5.cpp).
std::string render_figure5(const std::vector<FilterResult>& results);
void write_figure5(const std::vector<FilterResult>& results, const EvalConfig& config);

// Figures 6 and 7: lookups and inserts vs occupancy (figure6_7.cpp).
std::string render_occupancy_table(const std::vector<FilterResult>& results);
void write_figures6_7(const std::vector<FilterResult>& results, const EvalConfig& config);

// Figure 8: delete-until-empty (figure8.cpp).
std::string render_delete_summary(const std::vector<FilterResult>& results);
void write_figure8(const std::vector<FilterResult>& results, const EvalConfig& config);

// Our CF and ss-CF beyond the paper: insert_many, huge pages on vs off, and the memory ceiling
// (batch_and_huge_pages.cpp).
struct BatchResult {
  std::string name;
  bool huge_pages;
  uint64_t items;
  double construction_mops;
  long huge_kb;                         // AnonHugePages growth while this filter was alive
  std::vector<double> single, batched;  // at kFractions
};
// CF (huge pages on, then off), ss-CF and the bare-reads ceiling, in that order.
std::vector<BatchResult> measure_batch_and_huge_pages(const EvalConfig& config);
std::string render_cuckoo_summary(const std::vector<FilterResult>& results, const std::vector<BatchResult>& batch,
                                  const EvalConfig& config);
void write_batch_and_huge_pages_csv(const std::vector<BatchResult>& batch, const EvalConfig& config);

// Figure 2: load at the first failure vs fingerprint bits, simulated (figure2.cpp). Prints and writes.
void run_figure2(const EvalConfig& config);

// Figure 4: bits per item vs false-positive rate (figure4.cpp). Prints and writes.
void run_figure4(const EvalConfig& config);

}  // namespace bench::paper
