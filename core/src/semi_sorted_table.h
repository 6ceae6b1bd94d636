// core/src/semi_sorted_table.h: the semi-sorted bucket table of the paper's section 5.2 (b = 4 only).
//
// The order of the four fingerprints in a bucket carries no information, so sort them and store the
// multiset of their 4 high bits ("nibbles") as one code: there are C(16 + 4 - 1, 4) = 3876 sorted nibble
// 4-tuples, which fit in 12 bits instead of 16. The remaining f - 4 low bits of each fingerprint follow.
// Bucket layout in the bit stream (bits.h), 4f - 4 bits = (f - 1) bits per entry:
//
//   [ code: 12 bits ][ low(e0): f-4 bits ][ low(e1) ][ low(e2) ][ low(e3) ]
//
// Codes number the sorted tuples (n0 <= n1 <= n2 <= n3) in lexicographic order, so code 0 is (0,0,0,0):
// an all-zero table is an empty table, as for the plain table. Entries are stored sorted by full
// fingerprint; empty entries are fingerprint 0 and sort first. Codes >= 3876 are invalid (validate()).
#pragma once

#include <cstdint>
#include <string>

#include "aligned_buffer.h"
#include "bits.h"
#include "cuckoo/options.h"

namespace cuckoo::internal {

inline constexpr unsigned kSemiSortCodes = 3876;
inline constexpr unsigned kSemiSortCodeBits = 12;

// The code <-> nibble-tuple tables, built once. Tuples are packed n0 | n1 << 4 | n2 << 8 | n3 << 12.
struct CUCKOO_API SemiSortCodec {  // exported for the repo's tests (cuckoo/export.h)
  uint16_t decode[kSemiSortCodes];
  uint16_t encode[1 << 16];  // only sorted tuples are meaningful
  static const SemiSortCodec& get();
  // For fingerprints of f <= 15 bits (a bucket fits one 64-bit load): code -> the four nibbles placed in
  // the probe layout below, so that a lookup decodes a bucket with one table lookup. Built once per f. It
  // has an entry for every 12-bit code: the invalid ones (>= kSemiSortCodes, which validate() keeps out of
  // any table we accept) read as code 0, an empty bucket, with no clamp on the lookup path.
  static const uint64_t* spread_nibbles(unsigned f);
};

// How a lookup compares a bucket with a fingerprint when f <= 15: as four fields of `width` bits, entry s
// in field s, tested for a zero field with SWAR as in the plain table. For f >= 8 the fields are the stored
// (f-4)-bit low parts where they lie, and the nibbles sit in the low 4 bits of the same fields, compared
// with their own pattern (SemiSortedTable::mismatch_fields): nothing stored needs to move. For f < 8 a low
// part is narrower than a nibble, so the lows are spread to f-bit fields with the nibble above them.
struct SemiSortProbeLayout {
  unsigned width;         // bits per field
  unsigned nibble_shift;  // bit of its field where a nibble starts
  bool lows_in_place;     // the stored low parts are already the fields
};
constexpr SemiSortProbeLayout semi_sort_probe_layout(unsigned f) {
  return f >= 8 ? SemiSortProbeLayout{f - 4, 0, true} : SemiSortProbeLayout{f, f - 4, false};
}

template <unsigned kFixedBits>
class SemiSortedTable {
  static_assert(kFixedBits == 0 || (kFixedBits >= 4 && kFixedBits <= 32), "fingerprint bits 4..32");

 public:
  static constexpr unsigned kSlots = 4;
  static constexpr bool kPlainBuckets = false;  // buckets are encoded (not what InlineTable reads)

  // `borrowed`: as for PackedTable.
  explicit SemiSortedTable(const Config& config, const uint8_t* borrowed = nullptr)
      : bits_(kFixedBits ? kFixedBits : config.fingerprint_bits),
        bucket_count_(config.bucket_count),
        table_bytes_(config.table_bytes()),
        buffer_(AlignedBuffer::own_or_borrow(borrowed, table_bytes_ + kTablePadding, config.huge_pages)),
        codec_(&SemiSortCodec::get()),
        spread_(bits_ <= 15 ? SemiSortCodec::spread_nibbles(bits_) : nullptr),
        layout_(semi_sort_probe_layout(bits_)),
        lo_fields_(lo_fields_for(bits_)) {}

