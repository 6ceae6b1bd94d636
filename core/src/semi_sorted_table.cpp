#include "semi_sorted_table.h"

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

}  // namespace cuckoo::internal
