// core/src/field_count.h: counting the nonzero fields of a bit stream (bits.h's layout): the entries of a
// plain table, which loading checks against the header's item count.
#pragma once

#include <cstdint>
#include <cstring>

#include "bits.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace cuckoo::internal {

// The number of nonzero fields among fields [first, end) of width w (1..32), one at a time.
inline uint64_t count_nonzero_fields_one_by_one(const uint8_t* stream, uint64_t first, uint64_t end, unsigned w) {
  const uint64_t field = (uint64_t{1} << w) - 1;
  uint64_t n = 0;
  for (uint64_t k = first; k < end; ++k) {
    const uint64_t pos = k * w;
    uint64_t word;
    std::memcpy(&word, stream + pos / 8, sizeof word);
    n += ((word >> (pos % 8)) & field) != 0;
  }
  return n;
}

// SWAR, g = 57 / w fields per unaligned 64-bit load: a field x is nonzero iff its top bit is set or its
// low w - 1 bits plus all ones in them carry into the top bit, ((x & low) + low) | x; the sums stay inside
// their fields, so every field is tested exactly, and the marks (the top bits) are then counted.
//
// Counting the marks: a popcount where the CPU has one. Without it (x86-64's baseline has none, and
// __builtin_popcountll is then a library call) and for w >= 4, a multiply: with the marks moved down to
// bit 0 of their fields, times a 1 at bit 0 of each of the g fields, field g - 1 of the product sums all g
// marks, and no field below it carries (field m holds at most m + 1 <= g - 1 < 2^w).
inline uint64_t count_nonzero_fields_swar(const uint8_t* stream, uint64_t first, uint64_t end, unsigned w) {
  const unsigned g = 57 / w;
  uint64_t top = 0;
  uint64_t ones = 0;
  for (unsigned k = 0; k < g; ++k) {
    top |= uint64_t{1} << (k * w + w - 1);
    ones |= uint64_t{1} << (k * w);
  }
  const uint64_t field = (uint64_t{1} << w) - 1;
  uint64_t low = 0;
  for (unsigned k = 0; k < g; ++k) low |= (field >> 1) << (k * w);
#if defined(__POPCNT__) || defined(__wasm__) || defined(__aarch64__)
  const bool multiply = false;
#else
  const bool multiply = w >= 4;
#endif
  const unsigned sum_at = (g - 1) * w;
  uint64_t n = 0;
  uint64_t k = first;
  for (; k + g <= end; k += g) {
    const uint64_t pos = k * w;
    uint64_t word;
    std::memcpy(&word, stream + pos / 8, sizeof word);
    word >>= pos % 8;
    const uint64_t marks = (((word & low) + low) | word) & top;
    n += multiply ? ((marks >> (w - 1)) * ones >> sum_at) & field : static_cast<uint64_t>(__builtin_popcountll(marks));
  }
  return n + count_nonzero_fields_one_by_one(stream, k, end, w);
}

#if defined(__wasm_simd128__)
// WebAssembly SIMD: 8 fields of w bits take exactly w bytes, so every group of 8 fields that starts at a
// multiple of 8 has the same byte layout. One byte shuffle puts each field's bytes into a lane of its own
// (16-bit lanes when every field fits one, else 32-bit lanes, two shuffles per group); a mask in place
// keeps the field's bits, and a compare with zero counts the empty ones. Widths whose fields do not all
// fit a 32-bit lane (some over 25 bits) go the SWAR way.
class FieldCountShuffle {
 public:
  // Whether fields of width w fit: in lanes of lane_bytes (2 or 4) bytes.
  static bool fits(unsigned w, unsigned lane_bytes) {
    for (unsigned k = 0; k < 8; ++k)
      if ((k * w) % 8 + w > lane_bytes * 8) return false;
    return true;
  }

  FieldCountShuffle(unsigned w, unsigned lane_bytes) : w_(w), lanes16_(lane_bytes == 2) {
    alignas(16) uint8_t index[2][16] = {};
    alignas(16) uint32_t mask32[2][4] = {};
    alignas(16) uint16_t mask16[8] = {};
    const uint64_t field = (uint64_t{1} << w) - 1;
    for (unsigned k = 0; k < 8; ++k) {
      const unsigned byte = k * w / 8;
      const unsigned shift = k * w % 8;
      if (lanes16_) {
        index[0][2 * k] = static_cast<uint8_t>(byte);
        index[0][2 * k + 1] = static_cast<uint8_t>(byte + 1);
        mask16[k] = static_cast<uint16_t>(field << shift);
      } else {
        const unsigned half = k / 4;  // fields 4..7 come from a second load, at byte second_
        const unsigned base = half == 0 ? 0 : 4 * w / 8;
        for (unsigned b = 0; b < 4; ++b) index[half][4 * (k % 4) + b] = static_cast<uint8_t>(byte - base + b);
        mask32[half][k % 4] = static_cast<uint32_t>(field << shift);
      }
    }
    second_ = lanes16_ ? 0 : 4 * w / 8;
    index_[0] = wasm_v128_load(index[0]);
    index_[1] = wasm_v128_load(index[1]);
    mask_[0] = lanes16_ ? wasm_v128_load(mask16) : wasm_v128_load(mask32[0]);
    mask_[1] = wasm_v128_load(mask32[1]);
  }

