// core/src/make_core.cpp: run-time configuration -> compile-time table shape.
//
// The widths users pick most (4, 8, 12, 16, 32 bits; 13 bits semi-sorted = the paper's 12 bits/entry
// ss-CF) get code with the width baked in; every other width runs the same code with the width read at
// run time (kFixedBits = 0), which costs a few percent on lookups, not correctness.
#include <stdexcept>

#include "filter_core.h"
#include "packed_table.h"
#include "semi_sorted_table.h"

namespace cuckoo::internal {

namespace {

template <unsigned kBucketSize>
std::unique_ptr<FilterCore> make_packed(const Config& config) {
  switch (config.fingerprint_bits) {
    case 4: return std::make_unique<CuckooCore<PackedTable<kBucketSize, 4>>>(config);
    case 8: return std::make_unique<CuckooCore<PackedTable<kBucketSize, 8>>>(config);
    case 12: return std::make_unique<CuckooCore<PackedTable<kBucketSize, 12>>>(config);
    case 16: return std::make_unique<CuckooCore<PackedTable<kBucketSize, 16>>>(config);
    case 32: return std::make_unique<CuckooCore<PackedTable<kBucketSize, 32>>>(config);
    default:
      if (kBucketSize * config.fingerprint_bits <= 57)
        return std::make_unique<CuckooCore<PackedTable<kBucketSize, 0, true>>>(config);
      return std::make_unique<CuckooCore<PackedTable<kBucketSize, 0>>>(config);
  }
}

std::unique_ptr<FilterCore> make_semi_sorted(const Config& config) {
  switch (config.fingerprint_bits) {
    case 9: return std::make_unique<CuckooCore<SemiSortedTable<9>>>(config);
    case 13: return std::make_unique<CuckooCore<SemiSortedTable<13>>>(config);
    case 17: return std::make_unique<CuckooCore<SemiSortedTable<17>>>(config);
    default: return std::make_unique<CuckooCore<SemiSortedTable<0>>>(config);
  }
}

}  // namespace

std::unique_ptr<FilterCore> make_core(const Config& config) {
  std::string why;
  if (!is_valid_config(config, &why)) throw std::invalid_argument("cuckoo: " + why);
  if (config.semi_sort) return make_semi_sorted(config);
  switch (config.bucket_size) {
    case 2: return make_packed<2>(config);
    case 4: return make_packed<4>(config);
    default: return make_packed<8>(config);
  }
}

}  // namespace cuckoo::internal
