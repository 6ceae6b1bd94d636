// cuckoo/format.h: the portable binary format (spec: docs/format.md).
//
// CuckooFilter::serialize() writes, and CuckooFilter::deserialize() reads:
//   fixed filter (version 1):   56-byte header | packed table | 8-byte XXH3-64 checksum of everything before it
//   growing filter (version 2): 56-byte header | per level: 32-byte level header, packed table | checksum
// All integers little-endian. The same filter gives the same bytes natively and in WASM.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "cuckoo/export.h"

namespace cuckoo {

inline constexpr uint8_t kFormatMagic[4] = {'C', 'K', 'O', 'O'};
// Fixed filters are version 1, growing filters version 2 (the header is followed by one section per
// level). Bump whenever a header, the table layout or the hashing spec changes: golden tests pin both.
inline constexpr uint8_t kFormatVersion = 1;
inline constexpr uint8_t kGrowingFormatVersion = 2;
inline constexpr size_t kHeaderBytes = 56;
inline constexpr size_t kLevelHeaderBytes = 32;
inline constexpr size_t kChecksumBytes = 8;
inline constexpr size_t kFormatOverhead = kHeaderBytes + kChecksumBytes;

// Thrown by CuckooFilter::deserialize for bytes it will not load. what() names the problem, e.g.
// "cuckoo: truncated input: expected 1080 bytes, got 1000".
class CUCKOO_API FormatError : public std::runtime_error {
 public:
  explicit FormatError(const std::string& message) : std::runtime_error("cuckoo: " + message) {}
  // Defined in format.cpp, so the vtable and type_info live in the library instead of in every user.
  ~FormatError() override;
};

}  // namespace cuckoo
