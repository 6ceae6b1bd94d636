// bench/cuckoo_adapter.h: our core (cuckoo::CuckooFilter) behind the evaluation's adapter contract
// (filter_api.h), as the paper's CF and ss-CF.
//
// Same memory as the paper: a table of T bytes holds T*8 / (4 x 12) buckets of four 12-bit entries
// (192 MB -> exactly 2^25 buckets). ss-CF keeps the same bucket count with 13-bit fingerprints stored in
// 12 bits per entry (semi-sorted, paper section 5.2), so both tables are the same size. The bucket count
// is set explicitly (Options::bucket_count), never derived from a capacity.
//
// Hashing: the core hashes a uint64_t key as XXH3-64 of its 8 little-endian bytes with the filter's seed,
// which is exactly bench::hash_key; it happens inside insert/contains like every baseline's.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuckoo/filter.h>
#include <cuckoo/options.h>

#include "filter_api.h"

namespace bench {

template <bool kSemiSorted>
class CuckooAdapter {
 public:
  static constexpr const char* kName = kSemiSorted ? "ss-CF" : "CF";
  static constexpr bool kCanErase = true;
  static constexpr unsigned kBitsPerEntry = 12;

  // huge_pages: ask for THP backing (the default); the driver turns it off once to measure the difference.
  static CuckooAdapter for_memory(size_t table_bytes, uint64_t seed, bool huge_pages = true) {
    cuckoo::Options options;
    options.bucket_count = uint64_t{table_bytes} * 8 / (4 * kBitsPerEntry);
    options.bucket_size = 4;
    options.fingerprint_bits = kSemiSorted ? kBitsPerEntry + 1 : kBitsPerEntry;
    options.semi_sort = kSemiSorted;
    options.seed = seed;
    options.huge_pages = huge_pages;
    return CuckooAdapter(options);
  }

  // Any shape, for Figure 4's measured points (fingerprint width sweeps).
  static CuckooAdapter with_shape(uint64_t bucket_count, unsigned fingerprint_bits, uint64_t seed) {
    cuckoo::Options options;
    options.bucket_count = bucket_count;
    options.bucket_size = 4;
    options.fingerprint_bits = fingerprint_bits;
    options.semi_sort = kSemiSorted;
    options.seed = seed;
    return CuckooAdapter(options);
  }

  bool insert(uint64_t key) { return filter_.insert(key); }
  bool contains(uint64_t key) const { return filter_.contains(key); }
  bool erase(uint64_t key) { return filter_.erase(key); }
  void contains_many(const uint64_t* keys, size_t n, uint8_t* out) const { filter_.contains_many(keys, n, out); }
  // Beyond the contract: the core's batched insert (prefetching), for the batch construction rate.
  size_t insert_many(const uint64_t* keys, size_t n) { return filter_.insert_many(keys, n); }

  size_t design_capacity() const { return filter_.slot_count(); }
  bool fills_to_failure() const { return true; }
  // The packed table only (what bits/item divides), not the filter object's few bytes of bookkeeping.
  size_t memory_bytes() const { return filter_.config().table_bytes(); }

  const cuckoo::CuckooFilter& filter() const { return filter_; }
  cuckoo::CuckooFilter& filter() { return filter_; }

 private:
  explicit CuckooAdapter(const cuckoo::Options& options) : filter_(options) {}
  cuckoo::CuckooFilter filter_;
};

using CuckooFilterAdapter = CuckooAdapter<false>;
using SemiSortedCuckooFilterAdapter = CuckooAdapter<true>;

}  // namespace bench
