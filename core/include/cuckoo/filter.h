// cuckoo/filter.h: cuckoo::CuckooFilter, the paper's cuckoo filter with run-time configuration
// (cuckoo/options.h). Include cuckoo/cuckoo.h, which also brings the binary format's errors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string_view>
#include <vector>

#include "cuckoo/export.h"
#include "cuckoo/insert_result.h"
#include "cuckoo/internal/inline_table.h"
#include "cuckoo/internal/key_traits.h"
#include "cuckoo/options.h"

namespace cuckoo {

namespace internal {
class FilterCore;
struct CoreAccess;
}  // namespace internal

// An approximate set of keys: contains() is never false for a key inserted and not erased, and true for
// another key with probability at most the configured false-positive rate.
//
// Keys. Every key operation (insert, contains, erase, count, hash) takes a key as
// - bytes: std::string_view; a contiguous container or span of bytes such as std::vector<uint8_t>,
//   std::array<std::byte, N> or std::span<const std::byte>; or pointer + length, where the pointer must
//   address that many readable bytes and may be null only for length 0, as with std::string_view;
// - a 64-bit integer, hashed as its 8 little-endian bytes: insert(uint64_t{7}) and insert of the bytes
//   07 00 00 00 00 00 00 00 are the same key.
// The same bytes are the same key whichever way they are passed. Any integer type converts to uint64_t:
// insert('a') is the integer 97, not the string "a", and insert(-1) is 2^64 - 1; pass
// std::string_view("a") for text. Floating-point keys do not compile, since they would convert silently
// too (insert(3.7) would store the integer 3); hash their bytes or their text. Nor does nullptr, which
// would pick the std::string_view overload and run strlen(nullptr); a literal 0 stays the integer key 0.
// How a key becomes a bucket index and a fingerprint is frozen and specified in docs/hashing.md.
//
// Thread safety: const member functions (contains, count, contains_many, serialize, ...) may run from
// many threads at once; anything that modifies needs exclusive access, as with the standard containers.
class CUCKOO_API CuckooFilter {
 public:
  // Throws cuckoo::OptionError (a std::invalid_argument) naming the option when the options are impossible.
  explicit CuckooFilter(const Options& options);
  explicit CuckooFilter(const Config& config);
  CuckooFilter(const CuckooFilter& other);
  CuckooFilter& operator=(const CuckooFilter& other);
  // Moves are O(1) and leave `other` empty of any table: a moved-from filter may only be assigned to or
  // destroyed (any other call on it is undefined behaviour, as for a moved-from std::unique_ptr's target).
  CuckooFilter(CuckooFilter&& other) noexcept;
  CuckooFilter& operator=(CuckooFilter&& other) noexcept;
  ~CuckooFilter();

  // Adds one copy of key. Returns true if the key is now stored; false if the filter is full or the key is
  // refused, in which case nothing changed. When a relocation walk runs out of kicks, the last displaced
  // fingerprint is parked in the victim slot: the insert still succeeds and loses nothing, and the filter
  // reports full (is_full(), further inserts return false) until an erase makes room. A growing filter
  // instead adds a level at its next insert, unless max_memory_bytes or the level limit forbids it.
  // Refused alone (false, nothing changed, later inserts of other keys unaffected): a key whose two buckets
  // already hold 2b copies of it; in a fixed filter also a key whose two full buckets hold only entries
  // that belong to that pair of buckets (another key's 2b copies, say), and, below the load it was sized
  // for (slots times the default target load of its shape: at least `capacity` unless target_load is set
  // higher), a key whose relocation walk fails, which there means buckets jammed by repeated or colliding
  // keys (or, rarely, chance in a small table of 2-entry buckets) rather than a full table; in a growing
  // filter also a key whose walk fails while the newest level is less than half full (keys crafted to
  // collide), which would otherwise make it grow. Other keys' relocation walks steer clear of such pairs.
  bool insert(std::string_view key);
  CUCKOO_INLINE_ALWAYS bool insert(uint64_t key) {
#if CUCKOO_INLINE_LOOKUP
    if (internal::inline_insert(*inline_table_, key)) return true;
#endif
    return insert_in_core(key);
  }
  bool insert(const void* data, size_t size);
  template <typename Bytes, typename = internal::IfByteRange<Bytes>>
  bool insert(const Bytes& key) { return insert(std::data(key), std::size(key)); }
  template <typename NotAKey, typename = internal::IfNotAKey<NotAKey>>
  bool insert(NotAKey key) = delete;

