// core/src/merge.cpp: CuckooFilter::merge, the union of two filters built apart.
//
// A filter holds fingerprints, not keys, but a fingerprint together with either of its buckets is all
// that insert and lookup use: the key's other bucket is alt_index(bucket, fingerprint) (docs/hashing.md).
// So when two filters share the hash (seed), the bucket count and the fingerprint width, every entry of the
// source can be placed into the target from the bucket it was read in, through the insert path (place()),
// and the target then answers for every key of either. The source's parked victim goes in the same way,
// from the bucket it was evicted towards.
//
// Strong guarantee: the entries go into a copy of the target, which replaces the target only once every
// one of them is stored. The copy costs one table of memory for the duration; the alternative, undoing a
// failed merge in place, would have to reverse relocation walks that moved the target's own entries.
#include <memory>
#include <stdexcept>
#include <string>

#include "cuckoo/filter.h"
#include "filter_core.h"

namespace cuckoo {

namespace {

void differ(std::string& out, const char* field, uint64_t target, uint64_t source) {
  if (target == source) return;
  out += out.empty() ? "" : "; ";
  out += std::string(field) + " differ (this filter " + std::to_string(target) + ", source " +
         std::to_string(source) + ")";
}

// Throws std::invalid_argument naming every field in which the two shapes differ.
void require_same_shape(const Config& target, const Config& source) {
  std::string why;
  differ(why, "bucket sizes", target.bucket_size, source.bucket_size);
  differ(why, "fingerprint bits", target.fingerprint_bits, source.fingerprint_bits);
  differ(why, "semi-sorting", target.semi_sort, source.semi_sort);
  differ(why, "bucket counts", target.bucket_count, source.bucket_count);
  differ(why, "seeds", target.seed, source.seed);
  if (!why.empty()) {
    throw std::invalid_argument("cuckoo: merge needs filters of the same shape and seed: " + why);
  }
}

[[noreturn]] void does_not_fit(uint64_t placed, uint64_t incoming, const CuckooFilter& target) {
  throw std::length_error(
      "cuckoo: merge does not fit: " + std::to_string(placed) + " of the source's " + std::to_string(incoming) +
      " fingerprints fit into this filter (" + std::to_string(target.size()) + " items, " +
      std::to_string(target.slot_count()) +
      " slots); the filter is unchanged. Filters to be merged need the capacity of all their keys together");
}

}  // namespace

void CuckooFilter::merge(const CuckooFilter& source) {
  const Config& shape = source.config();
  require_same_shape(config(), shape);
  const internal::FilterCore& from = *source.core_;
  const uint64_t incoming = from.size();
  if (incoming == 0) return;
  if (is_full()) does_not_fit(0, incoming, *this);

  // Reads from `from` and writes to `into` only, so merging a filter into itself works too.
  std::unique_ptr<internal::FilterCore> into = core_->clone();
  uint64_t placed = 0;
  uint32_t entries[8];  // the largest bucket size
  for (uint64_t bucket = 0; bucket < shape.bucket_count; ++bucket) {
    from.read_bucket(bucket, entries);
    for (unsigned s = 0; s < shape.bucket_size; ++s) {
      if (entries[s] == 0) continue;
      if (!into->place_fingerprint(bucket, entries[s])) does_not_fit(placed, incoming, *this);
      ++placed;
    }
  }
  const internal::Victim& victim = from.victim();
  if (victim.used) {
    if (!into->place_fingerprint(victim.index, victim.fingerprint)) does_not_fit(placed, incoming, *this);
  }
  core_ = std::move(into);
}

namespace internal {

void FilterCore::read_bucket(uint64_t, uint32_t*) const {
  throw std::invalid_argument("cuckoo: merge is not supported for this kind of filter");
}

bool FilterCore::place_fingerprint(uint64_t, uint32_t) {
  throw std::invalid_argument("cuckoo: merge is not supported for this kind of filter");
}

}  // namespace internal

}  // namespace cuckoo
