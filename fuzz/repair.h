// fuzz/repair.h: the repairs both harnesses may apply to an input before reading it (the mode byte's bits 0
// and 1, see deserialize_fuzzer.cpp): without them the checksum stops almost every mutated input at the
// first check, and the item count almost every one that survives it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include <cuckoo/cuckoo.h>

#include "filter_core.h"
#include "hash.h"
#include "level_hasher.h"

namespace fuzz_repair {

inline uint64_t get_le(const uint8_t* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}
inline void put_le(uint8_t* p, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// The entries stored in a table of shape c (level `level` of a filter whose level 0 is `base`), or
// nothing if the bytes are not a valid table.
inline std::optional<uint64_t> stored_entries(const cuckoo::Config& c, const cuckoo::Config& base,
                                              unsigned level, const uint8_t* table) {
  auto core = cuckoo::internal::make_level_core(c, base, level);
  std::memcpy(core->table_data(), table, c.table_bytes());
  if (!core->validate_table(nullptr)) return std::nullopt;
  return core->count_entries();
}

// The shape fields both versions share.
inline cuckoo::Config read_shape(const std::vector<uint8_t>& b) {
  cuckoo::Config c;
  c.bucket_size = b[5];
  c.fingerprint_bits = b[6];
  c.semi_sort = (b[7] & 1) != 0;
  c.max_kicks = static_cast<unsigned>(get_le(&b[8], 4));
  c.seed = get_le(&b[16], 8);
  c.bucket_count = get_le(&b[24], 8);
  c.huge_pages = false;
  return c;
}

// Version 2: each level header's item count becomes its table's entries plus its victim, and the header's
// total their sum. Levels are fixed in order until one does not describe a loadable table.
inline void fix_growing_item_counts(std::vector<uint8_t>& b) {
  cuckoo::Config c = read_shape(b);
  c.growable = true;
  c.max_memory_bytes = get_le(&b[40], 8);
  const uint64_t levels = get_le(&b[12], 4);
  if (!cuckoo::is_valid_config(c) || levels == 0 || levels > cuckoo::internal::level_limit(c)) return;
  size_t at = cuckoo::kHeaderBytes;
  uint64_t total = 0;
  for (unsigned s = 0; s < levels; ++s) {
    const cuckoo::Config level = cuckoo::internal::level_config(c, s);
    if (!cuckoo::is_valid_config(level)) return;
    const uint64_t section = cuckoo::kLevelHeaderBytes + level.table_bytes();
    if (b.size() < cuckoo::kChecksumBytes || section > b.size() - cuckoo::kChecksumBytes - at) return;
    const std::optional<uint64_t> entries = stored_entries(level, c, s, &b[at + cuckoo::kLevelHeaderBytes]);
    if (!entries) return;
    const uint64_t items = *entries + (get_le(&b[at + 28], 4) & 1);
    put_le(&b[at], items, 8);
    total += items;
    at += section;
  }
  put_le(&b[32], total, 8);
}

// Sets the item counts to what the tables hold, reading the header as the spec says (docs/format.md);
// leaves the bytes alone where they do not describe a loadable table.
inline void fix_item_count(std::vector<uint8_t>& b) {
  if (b.size() < cuckoo::kFormatOverhead) return;
  if (b[4] == cuckoo::kGrowingFormatVersion) return fix_growing_item_counts(b);
  const cuckoo::Config c = read_shape(b);
  if (!cuckoo::is_valid_config(c) || b.size() != cuckoo::kFormatOverhead + c.table_bytes()) return;
  const std::optional<uint64_t> entries = stored_entries(c, c, 0, &b[cuckoo::kHeaderBytes]);
  if (entries) put_le(&b[32], *entries + ((b[7] & 2) ? 1 : 0), 8);
}

inline void reseal(std::vector<uint8_t>& b) {
  if (b.size() < cuckoo::kChecksumBytes) return;
  const size_t body = b.size() - cuckoo::kChecksumBytes;
  put_le(&b[body], XXH3_64bits(b.data(), body), 8);
}

}  // namespace fuzz_repair
