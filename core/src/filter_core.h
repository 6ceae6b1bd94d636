// core/src/filter_core.h: the cuckoo filter algorithm over a bucket table (paper section 3).
//
// FilterCore is the run-time interface (one virtual call per operation, none inside batches) and holds
// the state every table shares: config, hasher, item count, victim slot and the kick RNG. CuckooCore<Table>
// is the algorithm, instantiated for each table shape that make_core() picks (core/src/make_core.cpp).
//
// Operations work on the key's 64-bit hash (hash.h); CuckooFilter hashes the key first.
//   insert: fp into an empty entry of i1, else i2; else a random walk of at most max_kicks kicks, each
//           swapping fp with a random entry of the current bucket and moving the evicted fingerprint to
//           its alternate bucket. If the walk runs out, the fingerprint in hand goes to the victim slot, so
//           nothing is lost, and the filter is full until an erase frees a place for the victim.
//   contains: fp in i1 or i2 (both buckets are read unconditionally so the two loads overlap), or victim.
//   erase: one copy from i1 or i2 (or the victim); then the victim gets another chance to go home.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "cuckoo/options.h"
#include "hash.h"

namespace cuckoo::internal {

// A fingerprint that could not be placed, kept with the bucket it was evicted towards.
struct Victim {
  bool used = false;
  uint64_t index = 0;
  uint32_t fingerprint = 0;
};

// The kick RNG: splitmix64 over a counter. Deterministic from the seed on every platform, so the same
// inserts give the same table bytes natively and in WASM.
inline uint64_t initial_rng_state(uint64_t seed) { return seed ^ 0x5851F42D4C957F2Dull; }

class FilterCore {
 public:
  explicit FilterCore(const Config& config)
      : config_(config),
        hasher_(config.bucket_count, config.fingerprint_bits),
        rng_state_(initial_rng_state(config.seed)) {}
  virtual ~FilterCore() = default;
  virtual std::unique_ptr<FilterCore> clone() const = 0;

  virtual bool insert(uint64_t hash) = 0;
  virtual bool contains(uint64_t hash) const = 0;
  virtual bool erase(uint64_t hash) = 0;
  virtual size_t count(uint64_t hash) const = 0;
  // Stops at the first failure; returns the number inserted.
  virtual size_t insert_many(const uint64_t* hashes, size_t n) = 0;
  virtual void contains_many(const uint64_t* hashes, size_t n, uint8_t* out) const = 0;
  virtual void clear() = 0;

  // State, for the serialized format.
  const Config& config() const { return config_; }
  const BucketHasher& hasher() const { return hasher_; }
  uint64_t size() const { return size_; }
  const Victim& victim() const { return victim_; }
  uint64_t rng_state() const { return rng_state_; }
  virtual const uint8_t* table_data() const = 0;
  virtual uint8_t* table_data() = 0;
  virtual size_t allocated_bytes() const = 0;
  // Number of non-empty table entries (a full scan).
  virtual uint64_t count_entries() const = 0;
  // Checks table bytes that came from outside (semi-sort codes, padding bits).
  virtual bool validate_table(std::string* why) const = 0;
  // Restores the non-table state after the table bytes were copied in.
  void restore_state(uint64_t size, const Victim& victim, uint64_t rng_state) {
    size_ = size;
    victim_ = victim;
    rng_state_ = rng_state;
  }

