// core/src/make_core.cpp: run-time configuration -> compile-time table shape.
//
// The widths users pick most (4, 8, 12, 16, 32 bits; with b = 4 also 10 and 13 bits, which sizing from
// a target rate of 1% and 0.1% picks; 13 bits semi-sorted = the paper's 12 bits/entry ss-CF) get code
// with the width baked in; every other width runs the same algorithm with the width read at run time
// (kFixedBits = 0). Both place every key identically and write the same bytes
// (native-tests/shape_test.cpp), so which one serves a filter is a matter of speed only.
//
// The WASM build (CUCKOO_COMPACT_SHAPES) bakes in widths for b = 4 only, the bucket size the JS package
// uses unless told otherwise, and the ss-CF only at 13 bits: each baked-in shape adds to the module's
// size. Filters with b = 2 or 8 at a common width run the run-time-width code instead, a little slower.
// b = 4 at 10 and 13 bits is baked in because sizing from an fpr of 1% and 0.1% picks those widths
// (bench/js/key_shapes.mjs compares the shapes; bench/README.md has the figures).
//
// CUCKOO_COMPACT_SHAPES=2 (the browser's WASM build, where download size matters more than speed) bakes in
// nothing: one packed table that reads the width and the bucket size at run time and one semi-sorted
// table, each hashed by LevelHasher. A fixed filter is then hashed as level 0 of a growing one, which
// places every key exactly as BucketHasher does (level_hasher.h), so the same two CuckooCore
// instantiations serve fixed filters and every level of growing ones (BucketHasher for the fixed ones as
// well would double the table code).
#include <stdexcept>

#include "filter_core.h"
#include "growing_core.h"
#include "level_hasher.h"
#include "packed_table.h"
#include "semi_sorted_table.h"

