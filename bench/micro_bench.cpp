// bench/micro_bench.cpp: Google Benchmark micro-benchmarks of single operations, every filter through the
// filter_api.h contract: hash, bucket probe (a cache-resident table), lookup (a table far larger than the
// cache, positive and negative), batched lookup, insert, delete, serialize.
//
// Run by bench/run.sh; alone: build/bench/micro_bench [--benchmark_filter=CF] [--benchmark_min_time=0.5]
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "cuckoo_adapter.h"
#include "filter_api.h"
#include "keys.h"

#include "baselines/blocked_bloom_filter.h"
#include "baselines/bloom_filter.h"
#include "baselines/dleft_counting_bloom_filter.h"
#include "baselines/quotient_filter.h"

namespace bench {
namespace {

constexpr uint64_t kSeed = 0x9E3779B97F4A7C15ull;
constexpr size_t kCacheBytes = size_t{6} << 10;   // 1024 buckets x 4 x 12 bits: in L1
constexpr size_t kDramBytes = size_t{48} << 20;   // far larger than the L3 (lookups, serialize)
constexpr size_t kUpdateBytes = size_t{3} << 19;  // 1.5 MiB: insert/delete cycles refill it often
// Queries per table size, powers of two, cycled through. For the 48 MB table, enough that a pass touches
// far more of it than the L3 holds: with 2^16, a CF's lookups read only 4-8 MiB of its lines, which stayed
// cached, so "Lookup" timed the CF and the blocked BF (1-2 lines per key) in cache but the BF (~9 lines)
// in DRAM. For the L1-sized table, few enough that the query array does not stream through the caches.
constexpr size_t query_count(size_t table_bytes) {
  return table_bytes == kCacheBytes ? size_t{1} << 16 : size_t{1} << 22;
}

// A filter of `bytes` filled to its Table 3 point (first failure or design capacity); returns items.
template <class F>
uint64_t fill(F& filter, const KeyStream& keys) {
  const uint64_t capacity = filter.design_capacity();
  uint64_t n = 0;
  while (n < capacity && filter.insert(keys.positive(n))) ++n;
  return n;
}

// One filled filter per type and size, shared by the lookup benchmarks (building a 48 MB filter is slow).
template <class F>
struct Filled {
  std::unique_ptr<F> filter;
  uint64_t items = 0;
  static Filled& get(size_t bytes) {
    static Filled cache_resident, dram;
    Filled& slot = bytes == kCacheBytes ? cache_resident : dram;
    if (!slot.filter) {
      slot.filter = std::make_unique<F>(F::for_memory(bytes, kSeed));
      slot.items = fill(*slot.filter, KeyStream(kSeed));
    }
    return slot;
  }
};

std::vector<uint64_t> queries(size_t table_bytes, uint64_t items, bool positive) {
  const KeyStream keys(kSeed);
  Rng rng(positive ? 1 : 2);
  std::vector<uint64_t> q(query_count(table_bytes));
  for (size_t i = 0; i < q.size(); ++i) q[i] = positive ? keys.positive(rng.below(items)) : keys.negative(i);
  return q;
}

void BM_Hash(benchmark::State& state) {
  uint64_t key = 1, sum = 0;
  for (auto _ : state) sum += hash_key(key++, kSeed);
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Hash);

// Single-key lookups; arg 0: 1 = positive queries, 0 = negative. kTableBytes = kCacheBytes ("BucketProbe":
// the table stays in L1, so this times the hash and the bucket probe only) or kDramBytes ("Lookup").
template <class F, size_t kTableBytes>
void BM_Contains(benchmark::State& state) {
  auto& filled = Filled<F>::get(kTableBytes);
  const auto q = queries(kTableBytes, filled.items, state.range(0));
  size_t i = 0;
  uint64_t hits = 0;
  for (auto _ : state) hits += filled.filter->contains(q[i++ & (q.size() - 1)]);
  benchmark::DoNotOptimize(hits);
  state.SetItemsProcessed(state.iterations());
}

template <class F>
void BM_LookupBatch(benchmark::State& state) {
  auto& filled = Filled<F>::get(kDramBytes);
  const auto q = queries(kDramBytes, filled.items, state.range(0));
  std::vector<uint8_t> out(q.size());
  for (auto _ : state) {
    filled.filter->contains_many(q.data(), q.size(), out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * q.size());
}

// Inserts into a 1.5 MiB filter from empty to the design capacity (or the first failure), then starts over
// with a fresh filter outside the timed region: the average insert over a whole construction.
template <class F>
void BM_Insert(benchmark::State& state) {
  const KeyStream keys(kSeed);
  auto filter = std::make_unique<F>(F::for_memory(kUpdateBytes, kSeed));
  uint64_t n = 0;
  const uint64_t capacity = filter->design_capacity();
  for (auto _ : state) {
    if (n >= capacity || !filter->insert(keys.positive(n))) {
      state.PauseTiming();
      filter = std::make_unique<F>(F::for_memory(kUpdateBytes, kSeed));
      n = 0;
      state.ResumeTiming();
      continue;
    }
    ++n;
  }
  state.SetItemsProcessed(state.iterations());
}

// Deletes from a full 1.5 MiB filter until it is empty, refilling outside the timed region.
template <class F>
void BM_Delete(benchmark::State& state) {
  const KeyStream keys(kSeed);
  auto filter = std::make_unique<F>(F::for_memory(kUpdateBytes, kSeed));
  uint64_t n = fill(*filter, keys);
  uint64_t ok = 0;
  for (auto _ : state) {
    if (n == 0) {
      state.PauseTiming();
      n = fill(*filter, keys);
      state.ResumeTiming();
    }
    ok += filter->erase(keys.positive(--n));
  }
  benchmark::DoNotOptimize(ok);
  state.SetItemsProcessed(state.iterations());
}

template <bool kSemi>
void BM_Serialize(benchmark::State& state) {
  auto& filled = Filled<CuckooAdapter<kSemi>>::get(kDramBytes);
  const auto& filter = filled.filter->filter();
  std::vector<uint8_t> bytes(filter.serialized_size());
  for (auto _ : state) {
    filter.serialize_to(bytes.data());
    benchmark::DoNotOptimize(bytes.data());
  }
  state.SetBytesProcessed(state.iterations() * bytes.size());
}

template <bool kSemi>
void BM_Deserialize(benchmark::State& state) {
  auto& filled = Filled<CuckooAdapter<kSemi>>::get(kDramBytes);
  const std::vector<uint8_t> bytes = filled.filter->filter().serialize();
  for (auto _ : state) {
    auto copy = cuckoo::CuckooFilter::deserialize(bytes.data(), bytes.size());
    benchmark::DoNotOptimize(copy.size());
  }
  state.SetBytesProcessed(state.iterations() * bytes.size());
}

template <class F>
void register_filter() {
  const std::string name = F::kName;
  benchmark::RegisterBenchmark(("BucketProbe/" + name).c_str(), BM_Contains<F, kCacheBytes>)->ArgName("positive")->Arg(0)->Arg(1);
  benchmark::RegisterBenchmark(("Lookup/" + name).c_str(), BM_Contains<F, kDramBytes>)->ArgName("positive")->Arg(0)->Arg(1);
  benchmark::RegisterBenchmark(("LookupBatch/" + name).c_str(), BM_LookupBatch<F>)->ArgName("positive")->Arg(0)->Arg(1);
  benchmark::RegisterBenchmark(("Insert/" + name).c_str(), BM_Insert<F>);
  if constexpr (F::kCanErase) benchmark::RegisterBenchmark(("Delete/" + name).c_str(), BM_Delete<F>);
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  using namespace bench;
  register_filter<CuckooFilterAdapter>();
  register_filter<SemiSortedCuckooFilterAdapter>();
  register_filter<baselines::BloomFilter>();
  register_filter<baselines::BlockedBloomFilter>();
  register_filter<baselines::QuotientFilter>();
  register_filter<baselines::DLeftCountingBloomFilter>();
  benchmark::RegisterBenchmark("Serialize/CF", BM_Serialize<false>);
  benchmark::RegisterBenchmark("Serialize/ss-CF", BM_Serialize<true>);
  benchmark::RegisterBenchmark("Deserialize/CF", BM_Deserialize<false>);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
