#include "semi_sorted_table.h"

#include <mutex>

namespace cuckoo::internal {

namespace {
SemiSortCodec build_codec() {
  SemiSortCodec codec{};
  unsigned code = 0;
  for (unsigned a = 0; a < 16; ++a)
    for (unsigned b = a; b < 16; ++b)
      for (unsigned c = b; c < 16; ++c)
        for (unsigned d = c; d < 16; ++d) {
          const uint16_t packed = static_cast<uint16_t>(a | b << 4 | c << 8 | d << 12);
          codec.decode[code] = packed;
          codec.encode[packed] = static_cast<uint16_t>(code);
          ++code;
        }
  return codec;
}
}  // namespace

const SemiSortCodec& SemiSortCodec::get() {
  static const SemiSortCodec codec = build_codec();  // thread-safe one-time initialisation
  return codec;
}

const uint64_t* SemiSortCodec::spread_nibbles(unsigned f) {
  static uint64_t tables[16][1 << kSemiSortCodeBits];  // codes >= kSemiSortCodes stay 0: see the header
  static std::once_flag built[16];
  if (f < 4 || f > 15) return nullptr;
  std::call_once(built[f], [f] {
    const SemiSortCodec& codec = get();
    const SemiSortProbeLayout layout = semi_sort_probe_layout(f);
    for (unsigned code = 0; code < kSemiSortCodes; ++code) {
      uint64_t word = 0;
      for (unsigned s = 0; s < 4; ++s)
        word |= uint64_t{(codec.decode[code] >> (4 * s)) & 0xFu} << (s * layout.width + layout.nibble_shift);
      tables[f][code] = word;
    }
  });
  return tables[f];
}

}  // namespace cuckoo::internal
