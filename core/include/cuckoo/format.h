// cuckoo/format.h: the portable binary format (spec: docs/format.md).
//
// CuckooFilter::serialize() writes, and CuckooFilter::deserialize() reads:
//   56-byte header | packed table (Config::table_bytes()) | 8-byte XXH3-64 checksum of everything before it
// All integers little-endian. The same filter gives the same bytes natively and in WASM.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "cuckoo/export.h"

namespace cuckoo {

inline constexpr uint8_t kFormatMagic[4] = {'C', 'K', 'O', 'O'};
// Bump whenever the header, the table layout or the hashing spec changes: golden tests pin version 1.
inline constexpr uint8_t kFormatVersion = 1;
inline constexpr size_t kHeaderBytes = 56;
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
