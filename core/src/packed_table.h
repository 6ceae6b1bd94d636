// core/src/packed_table.h: the plain bucket table, fingerprints bit-packed with no padding.
//
// Layout: entry j of bucket i is field (i * b + j) of width f in the table's bit stream (bits.h). An entry
// of 0 is empty. A table of n buckets takes ceil(n * b * f / 8) bytes, so 12-bit fingerprints cost 12 bits.
//
// Bucket probe (SWAR): a bucket is read in "groups" of entries that fit one unaligned 64-bit load (for
// b=4, f=12 the whole 48-bit bucket is one group). XOR with the fingerprint broadcast to every field turns
// matches into zero fields, and the classic zero-field test ((x - lo) & ~x & hi) finds them without a loop
// over entries. Its lowest set bit is always exact, which also gives the first empty entry for inserts.
// This is plain 64-bit arithmetic, which inserts and the WASM build use; lookups on x86-64 test both
// buckets in one SSE2 register when each bucket is one load (match_either()).
//
// kFixedBits != 0 bakes the fingerprint width into the code (the common widths: core/src/make_core.cpp);
// kFixedBits == 0 reads it at run time and serves every other width. kLoads = 1 promises that a whole
// bucket fits one load (b * f <= 57), which lets the run-time-width code drop its group loop: the widths
// that sizing from a target rate often picks (b = 4: 7, 10, 11, 13, 14 bits) then cost about what the
// fixed ones do. kLoads = 2 promises
// that half a bucket fits one (b * f / 2 <= 57): two loads of b / 2 entries, a loop the compiler unrolls,
// for the wider fingerprints of a growing filter's levels (b = 4: 15..28 bits). kLoads = 0: any width.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "aligned_buffer.h"
#include "bits.h"
#include "cuckoo/options.h"

namespace cuckoo::internal {

template <unsigned kBucketSize, unsigned kFixedBits, unsigned kLoads = 0>
class PackedTable {
  static_assert(kBucketSize == 2 || kBucketSize == 4 || kBucketSize == 8 ||
                    (kBucketSize == 0 && kFixedBits == 0 && kLoads == 0),
                "bucket size 2, 4 or 8, or 0 (read at run time, with run-time widths only)");
  static_assert(kFixedBits == 0 || (kFixedBits >= 4 && kFixedBits <= 32), "fingerprint bits 4..32");
  static_assert(kLoads <= 2 && (kLoads == 0 || kFixedBits == 0), "kLoads is for run-time widths");
  static constexpr bool kOneLoad = kLoads == 1;

 public:
  // 0: the bucket size is read at run time (slots()), like kFixedBits = 0 for the width.
  static constexpr unsigned kSlots = kBucketSize;
  // Entry j of bucket i is field (i * b + j) of the bit stream, 0 when empty (what InlineTable reads).
  static constexpr bool kPlainBuckets = true;
  // Fixed widths whose buckets are whole bytes (b = 4: f = 4, 8, 10, 12, 16, 32) address a bucket by
  // bytes: the compiler cannot see that (bucket * b * f) >> 3 drops no bits, and those extra shifts are on
  // every lookup.
  static constexpr bool kByteAligned = kFixedBits != 0 && kBucketSize * kFixedBits % 8 == 0;
  static constexpr uint64_t kBucketBytes = kBucketSize * kFixedBits / 8;

  // `borrowed`, when not null, is the table's bytes, read in place and never written (a FilterView's:
  // cuckoo/view.h); kTablePadding readable bytes must follow them. Null allocates a zeroed table.
  explicit PackedTable(const Config& config, const uint8_t* borrowed = nullptr)
      : bits_(kFixedBits ? kFixedBits : config.fingerprint_bits),
        slots_(kBucketSize ? kBucketSize : config.bucket_size),
        bucket_count_(config.bucket_count),
        table_bytes_(config.table_bytes()),
        buffer_(AlignedBuffer::own_or_borrow(borrowed, table_bytes_ + kTablePadding, config.huge_pages)) {
    const unsigned per_load = bits_ % 8 == 0 ? 64 / bits_ : 57 / bits_;
    group_ = std::min(per_load, slots());
    if (kLoads != 0) {
      if (group_ < kBucketSize / kLoads) throw std::logic_error("cuckoo: PackedTable<kLoads> needs b * f / kLoads <= 57");
      group_ = kBucketSize / kLoads;
    }
    full_ = GroupMasks::make(group_, bits_);
    tail_ = GroupMasks::make(slots() % group_, bits_);
    last_load_offset_ = last_group_offset(slots(), group_, bits_);
  }

