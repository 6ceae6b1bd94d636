// core/src/merge.cpp: CuckooFilter::merge, the union of two filters built apart.
//
// A filter holds fingerprints, not keys, but a fingerprint together with either of its buckets is all
// that insert and lookup use: the key's other bucket is alt_index(bucket, fingerprint) (docs/hashing.md).
// So when two filters share the hash (seed), the bucket count and the fingerprint width, every entry of the
// source can be placed into the target from the bucket it was read in, through the insert path (place()),
// and the target then answers for every key of either. The source's parked victim goes in the same way,
// from the bucket it was evicted towards. A fingerprint whose two buckets in the target already hold 2b
// copies of it is dropped, as an insert of its key would be refused: the key is there already.
//
// A growing filter's entries go level by level: an entry of level s (bucket i, fingerprint fp) keeps its
// meaning in level s itself and, coarsened (bucket i >> (s - t), fingerprint fp >> (d_s - d_t),
// docs/growth.md), in any older level t, never in a newer one. So each goes into the target's level s, or
// the newest older level with room; the target first grows to as many levels as the source has, or as
// its limits (max_memory_bytes, the level limit) allow. Filters whose levels are all full cannot merge
// (there is no key to place their entries in a new level): give the parts the initial capacity of the
// union, so that they do not grow apart.
//
// Strong guarantee: the entries go into a copy of the target, which replaces the target only once every
// one of them is stored. The copy costs one table of memory for the duration; the alternative, undoing a
// failed merge in place, would have to reverse relocation walks that moved the target's own entries.
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

#include "cuckoo/filter.h"
#include "filter_core.h"
#include "growing_core.h"
#include "level_hasher.h"

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
  differ(why, "growable flags", target.growable, source.growable);
  if (!why.empty()) {
    throw std::invalid_argument("cuckoo: merge needs filters of the same shape and seed: " + why);
  }
}

[[noreturn]] void does_not_fit(uint64_t placed, uint64_t incoming, const CuckooFilter& target) {
  throw std::length_error(
      "cuckoo: merge does not fit: " + std::to_string(placed) + " of the source's " + std::to_string(incoming) +
      " fingerprints fit into this filter (" + std::to_string(target.size()) + " items, " +
      std::to_string(target.slot_count()) +
      " slots); the filter is unchanged. Give every part the capacity of all the keys together");
}

// Calls place(bucket, fingerprint) for every entry of `table` and its parked victim; stops at the first
// that returns false (no room) and returns how many were placed (stored, or dropped as surplus copies)
// before it.
template <typename Place>
uint64_t for_each_entry(const internal::FilterCore& table, Place place) {
  const Config& shape = table.config();
  uint64_t placed = 0;
  uint32_t entries[8];  // the largest bucket size
  for (uint64_t bucket = 0; bucket < shape.bucket_count; ++bucket) {
    table.read_bucket(bucket, entries);
    for (unsigned s = 0; s < shape.bucket_size; ++s) {
      if (entries[s] == 0) continue;
      if (!place(bucket, entries[s])) return placed;
      ++placed;
    }
  }
  const internal::Victim& victim = table.victim();
  if (victim.used && place(victim.index, victim.fingerprint)) ++placed;
  return placed;
}

// Whether the two buckets of a fingerprint read in `bucket` already hold 2b copies of it, the most an insert
// stores: the merge then drops it, as an insert of its key would be refused (the key is there).
bool at_copy_limit(const internal::FilterCore& core, uint64_t bucket, uint32_t fp) {
  const unsigned b = core.config().bucket_size;
  uint32_t entries[8];
  unsigned copies = 0;
  for (uint64_t home : {bucket, core.alt_index(bucket, fp)}) {
    core.read_bucket(home, entries);
    for (unsigned s = 0; s < b; ++s) copies += entries[s] == fp;
  }
  return copies == 2 * b;
}

// Places an entry of level `level` in level `top <= level` of `into`, or coarsened in the newest older one
// with room.
bool place_in_level_or_older(internal::GrowingCore& into, unsigned level, unsigned top, uint64_t bucket,
                             uint32_t fp) {
  for (unsigned t = top + 1; t-- > 0;) {
    internal::FilterCore& target = into.level(t);
    if (target.is_full()) continue;
    const unsigned drop = internal::level_extra_bits(level) - internal::level_extra_bits(t);
    const uint64_t target_bucket = bucket >> (level - t);
    if (at_copy_limit(target, target_bucket, fp >> drop)) return true;
    if (target.place_fingerprint(target_bucket, fp >> drop)) {
      into.count_stored(1);
      return true;
    }
  }
  return false;
}

// The entries of every level of `from`, into `into` (a copy of the target); returns how many were placed.
uint64_t merge_levels(const internal::GrowingCore& from, internal::GrowingCore& into) {
  uint64_t placed = 0;
  for (unsigned s = 0; s < from.level_count(); ++s) {
    const internal::FilterCore& level = from.level(s);
    bool may_grow = true;
    while (into.level_count() <= s && may_grow) may_grow = into.grow();
    const unsigned top = std::min(s, into.level_count() - 1);  // below s when the target could not grow
    const uint64_t done = for_each_entry(
        level, [&](uint64_t bucket, uint32_t fp) { return place_in_level_or_older(into, s, top, bucket, fp); });
    placed += done;
    if (done < level.size()) return placed;
  }
  return placed;
}

}  // namespace

void CuckooFilter::merge(const CuckooFilter& source) {
  require_same_shape(config(), source.config());
  const internal::FilterCore& from = *source.core_;
  const uint64_t incoming = from.size();
  if (incoming == 0) return;

  // Reads from `from` and writes to `into` only, so merging a filter into itself works too.
  std::unique_ptr<internal::FilterCore> into = core_->clone();
  uint64_t placed = 0;
  if (config().growable) {
    placed = merge_levels(static_cast<const internal::GrowingCore&>(from),
                          static_cast<internal::GrowingCore&>(*into));
  } else if (!is_full()) {
    placed = for_each_entry(from, [&](uint64_t bucket, uint32_t fp) {
      return at_copy_limit(*into, bucket, fp) || into->place_fingerprint(bucket, fp);
    });
  }
  if (placed < incoming) does_not_fit(placed, incoming, *this);
  adopt(std::move(into));
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