  SemiSortedTable(const SemiSortedTable& other) : SemiSortedTable(other.config_like()) {
    std::memcpy(buffer_.data(), other.buffer_.data(), table_bytes_);
  }

  unsigned bits() const { return kFixedBits ? kFixedBits : bits_; }

  uint64_t match(uint64_t bucket, uint32_t fp) const {
    if (probes_with_swar()) {
      return zero_field_marks(mismatch_fields(bucket, query(fp)), lo_fields()) & top_bits();
    }
    uint32_t e[4];
    decode(bucket, e);
    return (e[0] == fp) | (e[1] == fp) | (e[2] == fp) | (e[3] == fp);
  }

  // Nonzero iff bucket a or bucket b holds fp (the lookup's probe; same contract as PackedTable's): both
  // buckets are tested before the one mask with the top bits.
  uint64_t match_either(uint64_t a, uint64_t b, uint32_t fp) const {
#if CUCKOO_HAVE_SSE2
    if constexpr (kWholeByteBuckets && semi_sort_probe_layout(kFixedBits).lows_in_place) {
      // mismatch_fields() of both buckets in the two lanes of an SSE2 register, as PackedTable does it:
      // only the codes, which index the spread table, pass through general registers.
      const Query q = query(fp);
      const __m128i words = load_2x64(bucket_address(a), bucket_address(b));
      const __m128i nibbles = load_2x64(reinterpret_cast<const uint8_t*>(spread_ + (load_u16(bucket_address(a)) & 0xFFF)),
                                        reinterpret_cast<const uint8_t*>(spread_ + (load_u16(bucket_address(b)) & 0xFFF)));
      // The low parts start after the 12-bit code; bits above the bucket come from the next one, and
      // only move up under the subtraction, out of the fields that top_bits() keeps.
      const __m128i lows = _mm_srli_epi64(words, kSemiSortCodeBits);
      const __m128i mismatch =
          _mm_or_si128(_mm_xor_si128(lows, _mm_set1_epi64x(static_cast<long long>(q.lows))),
                       _mm_xor_si128(nibbles, _mm_set1_epi64x(static_cast<long long>(q.nibbles))));
      return any_zero_field_2x64(mismatch, lo_fields(), top_bits());
    }
#endif
    if (!probes_with_swar()) return match(a, fp) | match(b, fp);
    const Query q = query(fp);
    const uint64_t lo = lo_fields();
    return (zero_field_marks(mismatch_fields(a, q), lo) | zero_field_marks(mismatch_fields(b, q), lo)) &
           top_bits();
  }

  bool contains(uint64_t bucket, uint32_t fp) const { return match(bucket, fp) != 0; }

  // Entries in stored (sorted) order; swap(bucket, s, fp) replaces entry s of this order.
  void get_all(uint64_t bucket, uint32_t out[4]) const { decode(bucket, out); }

  bool insert_empty(uint64_t bucket, uint32_t fp) {
    uint32_t e[4];
    decode(bucket, e);
    for (unsigned s = 0; s < 4; ++s) {
      if (e[s] == 0) {
        e[s] = fp;
        encode(bucket, e);
        return true;
      }
    }
    return false;
  }

  bool remove(uint64_t bucket, uint32_t fp) {
    uint32_t e[4];
    decode(bucket, e);
    for (unsigned s = 0; s < 4; ++s) {
      if (e[s] == fp) {
        e[s] = 0;
        encode(bucket, e);
        return true;
      }
    }
    return false;
  }

  unsigned count(uint64_t bucket, uint32_t fp) const {
    uint32_t e[4];
    decode(bucket, e);
    return unsigned{e[0] == fp} + unsigned{e[1] == fp} + unsigned{e[2] == fp} + unsigned{e[3] == fp};
  }

  uint32_t swap(uint64_t bucket, unsigned slot, uint32_t fp) {
    uint32_t e[4];
    decode(bucket, e);
    const uint32_t old = e[slot];
    e[slot] = fp;
    encode(bucket, e);
    return old;
  }

  // The first and the last byte a lookup's probe of the bucket loads, as in PackedTable: f <= 15 reads the
  // bucket as one 64-bit word from its first byte; larger f reads the code, then each low part, the last
  // of them up to 7 bytes past the bucket. (The probe also reads the spread table, which is not the table.)
  ByteSpan probe_span(uint64_t bucket) const {
    const uint64_t first_bit = bucket * bucket_bits();
    const uint64_t last_load = one_word_bucket() ? 0 : kSemiSortCodeBits + 3 * uint64_t{low_bits()};
    return {buffer_.data() + (first_bit >> 3), buffer_.data() + ((first_bit + last_load) >> 3) + 7};
  }