  PackedTable(const PackedTable& other) : PackedTable(other.config_like()) {
    std::memcpy(buffer_.data(), other.buffer_.data(), table_bytes_);
  }

  unsigned bits() const { return kFixedBits ? kFixedBits : bits_; }
  unsigned slots() const { return kBucketSize ? kBucketSize : slots_; }

  uint32_t get(uint64_t bucket, unsigned slot) const {
    return static_cast<uint32_t>(read_bits(buffer_.data(), entry_pos(bucket, slot), bits()));
  }
  void set(uint64_t bucket, unsigned slot, uint32_t fp) {
    write_bits(buffer_.data(), entry_pos(bucket, slot), bits(), fp);
  }

  // Nonzero iff the bucket holds fp. Branch-free (all groups are tested), so the caller can probe both
  // buckets with their loads in flight together and combine the answers without a mispredicted branch.
  uint64_t match(uint64_t bucket, uint32_t fp) const {
    const unsigned f = bits();
    const unsigned b = slots();
    const unsigned group = kLoads ? kBucketSize / kLoads : kFixedBits ? fixed_group()
                                                                      : group_;
    const uint64_t base = bucket * b * uint64_t{f};
    uint64_t found = 0;
    for (unsigned s = 0; s < b; s += group) {
      const GroupMasks& m = (b - s >= group) ? full_masks() : tail_masks();
      found |= zero_fields(base + uint64_t{s} * f, m, fp);
    }
    return found;
  }

  // Nonzero iff bucket a or bucket b holds fp: the lookup's probe. When a bucket is one load, both are
  // tested before the single mask with the top bits, a few instructions less than two match() calls.
  uint64_t match_either(uint64_t a, uint64_t b, uint32_t fp) const {
#if CUCKOO_HAVE_SSE2
    if constexpr (bucket_is_one_load()) {
      // The same test on both buckets at once, in the two 64-bit lanes of an SSE2 register. Fewer
      // instructions, and fewer of them in general-purpose registers: a lookup in a large table waits for
      // its two cache misses, and how many lookups the CPU keeps in flight meanwhile is bounded by the
      // instructions and integer registers each one holds. x86-64 always has SSE2; the WASM build takes
      // the scalar path below.
      const __m128i words = kByteAligned ? load_2x64(bucket_address(a), bucket_address(b))
                                         : _mm_set_epi64x(static_cast<long long>(bucket_word(b)),
                                                          static_cast<long long>(bucket_word(a)));
      const uint64_t lo = full_masks().lo;
      const __m128i pattern = _mm_set1_epi64x(static_cast<long long>(uint64_t{fp} * opaque(lo)));
      return any_zero_field_2x64(_mm_xor_si128(words, pattern), lo, full_masks().hi);
    }
#endif
    if constexpr (bucket_is_one_load()) {
      const uint64_t lo = opaque(full_masks().lo);
      const uint64_t pattern = uint64_t{fp} * lo;
      return (zero_field_marks(bucket_word(a) ^ pattern, lo) | zero_field_marks(bucket_word(b) ^ pattern, lo)) &
             full_masks().hi;
    } else {
      return match(a, fp) | match(b, fp);
    }
  }

  bool contains(uint64_t bucket, uint32_t fp) const { return match(bucket, fp) != 0; }

  // Writes slots() entries.
  void get_all(uint64_t bucket, uint32_t* out) const {
    if constexpr (kByteAligned && bucket_is_one_load()) {
      const uint64_t word = load_u64(bucket_address(bucket));  // the whole bucket, from its first byte
      for (unsigned s = 0; s < kBucketSize; ++s) out[s] = static_cast<uint32_t>((word >> (s * kFixedBits)) & low_mask(kFixedBits));
    } else {
      for (unsigned s = 0; s < slots(); ++s) out[s] = get(bucket, s);
    }
  }

