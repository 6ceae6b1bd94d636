// bench/paper_eval.cpp: the paper's Section 7 on this machine (Fan et al., "Cuckoo Filter: Practically
// Better Than Bloom", CoNEXT 2014), plus Figures 2 and 4 of Sections 4-5.
//
// Every filter goes through the adapter contract of filter_api.h and gets the same memory. One lifecycle
// per filter gives most of the evaluation:
//   fill in occupancy steps (Figure 7: insert throughput per step; Figure 6: positive and negative lookups
//   after each step) until the first failure (CF, ss-CF, dl-CBF) or the design capacity (the others)
//   -> Table 3 (items, bits/item, construction rate = items / total insert time), the measured FPR,
//   Figure 5 (lookups vs fraction of positive queries, single-key and batched)
//   -> delete until empty in steps (Figure 8, deletable filters only).
// Then for our CF and ss-CF: batch construction (insert_many), huge pages on vs off, and the "issue 2"
// summary. Figure 2 is a simulation (load_sim.h); Figure 4 is the analytic space curves plus measured CF
// and ss-CF points.
//
// Usage: paper_eval [--full] [--out DIR] [--table-mb N] [--queries N] [--steps N] [--skip-fig2] [--skip-fig4]
//                   [--skip-filters] (Table 3 and Figures 5-8; leaves insert_many and huge pages on/off)
// Output: the tables on stdout, progress on stderr, CSV + SVG + table3.txt + machine.txt + config.txt in DIR.
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <atomic>
#include <mutex>
#include <tuple>
#include <iterator>
#include <vector>

#include "csv.h"
#include "cuckoo_adapter.h"
#include "filter_api.h"
#include "keys.h"
#include "load_sim.h"
#include "machine_info.h"
#include "memory_ceiling.h"
#include "svg_plot.h"
#include "timer.h"

#include "baselines/blocked_bloom_filter.h"
#include "baselines/bloom_filter.h"
#include "baselines/dleft_counting_bloom_filter.h"
#include "baselines/quotient_filter.h"

