// bench/paper/batch_and_huge_pages.cpp: our CF and ss-CF beyond the paper's figures. Each is filled
// with insert_many to the first failure (batch construction); a CF with Options::huge_pages on and one
// with it off show what transparent huge pages do to lookups (AnonHugePages growth says whether the
// kernel backed the table with 2 MiB pages); and the memory ceiling of memory_ceiling.h ("bare reads":
// two random reads per query, no hash, no compare) is timed beside them, interleaved on the same
// queries, so each lookup rate can be read as a share of what this machine's memory allows.
//
// Output: batch_and_huge_pages.csv (filter, huge_pages, items, insert_many_mops, anon_huge_kb,
// positive_fraction, single_mops, batched_mops; five rows each for CF on, CF off, ss-CF, bare reads),
// and on stdout (and table3.txt) a summary that repeats the CF and ss-CF lines of Table 3 and Figure 5
// beside these (rates depend on the machine):
//
//   Summary of our filters, 4194304 buckets x 4 x 12 bits, filled until the first failure
//     CF    bits/item 12.30, FPR 0.190%, load 97.59%
//     CF    construction: single insert 7.18 M keys/s, insert_many 11.27 M keys/s
//     CF    lookups M/s at 0/25/50/75/100% positive: single  26.54  23.21  26.46  25.77  23.31
//                                         batched (contains_many)  95.72  72.98  94.72  93.70  71.62
//     ss-CF ... (the same three lines)
//   Huge pages (CF, insert_many fill, lookups M/s at 0/25/50/75/100% positive):
//     THP on  (madvise):  single ...   batched ...   AnonHugePages +24 MiB
//     THP off (4 KiB):    single ...   batched ...   AnonHugePages +0 MiB
//     single-key lookups with huge pages / without: 1.01x, batched: 1.10x
//   Memory ceiling (memory_ceiling.h): two random 8-byte reads per query, ... (two lines)
//     bare reads          single ...   batched ...
//     ss-CF (THP on)      single ...   batched ...
//     CF / bare reads     single   0.29 ...   batched   0.49 ...
//     ss-CF / bare reads  single   0.23 ...   batched   0.48 ...
#include <algorithm>
#include <functional>
#include <sstream>

#include "csv.h"
#include "cuckoo_adapter.h"
#include "keys.h"
#include "machine_info.h"
#include "memory_ceiling.h"
#include "paper/lookup_timing.h"
#include "paper/results.h"
#include "report.h"
#include "timer.h"

namespace bench::paper {
namespace {

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
    }),
     ...);
    for (auto& pass : passes) pass();
    for (auto it = passes.rbegin(); it != passes.rend(); ++it) (*it)();
  }
}

}  // namespace

std::vector<BatchResult> measure_batch_and_huge_pages(const EvalConfig& config) {
  std::vector<BatchResult> batch;
  auto cf_huge = build_batch<false>(config, true);
  auto cf_small = build_batch<false>(config, false);
  auto ss = build_batch<true>(config, true);
  // items = max: the ceiling holds no keys, so it must not shrink the range positive queries draw from.
  BareReadsProbe bare{BareReads(config.table_bytes, true),
                      BatchResult{"bare reads", true, ~uint64_t{0}, 0, 0, {}, {}}};
  progress("[CF, ss-CF, bare reads] lookups with huge pages on and off, interleaved\n");
  measure_interleaved(config, cf_huge, cf_small, ss, bare);
  for (const BatchResult* r : {&cf_huge.result, &cf_small.result, &ss.result, &bare.result}) batch.push_back(*r);
  return batch;
}

std::string render_cuckoo_summary(const std::vector<FilterResult>& results, const std::vector<BatchResult>& batch,
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
  out << "Summary of our filters, " << config.table_bytes * 8 / 48
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

void write_batch_and_huge_pages_csv(const std::vector<BatchResult>& batch, const EvalConfig& config) {
  CsvWriter hp(config.out_dir + "/batch_and_huge_pages.csv",
               {"filter", "huge_pages", "items", "insert_many_mops", "anon_huge_kb", "positive_fraction",
                "single_mops", "batched_mops"});
  for (const auto& b : batch)
    for (size_t i = 0; i < b.single.size(); ++i)
      hp.row({b.name, b.huge_pages ? "on" : "off", CsvWriter::cell(double(b.items)),
              CsvWriter::cell(b.construction_mops), CsvWriter::cell(double(b.huge_kb)),
              CsvWriter::cell(kFractions[i]), CsvWriter::cell(b.single[i]), CsvWriter::cell(b.batched[i])});
}

}  // namespace bench::paper