namespace cuckoo::internal {

namespace {

// Every width, read at run time, with the fewest loads per bucket the width allows (packed_table.h's
// kLoads). The compact builds leave out the two-load variant: it is only a little faster than the general
// code, and every browser would download it.
template <unsigned kBucketSize, typename Hasher>
std::unique_ptr<FilterCore> make_run_time_width(const Config& config, const Hasher& hasher, const uint8_t* borrowed) {
  const unsigned bucket_bits = kBucketSize * config.fingerprint_bits;
  if (bucket_bits <= 57)
    return std::make_unique<CuckooCore<PackedTable<kBucketSize, 0, 1>, Hasher>>(config, hasher, borrowed);
#if !CUCKOO_COMPACT_SHAPES
  if (bucket_bits / 2 <= 57)
    return std::make_unique<CuckooCore<PackedTable<kBucketSize, 0, 2>, Hasher>>(config, hasher, borrowed);
#endif
  return std::make_unique<CuckooCore<PackedTable<kBucketSize, 0>, Hasher>>(config, hasher, borrowed);
}

constexpr bool bakes_in_widths(unsigned bucket_size) {
  return CUCKOO_COMPACT_SHAPES == 0 || (CUCKOO_COMPACT_SHAPES == 1 && bucket_size == 4);
}

template <unsigned kBucketSize>
std::unique_ptr<FilterCore> make_packed(const Config& config, const uint8_t* borrowed) {
  if constexpr (bakes_in_widths(kBucketSize)) {
    switch (config.fingerprint_bits) {
      case 4:
        return std::make_unique<CuckooCore<PackedTable<kBucketSize, 4>>>(config, borrowed);
      case 8:
        return std::make_unique<CuckooCore<PackedTable<kBucketSize, 8>>>(config, borrowed);
      case 12:
        return std::make_unique<CuckooCore<PackedTable<kBucketSize, 12>>>(config, borrowed);
      case 16:
        return std::make_unique<CuckooCore<PackedTable<kBucketSize, 16>>>(config, borrowed);
      case 32:
        return std::make_unique<CuckooCore<PackedTable<kBucketSize, 32>>>(config, borrowed);
      default:
        break;
    }
  }
  if constexpr (kBucketSize == 4 && CUCKOO_COMPACT_SHAPES < 2) {
    switch (config.fingerprint_bits) {
      case 10:
        return std::make_unique<CuckooCore<PackedTable<4, 10>>>(config, borrowed);
      case 13:
        return std::make_unique<CuckooCore<PackedTable<4, 13>>>(config, borrowed);
      default:
        break;
    }
  }
  return make_run_time_width<kBucketSize, BucketHasher>(config, BucketHasher(config.bucket_count, config.fingerprint_bits),
                                                        borrowed);
}

#if CUCKOO_COMPACT_SHAPES < 2
std::unique_ptr<FilterCore> make_semi_sorted(const Config& config, const uint8_t* borrowed) {
  switch (config.fingerprint_bits) {
#if !CUCKOO_COMPACT_SHAPES
    case 9:
      return std::make_unique<CuckooCore<SemiSortedTable<9>>>(config, borrowed);
    case 17:
      return std::make_unique<CuckooCore<SemiSortedTable<17>>>(config, borrowed);
#endif
    case 13:
      return std::make_unique<CuckooCore<SemiSortedTable<13>>>(config, borrowed);
    default:
      return std::make_unique<CuckooCore<SemiSortedTable<0>>>(config, borrowed);
  }
}
#endif

// A growing filter's levels above 0 use the run-time-width tables only: each level has its own width
// (f0 + level_extra_bits(s)), and baking in every combination would multiply the code for a path whose
// tables are mostly small.
template <unsigned kBucketSize>
std::unique_ptr<FilterCore> make_packed_level(const Config& config, const LevelHasher& hasher, const uint8_t* borrowed) {
  return make_run_time_width<kBucketSize, LevelHasher>(config, hasher, borrowed);
}

// A table of config's shape hashed by `hasher`. The WASM builds (CUCKOO_COMPACT_SHAPES) use one packed
// table that reads both the width and the bucket size at run time: a growing filter's lookups probe its
// levels through LevelViews (level_view.h), not through these tables, so only inserts and erases run their
// code, and every shape of it would add to what Node compiles at start-up and browsers download.
std::unique_ptr<FilterCore> make_level_table(const Config& config, const LevelHasher& hasher, const uint8_t* borrowed) {
  if (config.semi_sort) return std::make_unique<CuckooCore<SemiSortedTable<0>, LevelHasher>>(config, hasher, borrowed);
#if CUCKOO_COMPACT_SHAPES >= 1
  return std::make_unique<CuckooCore<PackedTable<0, 0>, LevelHasher>>(config, hasher, borrowed);
#else
  switch (config.bucket_size) {
    case 2:
      return make_packed_level<2>(config, hasher, borrowed);
    case 4:
      return make_packed_level<4>(config, hasher, borrowed);
    default:
      return make_packed_level<8>(config, hasher, borrowed);
  }
#endif
}

}  // namespace

std::unique_ptr<FilterCore> make_level_core(const Config& config, const Config& base, unsigned level,
                                            const uint8_t* borrowed) {
  if (level == 0) return make_core(config, borrowed);
  std::string why;
  if (!is_valid_config(config, &why)) throw std::invalid_argument("cuckoo: " + why);
  return make_level_table(config, LevelHasher(base.bucket_count, base.fingerprint_bits, level), borrowed);
}

std::unique_ptr<FilterCore> make_core(const Config& config, const uint8_t* borrowed) {
  std::string why;
  if (!is_valid_config(config, &why)) throw std::invalid_argument("cuckoo: " + why);
  if (config.growable) return std::make_unique<GrowingCore>(config);
#if CUCKOO_COMPACT_SHAPES >= 2
  return make_level_table(config, LevelHasher(config.bucket_count, config.fingerprint_bits, 0), borrowed);
#else
  if (config.semi_sort) return make_semi_sorted(config, borrowed);
  switch (config.bucket_size) {
    case 2:
      return make_packed<2>(config, borrowed);
    case 4:
      return make_packed<4>(config, borrowed);
    default:
      return make_packed<8>(config, borrowed);
  }
#endif
}

}  // namespace cuckoo::internal
