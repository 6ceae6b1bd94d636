// bench/ab/insert_ab.cpp: before/after construction rates of two versions of the core, in one process.
//
// The companion of lookup_ab.cpp (same build, same renamed old core; see run.sh). Table 3's construction
// figure is single inserts until the first failure, and most of its time goes to the last few percent of
// load (at 2^25 buckets x 4 x 12 bits: ~1/3 of it to 95% -> 97.5%), so the fill is timed in load
// segments as well as in total.
//
// For CF (b=4, f=12) and ss-CF (b=4, f=13 in 12 bits per entry), each round fills a fresh table of each
// core with the same keys, one insert at a time through FilterCore's virtual call (as CuckooFilter::insert
// makes it), until the first insert that returns false. Rounds alternate which core fills first. When the cores place keys identically (a pure speed change),
// both stop at the same key and their table bytes hash alike; the program says so, or says they differ.
//
// Usage (through run.sh --insert): insert_ab [log2_buckets = 25] [rounds = 2]
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

#include "ab_old/filter_core.h"
#include "ab_old/packed_table.h"
#include "ab_old/semi_sorted_table.h"
#include "filter_core.h"
#include "hash.h"
#include "packed_table.h"
#include "semi_sorted_table.h"
#include "timer.h"

namespace {

// Load marks at which the fill's clock is read; the last segment runs to the first failure.
constexpr double kMarks[] = {0.5, 0.8, 0.9, 0.95};
constexpr size_t kSegments = sizeof kMarks / sizeof kMarks[0] + 1;

struct Fill {
  size_t stored = 0;  // keys inserted before the first failure
  double segment_seconds[kSegments] = {};
  uint64_t table_hash = 0;  // XXH3 of the table bytes, to compare placements
  double total() const {
    double t = 0;
    for (double s : segment_seconds) t += s;
    return t;
  }
};

// Interface: the core's FilterCore (each namespace has its own), so that inserts take the virtual call.
template <typename Core, typename Interface>
Fill fill_to_failure(const cuckoo::Config& config, const std::vector<uint64_t>& keys) {
  auto core = std::make_unique<Core>(config);
  Interface* filter = core.get();
  Fill fill;
  size_t i = 0;
  for (size_t segment = 0; segment < kSegments; ++segment) {
    const size_t end = segment + 1 < kSegments ? static_cast<size_t>(kMarks[segment] * config.slot_count()) : keys.size();
    const bench::Timer timer;
    while (i < end && filter->insert_u64_key(keys[i])) ++i;
    fill.segment_seconds[segment] = timer.seconds();
    if (i < end) break;  // the first failure
  }
  fill.stored = i;
  fill.table_hash = cuckoo::internal::hash_bytes(core->table_data(), config.table_bytes(), 0);
  return fill;
}

void print_fill(const char* who, const Fill& fill, const cuckoo::Config& config) {
  std::printf("  %s %6.2f M keys/s to the first failure (%zu keys, load %.2f%%); by segment, M keys/s:", who,
              fill.stored / fill.total() / 1e6, fill.stored, 100.0 * fill.stored / config.slot_count());
  double from = 0;
  for (size_t s = 0; s < kSegments; ++s) {
    const double to = s + 1 < kSegments ? kMarks[s] : static_cast<double>(fill.stored) / config.slot_count();
    std::printf(" %.0f-%.1f%% %.2f", 100 * from, 100 * to, (to - from) * config.slot_count() / fill.segment_seconds[s] / 1e6);
    from = to;
  }
  std::printf("\n");
}

template <typename OldCore, typename NewCore>
void compare(const char* name, const cuckoo::Config& config, int rounds) {
  std::mt19937_64 rng(config.bucket_count);
  std::vector<uint64_t> keys(config.slot_count());
  for (auto& key : keys) key = rng();

  std::printf("%s, %llu buckets, single inserts until the first failure\n", name,
              static_cast<unsigned long long>(config.bucket_count));
  double old_seconds = 0, new_seconds = 0;
  double old_segments[kSegments] = {}, new_segments[kSegments] = {};
  bool same = true;
  for (int round = 0; round < rounds; ++round) {
    const bool old_first = round % 2 == 0;
    Fill old_fill, new_fill;
    if (old_first) old_fill = fill_to_failure<OldCore, cuckoo::ab_old::FilterCore>(config, keys);
    new_fill = fill_to_failure<NewCore, cuckoo::internal::FilterCore>(config, keys);
    if (!old_first) old_fill = fill_to_failure<OldCore, cuckoo::ab_old::FilterCore>(config, keys);
    std::printf("round %d (%s first)\n", round + 1, old_first ? "old" : "new");
    print_fill("old", old_fill, config);
    print_fill("new", new_fill, config);
    same &= old_fill.stored == new_fill.stored && old_fill.table_hash == new_fill.table_hash;
    old_seconds += old_fill.total() / old_fill.stored;
    new_seconds += new_fill.total() / new_fill.stored;
    for (size_t s = 0; s < kSegments; ++s) {
      old_segments[s] += old_fill.segment_seconds[s];
      new_segments[s] += new_fill.segment_seconds[s];
    }
  }
  std::printf("%s placement: %s\n", name, same ? "identical (same keys stored, same table bytes)" : "DIFFERS between the cores");
  std::printf("%s new/old construction rate, all rounds: %.2fx; by segment:", name, old_seconds / new_seconds);
  for (size_t s = 0; s < kSegments; ++s) std::printf(" %.2fx", old_segments[s] / new_segments[s]);
  std::printf("\n\n");
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned log2_buckets = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 25;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 2;
  cuckoo::Config config;
  config.bucket_size = 4;
  config.bucket_count = uint64_t{1} << log2_buckets;
  config.seed = 42;
  config.fingerprint_bits = 12;
  compare<cuckoo::ab_old::CuckooCore<cuckoo::ab_old::PackedTable<4, 12>>,
          cuckoo::internal::CuckooCore<cuckoo::internal::PackedTable<4, 12>>>("CF b=4 f=12", config, rounds);
  config.semi_sort = true;
  config.fingerprint_bits = 13;
  compare<cuckoo::ab_old::CuckooCore<cuckoo::ab_old::SemiSortedTable<13>>,
          cuckoo::internal::CuckooCore<cuckoo::internal::SemiSortedTable<13>>>("ss-CF b=4 f=13", config, rounds);
  return 0;
}