  void prefetch_bucket(uint64_t bucket) const { prefetch(probe_span(bucket)); }

  uint64_t count_entries() const {
    uint64_t n = 0;
    uint32_t e[4];
    for (uint64_t i = 0; i < bucket_count_; ++i) {
      decode(i, e);
      n += unsigned{e[0] != 0} + unsigned{e[1] != 0} + unsigned{e[2] != 0} + unsigned{e[3] != 0};
    }
    return n;
  }

  bool validate(std::string* why) const {
    for (uint64_t i = 0; i < bucket_count_; ++i) {
      if (read_bits(buffer_.data(), i * bucket_bits(), kSemiSortCodeBits) >= kSemiSortCodes) {
        if (why) *why = "invalid semi-sort code in bucket " + std::to_string(i);
        return false;
      }
    }
    if (!spare_bits_are_zero(buffer_.data(), table_bytes_, bucket_count_ * bucket_bits())) {
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
  unsigned low_bits() const { return bits() - 4; }

  // Fixed widths whose buckets are whole bytes and fit one load (f = 9, 13) address buckets by bytes.
  static constexpr bool kWholeByteBuckets = kFixedBits != 0 && kFixedBits <= 15 && (4 * kFixedBits - 4) % 8 == 0;
  const uint8_t* bucket_address(uint64_t bucket) const { return buffer_.data() + bucket * ((4 * kFixedBits - 4) / 8); }

  // f <= 15: a bucket fits one load, and lookups use the SWAR probe (for fixed widths, known at compile time).
  bool probes_with_swar() const { return kFixedBits ? kFixedBits <= 15 : spread_ != nullptr; }
  // f <= 15: the whole bucket (4f - 4 <= 56 bits) is one read_bits/write_bits.
  bool one_word_bucket() const { return bucket_bits() <= 57; }
  SemiSortProbeLayout layout() const { return kFixedBits ? semi_sort_probe_layout(kFixedBits) : layout_; }
  // Bit 0 of each of the four probe fields; only used (and only meaningful) when f <= 15. Fixed widths get
  // it (and top_bits) at compile time, as constants in the instructions instead of loads from the object
  // and broadcasts into the SSE2 lanes: fewer instructions per lookup (see opaque() in bits.h).
  static constexpr uint64_t lo_fields_for(unsigned f) {
    const unsigned w = semi_sort_probe_layout(f).width;
    return f <= 15 ? uint64_t{1} | uint64_t{1} << w | uint64_t{1} << (2 * w) | uint64_t{1} << (3 * w) : 0;
  }
  uint64_t lo_fields() const { return kFixedBits ? lo_fields_for(kFixedBits) : lo_fields_; }
  uint64_t top_bits() const { return lo_fields() << (layout().width - 1); }

  // A fingerprint as the patterns its low part and its nibble make in the probe layout (f <= 15).
  struct Query {
    uint64_t lows, nibbles;
  };
  Query query(uint32_t fp) const {
    const unsigned lb = low_bits();
    // opaque(): one multiply each, not GCC's shift-and-add expansion of a multiply by a constant.
    return {(fp & low_mask(lb)) * opaque(lo_fields()), uint64_t{fp >> lb} * opaque(lo_fields() << layout().nibble_shift)};
  }

  // f <= 15 only: the bucket's fields in the probe layout, zero exactly where an entry equals the query.
  // The entries come in stored order; a test for any zero field does not need them sorted.
  uint64_t mismatch_fields(uint64_t bucket, const Query& q) const {
    const unsigned f = bits();
    uint64_t raw;
    if constexpr (kWholeByteBuckets) {
      raw = load_u64(bucket_address(bucket)) & low_mask(4 * f - 4);
    } else {
      raw = read_bits(buffer_.data(), bucket * bucket_bits(), 4 * f - 4);
    }
    uint64_t lows = raw >> kSemiSortCodeBits;
    if (!layout().lows_in_place) lows = spread_lows(lows, low_bits());
    return (lows ^ q.lows) | (spread_[raw & low_mask(kSemiSortCodeBits)] ^ q.nibbles);
  }

  // The four lb-bit low parts, packed back to back in `lows` (4 * lb bits), moved to the bottom of four
  // f-bit fields, f = lb + 4: field s goes from bit s * lb to bit s * f = s * lb + 4s. Two steps of shifts
  // instead of one per field: fields 2 and 3
  // move up 8 bits, then fields 1 and 3 move up 4 more.
  static uint64_t spread_lows(uint64_t lows, unsigned lb) {
    const uint64_t fields_01 = low_mask(2 * lb);
    lows = (lows & fields_01) | ((lows & ~fields_01) << 8);
    const uint64_t fields_13 = (low_mask(lb) << lb) | (low_mask(lb) << (3 * lb + 8));
    return (lows & ~fields_13) | ((lows & fields_13) << 4);
  }
  uint64_t bucket_bits() const { return 4 * uint64_t{bits()} - 4; }

  Config config_like() const {
    Config c;
    c.bucket_size = 4;
    c.semi_sort = true;
    c.fingerprint_bits = bits_;
    c.bucket_count = bucket_count_;
    c.huge_pages = buffer_.is_mapped();
    return c;
  }

  void decode(uint64_t bucket, uint32_t e[4]) const {
    const uint8_t* base = buffer_.data();
    const uint64_t pos = bucket * bucket_bits();
    const unsigned lb = low_bits();
    if (one_word_bucket()) {
      const uint64_t raw = read_bits(base, pos, static_cast<unsigned>(bucket_bits()));
      const uint32_t nibbles = decode_nibbles(raw & low_mask(kSemiSortCodeBits));
      const uint64_t lows = raw >> kSemiSortCodeBits;
      for (unsigned s = 0; s < 4; ++s)
        e[s] = (((nibbles >> (4 * s)) & 0xF) << lb) | static_cast<uint32_t>((lows >> (s * lb)) & low_mask(lb));
    } else {
      const uint32_t nibbles = decode_nibbles(read_bits(base, pos, kSemiSortCodeBits));
      for (unsigned s = 0; s < 4; ++s)
        e[s] = (((nibbles >> (4 * s)) & 0xF) << lb) |
               static_cast<uint32_t>(read_bits(base, pos + kSemiSortCodeBits + s * lb, lb));
    }
  }

  void encode(uint64_t bucket, uint32_t e[4]) {
    sort4(e);
    const unsigned lb = low_bits();
    uint32_t nibbles = 0;
    for (unsigned s = 0; s < 4; ++s) nibbles |= (e[s] >> lb) << (4 * s);
    uint8_t* base = buffer_.data();
    const uint64_t pos = bucket * bucket_bits();
    if (one_word_bucket()) {
      // Assemble the bucket and write it in one read-modify-write. Five overlapping unaligned
      // writes (code, then each low part) would make each load wait on the store before it.
      uint64_t word = codec_->encode[nibbles];
      for (unsigned s = 0; s < 4; ++s) word |= uint64_t{e[s] & low_mask(lb)} << (kSemiSortCodeBits + s * lb);
      write_bits(base, pos, static_cast<unsigned>(bucket_bits()), word);
      return;
    }
    write_bits(base, pos, kSemiSortCodeBits, codec_->encode[nibbles]);
    for (unsigned s = 0; s < 4; ++s) write_bits(base, pos + kSemiSortCodeBits + s * lb, lb, e[s] & low_mask(lb));
  }

  // A code that validate() would reject cannot be in a table we built or accepted; clamp anyway so a
  // corrupted table can never index outside the decode table.
  uint32_t decode_nibbles(uint64_t code) const {
    return codec_->decode[code < kSemiSortCodes ? code : 0];
  }

  static void sort4(uint32_t e[4]) {
    auto cas = [](uint32_t& a, uint32_t& b) {
      const uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
      a = lo;
      b = hi;
    };
    cas(e[0], e[1]);
    cas(e[2], e[3]);
    cas(e[0], e[2]);
    cas(e[1], e[3]);
    cas(e[1], e[2]);
  }

  unsigned bits_;
  uint64_t bucket_count_;
  size_t table_bytes_;
  AlignedBuffer buffer_;
  const SemiSortCodec* codec_;
  const uint64_t* spread_;
  SemiSortProbeLayout layout_;
  uint64_t lo_fields_;
};

}  // namespace cuckoo::internal
