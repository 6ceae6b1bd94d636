// core/src/filter_core.h: the cuckoo filter algorithm over a bucket table (paper section 3).
//
// FilterCore is the run-time interface (one virtual call per operation, or per block of a batch) and holds
// the state every table shares: config, item count, victim slot and the kick RNG. CuckooCore<Table, Hasher>
// is the algorithm, instantiated for each table shape that make_core() picks (core/src/make_core.cpp).
// GrowingCore (growing_core.h) is the other implementation: a stack of CuckooCores.
//
// Operations work on the key's 64-bit hash (hash.h). Insert, lookup and the batches take the key and hash
// it inside the one call they make; erase and count take the hash from CuckooFilter.
//   insert: fp into an empty entry of i1, else i2; else a random walk of at most max_kicks kicks, each
//           swapping fp with a random entry of the current bucket and moving the evicted fingerprint to
//           its alternate bucket (after a look-ahead, see place()). If the walk runs out, the fingerprint in
//           hand goes to the victim slot, so nothing is lost, and the filter is full until an erase frees a
//           place for the victim. A key whose buckets already hold 2b copies of it is refused (walk()).
//   contains: fp in i1 or i2 (both buckets are read unconditionally so the two loads overlap), or victim.
//   erase: one copy from i1 or i2 (or the victim); then the victim gets another chance to go home.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bits.h"
#include "cuckoo/options.h"
#include "hash.h"
#include "level_hasher.h"

// How many table shapes get code of their own (core/src/make_core.cpp): 0 natively, 1 in the WASM build
// Node uses, 2 in the browser's, which keeps the fewest (its download size counts more than its speed).
#ifndef CUCKOO_COMPACT_SHAPES
#ifdef __EMSCRIPTEN__
#define CUCKOO_COMPACT_SHAPES 1
#else
#define CUCKOO_COMPACT_SHAPES 0
#endif
#endif