namespace bench {
namespace {

// ---------------------------------------------------------------------------------------------------------
// Configuration

struct EvalConfig {
  bool full = false;
  std::string out_dir = "bench/results/manual";
  size_t table_bytes = size_t{24} << 20;  // 2^22 buckets x 4 x 12 bits
  size_t queries = size_t{4} << 20;       // Figure 5, per point and per mode
  size_t occupancy_queries = size_t{1} << 20;  // Figure 6, per point
  size_t fpr_queries = size_t{10} << 20;
  int steps = 10;                         // occupancy steps (Figures 6-8)
  uint64_t seed = 0x243F6A8885A308D3ull;
  bool fig2 = true, fig4 = true, filters = true;
  std::vector<uint64_t> fig2_buckets = {uint64_t{1} << 10, uint64_t{1} << 15, uint64_t{1} << 20};
  uint64_t fig4_buckets = uint64_t{1} << 16;
};

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
      std::printf("usage: paper_eval [--full] [--out DIR] [--table-mb N] [--queries N] [--steps N] "
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

void progress(const char* format, ...) __attribute__((format(printf, 1, 2)));
void progress(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fflush(stderr);
}

// Every filter's fill times the first writes to its table. The first writes of a fresh process to memory
// cost more on this VM than later ones (~0.4 s per 192 MiB, measured both as page faults during the first
// inserts and as MADV_POPULATE_WRITE up front: the host backs the guest's pages again). Filters built
// later reuse the pages their predecessors freed and do not pay it, so only the first filter did: the CF's
// first 5% of inserts ran at half the speed of the next 5%. Writing and freeing a table-sized buffer
// before the first filter gives every filter the same memory. Returns the seconds it took (printed).
double warm_process_memory(size_t bytes) {
  Timer timer;
  {
    cuckoo::internal::AlignedBuffer buffer(bytes, /*huge_pages=*/true);
    std::memset(buffer.data(), 0x5A, buffer.size());
    consume(buffer.data()[bytes / 2]);
  }
  return timer.seconds();
}

// ---------------------------------------------------------------------------------------------------------
// Measurements on one filter

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

constexpr double kFractions[] = {0.0, 0.25, 0.5, 0.75, 1.0};
constexpr size_t kBatch = 8192;

// Lookup throughput is the median of kRepetitions timed passes, each over its own third of the queries:
// the machine may be shared, and a median shrugs off a pass that another process interrupted.
constexpr int kRepetitions = 3;

template <class Pass>
double median_of_passes(const std::vector<uint64_t>& queries, Pass pass) {
  double rates[kRepetitions];
  const size_t part = queries.size() / kRepetitions;
  for (int r = 0; r < kRepetitions; ++r) {
    Timer timer;
    consume(pass(queries.data() + r * part, part));
    rates[r] = mops(part, timer.seconds());
  }
  std::sort(rates, rates + kRepetitions);
  return rates[kRepetitions / 2];
}

template <class F>
double time_single_lookups(const F& filter, const std::vector<uint64_t>& queries) {
  return median_of_passes(queries, [&](const uint64_t* q, size_t n) {
    uint64_t hits = 0;
    for (size_t i = 0; i < n; ++i) hits += filter.contains(q[i]);
    return hits;
  });
}

template <class F>
double time_batched_lookups(const F& filter, const std::vector<uint64_t>& queries) {
  std::vector<uint8_t> out(kBatch);
  return median_of_passes(queries, [&](const uint64_t* q, size_t count) {
    uint64_t hits = 0;
    for (size_t start = 0; start < count; start += kBatch) {
      const size_t n = std::min(kBatch, count - start);
      filter.contains_many(q + start, n, out.data());
      for (size_t i = 0; i < n; ++i) hits += out[i];
    }
    return hits;
  });
}

// The lifecycle described at the top of the file.
template <class F>
FilterResult evaluate(const EvalConfig& config, bool batched_line) {
  FilterResult result;
  result.name = F::kName;
  result.has_batched_line = batched_line;
  const KeyStream keys(config.seed);
  Rng rng(config.seed ^ 0xA5A5);
  uint64_t next_negative = 0;

  progress("[%s] allocating %.0f MiB\n", F::kName, config.table_bytes / double(1 << 20));
  F filter = F::for_memory(config.table_bytes, config.seed);
  const uint64_t capacity = filter.design_capacity();
  const bool to_failure = filter.fills_to_failure();

  // Fill in steps (Figures 6 and 7, Table 3's construction rate).
  uint64_t inserted = 0;
  double insert_seconds = 0;
  bool failed = false;
  std::vector<uint64_t> chunk;
  for (int step = 1; !failed; ++step) {
    uint64_t target = capacity * step / config.steps;
    if (step >= config.steps) {
      if (!to_failure) target = capacity;
      else target = std::max<uint64_t>(target, inserted + capacity / config.steps);  // keep going to failure
    }
    if (target <= inserted) break;
    chunk.resize(target - inserted);
    for (uint64_t i = 0; i < chunk.size(); ++i) chunk[i] = keys.positive(inserted + i);
    uint64_t done = 0;
    Timer timer;
    for (uint64_t key : chunk) {
      if (!filter.insert(key)) {
        failed = true;
        break;
      }
      ++done;
    }
    const double seconds = timer.seconds();
    insert_seconds += seconds;
    inserted += done;
    OccupancyPoint point{};
    point.alpha = double(inserted) / capacity;
    point.insert_mops = mops(done, seconds);
    auto positives = make_queries(keys, inserted, 1.0, config.occupancy_queries, rng, &next_negative);
    auto negatives = make_queries(keys, inserted, 0.0, config.occupancy_queries, rng, &next_negative);
    point.lookup_pos_mops = time_single_lookups(filter, positives);
    point.lookup_neg_mops = time_single_lookups(filter, negatives);
    result.occupancy.push_back(point);
    progress("\r[%s] fill: %5.1f%% occupancy, insert %.2f M/s, lookup +%.1f/-%.1f M/s   ", F::kName,
             100 * point.alpha, point.insert_mops, point.lookup_pos_mops, point.lookup_neg_mops);
    if (!to_failure && inserted >= capacity) break;
  }
  progress("\n");
  result.items = inserted;
  result.bits_per_item = filter.memory_bytes() * 8.0 / inserted;
  result.construction_mops = mops(inserted, insert_seconds);

  // No false negatives: every inserted key (a sample on big filters) must be found.
  for (uint64_t i = 0; i < inserted; i += (inserted > (1u << 22) ? 7 : 1)) {
    if (!filter.contains(keys.positive(i))) ++result.false_negatives;
  }

  // Measured false-positive rate.
  progress("[%s] measuring the false-positive rate on %zu negative keys\n", F::kName, config.fpr_queries);
  uint64_t false_positives = 0;
  for (size_t j = 0; j < config.fpr_queries; ++j) false_positives += filter.contains(keys.negative(next_negative++));
  result.fpr = double(false_positives) / config.fpr_queries;

  // Figure 5.
  for (double p : kFractions) {
    auto queries = make_queries(keys, inserted, p, config.queries, rng, &next_negative);
    result.fig5_single.push_back(time_single_lookups(filter, queries));
    result.fig5_batched.push_back(time_batched_lookups(filter, queries));
    progress("\r[%s] Figure 5: %3.0f%% positive: %.2f M/s single, %.2f M/s batched   ", F::kName, 100 * p,
             result.fig5_single.back(), result.fig5_batched.back());
  }
  progress("\n");

  // Figure 8: delete until empty.
  if constexpr (F::kCanErase) {
    uint64_t remaining = inserted;
    for (int step = config.steps - 1; step >= 0 && remaining > 0; --step) {
      const uint64_t target = std::min<uint64_t>(remaining, inserted * step / config.steps);
      const double alpha = double(remaining) / capacity;
      chunk.resize(remaining - target);
      for (uint64_t i = 0; i < chunk.size(); ++i) chunk[i] = keys.positive(remaining - 1 - i);
      uint64_t ok = 0;
      Timer timer;
      for (uint64_t key : chunk) ok += filter.erase(key);
      const double seconds = timer.seconds();
      result.delete_misses += chunk.size() - ok;
      result.deletes.push_back({alpha, mops(chunk.size(), seconds)});
      remaining = target;
      progress("\r[%s] Figure 8: delete at %5.1f%% occupancy: %.2f M/s   ", F::kName, 100 * alpha,
               result.deletes.back().delete_mops);
    }
    progress("\n");
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------
// Our filters only: batch construction and huge pages

struct BatchResult {
  std::string name;
  bool huge_pages;
  uint64_t items;
  double construction_mops;
  long huge_kb;  // AnonHugePages growth while this filter was alive
  std::vector<double> single, batched;  // at kFractions
};

template <bool kSemi>
struct BatchFilter {
  CuckooAdapter<kSemi> filter;
  BatchResult result;
};

// The machine's ceiling (memory_ceiling.h), timed like a filter.
struct BareReadsProbe {
  BareReads filter;
  BatchResult result;
};

// Fills a filter with insert_many to the first failure; records the construction rate and how much
// of it the kernel backed with transparent huge pages.
template <bool kSemi>
BatchFilter<kSemi> build_batch(const EvalConfig& config, bool huge_pages) {
  using F = CuckooAdapter<kSemi>;
  const KeyStream keys(config.seed);
  const long huge_before = anon_huge_pages_kb();
  progress("[%s] insert_many fill, huge pages %s\n", F::kName, huge_pages ? "on" : "off");
  BatchFilter<kSemi> built{F::for_memory(config.table_bytes, config.seed, huge_pages),
                           BatchResult{F::kName, huge_pages, 0, 0, 0, {}, {}}};
  BatchResult& result = built.result;
  std::vector<uint64_t> chunk(size_t{1} << 20);
  double seconds = 0;
  for (;;) {
    for (size_t i = 0; i < chunk.size(); ++i) chunk[i] = keys.positive(result.items + i);
    Timer timer;
    const size_t n = built.filter.insert_many(chunk.data(), chunk.size());
    seconds += timer.seconds();
    result.items += n;
    if (n < chunk.size()) break;
  }
  result.construction_mops = mops(result.items, seconds);
  const long huge_after = anon_huge_pages_kb();
  result.huge_kb = (huge_before >= 0 && huge_after >= 0) ? huge_after - huge_before : -1;
  return built;
}

// Lookups on several filters holding the same keys, interleaved: for each fraction of positives, each
// filter is timed on the same queries in forward and then reverse order, and the two are averaged, so
// neither side of a comparison (huge pages on/off) always runs first on a machine whose load drifts.
template <class... Built>
void measure_interleaved(const EvalConfig& config, Built&... built) {
  const KeyStream keys(config.seed);
  Rng rng(config.seed ^ 0x5A5A);
  uint64_t next_negative = uint64_t{1} << 40;
  const uint64_t items = std::min({built.result.items...});
  for (double p : kFractions) {
    auto queries = make_queries(keys, items, p, config.queries, rng, &next_negative);
    (built.result.single.push_back(0), ...);
    (built.result.batched.push_back(0), ...);
    std::vector<std::function<void()>> passes;
    (passes.push_back([&] {
      built.result.single.back() += time_single_lookups(built.filter, queries) / 2;
      built.result.batched.back() += time_batched_lookups(built.filter, queries) / 2;
    }), ...);
    for (auto& pass : passes) pass();
    for (auto it = passes.rbegin(); it != passes.rend(); ++it) (*it)();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Printing

std::string fmt(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string render_table3(const std::vector<FilterResult>& results, const EvalConfig& config) {
  std::ostringstream out;
  char line[512];
  out << "Table 3: space efficiency and construction speed, every filter " << config.table_bytes / double(1 << 20)
      << " MiB (paper: 192 MB; CF = " << config.table_bytes * 8 / 48 << " buckets x 4 x 12 bits)\n";
  std::snprintf(line, sizeof line, "%-24s", "metric");
  out << line;
  for (const auto& r : results) {
    std::snprintf(line, sizeof line, "%12s", r.name.c_str());
    out << line;
  }
  out << "\n";
  auto row = [&](const char* label, auto cell) {
    std::snprintf(line, sizeof line, "%-24s", label);
    out << line;
    for (const auto& r : results) {
      std::snprintf(line, sizeof line, "%12s", cell(r).c_str());
      out << line;
    }
    out << "\n";
  };
  row("items (million)", [](const FilterResult& r) { return fmt("%.2f", r.items / 1e6); });
  row("bits per item", [](const FilterResult& r) { return fmt("%.2f", r.bits_per_item); });
  row("false positive rate", [](const FilterResult& r) { return fmt("%.3f%%", 100 * r.fpr); });
  row("construction (M keys/s)", [](const FilterResult& r) { return fmt("%.2f", r.construction_mops); });
  row("occupancy at the end", [](const FilterResult& r) { return fmt("%.1f%%", 100 * r.occupancy.back().alpha); });
  out << "(occupancy = items / design capacity: the slots of the CF, ss-CF and dl-CBF, the item count the\n"
         " Bloom filters are sized for, 90% of the QF's slots; so a full QF shows 100%)\n";
  out << "the paper's Table 3 (192 MB, Xeon L5640):\n"
         "                                  CF       ss-CF          BF      blk-BF          QF      dl-CBF\n"
         "items (million)               127.78      128.04      123.89      123.89      120.80      103.82\n"
         "bits per item                  12.60       12.58       13.00       13.00       13.33       15.51\n"
         "false positive rate            0.19%       0.09%       0.19%       0.43%       0.18%       0.76%\n"
         "construction (M keys/s)         5.00        3.13        3.91        7.64        1.91        4.78\n";
  return out.str();
}

std::string render_fig5(const std::vector<FilterResult>& results) {
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

void write_text(const std::string& path, const std::string& text) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (!file) throw std::runtime_error("cannot write " + path);
  std::fputs(text.c_str(), file);
  std::fclose(file);
}

// ---------------------------------------------------------------------------------------------------------
// Figures 2 and 4

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
  std::printf("\nFigure 2: load factor at the first failure vs fingerprint bits (simulation with the core's\n"
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

void run_figure4(const EvalConfig& config) {
  std::printf("\nFigure 4: bits per item vs target false-positive rate (curves: paper's Table 2 with alpha = 95.5%%;\n"
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

// ---------------------------------------------------------------------------------------------------------
// Figures 5-8 output

void write_figures(const std::vector<FilterResult>& results, const EvalConfig& config) {
  // Figure 5
  {
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
  // Figures 6 and 7
  {
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
  // Figure 8
  {
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
}

std::string render_occupancy(const std::vector<FilterResult>& results) {
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

std::string render_issue2(const std::vector<FilterResult>& results, const std::vector<BatchResult>& batch,
                          const EvalConfig& config) {
  const FilterResult* cf = nullptr;
  const FilterResult* ss = nullptr;
  for (const auto& r : results) {
    if (r.name == "CF") cf = &r;
    if (r.name == "ss-CF") ss = &r;
  }
  const BatchResult* cf_batch = nullptr;
  const BatchResult* ss_batch = nullptr;
  const BatchResult* cf_small_pages = nullptr;
  const BatchResult* bare = nullptr;
  for (const auto& b : batch) {
    if (b.name == "CF" && b.huge_pages) cf_batch = &b;
    if (b.name == "CF" && !b.huge_pages) cf_small_pages = &b;
    if (b.name == "ss-CF") ss_batch = &b;
    if (b.name == "bare reads") bare = &b;
  }
  std::ostringstream out;
  auto list = [](const std::vector<double>& values) {
    std::string s;
    for (double v : values) s += fmt(" %6.2f", v);
    return s;
  };
  out << "Our filters (issue 2 figures): " << config.table_bytes * 8 / 48
      << " buckets x 4 x 12 bits, filled until the first failure\n";
  if (cf) {
    out << "  CF    bits/item " << fmt("%.2f", cf->bits_per_item) << ", FPR " << fmt("%.3f%%", 100 * cf->fpr)
        << ", load " << fmt("%.2f%%", 100 * cf->occupancy.back().alpha) << "\n";
    out << "  CF    construction: single insert " << fmt("%.2f", cf->construction_mops) << " M keys/s";
    if (cf_batch) out << ", insert_many " << fmt("%.2f", cf_batch->construction_mops) << " M keys/s";
    out << "\n  CF    lookups M/s at 0/25/50/75/100% positive: single" << list(cf->fig5_single) << "\n"
        << "                                      batched (contains_many)" << list(cf->fig5_batched) << "\n";
  }
  if (ss) {
    out << "  ss-CF bits/item " << fmt("%.2f", ss->bits_per_item) << ", FPR " << fmt("%.3f%%", 100 * ss->fpr)
        << ", construction " << fmt("%.2f", ss->construction_mops) << " M keys/s";
    if (ss_batch) out << ", insert_many " << fmt("%.2f", ss_batch->construction_mops) << " M keys/s";
    out << "\n  ss-CF lookups M/s at 0/25/50/75/100% positive: single" << list(ss->fig5_single) << "\n"
        << "                                      batched (contains_many)" << list(ss->fig5_batched) << "\n";
  }
  if (cf_batch && cf_small_pages) {
    out << "Huge pages (CF, insert_many fill, lookups M/s at 0/25/50/75/100% positive):\n"
        << "  THP on  (madvise):  single" << list(cf_batch->single) << "   batched" << list(cf_batch->batched)
        << "   AnonHugePages +" << cf_batch->huge_kb / 1024 << " MiB\n"
        << "  THP off (4 KiB):    single" << list(cf_small_pages->single) << "   batched"
        << list(cf_small_pages->batched) << "   AnonHugePages +" << cf_small_pages->huge_kb / 1024 << " MiB\n";
    double on = 0, off = 0;
    for (size_t i = 0; i < cf_batch->single.size(); ++i) on += cf_batch->single[i], off += cf_small_pages->single[i];
    out << "  single-key lookups with huge pages / without: " << fmt("%.2fx", on / off);
    double bon = 0, boff = 0;
    for (size_t i = 0; i < cf_batch->batched.size(); ++i) bon += cf_batch->batched[i], boff += cf_small_pages->batched[i];
    out << ", batched: " << fmt("%.2fx", bon / boff) << "\n";
  }
  if (bare && cf_batch && ss_batch) {
    // Ratios per fraction of positive queries: both rates of a ratio come from the same interleaved passes.
    auto shares = [&](const std::vector<double>& ours, const std::vector<double>& ceiling) {
      std::string s;
      for (size_t i = 0; i < ours.size() && i < ceiling.size(); ++i)
        s += fmt(" %6.2f", ceiling[i] > 0 ? ours[i] / ceiling[i] : 0);
      return s;
    };
    out << "Memory ceiling (memory_ceiling.h): two random 8-byte reads per query, no hash, no compare, same table\n"
        << "size and huge pages, interleaved with the lookups above on the same queries (M/s at 0/25/50/75/100%):\n"
        << "  bare reads          single" << list(bare->single) << "   batched" << list(bare->batched) << "\n"
        << "  ss-CF (THP on)      single" << list(ss_batch->single) << "   batched" << list(ss_batch->batched) << "\n"
        << "  CF / bare reads     single" << shares(cf_batch->single, bare->single) << "   batched"
        << shares(cf_batch->batched, bare->batched) << "\n"
        << "  ss-CF / bare reads  single" << shares(ss_batch->single, bare->single) << "   batched"
        << shares(ss_batch->batched, bare->batched) << "\n";
  }
  return out.str();
}

int run(int argc, char** argv) {
  const EvalConfig config = parse_args(argc, argv);
  ::mkdir(config.out_dir.c_str(), 0755);
  Timer total;
  const std::string machine = describe_machine();
  const std::string config_text = describe_config(config);
  write_text(config.out_dir + "/machine.txt", machine);
  write_text(config.out_dir + "/config.txt", config_text);
  std::printf("Machine\n%s\nConfiguration\n%s\n", machine.c_str(), config_text.c_str());
  std::fflush(stdout);

  std::vector<FilterResult> results;
  if (config.filters) {
    const double warm_seconds = warm_process_memory(config.table_bytes);
    std::printf("Warm-up: wrote and freed one %.0f MiB table before the first filter in %.3f s (warm_process_memory)\n\n",
                config.table_bytes / double(1 << 20), warm_seconds);
    std::fflush(stdout);
    results.push_back(evaluate<CuckooFilterAdapter>(config, true));
    results.push_back(evaluate<SemiSortedCuckooFilterAdapter>(config, true));
    results.push_back(evaluate<baselines::BloomFilter>(config, false));
    results.push_back(evaluate<baselines::BlockedBloomFilter>(config, false));
    results.push_back(evaluate<baselines::QuotientFilter>(config, false));
    results.push_back(evaluate<baselines::DLeftCountingBloomFilter>(config, false));
  }

  std::vector<BatchResult> batch;
  {
    auto cf_huge = build_batch<false>(config, true);
    auto cf_small = build_batch<false>(config, false);
    auto ss = build_batch<true>(config, true);
    // items = max: the ceiling holds no keys, so it must not shrink the range positive queries draw from.
    BareReadsProbe bare{BareReads(config.table_bytes, true),
                        BatchResult{"bare reads", true, ~uint64_t{0}, 0, 0, {}, {}}};
    progress("[CF, ss-CF, bare reads] lookups with huge pages on and off, interleaved\n");
    measure_interleaved(config, cf_huge, cf_small, ss, bare);
    for (const BatchResult* r : {&cf_huge.result, &cf_small.result, &ss.result, &bare.result}) batch.push_back(*r);
  }

  const std::string table3 = render_table3(results, config);
  const std::string fig5 = render_fig5(results);
  const std::string occupancy = render_occupancy(results);
  const std::string issue2 = render_issue2(results, batch, config);
  std::string checks = "Checks: ";
  bool ok = true;
  for (const auto& r : results) {
    checks += r.name + fmt(" false negatives %.0f", double(r.false_negatives)) +
              fmt(", failed deletes %.0f; ", double(r.delete_misses));
    ok = ok && r.false_negatives == 0 && r.delete_misses == 0;
  }
  checks += ok ? "OK\n" : "FAILED\n";
  std::printf("\n%s\n%s\n%s\n%s\n%s", table3.c_str(), fig5.c_str(), occupancy.c_str(), issue2.c_str(),
              checks.c_str());
  std::fflush(stdout);
  write_text(config.out_dir + "/table3.txt", table3 + "\n" + fig5 + "\n" + occupancy + "\n" + issue2 + "\n" + checks);
  {
    CsvWriter csv(config.out_dir + "/table3.csv",
                  {"filter", "items", "bits_per_item", "fpr", "construction_mops", "final_occupancy"});
    for (const auto& r : results)
      csv.row({r.name, CsvWriter::cell(double(r.items)), CsvWriter::cell(r.bits_per_item), CsvWriter::cell(r.fpr),
               CsvWriter::cell(r.construction_mops), CsvWriter::cell(r.occupancy.back().alpha)});
    CsvWriter hp(config.out_dir + "/batch_and_huge_pages.csv",
                 {"filter", "huge_pages", "items", "insert_many_mops", "anon_huge_kb", "positive_fraction",
                  "single_mops", "batched_mops"});
    for (const auto& b : batch)
      for (size_t i = 0; i < b.single.size(); ++i)
        hp.row({b.name, b.huge_pages ? "on" : "off", CsvWriter::cell(double(b.items)),
                CsvWriter::cell(b.construction_mops), CsvWriter::cell(double(b.huge_kb)),
                CsvWriter::cell(kFractions[i]), CsvWriter::cell(b.single[i]), CsvWriter::cell(b.batched[i])});
  }
  write_figures(results, config);

  if (config.fig2) run_figure2(config);
  if (config.fig4) run_figure4(config);

  std::printf("\nchecksum %llu; total %.1f s; results in %s/\n", (unsigned long long)g_checksum_sink,
              total.seconds(), config.out_dir.c_str());
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  try {
    return bench::run(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "paper_eval: %s\n", error.what());
    return 2;
  }
}