  // Bytes read past a group's first byte: the group's loads.
  unsigned read_bytes() const { return second_ + 16; }

  // The number of empty fields in `groups` groups of 8 from the one at byte `at`.
  uint64_t empty_fields(const uint8_t* at, uint64_t groups) const {
    uint64_t n = 0;
    while (groups != 0) {
      // Lanes count to at most 2^15 in 16-bit lanes before they are added up.
      const uint64_t block = groups < (1u << 15) ? groups : (1u << 15);
      const v128_t count = lanes16_ ? empty16(at, block) : empty32(at, block);
      at += block * w_;
      const v128_t wide = wasm_u32x4_extadd_pairwise_u16x8(count);
      n += uint64_t{wasm_u32x4_extract_lane(wide, 0)} + wasm_u32x4_extract_lane(wide, 1) +
           wasm_u32x4_extract_lane(wide, 2) + wasm_u32x4_extract_lane(wide, 3);
      groups -= block;
    }
    return n;
  }

 private:
  // Per 16-bit lane, the empty fields among `groups` (at most 2^15) groups from the one at `at`.
  v128_t empty16(const uint8_t* at, uint64_t groups) const {
    v128_t count = wasm_i16x8_const_splat(0);
    const v128_t zero = wasm_i16x8_const_splat(0);
    for (uint64_t i = 0; i < groups; ++i, at += w_) {
      const v128_t fields = wasm_v128_and(wasm_i8x16_swizzle(wasm_v128_load(at), index_[0]), mask_[0]);
      count = wasm_i16x8_sub(count, wasm_i16x8_eq(fields, zero));
    }
    return count;
  }

  // The same with 32-bit lanes, narrowed to 16 bits: fields 0..3 in the first half, 4..7 in the second.
  v128_t empty32(const uint8_t* at, uint64_t groups) const {
    v128_t count = wasm_i16x8_const_splat(0);
    const v128_t zero = wasm_i32x4_const_splat(0);
    for (uint64_t i = 0; i < groups; ++i, at += w_) {
      const v128_t lo = wasm_v128_and(wasm_i8x16_swizzle(wasm_v128_load(at), index_[0]), mask_[0]);
      const v128_t hi = wasm_v128_and(wasm_i8x16_swizzle(wasm_v128_load(at + second_), index_[1]), mask_[1]);
      count = wasm_i16x8_sub(count, wasm_i16x8_narrow_i32x4(wasm_i32x4_eq(lo, zero), wasm_i32x4_eq(hi, zero)));
    }
    return count;
  }

  unsigned w_;
  bool lanes16_;
  unsigned second_ = 0;
  v128_t index_[2];
  v128_t mask_[2];
};
#endif

// The number of nonzero fields among fields [first, end) of width w (1..32) in the bit stream at stream.
// Reads bytes [first * w / 8, ceil(end * w / 8) + 8): like read_bits, up to 8 bytes past the last field's
// byte, whose bits it ignores (tables keep kTablePadding bytes there).
inline uint64_t count_nonzero_fields(const uint8_t* stream, uint64_t first, uint64_t end, unsigned w) {
#if defined(__wasm_simd128__)
  unsigned lane_bytes = 0;
  if (FieldCountShuffle::fits(w, 4)) lane_bytes = FieldCountShuffle::fits(w, 2) ? 2 : 4;
  if (lane_bytes != 0 && end - first >= 64) {
    // Fields one by one up to a multiple of 8, then groups while their loads stay within the bytes this
    // function may read, then the rest.
    const uint64_t start = (first + 7) / 8 * 8;
    const FieldCountShuffle shuffle(w, lane_bytes);
    const uint64_t readable = (end * w + 7) / 8 + 8;  // bytes from the stream's start
    uint64_t groups = (end - start) / 8;
    while (groups != 0 && (start + 8 * (groups - 1)) * w / 8 + shuffle.read_bytes() > readable) --groups;
    const uint64_t stop = start + 8 * groups;
    const uint64_t grouped = 8 * groups - shuffle.empty_fields(stream + start * w / 8, groups);
    return count_nonzero_fields_one_by_one(stream, first, start, w) + grouped +
           count_nonzero_fields_one_by_one(stream, stop, end, w);
  }
#endif
  return count_nonzero_fields_swar(stream, first, end, w);
}

}  // namespace cuckoo::internal