 protected:
  uint64_t next_random() {
    uint64_t z = (rng_state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  Config config_;
  BucketHasher hasher_;
  uint64_t size_ = 0;
  Victim victim_;
  uint64_t rng_state_;
};

template <typename Table>
class CuckooCore final : public FilterCore {
  static constexpr unsigned kSlots = Table::kSlots;
  // Keys hashed and prefetched ahead of the one being probed in batch operations. ~190 ns DRAM latency
  // over a few ns of work per key needs a few dozen loads in flight; 16 already saturates two cores here.
  static constexpr size_t kPrefetchDistance = 16;

 public:
  explicit CuckooCore(const Config& config) : FilterCore(config), table_(config) {}

  std::unique_ptr<FilterCore> clone() const override { return std::make_unique<CuckooCore>(*this); }

  bool insert(uint64_t hash) override {
    if (victim_.used) return false;
    const uint64_t i1 = hasher_.index(hash);
    const uint32_t fp = hasher_.fingerprint(hash);
    place(i1, fp);
    return true;
  }

  bool contains(uint64_t hash) const override {
    const uint64_t i1 = hasher_.index(hash);
    const uint32_t fp = hasher_.fingerprint(hash);
    const uint64_t i2 = hasher_.alt_index(i1, fp);
    const bool in_table = table_.contains(i1, fp) | table_.contains(i2, fp);
    return in_table || victim_matches(i1, i2, fp);
  }

  size_t count(uint64_t hash) const override {
    const uint64_t i1 = hasher_.index(hash);
    const uint32_t fp = hasher_.fingerprint(hash);
    const uint64_t i2 = hasher_.alt_index(i1, fp);
    return table_.count(i1, fp) + table_.count(i2, fp) + (victim_matches(i1, i2, fp) ? 1 : 0);
  }

  bool erase(uint64_t hash) override {
    const uint64_t i1 = hasher_.index(hash);
    const uint32_t fp = hasher_.fingerprint(hash);
    const uint64_t i2 = hasher_.alt_index(i1, fp);
    if (table_.remove(i1, fp) || table_.remove(i2, fp)) {
      --size_;
      rehome_victim();
      return true;
    }
    if (victim_matches(i1, i2, fp)) {
      victim_.used = false;
      --size_;
      return true;
    }
    return false;
  }

  size_t insert_many(const uint64_t* hashes, size_t n) override {
    for (size_t i = 0; i < n; ++i) {
      if (i + kPrefetchDistance < n) prefetch_key(hashes[i + kPrefetchDistance]);
      if (!insert(hashes[i])) return i;
    }
    return n;
  }

  void contains_many(const uint64_t* hashes, size_t n, uint8_t* out) const override {
    const size_t warm = n < kPrefetchDistance ? n : kPrefetchDistance;
    for (size_t i = 0; i < warm; ++i) prefetch_key(hashes[i]);
    for (size_t i = 0; i < n; ++i) {
      if (i + kPrefetchDistance < n) prefetch_key(hashes[i + kPrefetchDistance]);
      out[i] = contains(hashes[i]) ? 1 : 0;
    }
  }

  void clear() override {
    table_.clear();
    size_ = 0;
    victim_ = Victim{};
  }

  const uint8_t* table_data() const override { return table_.data(); }
  uint8_t* table_data() override { return table_.data(); }
  size_t allocated_bytes() const override { return table_.allocated_bytes() + sizeof(*this); }
  uint64_t count_entries() const override { return table_.count_entries(); }
  bool validate_table(std::string* why) const override { return table_.validate(why); }

  const Table& table() const { return table_; }

 private:
  bool victim_matches(uint64_t i1, uint64_t i2, uint32_t fp) const {
    return victim_.used && victim_.fingerprint == fp && (victim_.index == i1 || victim_.index == i2);
  }

  void prefetch_key(uint64_t hash) const {
    const uint64_t i1 = hasher_.index(hash);
    table_.prefetch_bucket(i1);
    table_.prefetch_bucket(hasher_.alt_index(i1, hasher_.fingerprint(hash)));
  }

  // Stores fp in bucket i or its alternate, kicking if needed; parks the last evictee as the victim.
  // Always succeeds in the sense that nothing is lost; the caller has checked that the victim slot is free.
  void place(uint64_t i, uint32_t fp) {
    ++size_;
    if (table_.insert_empty(i, fp)) return;
    uint64_t alt = hasher_.alt_index(i, fp);
    if (table_.insert_empty(alt, fp)) return;
    uint64_t r = next_random();
    uint64_t bucket = (r & 1) ? alt : i;
    for (unsigned kick = 0; kick < config_.max_kicks; ++kick) {
      r = next_random();
      fp = table_.swap(bucket, static_cast<unsigned>(r % kSlots), fp);
      bucket = hasher_.alt_index(bucket, fp);
      if (table_.insert_empty(bucket, fp)) return;
    }
    victim_.used = true;
    victim_.index = bucket;
    victim_.fingerprint = fp;
  }

  // After an erase there may be room for the parked victim.
  void rehome_victim() {
    if (!victim_.used) return;
    const Victim v = victim_;
    victim_.used = false;
    --size_;
    place(v.index, v.fingerprint);
  }

  Table table_;
};

// Picks the table instantiation for a (validated) config.
std::unique_ptr<FilterCore> make_core(const Config& config);

}  // namespace cuckoo::internal
