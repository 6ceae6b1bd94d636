// core/src/growing_core.h: a filter that grows (Options::growable; docs/growth.md): a stack of levels.
//
// Level s is a CuckooCore of n0 * 2^s buckets with f0 + level_extra_bits(s)-bit fingerprints, hashed by
// LevelHasher so that each older level's view of a key (bucket pair, fingerprint) is a function of its
// view in any newer level. Level 0 is hashed exactly like a fixed filter of the same shape.
//
//   insert:   into the newest level. When that level is full (at a fixed filter's target load for its
//             shape, or earlier if a walk parked a victim), the next insert first appends an empty level
//             twice as large. Growth allocates and never rehashes or moves an entry, so inserts stay
//             amortized O(1), and no level pays for the slow last percent of load.
//   contains: every level, newest first (the newest levels hold most of the items), until one holds the
//             key. All levels are probed in one loop over LevelViews (level_view.h), without a virtual
//             call per level.
//   count:    the sum over the levels.
//   erase:    the first match, newest level first. With the coarsening above this never removes the last
//             entry of another live key (the proof is in docs/growth.md); oldest first would.
//
// Every level of 4096 slots or more refuses a walk that fails below half load (refuse_jams_below): at that
// load a failure means keys that collide (crafted, or one key repeated), and growing for them would let a
// few keys double the memory again and again. Such an insert returns false and changes nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "filter_core.h"
#include "level_view.h"

namespace cuckoo::internal {

class GrowingCore final : public FilterCore {
 public:
  // A new filter: level 0 only, empty. config.growable is set; its shape fields describe level 0.
  explicit GrowingCore(const Config& config);
  // A deserialized filter: `levels` hold level_config(config, 0), (config, 1), ... with their items.
  GrowingCore(const Config& config, std::vector<std::unique_ptr<FilterCore>> levels);

  std::unique_ptr<FilterCore> clone() const override;

  bool insert_u64_key(uint64_t key) override { return insert_hashed(hash_u64_(key)); }
  bool insert_bytes_key(const void* data, size_t size) override {
    return insert_hashed(hash_bytes(data, size, config_.seed));
  }
  bool contains_u64_key(uint64_t key) const override { return contains_hashed(hash_u64_(key)); }
  bool contains_bytes_key(const void* data, size_t size) const override {
    return contains_hashed(hash_bytes(data, size, config_.seed));
  }
  bool erase(uint64_t hash) override;
  size_t count(uint64_t hash) const override;
  // Back to a new filter: level 0 only, empty.
  void clear() override;

  bool insert_hashed(uint64_t hash) override;
  bool contains_hashed(uint64_t hash) const override;
  size_t insert_many_hashed(const uint64_t* hashes, size_t n) override;
  void contains_many_hashed(const uint64_t* hashes, size_t n, uint8_t* out) const override;

  // Full: the newest level is full and no level may be added (level_limit(), max_memory_bytes).
  bool is_full() const override;
  uint64_t parked_count() const override;
  uint64_t bucket_count() const override;
  uint64_t slot_count() const override;
  uint64_t table_bytes() const override;
  unsigned level_count() const override { return static_cast<unsigned>(levels_.size()); }
  // The bound for the levels the filter has now: the sum of each full level's.
  double false_positive_bound() const override;

  // Level 0's, for the FilterCore interface; the format and the tests use level().
  uint64_t alt_index(uint64_t bucket, uint32_t fingerprint) const override;
  const uint8_t* table_data() const override { return levels_.front()->table_data(); }
  uint8_t* table_data() override { return levels_.front()->table_data(); }
  bool has_empty_entry(uint64_t bucket) const override { return levels_.front()->has_empty_entry(bucket); }

  size_t allocated_bytes() const override;
  uint64_t count_entries() const override;
  bool validate_table(std::string* why) const override;

  const FilterCore& level(unsigned s) const { return *levels_[s]; }
  FilterCore& level(unsigned s) { return *levels_[s]; }
  // Appends an empty level; false if the limits do not allow one.
  bool grow();
  // Adds `items` stored into a level directly (merge), to the filter's item count.
  void count_stored(uint64_t items) { size_ += items; }

 private:
  // Whether the limits allow another level, and its shape if so.
  bool may_grow(Config* next) const;
  // Whether the newest level may take a key; adds a level first if the newest is at its growth point.
  bool make_room();
  LevelKey level_key(uint64_t hash) const;
  void adopt(std::unique_ptr<FilterCore> level);
  // Sets probe_order_ from the levels' item counts (see there).
  void order_levels();
  template <unsigned kMaxLoads>
  bool contains_flat(const LevelKey& key) const;
  template <unsigned kMaxLoads>
  void contains_many_flat(const uint64_t* hashes, size_t n, uint8_t* out) const;
  // A key of a batch lookup: its probe in the newest level, and its position in its block.
  struct PendingKey {
    uint32_t index, alt, fingerprint, where;
  };
  template <unsigned kLoads, bool kWholeBytes = false>
  static size_t answer_pass(const LevelView& view, unsigned levels_between, unsigned bits_between,
                            PendingKey* pending, size_t m, uint8_t* out);

  std::vector<std::unique_ptr<FilterCore>> levels_;  // levels_[s] is level s; the newest is last
  BucketHasher level0_hasher_;                       // level 0's hashing, for level_key()
  std::vector<LevelView> views_;                     // views_[s] is level s's view
  // The views in the order lookups probe them: newest first, except that a newest level holding fewer
  // items than the one two below it (just after a growth) goes third, so that the two levels probed
  // without a branch are the two that hold the most keys. Any order gives the same answers.
  std::vector<LevelView> probe_order_;
  bool newest_is_small_ = false;  // the exception above is in effect
  bool flat_ = true;              // every level has_flat_layout(): lookups use probe_order_
};

}  // namespace cuckoo::internal
