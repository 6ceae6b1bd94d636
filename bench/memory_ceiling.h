// bench/memory_ceiling.h: what this machine's memory lets any lookup reach, measured beside the filters.
//
// A lookup in a filter larger than the cache costs two random reads (its two buckets). BareReads does
// only those: the same table size, the two line indices taken straight from the (already random) query
// word with two multiplies, no hash, no fingerprint, no compare. Timed by the same harness as the
// filters, interleaved with them on the same queries, it gives the ceiling of both ways a filter is
// timed, on this machine and at this moment:
//   - contains(): a loop of independent queries, as many misses in flight as out-of-order execution
//     finds (single-key lookups);
//   - contains_many(): blocks of kBlock queries, both lines of each prefetched before any is read
//     (the core's batched pipeline).
// A filter's rate divided by these is the share of the ceiling it reaches, a ratio that holds up on a
// shared machine far better than absolute rates do. The pipelined figure is a reference rather than a
// hard bound: it is the core's 64-key block pipeline with bare reads in it, and the CF's batched lookups
// have matched or passed it in some runs (README, Performance).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "aligned_buffer.h"  // the core's table memory: same alignment, same huge-page hint

namespace bench {

class BareReads {
 public:
  static constexpr size_t kBlock = 64;  // the core's kLookupBlock

  BareReads(size_t table_bytes, bool huge_pages)
      : lines_(table_bytes / 64), buffer_(lines_ * 64, huge_pages) {
    // Write every page: untouched anonymous memory reads as the shared zero page, which caches.
    std::memset(buffer_.data(), 0x5A, buffer_.size());
  }

  bool contains(uint64_t query) const { return (word(line_a(query)) ^ word(line_b(query))) & 1; }

  void contains_many(const uint64_t* queries, size_t n, uint8_t* out) const {
    uint64_t a[kBlock], b[kBlock];
    for (size_t start = 0; start < n; start += kBlock) {
      const size_t m = n - start < kBlock ? n - start : kBlock;
      for (size_t j = 0; j < m; ++j) {
        a[j] = line_a(queries[start + j]);
        b[j] = line_b(queries[start + j]);
        __builtin_prefetch(buffer_.data() + a[j] * 64, 0, 3);
        __builtin_prefetch(buffer_.data() + b[j] * 64, 0, 3);
      }
      for (size_t j = 0; j < m; ++j) out[start + j] = (word(a[j]) ^ word(b[j])) & 1;
    }
  }

  // One random line at a time, for probes that schedule their own reads (memory_probe.cpp).
  uint64_t line_of(uint64_t query) const { return line_a(query); }
  void prefetch_line(uint64_t line) const { __builtin_prefetch(buffer_.data() + line * 64, 0, 3); }
  // Both lines contains(query) reads.
  void prefetch_query(uint64_t query) const {
    prefetch_line(line_a(query));
    prefetch_line(line_b(query));
  }
  uint64_t read_line(uint64_t line) const { return word(line); }

 private:
  // Two independent uniform line indices: the high halves of 64 x 64-bit products (the core's own
  // bucket-index reduction, without the hash in front of it).
  uint64_t line_a(uint64_t q) const { return static_cast<uint64_t>((unsigned __int128)q * lines_ >> 64); }
  uint64_t line_b(uint64_t q) const {
    return static_cast<uint64_t>((unsigned __int128)(q * 0x9E3779B97F4A7C15ull) * lines_ >> 64);
  }
  uint64_t word(uint64_t line) const {
    uint64_t w;
    std::memcpy(&w, buffer_.data() + line * 64, sizeof w);
    return w;
  }

  size_t lines_;
  cuckoo::internal::AlignedBuffer buffer_;
};

}  // namespace bench
