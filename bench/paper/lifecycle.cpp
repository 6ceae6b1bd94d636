// bench/paper/lifecycle.cpp: the per-filter lifecycle described in lifecycle.h.
#include "paper/lifecycle.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "aligned_buffer.h"  // the core's table memory, for the warm-up buffer
#include "cuckoo_adapter.h"
#include "filter_api.h"
#include "keys.h"
#include "paper/lookup_timing.h"
#include "report.h"
#include "timer.h"

#include "baselines/blocked_bloom_filter.h"
#include "baselines/bloom_filter.h"
#include "baselines/dleft_counting_bloom_filter.h"
#include "baselines/quotient_filter.h"

namespace bench::paper {
namespace {

// Every filter's fill times the first writes to its table. A fresh process's first writes to this much
// memory cost more than later ones on a VM whose host backs the guest's pages lazily (bench/README.md
// has the figures), while a filter built later reuses the pages its predecessors freed. Writing and
// freeing one table-sized buffer before the first filter gives every filter the same memory. Returns
// the seconds it took (printed).
double warm_process_memory(size_t bytes) {
  Timer timer;
  {
    cuckoo::internal::AlignedBuffer buffer(bytes, /*huge_pages=*/true);
    std::memset(buffer.data(), 0x5A, buffer.size());
    consume(buffer.data()[bytes / 2]);
  }
  return timer.seconds();
}

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

}  // namespace

std::vector<FilterResult> evaluate_filters(const EvalConfig& config) {
  const double warm_seconds = warm_process_memory(config.table_bytes);
  std::printf("Warm-up: wrote and freed one %.0f MiB table before the first filter in %.3f s (warm_process_memory)\n\n",
              config.table_bytes / double(1 << 20), warm_seconds);
  std::fflush(stdout);
  std::vector<FilterResult> results;
  results.push_back(evaluate<CuckooFilterAdapter>(config, true));
  results.push_back(evaluate<SemiSortedCuckooFilterAdapter>(config, true));
  results.push_back(evaluate<baselines::BloomFilter>(config, false));
  results.push_back(evaluate<baselines::BlockedBloomFilter>(config, false));
  results.push_back(evaluate<baselines::QuotientFilter>(config, false));
  results.push_back(evaluate<baselines::DLeftCountingBloomFilter>(config, false));
  return results;
}

std::string render_checks(const std::vector<FilterResult>& results, bool* ok) {
  std::string checks = "Checks: ";
  *ok = true;
  for (const auto& r : results) {
    checks += r.name + fmt(" false negatives %.0f", double(r.false_negatives)) +
              fmt(", failed deletes %.0f; ", double(r.delete_misses));
    *ok = *ok && r.false_negatives == 0 && r.delete_misses == 0;
  }
  checks += *ok ? "OK\n" : "FAILED\n";
  return checks;
}

}  // namespace bench::paper