namespace cuckoo::internal {

// A fingerprint that could not be placed, kept with the bucket it was evicted towards. When unused, all
// fields are zero (the format requires it as well); lookups rely on fingerprint == 0, which no key has.
// A kick of a relocation walk that may be undone (CuckooCore::walk, give_up): where it put which
// fingerprint. A semi-sorted bucket keeps its entries sorted, so a later write to the bucket can move the
// fingerprint to another slot; the undo then looks for it by value.
// Outside the template, so that every table shape shares one std::vector<Kick>.
struct Kick {
  uint64_t bucket;
  uint32_t slot;
  uint32_t fingerprint;
};

struct Victim {
  bool used = false;
  uint64_t index = 0;
  uint32_t fingerprint = 0;
};

// A relocation walk's tests for pairs of buckets it cannot get out of (CuckooCore::walk). Out of line and
// outside the template: they run only in walks, and one copy serves every table shape.
//
// Whether all n alternate buckets are `bucket`.
CUCKOO_NOINLINE inline bool alternates_all(const uint64_t* alts, unsigned n, uint64_t bucket) {
  for (unsigned s = 0; s < n; ++s)
    if (alts[s] != bucket) return false;
  return true;
}
// Whether a kick into a full bucket whose entries have these alternates may be a trap: they all have the
// same one. A key stored 2b times fills its two buckets with entries whose alternate is the other one, and
// a walk that entered them could only move those copies back and forth until it ran out, leaving a fixed
// filter full far below its capacity. The walk kicks another entry instead when it has one. Among the
// buckets of other keys, b entries that share their alternate bucket are too rare to steer a walk.
inline bool trap_ahead(const uint64_t* alts, unsigned n) { return alternates_all(alts, n, alts[0]); }
// Over the b buckets a walk may kick into next, whose entries' alternates are the arrays at `first` +
// s * `stride` bytes: the first slot from `slot` on whose bucket is not a trap (trap_ahead), or `slot`
// itself if all are; and whether all are.
CUCKOO_NOINLINE inline unsigned steer_clear_of_traps(const unsigned char* first, size_t stride, unsigned b,
                                                     unsigned slot) {
  unsigned s = slot;
  for (unsigned tried = 0; tried < b; ++tried, s = s + 1 == b ? 0 : s + 1)
    if (!trap_ahead(reinterpret_cast<const uint64_t*>(first + s * stride), b)) return s;
  return slot;
}
inline bool all_traps(const unsigned char* first, size_t stride, unsigned b) {
  return trap_ahead(reinterpret_cast<const uint64_t*>(first + steer_clear_of_traps(first, stride, b, 0) * stride), b);
}

// The kick RNG: splitmix64 over a counter. Deterministic from the seed on every platform, so the same
// inserts give the same table bytes natively and in WASM.
inline uint64_t initial_rng_state(uint64_t seed) { return seed ^ 0x5851F42D4C957F2Dull; }

// The items a table of this shape holds at its default target load: the load a fixed filter is sized for,
// and at which a growing filter's newest level counts as full.
inline uint64_t items_at_target_load(const Config& c) {
  return static_cast<uint64_t>(static_cast<double>(c.slot_count()) *
                               default_target_load(c.bucket_size, c.fingerprint_bits));
}

// A core whose inline code serves a whole-byte table keeps that InlineTable's alternate_offsets (4 bytes
// for each of the 2^f fingerprints) when f is at most kMaxOffsetFingerprintBits, the table has at most
// kMaxOffsetTableBytes (every offset into it fits 32 bits) and they are at most 1/kTableBytesPerOffsetByte
// of its bytes: a table of f = 12 bits from 256 KiB, of f = 16 bits from 4 MiB.
inline constexpr unsigned kMaxOffsetFingerprintBits = 16;
inline constexpr uint64_t kMaxOffsetTableBytes = uint64_t{1} << 32;
inline constexpr uint64_t kTableBytesPerOffsetByte = 16;
inline bool keeps_alternate_offsets(unsigned fingerprint_bits, uint64_t table_bytes) {
  return fingerprint_bits <= kMaxOffsetFingerprintBits && table_bytes <= kMaxOffsetTableBytes &&
         table_bytes >= kTableBytesPerOffsetByte * (sizeof(uint32_t) << fingerprint_bits);
}

// A core's InlineTable (cuckoo/internal/inline_table.h): get() for the callers, set() for the core.
#if defined(CUCKOO_COMPACT_SHAPES) && CUCKOO_COMPACT_SHAPES >= 2
// The browser's modules (CUCKOO_COMPACT_SHAPES=2, built -Oz, which compiles the inline code out of
// cuckoo/filter.h) have no caller of an InlineTable: every core shows the same empty one.
inline constexpr bool kPublishInlineTable = false;
inline const InlineTable kNoInlineTable{};
struct InlineTableSlot {
  const InlineTable& get() const { return kNoInlineTable; }
  InlineTable* set() { return nullptr; }
  void keep_alternate_offsets() {}
  size_t allocated_bytes() const { return 0; }
  void victim_changed(const Victim&) {}
};
#else
inline constexpr bool kPublishInlineTable = true;
// A copy starts empty (table = null): the copied core's table is elsewhere, and its constructor
// publishes it again.
struct InlineTableSlot {
  InlineTableSlot() = default;
  InlineTableSlot(const InlineTableSlot&) {}
  InlineTableSlot& operator=(const InlineTableSlot&) {
    table_ = InlineTable{};
    alternate_offsets_.reset();
    return *this;
  }
  const InlineTable& get() const { return table_; }
  InlineTable* set() { return &table_; }
  // Gives a published whole-byte table (table or pow2_table set, fingerprint_bits <= 16, at most
  // kMaxOffsetTableBytes) its alternate_offsets; a pow2_table becomes table, whose lookups take them.
  void keep_alternate_offsets() {
    const uint64_t count = uint64_t{1} << table_.fingerprint_bits;
    alternate_offsets_ = std::make_unique<uint32_t[]>(count);
    for (uint64_t fp = 1; fp < count; ++fp) {
      const uint64_t target = alternate_target(static_cast<uint32_t>(fp), table_.bucket_count);
      alternate_offsets_[fp] = static_cast<uint32_t>(target * table_.bucket_bytes);
    }
    table_.alternate_offsets = alternate_offsets_.get();
    if (table_.table == nullptr) {
      table_.table = table_.pow2_table;
      table_.pow2_table = nullptr;
    }
    table_.table_end = table_.table + table_.bucket_count * table_.bucket_bytes;
  }
  size_t allocated_bytes() const {
    return alternate_offsets_ ? (size_t{1} << table_.fingerprint_bits) * sizeof(uint32_t) : 0;
  }
  // The copy of the parked victim's fingerprint, in a published InlineTable only: an empty one keeps
  // kEveryCallToTheLibrary.
  void victim_changed(const Victim& victim) {
    if (table_.serves()) table_.victim_fingerprint = victim.fingerprint;
  }

 private:
  InlineTable table_;
  std::unique_ptr<uint32_t[]> alternate_offsets_;
};
#endif

class FilterCore {
 public:
  // A fixed filter's jam floor (refuse_jams_below) is the load it was sized for: its slots times the
  // default target load of its shape (at least the capacity asked for, unless target_load is higher),
  // which sits below the loads where walks of distinct keys start to fail, except by rare chance in small
  // tables of 2-entry buckets.
  explicit FilterCore(const Config& config)
      : config_(config),
        hash_u64_(config.seed),
        rng_state_(initial_rng_state(config.seed)),
        jam_floor_(config.growable ? 0 : items_at_target_load(config)) {}
  virtual ~FilterCore() = default;
  virtual std::unique_ptr<FilterCore> clone() const = 0;