  // Inserts key unless contains(key) is already true (core/src/insert_if_absent.cpp). Caveats:
  // - a false positive reads as kPresent: a key that was not there is then not stored (contains() may
  //   still say true for it, by the same false positive);
  // - so erasing such a key later removes another key's fingerprint: erase only keys reported kInserted.
  InsertResult insert_if_absent(std::string_view key);
  InsertResult insert_if_absent(uint64_t key);
  InsertResult insert_if_absent(const void* data, size_t size);
  template <typename Bytes, typename = internal::IfByteRange<Bytes>>
  InsertResult insert_if_absent(const Bytes& key) { return insert_if_absent(std::data(key), std::size(key)); }
  template <typename NotAKey, typename = internal::IfNotAKey<NotAKey>>
  InsertResult insert_if_absent(NotAKey key) = delete;

  // True if key may be in the set; never false for a key inserted and not erased.
  bool contains(std::string_view key) const;
  CUCKOO_INLINE_ALWAYS bool contains(uint64_t key) const {
#if CUCKOO_INLINE_LOOKUP
    return internal::inline_contains(*inline_table_, key, [this](uint64_t k) { return contains_in_core(k); });
#else
    return contains_in_core(key);
#endif
  }
  bool contains(const void* data, size_t size) const;
  template <typename Bytes, typename = internal::IfByteRange<Bytes>>
  bool contains(const Bytes& key) const { return contains(std::data(key), std::size(key)); }
  template <typename NotAKey, typename = internal::IfNotAKey<NotAKey>>
  bool contains(NotAKey key) const = delete;

  // Removes one copy of key's fingerprint. Returns false if none was found. Only erase keys you
  // inserted: erasing a never-inserted key may remove another key's colliding fingerprint.
  bool erase(std::string_view key);
  bool erase(uint64_t key);
  bool erase(const void* data, size_t size);
  template <typename Bytes, typename = internal::IfByteRange<Bytes>>
  bool erase(const Bytes& key) { return erase(std::data(key), std::size(key)); }
  template <typename NotAKey, typename = internal::IfNotAKey<NotAKey>>
  bool erase(NotAKey key) = delete;

  // Number of stored fingerprints matching key (>= the number of copies inserted and not erased).
  size_t count(std::string_view key) const;
  size_t count(uint64_t key) const;
  size_t count(const void* data, size_t size) const;
  template <typename Bytes, typename = internal::IfByteRange<Bytes>>
  size_t count(const Bytes& key) const { return count(std::data(key), std::size(key)); }
  template <typename NotAKey, typename = internal::IfNotAKey<NotAKey>>
  size_t count(NotAKey key) const = delete;

  // Batch insert and lookup: hash a window of keys and prefetch both buckets of each well before probing
  // them, which hides DRAM latency on tables larger than the cache. insert_many inserts keys[0..n) in
  // order, stops at the first key that does not fit, and returns how many were inserted. contains_many
  // sets out[i] = 1 if keys[i] may be in the set, else 0.
  size_t insert_many(const uint64_t* keys, size_t n);
  size_t insert_many(const std::string_view* keys, size_t n);
  void contains_many(const uint64_t* keys, size_t n, uint8_t* out) const;
  void contains_many(const std::string_view* keys, size_t n, uint8_t* out) const;
  // insert_if_absent on keys[0..n) in order (a key repeated in the batch is kPresent the second time);
  // stops at the first key refused and returns how many keys came before it (inserted or present).
  size_t insert_many_if_absent(const uint64_t* keys, size_t n);
  size_t insert_many_if_absent(const std::string_view* keys, size_t n);

