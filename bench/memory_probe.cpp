// bench/memory_probe.cpp: what bounds a lookup or an insert on a table much larger than the cache.
//
// Two probes over a table of the paper's size (192 MiB, huge pages, as the core allocates it), no filter:
//   1. Overlap: the time for K random reads whose addresses are all known up front (prefetched together,
//      then read), the batches chained so that they cannot overlap each other. This is one step of the
//      insert's walk: K = 16 buckets per kick (filter_core.h). If K reads took as long as one, exploring
//      more buckets per step would be free; the probe shows how the time grows with K instead.
//   2. Window: independent queries of two random reads each, as in a loop of single-key lookups, with
//      E = 4R extra instructions per query on the query word before the reads (as a hash is). If the rate
//      falls as 1 / (instructions per query), the number of queries in flight is set by how many
//      instructions the core keeps in flight, not by the memory system: the bound of single-key lookups.
//   3. Pipeline: independent queries of two random reads each, both lines of the query D places ahead
//      prefetched as each query is read (a rolling window; D = 0 prefetches nothing). Nothing but the
//      reads and their addresses, so the best rate over D is the most any batched lookup (contains_many)
//      can reach on this machine while the run lasts (the host's other load moves it between runs).
// Usage: memory_probe (built with the benchmarks: cmake -DCUCKOO_BUILD_BENCH=ON, target memory_probe).
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "memory_ceiling.h"  // BareReads: the same huge-page table and random reads paper_eval uses
#include "timer.h"

namespace {

using bench::BareReads;

// Nanoseconds per batch of K random reads; each batch's addresses depend on the previous batch's data.
template <int K>
double overlapped_reads_ns(const BareReads& table, int batches) {
  uint64_t x = 1;
  const bench::Timer timer;
  for (int b = 0; b < batches; ++b) {
    uint64_t lines[K];
    for (int k = 0; k < K; ++k) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      lines[k] = table.line_of(x);
      table.prefetch_line(lines[k]);
    }
    uint64_t sum = 0;
    for (int k = 0; k < K; ++k) sum += table.read_line(lines[k]);
    x ^= sum & 1;  // chains the batches
  }
  return timer.seconds() / batches * 1e9;
}

// Million queries per second; each query is R rounds of 4 dependent ALU instructions (mov, shr, xor,
// add) on its word, then BareReads::contains (two reads). The empty asm keeps the compiler from folding
// the rounds away.
template <int R>
double queries_per_second(const BareReads& table, const std::vector<uint64_t>& queries) {
  uint64_t hits = 0;
  const bench::Timer timer;
  for (uint64_t q : queries) {
    for (int round = 0; round < R; ++round) {
      q ^= q >> 7;
      q += 0x9E37;
      __asm__(""
              : "+r"(q));
    }
    hits += table.contains(q);
  }
  bench::consume(hits);
  return bench::mops(queries.size(), timer.seconds());
}

// Million queries per second with the two lines of query i + D prefetched while query i is read.
template <int D>
double pipelined_queries_per_second(const BareReads& table, const std::vector<uint64_t>& queries) {
  const size_t n = queries.size() - D;  // the last D queries are only ever prefetched
  uint64_t hits = 0;
  const bench::Timer timer;
  for (size_t i = 0; i < n; ++i) {
    if constexpr (D > 0) table.prefetch_query(queries[i + D]);
    hits += table.contains(queries[i]);
  }
  bench::consume(hits);
  return bench::mops(n, timer.seconds());
}

}  // namespace

int main() {
  const BareReads table(size_t{192} << 20, /*huge_pages=*/true);
  std::vector<uint64_t> queries(10'000'000);
  std::mt19937_64 rng(1);
  for (uint64_t& q : queries) q = rng();

  std::printf("192 MiB table, huge pages. Three repetitions of each probe (a shared machine is noisy).\n");
  std::printf("1. ns per batch of K overlapped random reads (K = 1 is the memory latency):\n");
  for (int rep = 0; rep < 3; ++rep) {
    std::printf("   K=1 %4.0f  K=4 %4.0f  K=8 %4.0f  K=16 %4.0f  K=32 %4.0f  K=64 %4.0f\n",
                overlapped_reads_ns<1>(table, 100000), overlapped_reads_ns<4>(table, 100000),
                overlapped_reads_ns<8>(table, 100000), overlapped_reads_ns<16>(table, 100000),
                overlapped_reads_ns<32>(table, 50000), overlapped_reads_ns<64>(table, 50000));
  }
  std::printf("2. M queries/s: two random reads (~17 instructions with the loop) plus E extra instructions per query\n");
  std::printf("   (a CF single-key lookup, bench loop included, is ~67 instructions: E ~ 55):\n");
  for (int rep = 0; rep < 3; ++rep) {
    std::printf("   E=0 %5.1f  E=12 %5.1f  E=20 %5.1f  E=40 %5.1f  E=56 %5.1f\n", queries_per_second<0>(table, queries),
                queries_per_second<3>(table, queries), queries_per_second<5>(table, queries),
                queries_per_second<10>(table, queries), queries_per_second<14>(table, queries));
  }
  std::printf("3. M queries/s: two random reads per query, both lines of the query D ahead prefetched (D = 0: none);\n");
  std::printf("   the best over D bounds batched lookups:\n");
  for (int rep = 0; rep < 3; ++rep) {
    std::printf("   D=0 %5.1f  D=8 %5.1f  D=16 %5.1f  D=32 %5.1f  D=64 %5.1f  D=128 %5.1f\n",
                pipelined_queries_per_second<0>(table, queries), pipelined_queries_per_second<8>(table, queries),
                pipelined_queries_per_second<16>(table, queries), pipelined_queries_per_second<32>(table, queries),
                pipelined_queries_per_second<64>(table, queries), pipelined_queries_per_second<128>(table, queries));
  }
  return 0;
}
