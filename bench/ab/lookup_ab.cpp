// bench/ab/lookup_ab.cpp: before/after lookup rates of two versions of the core, in one process.
//
// This machine class is shared and noisy: two runs minutes apart can differ by 1.5x, so a change is
// judged by a ratio measured side by side. bench/ab/run.sh builds this file against the working tree's
// core (namespace cuckoo::internal) and a copy of another commit's core/src renamed to cuckoo::ab_old.
// Both cores get the same keys, and their passes alternate, so both see the same machine load.
//
// For each table (CF: b=4, f=12 and f=13; ss-CF: b=4, f=13 in 12 bits per entry) of 2^log2_buckets buckets, both
// cores are filled with insert_many to 95% (or, with "full", to the first failure), once with each core's
// table allocated first. When their table bytes are equal (placement unchanged),
// every answer is compared as well. Then 5 rounds of: single lookups (a loop of contains through
// FilterCore's virtual call, as CuckooFilter::contains makes it) and contains_many, 50% positive queries,
// best of 3 passes each. Prints M lookups/s per round and the ratio of the round sums, new / old.
//
// Usage (through run.sh): lookup_ab [log2_buckets = 25] [full]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "ab_old/filter_core.h"
#include "ab_old/packed_table.h"
#include "ab_old/semi_sorted_table.h"
#include "filter_core.h"
#include "machine_info.h"
#include "packed_table.h"
#include "semi_sorted_table.h"
#include "timer.h"