  // Puts fp in the first empty entry of bucket; false if the bucket is full.
  bool insert_empty(uint64_t bucket, uint32_t fp) {
    if constexpr (kByteAligned && fixed_group() == kBucketSize) {
      // The bucket is one load at a byte address: find its first empty field in that word and OR fp into
      // it (the field is zero), instead of recomputing the entry's bit position to write it. The load also
      // holds bytes after the bucket; they are stored back unchanged.
      uint8_t* p = bucket_address(bucket);
      const uint64_t word = load_u64(p);
      const uint64_t empty = zero_field_marks(word, kFixedFull.lo) & kFixedFull.hi;
      if (empty == 0) return false;
      const unsigned first_empty = count_trailing_zeros(empty) + 1 - kFixedBits;  // exact: the lowest one
      store_u64(p, word | (uint64_t{fp} << first_empty));
      return true;
    }
    const int slot = first_match(bucket, 0);
    if (slot < 0) return false;
    set(bucket, static_cast<unsigned>(slot), fp);
    return true;
  }

  // Clears one entry equal to fp; false if there is none.
  bool remove(uint64_t bucket, uint32_t fp) {
    const int slot = first_match(bucket, fp);
    if (slot < 0) return false;
    set(bucket, static_cast<unsigned>(slot), 0);
    return true;
  }

  unsigned count(uint64_t bucket, uint32_t fp) const {
    unsigned n = 0;
    for (unsigned s = 0; s < slots(); ++s) n += get(bucket, s) == fp;
    return n;
  }

  // Replaces entry `slot` with fp and returns what was there (a cuckoo kick).
  uint32_t swap(uint64_t bucket, unsigned slot, uint32_t fp) {
    const uint32_t old = get(bucket, slot);
    set(bucket, slot, fp);
    return old;
  }

  // The first and the last byte a lookup's probe of the bucket loads. match() and match_either() read
  // whole 64-bit words, one per group of entries (a one-load bucket: one word from its first byte), so the
  // last word can reach up to 7 bytes past the bucket: a b = 4, f = 12 bucket is 6 bytes, read with one
  // 8-byte load. native-tests/table_test.cpp checks under ASan that probes read nothing outside it.
  ByteSpan probe_span(uint64_t bucket) const {
    if constexpr (kByteAligned) {
      const uint8_t* first = bucket_address(bucket);
      return {first, first + (last_load_offset() >> 3) + 7};
    } else {
      const uint64_t first_bit = bucket * slots() * bits();
      return {buffer_.data() + (first_bit >> 3), buffer_.data() + ((first_bit + last_load_offset()) >> 3) + 7};
    }
  }

  // Prefetches the cache lines of probe_span(): the first and the last byte the probe loads, not the
  // bucket's own last byte, whose line can differ from the load's.
  void prefetch_bucket(uint64_t bucket) const { prefetch(probe_span(bucket)); }

  uint64_t count_entries() const {
    uint64_t n = 0;
    for (uint64_t i = 0; i < bucket_count_; ++i)
      for (unsigned s = 0; s < slots(); ++s) n += get(i, s) != 0;
    return n;
  }

  // Every bit pattern is a valid plain table; only the unused bits of the last byte must be zero.
  bool validate(std::string* why) const {
    if (!spare_bits_are_zero(buffer_.data(), table_bytes_, bucket_count_ * slots() * bits())) {
      if (why) *why = "nonzero padding bits after the last bucket";
      return false;
    }
    return true;
  }

  void clear() { std::memset(buffer_.data(), 0, table_bytes_); }
  uint8_t* data() { return buffer_.data(); }
  const uint8_t* data() const { return buffer_.data(); }
  size_t table_bytes() const { return table_bytes_; }
  size_t allocated_bytes() const { return buffer_.reserved(); }

 private:
  // Per-group SWAR constants: lo has bit 0 of each field set, hi the top bit.
  struct GroupMasks {
    uint64_t lo = 0, hi = 0;
    static constexpr GroupMasks make(unsigned fields, unsigned bits) {
      GroupMasks m;
      for (unsigned k = 0; k < fields; ++k) m.lo |= uint64_t{1} << (k * bits);
      m.hi = m.lo << (bits - 1);
      return m;
    }
  };

  Config config_like() const {
    Config c;
    c.bucket_size = slots();
    c.fingerprint_bits = bits_;
    c.bucket_count = bucket_count_;
    c.huge_pages = buffer_.is_mapped();
    return c;
  }

  uint64_t entry_pos(uint64_t bucket, unsigned slot) const {
    return (bucket * slots() + slot) * uint64_t{bits()};
  }