  // Insert takes the key, for the same reason as the lookups below.
  virtual bool insert_u64_key(uint64_t key) = 0;
  virtual bool insert_bytes_key(const void* data, size_t size) = 0;
  // The lookup hot path takes keys, so hashing inlines into the one call a lookup makes.
  virtual bool contains_u64_key(uint64_t key) const = 0;
  virtual bool contains_bytes_key(const void* data, size_t size) const = 0;
  virtual bool erase(uint64_t hash) = 0;
  virtual size_t count(uint64_t hash) const = 0;
  // Batches take keys too. insert_many stops at the first failure and returns the number inserted.
  // These hash a block of keys at a time and hand it to the *_hashed batch below (filter_core.cpp): one
  // implementation for every core. CuckooCore overrides them with a pipeline that hashes and prefetches in
  // one pass, except where it keeps the fewest shapes (CUCKOO_COMPACT_SHAPES=2), where the four batches of
  // each shape would cost more download than they gain.
  virtual size_t insert_many(const uint64_t* keys, size_t n);
  virtual size_t insert_many(const std::string_view* keys, size_t n);
  virtual void contains_many(const uint64_t* keys, size_t n, uint8_t* out) const;
  virtual void contains_many(const std::string_view* keys, size_t n, uint8_t* out) const;
  virtual void clear() = 0;

  // The same operations on a key's hash, for a growing filter's levels (growing_core.h), which hash a key
  // once for all of them. insert_hashed returns false, changing nothing, when the filter is full or the
  // insert is refused (see CuckooCore::walk).
  virtual bool insert_hashed(uint64_t hash) = 0;
  virtual bool contains_hashed(uint64_t hash) const = 0;
  virtual size_t insert_many_hashed(const uint64_t* hashes, size_t n) = 0;
  virtual void contains_many_hashed(const uint64_t* hashes, size_t n, uint8_t* out) const = 0;
  // A failed relocation walk is undone and the insert refused, instead of parking a victim, while fewer
  // than `items` items are stored: below that load a failure means the key's buckets are jammed (crafted
  // or repeated keys), not that the table is full. 0 never refuses. A growing filter sets it for each
  // level (and marks it as a level); a fixed filter has the load it was sized for (the constructor).
  void refuse_jams_below(uint64_t items) {
    jam_floor_ = items;
    is_level_ = true;
  }

  // Shape and fill. A growing filter sums these over its levels.
  virtual bool is_full() const { return victim_.used; }
  virtual uint64_t parked_count() const { return victim_.used ? 1 : 0; }  // items in victim slots
  virtual uint64_t bucket_count() const { return config_.bucket_count; }
  virtual uint64_t slot_count() const { return config_.slot_count(); }
  virtual uint64_t table_bytes() const { return config_.table_bytes(); }
  virtual unsigned level_count() const { return 1; }
  virtual double false_positive_bound() const { return cuckoo::false_positive_bound(config_); }

  // What cuckoo/filter.h's inline members need to serve this core themselves; table = null for a core they
  // cannot serve (CuckooCore::publish_inline_table says which they can).
  const InlineTable& inline_table() const { return inline_.get(); }
  // For tests: keeps alternate_offsets for a published whole-byte table of f <= kMaxOffsetFingerprintBits
  // bits and at most kMaxOffsetTableBytes however small it is, so that small filters take the path large
  // ones do.
  void keep_alternate_offsets() {
    const InlineTable& t = inline_.get();
    if ((t.table != nullptr || t.pow2_table != nullptr) && t.fingerprint_bits <= kMaxOffsetFingerprintBits &&
        t.bucket_count * t.bucket_bytes <= kMaxOffsetTableBytes)
      inline_.keep_alternate_offsets();
  }

  // State, for the serialized format.
  const Config& config() const { return config_; }
  virtual uint64_t alt_index(uint64_t bucket, uint32_t fingerprint) const = 0;
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
  // Whether the bucket has an empty entry (deserialize: a victim is parked only when both buckets are full).
  virtual bool has_empty_entry(uint64_t bucket) const = 0;
  // Merge (core/src/merge.cpp) reads the source's entries bucket by bucket and stores each fingerprint in
  // the target through the insert path, from the bucket it was read in. CuckooCore overrides both; the
  // defaults (in merge.cpp) throw std::invalid_argument, for a core that cannot merge.
  // read_bucket writes config().bucket_size entries (0 = empty); place_fingerprint returns false, changing
  // nothing, when the victim slot is occupied.
  virtual void read_bucket(uint64_t bucket, uint32_t* entries) const;
  virtual bool place_fingerprint(uint64_t bucket, uint32_t fingerprint);
  // Restores the non-table state after the table bytes were copied in.
  void restore_state(uint64_t size, const Victim& victim, uint64_t rng_state) {
    size_ = size;
    set_victim(victim);
    rng_state_ = rng_state;
  }

 protected:
  // Every change to the parked victim goes through here, which keeps the InlineTable's copy current.
  CUCKOO_INLINE void set_victim(const Victim& victim) {
    victim_ = victim;
    inline_.victim_changed(victim_);
  }