namespace {

bool g_fill_to_failure = false;

template <typename Run>
double best_rate(size_t n, Run run) {
  double best = 0;
  for (int pass = 0; pass < 3; ++pass) {
    const bench::Timer timer;
    run();
    const double rate = bench::mops(n, timer.seconds());
    if (rate > best) best = rate;
  }
  return best;
}

struct Ratios {
  double single = 0, batched = 0;
};

template <typename OldCore, typename NewCore>
bool compare(const char* name, const cuckoo::Config& config, bool old_first, Ratios* ratios) {
  // Which table is allocated first moved the ratio by up to ~15% between runs here (192 MB tables, both on
  // huge pages), so main() runs both orders and reports their geometric mean.
  std::unique_ptr<OldCore> old_holder;
  std::unique_ptr<NewCore> new_holder;
  if (old_first) old_holder = std::make_unique<OldCore>(config);
  new_holder = std::make_unique<NewCore>(config);
  if (!old_first) old_holder = std::make_unique<OldCore>(config);
  OldCore& old_core = *old_holder;
  NewCore& new_core = *new_holder;
  std::mt19937_64 rng(config.bucket_count);
  // To 95%, or until the first failure (a full filter, with its victim slot in use, as Table 3 fills).
  std::vector<uint64_t> keys(static_cast<size_t>((g_fill_to_failure ? 1.0 : 0.95) * config.slot_count()));
  for (auto& key : keys) key = rng();
  // Pages are backed when first touched, so the growth of the process's huge pages across each fill is
  // that table's share (lookup rates over a large table depend on it).
  const long huge_before = bench::anon_huge_pages_kb();
  const size_t stored = old_core.insert_many(keys.data(), keys.size());
  const long huge_old = bench::anon_huge_pages_kb();
  const size_t new_stored = new_core.insert_many(keys.data(), keys.size());
  const long huge_new = bench::anon_huge_pages_kb();
  if (new_stored != stored) {
    std::printf("%s: the cores stored different numbers of keys\n", name);
    return false;
  }
  const bool same_bytes = std::memcmp(old_core.table_data(), new_core.table_data(), config.table_bytes()) == 0;

  const size_t n = size_t{1} << 22;
  std::vector<uint64_t> queries(n);
  for (size_t i = 0; i < n; ++i) queries[i] = (i & 1) ? keys[rng() % stored] : rng();
  std::vector<uint8_t> old_out(n), new_out(n);
  const cuckoo::ab_old::FilterCore* old_filter = &old_core;
  const cuckoo::internal::FilterCore* new_filter = &new_core;

  std::printf("%s, %s table allocated first: %llu buckets, %zu keys%s, table bytes %s\n", name,
              old_first ? "old" : "new", static_cast<unsigned long long>(config.bucket_count), stored,
              new_core.victim().used ? " (full: victim in use)" : "", same_bytes ? "identical (answers compared)" : "differ (placement changed; answers not compared)");
  std::printf("  huge pages: old table %ld MiB, new table %ld MiB (of %.0f MiB each)\n", (huge_old - huge_before) / 1024,
              (huge_new - huge_old) / 1024, config.table_bytes() / 1048576.0);
  double sums[4] = {};
  for (int round = 0; round < 5; ++round) {
    double r[4];
    r[0] = best_rate(n, [&] { for (size_t i = 0; i < n; ++i) old_out[i] = old_filter->contains_u64_key(queries[i]); });
    r[1] = best_rate(n, [&] { for (size_t i = 0; i < n; ++i) new_out[i] = new_filter->contains_u64_key(queries[i]); });
    if (same_bytes && old_out != new_out) return std::printf("%s: single lookups answer differently\n", name), false;
    r[2] = best_rate(n, [&] { old_filter->contains_many(queries.data(), n, old_out.data()); });
    r[3] = best_rate(n, [&] { new_filter->contains_many(queries.data(), n, new_out.data()); });
    if (same_bytes && old_out != new_out) return std::printf("%s: batched lookups answer differently\n", name), false;
    std::printf("  round %d  single old %6.2f new %6.2f   batched old %6.2f new %6.2f M/s\n", round + 1, r[0], r[1], r[2],
                r[3]);
    for (int i = 0; i < 4; ++i) sums[i] += r[i];
  }
  ratios->single = sums[1] / sums[0];
  ratios->batched = sums[3] / sums[2];
  std::printf("  new/old: single %.2fx, batched %.2fx\n\n", ratios->single, ratios->batched);
  return true;
}

template <typename OldCore, typename NewCore>
bool compare_both_orders(const char* name, const cuckoo::Config& config) {
  Ratios a, b;
  if (!compare<OldCore, NewCore>(name, config, true, &a) || !compare<OldCore, NewCore>(name, config, false, &b))
    return false;
  std::printf("%s new/old, geometric mean of both orders: single %.2fx, batched %.2fx\n\n", name,
              std::sqrt(a.single * b.single), std::sqrt(a.batched * b.batched));
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned log2_buckets = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 25;
  g_fill_to_failure = argc > 2 && std::strcmp(argv[2], "full") == 0;
  cuckoo::Config config;
  config.bucket_size = 4;
  config.bucket_count = uint64_t{1} << log2_buckets;
  config.seed = 42;
  config.fingerprint_bits = 12;
  bool ok = compare_both_orders<cuckoo::ab_old::CuckooCore<cuckoo::ab_old::PackedTable<4, 12>>,
                                cuckoo::internal::CuckooCore<cuckoo::internal::PackedTable<4, 12>>>("CF b=4 f=12", config);
  config.fingerprint_bits = 13;  // what sizing from fpr = 0.001 picks: the run-time-width, one-load table
  ok &= compare_both_orders<cuckoo::ab_old::CuckooCore<cuckoo::ab_old::PackedTable<4, 0, true>>,
                            cuckoo::internal::CuckooCore<cuckoo::internal::PackedTable<4, 0, true>>>("CF b=4 f=13", config);
  config.semi_sort = true;
  ok &= compare_both_orders<cuckoo::ab_old::CuckooCore<cuckoo::ab_old::SemiSortedTable<13>>,
                            cuckoo::internal::CuckooCore<cuckoo::internal::SemiSortedTable<13>>>("ss-CF b=4 f=13", config);
  return ok ? 0 : 1;
}