  // Index of the first entry of `bucket` equal to fp (fp = 0: the first empty entry), or -1.
  int first_match(uint64_t bucket, uint32_t fp) const {
    const unsigned f = bits();
    const unsigned b = slots();
    const unsigned group = kLoads ? kBucketSize / kLoads : kFixedBits ? fixed_group()
                                                                      : group_;
    const uint64_t base = bucket * b * uint64_t{f};
    for (unsigned s = 0; s < b; s += group) {
      const GroupMasks& m = (b - s >= group) ? full_masks() : tail_masks();
      const uint64_t zeros = zero_fields(base + uint64_t{s} * f, m, fp);
      if (zeros != 0) return static_cast<int>(s + count_trailing_zeros(zeros) / f);
    }
    return -1;
  }

  // The fields of the group at bit `pos` that equal fp, as their top bits (exact up to the lowest one).
  // The load also brings in bits above the group (the next entries); they need no masking, because a
  // subtraction borrows only upwards, so they cannot change the group's fields, and hi selects only those.
  uint64_t zero_fields(uint64_t pos, const GroupMasks& m, uint32_t fp) const {
    const uint64_t word = load_u64(buffer_.data() + (pos >> 3)) >> (pos & 7);
    const uint64_t lo = opaque(m.lo);
    return zero_field_marks(word ^ (uint64_t{fp} * lo), lo) & m.hi;
  }

  // kByteAligned only: the bucket's first byte.
  const uint8_t* bucket_address(uint64_t bucket) const { return buffer_.data() + bucket * kBucketBytes; }
  uint8_t* bucket_address(uint64_t bucket) { return buffer_.data() + bucket * kBucketBytes; }

  // The whole bucket from one load (only when it fits one: see match_either), bits above it unmasked.
  uint64_t bucket_word(uint64_t bucket) const {
    if constexpr (kByteAligned) {
      return load_u64(bucket_address(bucket));
    } else {
      const uint64_t pos = bucket * slots() * uint64_t{bits()};
      return load_u64(buffer_.data() + (pos >> 3)) >> (pos & 7);
    }
  }

  static constexpr unsigned fixed_group() {
    if (kFixedBits == 0) return 1;  // unused: run-time widths use group_
    const unsigned per_load = kFixedBits % 8 == 0 ? 64 / kFixedBits : 57 / kFixedBits;
    return per_load < kBucketSize ? per_load : kBucketSize;
  }

  // Bits from a bucket's first bit to the first bit of the last 64-bit word match() loads: one word per
  // group of entries, the last group starting at entry (b - 1) / group * group. Run-time widths keep it in
  // last_load_offset_, so that prefetches do not divide.
  static constexpr uint64_t last_group_offset(unsigned slots, unsigned group, unsigned bits) {
    return uint64_t{(slots - 1) / group * group} * bits;
  }
  uint64_t last_load_offset() const {
    if constexpr (bucket_is_one_load()) {
      return 0;
    } else if constexpr (kFixedBits != 0) {
      return last_group_offset(kBucketSize, fixed_group(), kFixedBits);
    } else {
      return last_load_offset_;
    }
  }

  // Every bucket of this table is read with one 64-bit load (bucket_word), known at compile time.
  static constexpr bool bucket_is_one_load() { return kOneLoad || (kFixedBits != 0 && fixed_group() == kBucketSize); }

  // Fixed widths get their constants as immediates instead of loads from the table object.
  // (Run-time widths, kFixedBits = 0, never read these; width 1 just keeps make() well defined.)
  static constexpr unsigned kMaskBits = kFixedBits ? kFixedBits : 1;
  static constexpr GroupMasks kFixedFull = GroupMasks::make(fixed_group(), kMaskBits);
  static constexpr GroupMasks kFixedTail = GroupMasks::make(kBucketSize % fixed_group(), kMaskBits);
  const GroupMasks& full_masks() const { return kFixedBits ? kFixedFull : full_; }
  const GroupMasks& tail_masks() const { return kFixedBits ? kFixedTail : tail_; }

  unsigned bits_;
  unsigned slots_;
  uint64_t bucket_count_;
  size_t table_bytes_;
  AlignedBuffer buffer_;
  unsigned group_ = 1;
  uint64_t last_load_offset_ = 0;  // run-time widths; see last_load_offset()
  GroupMasks full_, tail_;
};

}  // namespace cuckoo::internal