  uint64_t next_random() {
    uint64_t z = (rng_state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  Config config_;
  SeededU64Hash hash_u64_;  // hash_u64(key, config_.seed), with the seed folded in once
  uint64_t size_ = 0;
  Victim victim_;
  uint64_t rng_state_;
  uint64_t jam_floor_ = 0;
  bool is_level_ = false;    // a growing filter's level (refuse_jams_below was called)
  std::vector<Kick> kicks_;  // the kicks of a walk that may be undone (CuckooCore::walk)
  InlineTableSlot inline_;
};

// Table: PackedTable or SemiSortedTable. Hasher: BucketHasher (hash.h) for a fixed filter and a growing
// filter's level 0, LevelHasher (level_hasher.h) for its other levels.
template <typename Table, typename Hasher = BucketHasher>
class CuckooCore final : public FilterCore {
  // Entries per bucket: Table::kSlots, or 0 for a table that reads it at run time (slots()). Arrays of a
  // bucket's entries take kMaxSlots.
  static constexpr unsigned kSlots = Table::kSlots;
  static constexpr unsigned kMaxSlots = kSlots != 0 ? kSlots : 8;
  // Batched inserts: keys prefetched ahead of the one being inserted (a DRAM latency over the work per key
  // needs a few dozen keys in flight), within blocks of kBlock hashes.
  static constexpr size_t kPrefetchDistance = 32;
  static constexpr size_t kBlock = 256;
  // Batched lookups: keys whose buckets are all prefetched before the first is probed (contains_keys).
  // Any block of 32 to 128 keys keeps enough misses in flight on a table far larger than the cache; 64 is
  // in the middle of that range.
  static constexpr size_t kLookupBlock = 64;

 public:
  // `borrowed`: the table's bytes to read in place (a FilterView's), or null for a table of its own
  // (PackedTable's constructor). A core over borrowed bytes only serves const calls; its InlineTable serves
  // FilterView's lookups, never an insert (which would write the table).
  CuckooCore(const Config& config, const Hasher& hasher, const uint8_t* borrowed = nullptr)
      : FilterCore(config), hasher_(hasher), table_(config, borrowed) {
    publish_inline_table();
  }
  explicit CuckooCore(const Config& config, const uint8_t* borrowed = nullptr)
      : CuckooCore(config, Hasher(config.bucket_count, config.fingerprint_bits), borrowed) {}
  CuckooCore(const CuckooCore& other) : FilterCore(other), hasher_(other.hasher_), table_(other.table_) {
    publish_inline_table();
  }
  CuckooCore& operator=(const CuckooCore&) = delete;

  std::unique_ptr<FilterCore> clone() const override { return std::make_unique<CuckooCore>(*this); }

  CUCKOO_FLATTEN bool insert_u64_key(uint64_t key) override { return insert_hash(hash_u64_(key)); }
  CUCKOO_FLATTEN bool insert_bytes_key(const void* data, size_t size) override {
    return insert_hash(hash_bytes(data, size, config_.seed));
  }

  CUCKOO_FLATTEN bool contains_u64_key(uint64_t key) const override {
    return contains_hash(hash_u64_(key));
  }
  CUCKOO_FLATTEN bool contains_bytes_key(const void* data, size_t size) const override {
    return contains_hash(hash_bytes(data, size, config_.seed));
  }

  size_t count(uint64_t hash) const override {
    const Probe p = probe_of(hash);
    return table_.count(p.i1, p.fp) + table_.count(p.i2, p.fp) + (victim_matches(p) ? 1 : 0);
  }

  bool erase(uint64_t hash) override {
    const Probe p = probe_of(hash);
    if (table_.remove(p.i1, p.fp) || table_.remove(p.i2, p.fp)) {
      --size_;
      rehome_victim();
      return true;
    }
    if (victim_matches(p)) {
      set_victim(Victim{});
      --size_;
      return true;
    }
    return false;
  }

#if CUCKOO_COMPACT_SHAPES < 2
  size_t insert_many(const uint64_t* keys, size_t n) override {
    return insert_keys(n, [&](size_t i) { return hash_u64_(keys[i]); });
  }
  size_t insert_many(const std::string_view* keys, size_t n) override {
    return insert_keys(n, [&](size_t i) { return hash_bytes(keys[i].data(), keys[i].size(), config_.seed); });
  }
  void contains_many(const uint64_t* keys, size_t n, uint8_t* out) const override {
    contains_keys(n, out, [&](size_t i) { return hash_u64_(keys[i]); });
  }
  void contains_many(const std::string_view* keys, size_t n, uint8_t* out) const override {
    contains_keys(n, out, [&](size_t i) { return hash_bytes(keys[i].data(), keys[i].size(), config_.seed); });
  }
#endif

  bool insert_hashed(uint64_t hash) override { return insert_hash(hash); }
  bool contains_hashed(uint64_t hash) const override { return contains_hash(hash); }
  size_t insert_many_hashed(const uint64_t* hashes, size_t n) override {
    return insert_keys(n, [&](size_t i) { return hashes[i]; });
  }
  void contains_many_hashed(const uint64_t* hashes, size_t n, uint8_t* out) const override {
    contains_keys(n, out, [&](size_t i) { return hashes[i]; });
  }
  uint64_t alt_index(uint64_t bucket, uint32_t fingerprint) const override {
    return hasher_.alt_index(bucket, fingerprint);
  }

  // Back to the state of a new filter with this configuration, kick generator included, so that the
  // same inserts after clear() write the same bytes as into a fresh filter. Allocations are kept: the
  // table, and the kick log if a walk has reserved it.
  void clear() override {
    table_.clear();
    restore_state(0, Victim{}, initial_rng_state(config_.seed));
  }

  const uint8_t* table_data() const override { return table_.data(); }
  uint8_t* table_data() override { return table_.data(); }
  // The table, this object, and the kick log once a walk has reserved it (max_kicks entries).
  size_t allocated_bytes() const override {
    return table_.allocated_bytes() + sizeof(*this) + kicks_.capacity() * sizeof(Kick) + inline_.allocated_bytes();
  }
  uint64_t count_entries() const override { return table_.count_entries(); }
  bool validate_table(std::string* why) const override { return table_.validate(why); }
  bool has_empty_entry(uint64_t bucket) const override { return table_.count(bucket, 0) != 0; }

  const Table& table() const { return table_; }

  void read_bucket(uint64_t bucket, uint32_t* entries) const override { table_.get_all(bucket, entries); }
  bool place_fingerprint(uint64_t bucket, uint32_t fingerprint) override {
    if (victim_.used) return false;
    return place(bucket, fingerprint, /*new_key=*/false);
  }

 private:
  // The inline members of cuckoo/filter.h serve a fixed filter (hashed by BucketHasher) of plain buckets
  // each of which one 64-bit load from the byte holding its first bit reads whole. They place and find
  // every key as this class does: native-tests/inline_table_test.cpp holds them to it on every shape. They
  // write the table directly (insert): a core whose table must not be written that way, or whose inserts
  // must do more than CuckooCore's, must leave its InlineTable empty, or be a FilterView's, which only
  // looks keys up. The 8-byte load of a bucket starts at or before the table's last byte, so it reads at
  // most 7 bytes past the table: kTablePadding bytes follow an owned table, and at least as many bytes of
  // the input follow a borrowed one (format_internal.h, make_table).
  void publish_inline_table() {
    if constexpr (kPublishInlineTable && std::is_same_v<Hasher, BucketHasher> && Table::kPlainBuckets) {
      const unsigned f = table_.bits();
      const unsigned bucket_bits = slots() * f;
      // Bucket i's first bit is bit (i * bucket_bits) % 8 of its byte: a multiple of gcd(bucket_bits, 8),
      // at most 8 minus that.
      const unsigned step = bucket_bits % 8 == 0 ? 8 : bucket_bits % 4 == 0 ? 4
                                                   : bucket_bits % 2 == 0   ? 2
                                                                            : 1;
      const unsigned highest_shift = 8 - step;
      if (highest_shift + bucket_bits > 64) return;
      InlineTable& t = *inline_.set();
      t.set_bucket_count(config_.bucket_count);
      if (bucket_bits % 8 == 0) {
        t.table = table_.data();
        t.bucket_bytes = bucket_bits / 8;
      } else {
        t.packed_table = table_.data();
        t.bucket_bits = bucket_bits;
      }
      t.hash_premix = hash_u64_.premix();
      t.fingerprint_range = (uint64_t{1} << f) - 1;
      uint64_t lows = 0;
      for (unsigned s = 0; s < slots(); ++s) lows |= uint64_t{1} << (s * f);
      t.field_lows[0] = t.field_lows[1] = lows;
      t.field_highs[0] = t.field_highs[1] = lows << (f - 1);
      t.fingerprint_bits = f;
      t.victim_fingerprint = victim_.fingerprint;
      t.size = &size_;
      if (t.table != nullptr && keeps_alternate_offsets(f, t.bucket_count * t.bucket_bytes))
        inline_.keep_alternate_offsets();
      else if (t.table != nullptr && t.bucket_mask != 0) {
        t.pow2_table = t.table;
        t.table = nullptr;
      }
    }
  }

  CUCKOO_INLINE bool insert_hash(uint64_t hash) {
    if (victim_.used) return false;
    const uint64_t i1 = hasher_.index(hash);
    const uint32_t fp = hasher_.fingerprint(hash);
    return place(i1, fp, /*new_key=*/true);
  }

  // A key's two buckets and fingerprint (batches compute them ahead, to prefetch the buckets).
  struct Probe {
    uint64_t i1, i2;
    uint32_t fp;
  };

  Probe probe_of(uint64_t hash) const {
    const uint64_t i1 = hasher_.index(hash);
    const uint32_t fp = hasher_.fingerprint(hash);
    return {i1, hasher_.alt_index(i1, fp), fp};
  }

  bool contains_hash(uint64_t hash) const { return contains_probe(probe_of(hash)); }

  CUCKOO_INLINE bool contains_probe(const Probe& p) const {
    const uint64_t found = table_.match_either(p.i1, p.i2, p.fp);
    // Branch-free on the answer: at 50% positive queries a branch on it would mispredict half the time and
    // flush the lookups in flight behind it. The victim test is a branch on the fingerprint alone: an
    // unused victim's is 0, so the branch is taken only for a full filter and a matching fingerprint
    // (1 lookup in ~2^f). A branch on victim_.used instead would run the whole test on every lookup once
    // the filter is full.
    bool hit = found != 0;
    if (__builtin_expect(p.fp == victim_.fingerprint, false)) hit |= victim_matches(p);
    return hit;
  }

  bool victim_matches(const Probe& p) const {
    return victim_.used & (victim_.fingerprint == p.fp) & ((victim_.index == p.i1) | (victim_.index == p.i2));
  }

  void prefetch_probe(const Probe& p) const {
    table_.prefetch_bucket(p.i1);
    table_.prefetch_bucket(p.i2);
  }

  // Batch pipeline, per block of kLookupBlock keys: hash every key, compute its probe and prefetch both
  // buckets, then answer them all. A block's 2 x 64 misses overlap, instead of the few a loop of single
  // lookups gets from out-of-order execution, and by the time the last key is hashed the first key's
  // buckets have arrived.
  template <typename HashOf>
  CUCKOO_FLATTEN void contains_keys(size_t n, uint8_t* out, HashOf hash_of) const {
    contains_probes(n, out, [&](size_t i) { return probe_of(hash_of(i)); });
  }

  template <typename ProbeOf>
  CUCKOO_FLATTEN void contains_probes(size_t n, uint8_t* out, ProbeOf probe_of_key) const {
    Probe probes[kLookupBlock];
    for (size_t start = 0; start < n; start += kLookupBlock) {
      const size_t m = n - start < kLookupBlock ? n - start : kLookupBlock;
      for (size_t j = 0; j < m; ++j) {
        probes[j] = probe_of_key(start + j);
        prefetch_probe(probes[j]);
      }
      for (size_t j = 0; j < m; ++j) {
        const uint8_t hit = table_.match_either(probes[j].i1, probes[j].i2, probes[j].fp) != 0;
        out[start + j] = hit;
      }
      if (victim_.used) {  // rare (only a full filter has one): a second pass keeps it off the hot loop
        for (size_t j = 0; j < m; ++j) out[start + j] |= victim_matches(probes[j]);
      }
    }
  }

  template <typename HashOf>
  CUCKOO_FLATTEN size_t insert_keys(size_t n, HashOf hash_of) {
    uint64_t hashes[kBlock];
    for (size_t start = 0; start < n; start += kBlock) {
      const size_t m = n - start < kBlock ? n - start : kBlock;
      for (size_t j = 0; j < m; ++j) {
        hashes[j] = hash_of(start + j);
        if (j < kPrefetchDistance) prefetch_probe(probe_of(hashes[j]));
      }
      for (size_t j = 0; j < m; ++j) {
        if (j + kPrefetchDistance < m) prefetch_probe(probe_of(hashes[j + kPrefetchDistance]));
        if (!insert_hash(hashes[j])) return start + j;
      }
    }
    return n;
  }

  // Stores fp in bucket i or its alternate, kicking if needed; parks the last evictee as the victim.
  // The caller has checked that the victim slot is free. Returns false, having changed nothing, only for a
  // new key (not a victim going home) that walk() refuses.
  //
  // The walk is the paper's random walk with a two-level look-ahead: before evicting, it checks whether any
  // entry of the current bucket can move straight into a free slot of its own alternate bucket (one level,
  // b buckets prefetched together, so about one memory latency, as a plain step costs) and then whether
  // an entry of one of those alternates can move on into its own alternate (b * b buckets, one more
  // latency; move_two_deep). A step thus succeeds far more often near full load, which makes a nearly
  // full table faster to build and lets it fill further before its first failure (bench/README.md has the
  // figures). Only if nothing can move does it evict a random entry (a "kick", counted against max_kicks).
  CUCKOO_INLINE bool place(uint64_t i, uint32_t fp, bool new_key) {
    const uint64_t alt = hasher_.alt_index(i, fp);
    table_.prefetch_bucket(alt);
    if (table_.insert_empty(i, fp) || table_.insert_empty(alt, fp)) {
      ++size_;
      return true;
    }
    return walk(i, alt, fp, new_key);
  }

  // place()'s slow path, both buckets full: out of line, so the common insert stays short.
  //
  // Each step looks at `bucket` (full), the alternate buckets of its entries (level 1) and the alternate
  // buckets of their entries (level 2).
  // - The first step looks ahead from both of the key's buckets at once: their 2b level-1 buckets are
  //   prefetched together, then their 2b * b level-2 buckets, so it costs the same two memory latencies as
  //   looking ahead from one and fails only if neither side has room.
  // - If nothing can move, it kicks entry v of `bucket` out and walks to v's alternate bucket, whose
  //   entries and alternates level 2 has just read and found full. So the next step takes them over instead
  //   of reading them again, and skips the level-1 test, which could only fail (the kick changed nothing
  //   but `bucket`, and that stays full). Placement is the same as testing again, with less work per step.
  // Each step waits for b * b new buckets, about as many misses as one core keeps in flight, so a deeper
  // breadth-first search would explore no more buckets per memory latency.
  //
  // Refusals protect the filter from keys that would jam it (they return false and change nothing):
  // - A key whose two buckets hold nothing but 2b copies of its fingerprint: no walk can make room (every
  //   entry it could move belongs to the same two buckets), and parking it would block every later insert
  //   of every key. So a key is stored at most 2b times per table; the next add of it alone is refused.
  //   A fixed filter also refuses a key whose two full buckets hold only entries of that pair of buckets
  //   (pair_is_closed), unless the pair is the whole table (then it is full, as the paper has it); a
  //   growing filter's level instead fails the walk and grows, as below.
  // - Walks of other keys steer clear of such pairs (steer_clear_of_traps).
  // - A walk that fails below the jam floor (refuse_jams_below: the load a fixed filter was sized for, half
  //   of a large level of a growing filter): its kicks are undone in reverse order and the kick generator
  //   rewound, so the table is as it was. Keys that share their buckets with repeated keys get there: two
  //   keys stored 2b times each whose pairs share a bucket leave no room in three buckets, which steering
  //   cannot avoid. Past the floor a failed walk parks a victim, as the paper has it.
  CUCKOO_NOINLINE bool walk(uint64_t i, uint64_t alt, uint32_t fp, bool new_key) {
    const unsigned b = slots();
    if (new_key && table_.count(i, fp) + table_.count(alt, fp) == 2 * b) return false;
    const uint64_t homes[2] = {i, alt};
    Level level[2];  // the entries of i and alt and their alternate buckets
    for (unsigned h = 0; h < 2; ++h) read_level(homes[h], level[h]);
    if (new_key && !is_level_ && config_.bucket_count > 2 && pair_is_closed(homes, level)) return false;
    const bool undoable = new_key && size_ < jam_floor_;
    // The log of an undoable walk's kicks is reserved before anything changes, so that a bad_alloc cannot
    // come from it in the middle of the walk, with a fingerprint in hand.
    if (undoable) kicks_.reserve(config_.max_kicks);
    const uint64_t rng_before = rng_state_;
    ++size_;
    uint64_t r = next_random();
    if (config_.max_kicks == 0) return give_up(undoable ? &rng_before : nullptr, (r & 1) ? alt : i, fp, 0);
    Level next[2][kMaxSlots];  // next[h][s]: the entries of level[h].alts[s] and their alternate buckets
    for (unsigned h = 0; h < 2; ++h) {
      for (unsigned s = 0; s < b; ++s) {
        if (table_.insert_empty(level[h].alts[s], level[h].entries[s])) {
          table_.swap(homes[h], s, fp);
          return true;
        }
      }
    }
    for (unsigned h = 0; h < 2; ++h)
      for (unsigned s = 0; s < b; ++s) read_level(level[h].alts[s], next[h][s]);
    for (unsigned h = 0; h < 2; ++h)
      if (move_two_deep(homes[h], level[h], next[h], fp)) return true;

    // The random walk, from the home bucket the first random number picked, unless that one has no way out
    // (steer_clear_of_traps).
    unsigned side = r & 1;
    if (all_lead_into_traps(next[side])) side ^= 1;
    uint64_t bucket = homes[side];
    Level here = level[side];
    Level ahead[kMaxSlots];
    std::copy(next[side], next[side] + b, ahead);
    if (undoable) kicks_.clear();
    unsigned kick = 1;
    for (;; ++kick) {
      r = next_random();
      const unsigned victim_slot = steer_victim(ahead, static_cast<unsigned>(r % b));
      if (undoable) kicks_.push_back({bucket, victim_slot, fp});
      fp = table_.swap(bucket, victim_slot, fp);
      bucket = here.alts[victim_slot];
      here = ahead[victim_slot];
      if (kick == config_.max_kicks) break;
      for (unsigned s = 0; s < b; ++s) read_level(here.alts[s], ahead[s]);
      if (move_two_deep(bucket, here, ahead, fp)) return true;
    }
    return give_up(undoable ? &rng_before : nullptr, bucket, fp, kick);
  }

  // The walk ran out with fp in hand, bound for `bucket`. Normally fp waits in the victim slot, so nothing
  // is lost and the filter is full until an erase. A walk that may be undone (rng_before set) instead puts
  // back, last kick first, what its kicks moved: fp replaces the fingerprint the last kick put in its
  // bucket, which goes back in the bucket before, and so on to the new key's, which is left out. Undoing
  // the later kicks first leaves each bucket as that kick left it, so the bytes come back as they were:
  // a packed table's entries stay in their slots, and a semi-sorted bucket, whose entries may have moved,
  // is stored in one order whichever of two equal fingerprints is replaced.
  bool give_up(const uint64_t* rng_before, uint64_t bucket, uint32_t fp, unsigned kicks) {
    if (rng_before == nullptr) {
      set_victim(Victim{true, bucket, fp});
      return true;
    }
    for (size_t k = kicks; k-- > 0;) {
      uint32_t entries[kMaxSlots];
      table_.get_all(kicks_[k].bucket, entries);
      unsigned slot = kicks_[k].slot;
      if (entries[slot] != kicks_[k].fingerprint) {
        slot = 0;
        while (slot + 1 < slots() && entries[slot] != kicks_[k].fingerprint) ++slot;
      }
      fp = table_.swap(kicks_[k].bucket, slot, fp);
    }
    rng_state_ = *rng_before;
    --size_;
    return false;
  }

  // A bucket's entries and the alternate bucket of each; read_level prefetches those buckets.
  struct Level {
    uint32_t entries[kMaxSlots];
    uint64_t alts[kMaxSlots];
  };

  // steer_clear_of_traps over the buckets whose entries `ahead` holds.
  unsigned steer_victim(const Level* ahead, unsigned slot) const {
    return steer_clear_of_traps(reinterpret_cast<const unsigned char*>(ahead) + offsetof(Level, alts), sizeof(Level),
                                slots(), slot);
  }
  bool all_lead_into_traps(const Level* ahead) const {
    return all_traps(reinterpret_cast<const unsigned char*>(ahead) + offsetof(Level, alts), sizeof(Level), slots());
  }
  // Whether every entry of the key's two (full) buckets has its alternate bucket in the pair: then no walk
  // can make room, whoever the entries belong to (copies of the key, or keys that share its pair).
  bool pair_is_closed(const uint64_t homes[2], const Level level[2]) const {
    return alternates_all(level[0].alts, slots(), homes[1]) && alternates_all(level[1].alts, slots(), homes[0]);
  }

  unsigned slots() const {
    if constexpr (kSlots != 0) {
      return kSlots;
    } else {
      return table_.slots();
    }
  }

  void read_level(uint64_t bucket, Level& level) const {
    table_.get_all(bucket, level.entries);
    for (unsigned s = 0, b = slots(); s < b; ++s) {
      level.alts[s] = hasher_.alt_index(bucket, level.entries[s]);
      table_.prefetch_bucket(level.alts[s]);
    }
  }

  // The second level of the look-ahead, once the first found every alternate bucket full: can an entry of
  // an alternate bucket move on into its own alternate? Then that entry moves there, entry s of `bucket`
  // takes its place and fp takes entry s's. The b * b buckets are prefetched together (read_level), so
  // this costs about one more memory latency, but looks at b times more buckets than a kick step does.
  // Near full load, where a step of the walk rarely succeeds, that is what makes construction fast.
  bool move_two_deep(uint64_t bucket, const Level& level, const Level (&next)[kMaxSlots], uint32_t fp) {
    const unsigned b = slots();
    for (unsigned s = 0; s < b; ++s) {
      for (unsigned t = 0; t < b; ++t) {
        // next[s].alts[t] is never level.alts[s] (alt has no fixed point); if it is `bucket` or another
        // level.alts[], it is full and the insert fails, so the buckets changed below are still as read.
        if (table_.insert_empty(next[s].alts[t], next[s].entries[t])) {
          table_.swap(level.alts[s], t, level.entries[s]);
          table_.swap(bucket, s, fp);
          return true;
        }
      }
    }
    return false;
  }

  // After an erase there may be room for the parked victim.
  void rehome_victim() {
    if (!victim_.used) return;
    const Victim v = victim_;
    set_victim(Victim{});
    --size_;
    place(v.index, v.fingerprint, /*new_key=*/false);
  }

  Hasher hasher_;
  Table table_;
};

// Picks the table instantiation for a (validated) config, hashed as hash.h says. `borrowed`, for a fixed
// filter or a level: its table's bytes, read in place (CuckooCore's constructor).
std::unique_ptr<FilterCore> make_core(const Config& config, const uint8_t* borrowed = nullptr);
// Level `level` of a growing filter whose level 0 has `base` (level_hasher.h); config is that level's own
// shape (see GrowingCore::level_config). Level 0 is make_core(config).
std::unique_ptr<FilterCore> make_level_core(const Config& config, const Config& base, unsigned level,
                                            const uint8_t* borrowed = nullptr);

}  // namespace cuckoo::internal
