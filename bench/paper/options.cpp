// bench/paper/options.cpp: paper_eval's flags and config.txt.
#include "paper/options.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace bench::paper {

EvalConfig parse_args(int argc, char** argv) {
  EvalConfig config;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--full") {
      config.full = true;
      config.table_bytes = size_t{192} << 20;  // the paper: 2^25 buckets x 4 x 12 bits
      config.queries = size_t{10} << 20;
      config.occupancy_queries = size_t{2} << 20;
      config.fpr_queries = size_t{20} << 20;
      config.steps = 20;
      config.fig2_buckets = {uint64_t{1} << 10, uint64_t{1} << 15, uint64_t{1} << 20, uint64_t{1} << 23};
      config.fig4_buckets = uint64_t{1} << 20;
    } else if (arg == "--out") {
      config.out_dir = value();
    } else if (arg == "--table-mb") {
      config.table_bytes = static_cast<size_t>(std::stod(value()) * (1 << 20));
    } else if (arg == "--queries") {
      config.queries = std::stoull(value());
    } else if (arg == "--steps") {
      config.steps = std::max(2, std::stoi(value()));
    } else if (arg == "--skip-fig2") {
      config.fig2 = false;
    } else if (arg == "--skip-fig4") {
      config.fig4 = false;
    } else if (arg == "--skip-filters") {  // only our batch construction and huge pages on/off
      config.filters = false;
    } else if (arg == "--help" || arg == "-h") {
      std::printf(
          "usage: paper_eval [--full] [--out DIR] [--table-mb N] [--queries N] [--steps N] "
          "[--skip-fig2] [--skip-fig4] [--skip-filters]\n");
      std::exit(0);
    } else {
      throw std::invalid_argument("unknown argument " + arg);
    }
  }
  return config;
}

std::string describe_config(const EvalConfig& c) {
  std::ostringstream out;
  out << "mode:               " << (c.full ? "--full (the paper's 192 MB)" : "default (smaller, minutes)") << "\n"
      << "table bytes:        " << c.table_bytes << " (" << c.table_bytes / double(1 << 20) << " MiB) per filter\n"
      << "CF shape:           " << c.table_bytes * 8 / 48 << " buckets x 4 x 12 bits; ss-CF: same, f = 13\n"
      << "Figure 5 queries:   " << c.queries << " per point and mode\n"
      << "Figure 6 queries:   " << c.occupancy_queries << " per point\n"
      << "FPR queries:        " << c.fpr_queries << " negative keys\n"
      << "occupancy steps:    " << c.steps << "\n"
      << "seed:               0x" << std::hex << c.seed << std::dec << "\n"
      << "keys:               splitmix64 finalizer of disjoint even/odd counters (bench/keys.h)\n"
      << "hash:               XXH3-64 of the key's 8 bytes, seeded (bench::hash_key, the core's own)\n"
      << "Figure 2 buckets:  ";
  for (auto b : c.fig2_buckets) out << " " << b;
  out << "\nFigure 4 buckets:   " << c.fig4_buckets << "\n";
  return out.str();
}

}  // namespace bench::paper
