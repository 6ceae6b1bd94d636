// core/src/field_count.h: counting the nonzero fields of a bit stream (bits.h's layout): the entries of a
// plain table, which loading checks against the header's item count.
#pragma once

#include <cstdint>
#include <cstring>

#include "bits.h"

namespace cuckoo::internal {

// The number of nonzero fields among fields [first, end) of width w (1..32) in the bit stream at stream.
// Reads bytes [first * w / 8, ceil(end * w / 8) + 8): like read_bits, up to 8 bytes past the last field's
// byte, whose bits it ignores (tables keep kTablePadding bytes there).
//
// SWAR, g = 57 / w fields per unaligned 64-bit load: a field x is nonzero iff its top bit is set or its
// low w - 1 bits plus all ones in them carry into the top bit, ((x & low) + low) | x; the sums stay inside
// their fields, so every field is tested exactly, and a popcount of the top bits counts them.
inline uint64_t count_nonzero_fields(const uint8_t* stream, uint64_t first, uint64_t end, unsigned w) {
  const unsigned g = 57 / w;
  uint64_t top = 0;
  for (unsigned k = 0; k < g; ++k) top |= uint64_t{1} << (k * w + w - 1);
  const uint64_t field = w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  uint64_t low = 0;
  for (unsigned k = 0; k < g; ++k) low |= (field >> 1) << (k * w);
  uint64_t n = 0;
  uint64_t k = first;
  for (; k + g <= end; k += g) {
    const uint64_t pos = k * w;
    uint64_t word;
    std::memcpy(&word, stream + pos / 8, sizeof word);
    word >>= pos % 8;
    n += static_cast<uint64_t>(__builtin_popcountll((((word & low) + low) | word) & top));
  }
  for (; k < end; ++k) {
    const uint64_t pos = k * w;
    uint64_t word;
    std::memcpy(&word, stream + pos / 8, sizeof word);
    n += ((word >> (pos % 8)) & field) != 0;
  }
  return n;
}

}  // namespace cuckoo::internal
