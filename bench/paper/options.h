// bench/paper/options.h: paper_eval's command line and the sizes it implies, shared by every result.
// The defaults give 24 MiB filters (a few minutes on 2 cores); --full gives the paper's 192 MB.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bench::paper {

struct EvalConfig {
  bool full = false;
  std::string out_dir = "bench/results/manual";
  size_t table_bytes = size_t{24} << 20;       // 2^22 buckets x 4 x 12 bits
  size_t queries = size_t{4} << 20;            // Figure 5, per point and per mode
  size_t occupancy_queries = size_t{1} << 20;  // Figure 6, per point
  size_t fpr_queries = size_t{10} << 20;
  int steps = 10;  // occupancy steps (Figures 6-8)
  uint64_t seed = 0x243F6A8885A308D3ull;
  bool fig2 = true, fig4 = true, filters = true;
  std::vector<uint64_t> fig2_buckets = {uint64_t{1} << 10, uint64_t{1} << 15, uint64_t{1} << 20};
  uint64_t fig4_buckets = uint64_t{1} << 16;
};

// paper_eval's flags (listed in paper_eval.cpp). Throws std::invalid_argument on an unknown flag or a
// missing value; --help prints the usage and exits.
EvalConfig parse_args(int argc, char** argv);

// The configuration as written to config.txt and to stdout.
std::string describe_config(const EvalConfig& config);

}  // namespace bench::paper