  // Adds every fingerprint of source (its table and its parked victim) to this filter, without the keys:
  // afterwards this filter contains every key either filter contained. Both must have the same shape and
  // seed (bucket count, bucket size, fingerprint bits, semi-sorting, seed); a mismatch throws
  // std::invalid_argument naming it. Strong guarantee: if the fingerprints do not all fit (or this filter
  // is already full), it throws std::length_error and this filter is unchanged. As with insert, the last
  // fingerprint placed may be parked in the victim slot, after which is_full() is true. Needs memory for
  // a copy of the table while it runs (core/src/merge.cpp). Growing filters merge level by level: an entry
  // goes into the same level of this filter or, with fewer bits, an older one; it cannot go into a newer
  // one, so parts that each grew past their first level merge only where the levels have room. Give growing
  // parts the union's capacity.
  void merge(const CuckooFilter& source);

  // Removes everything; keeps the configuration and the memory. Afterwards the filter is as if new
  // (the relocation walk restarts too): the same inserts give the same bytes as in a fresh filter.
  void clear();

  uint64_t size() const;          // items stored (including a parked victim)
  uint64_t bucket_count() const;  // of every level
  uint64_t slot_count() const;    // bucket_count * bucket_size
  // Whether inserts fail until an erase: a victim is parked (and no level can be added to a growing filter).
  CUCKOO_INLINE_ALWAYS bool is_full() const {
#if CUCKOO_INLINE_LOOKUP
    // 0 only in an InlineTable the core keeps current (an empty one shows kEveryCallToTheLibrary).
    if (inline_table_->victim_fingerprint == 0) return false;
    if (inline_table_->serves()) return true;
#endif
    return is_full_in_core();
  }
  unsigned levels() const;              // 1 for a fixed filter; a growing filter's level count
  double false_positive_bound() const;  // of the filter as it is: false_positive_bound(config()) for a
                                        // fixed filter, the sum over its levels for a growing one
  double load_factor() const;           // items in slots / slot_count, at most 1: a parked victim is in none
  double bits_per_item() const;         // table bits (all levels) / size (infinity when empty)
  size_t memory_bytes() const;          // bytes this filter allocated: tables, fixed overhead, the
                                        // relocation log (max_kicks x 16 bytes) once an insert needed one,
                                        // and the alternate-bucket targets that single-key lookups
                                        // of a large fixed table load (2^f x 4 bytes, at most 1/16 of it)
  const Config& config() const;

  // The 64-bit key hash that everything else derives from (docs/hashing.md).
  uint64_t hash(std::string_view key) const;
  uint64_t hash(uint64_t key) const;
  uint64_t hash(const void* data, size_t size) const;
  template <typename Bytes, typename = internal::IfByteRange<Bytes>>
  uint64_t hash(const Bytes& key) const { return hash(std::data(key), std::size(key)); }
  template <typename NotAKey, typename = internal::IfNotAKey<NotAKey>>
  uint64_t hash(NotAKey key) const = delete;

  // Binary format (docs/format.md): header, packed table, checksum; identical from native and WASM.
  // serialize() returns the bytes; serialize_to writes the serialized_size() bytes to out.
  std::vector<uint8_t> serialize() const;
  size_t serialized_size() const;
  void serialize_to(uint8_t* out) const;
  // Validates everything before trusting anything; throws cuckoo::FormatError (cuckoo/format.h).
  // huge_pages is Options::huge_pages for the loaded table: a memory hint, so the bytes do not hold it.
  static CuckooFilter deserialize(const void* data, size_t size, bool huge_pages = true);

 private:
  // Tests reach the implementation through internal::CoreAccess (core/src/core_access.h).
  friend struct internal::CoreAccess;
  explicit CuckooFilter(std::unique_ptr<internal::FilterCore> core);
  void adopt(std::unique_ptr<internal::FilterCore> core);

  // The library's side of the inline members above, which call them when their own path cannot answer.
  bool insert_in_core(uint64_t key);
  // Pure (it reads memory and writes none): a caller's loop of lookups can keep the InlineTable's fields in
  // registers across it.
  CUCKOO_PURE bool contains_in_core(uint64_t key) const;
  bool is_full_in_core() const;

  std::unique_ptr<internal::FilterCore> core_;
  // The core's InlineTable (cuckoo/internal/inline_table.h); kept with core_ by adopt() and by moves.
  const internal::InlineTable* inline_table_ = nullptr;
};

}  // namespace cuckoo
