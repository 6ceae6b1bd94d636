// core/src/format.cpp: serialize / deserialize (spec: docs/format.md).
//
// Version 1 (a fixed filter), little-endian, 56-byte header:
//   0  magic "CKOO"        4  version (1)        5  bucket_size       6  fingerprint_bits
//   7  flags (bit 0 semi_sort, bit 1 victim used; others 0)          8  max_kicks (u32)
//   12 victim fingerprint (u32)   16 seed (u64)   24 bucket_count (u64)   32 item count (u64)
//   40 victim bucket index (u64)  48 kick RNG state (u64)
// then the table's bit stream (bits.h), then XXH3_64bits (seed 0) of everything before it as a u64.
//
// Version 2 (a growing filter): the same 56-byte header where the fields are level 0's shape, except
//   7  flags (bit 0 semi_sort only)   12 level count (u32)   32 item count of all levels
//   40 max_memory_bytes (u64)         48 reserved, 0
// then for each level s, oldest first, a 32-byte level header
//   0 item count (u64)   8 victim bucket index (u64)   16 kick RNG state (u64)
//   24 victim fingerprint (u32)   28 level flags (u32: bit 0 victim used)
// and the level's table (level_config(config, s): n0 * 2^s buckets of f0 + level_extra_bits(s) bits), then
// the checksum of everything before it.
//
// deserialize checks, in order, before allocating or trusting anything: length >= 64, magic, version,
// flags, configuration ranges (and the level count), exact length, checksum; then per table: victim
// fields, item count <= slots, the table contents (semi-sort codes, padding bits), that the item count
// equals the stored entries, and that a victim's buckets are full; for version 2, that the level counts
// add up to the total (docs/format.md lists each check with its message).
#include "cuckoo/format.h"

#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "bits.h"
#include "core_access.h"
#include "cuckoo/filter.h"
#include "filter_core.h"
#include "format_internal.h"
#include "growing_core.h"
#include "hash.h"
#include "level_hasher.h"

namespace cuckoo {

FormatError::~FormatError() = default;

namespace internal::format {

namespace {

constexpr uint8_t kFlagSemiSort = 1;
constexpr uint8_t kFlagVictim = 2;

// Version 2's size for a header already checked by is_valid_config: the sum of the level sections, or 0 if
// it would exceed what a size_t can hold.
uint64_t growing_body_bytes(const Config& c, unsigned levels) {
  uint64_t total = kHeaderBytes;
  for (unsigned s = 0; s < levels; ++s) {
    const Config level = level_config(c, s);
    if (!is_valid_config(level)) return 0;
    total += kLevelHeaderBytes + level.table_bytes();
    if (total > std::numeric_limits<size_t>::max() / 2) return 0;
  }
  return total;
}

// The header fields both versions share.
Config read_shape(const uint8_t* in, bool semi_sort) {
  Config c;
  c.bucket_size = in[5];
  c.fingerprint_bits = in[6];
  c.semi_sort = semi_sort;
  c.max_kicks = get_u32(in + 8);
  c.seed = get_u64(in + 16);
  c.bucket_count = get_u64(in + 24);
  return c;
}

void write_shape(uint8_t* out, uint8_t version, const Config& c, uint8_t flags) {
  std::memcpy(out, kFormatMagic, 4);
  out[4] = version;
  out[5] = static_cast<uint8_t>(c.bucket_size);
  out[6] = static_cast<uint8_t>(c.fingerprint_bits);
  out[7] = flags;
  put_u32(out + 8, c.max_kicks);
  put_u64(out + 16, c.seed);
  put_u64(out + 24, c.bucket_count);
}

Layout read_growing_layout(const uint8_t* in) {
  Layout layout;
  layout.version = kGrowingFormatVersion;
  const uint8_t flags = layout.flags = in[7];
  if ((flags & ~kFlagSemiSort) != 0)
    throw FormatError("unknown flag bits in flags byte " + std::to_string(flags) + " (version 2 has only bit 0)");
  Config& c = layout.config = read_shape(in, (flags & kFlagSemiSort) != 0);
  c.growable = true;
  c.max_memory_bytes = get_u64(in + 40);
  std::string why;
  if (!is_valid_config(c, &why)) throw FormatError("invalid header: " + why);
  const uint32_t levels = get_u32(in + 12);
  const unsigned limit = level_limit(c);
  if (levels == 0 || levels > limit)
    throw FormatError("invalid header: level count " + std::to_string(levels) + " (this shape allows 1.." +
                      std::to_string(limit) + ")");
  if (get_u64(in + 48) != 0) throw FormatError("invalid header: reserved field is not zero");
  layout.levels = levels;
  layout.items = get_u64(in + 32);
  layout.body_bytes = growing_body_bytes(c, levels);
  if (layout.body_bytes == 0)
    throw FormatError("invalid header: " + std::to_string(levels) + " levels of this shape exceed " +
                      "the address space");
  return layout;
}

}  // namespace

void put_u32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
void put_u64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
uint32_t get_u32(const uint8_t* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t{p[i]} << (8 * i);
  return v;
}
uint64_t get_u64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}

Config Layout::table_config(unsigned s) const { return growing() ? level_config(config, s) : config; }

uint64_t Layout::table_offset(unsigned s) const {
  uint64_t at = kHeaderBytes;
  if (!growing()) return at;
  for (unsigned k = 0; k < s; ++k) at += kLevelHeaderBytes + level_config(config, k).table_bytes();
  return at + kLevelHeaderBytes;
}

Layout read_layout(const uint8_t* in) {
  if (std::memcmp(in, kFormatMagic, 4) != 0) throw FormatError("bad magic: not a cuckoo filter");
  if (in[4] == kGrowingFormatVersion) return read_growing_layout(in);
  if (in[4] != kFormatVersion)
    throw FormatError("unsupported format version " + std::to_string(in[4]) + " (this build reads versions " +
                      std::to_string(kFormatVersion) + " and " + std::to_string(kGrowingFormatVersion) + ")");
  Layout layout;
  layout.version = kFormatVersion;
  const uint8_t flags = layout.flags = in[7];
  if ((flags & ~(kFlagSemiSort | kFlagVictim)) != 0)
    throw FormatError("unknown flag bits in flags byte " + std::to_string(flags));
  layout.config = read_shape(in, (flags & kFlagSemiSort) != 0);
  std::string why;
  if (!is_valid_config(layout.config, &why)) throw FormatError("invalid header: " + why);
  layout.body_bytes = kHeaderBytes + layout.config.table_bytes();
  layout.items = get_u64(in + 32);
  return layout;
}

void check_minimum_size(uint64_t size) {
  if (size < kFormatOverhead)
    throw FormatError("truncated input: " + std::to_string(size) + " bytes is shorter than the " +
                      std::to_string(kFormatOverhead) + "-byte header and checksum");
}

void check_length(uint64_t size, uint64_t expected) {
  if (size < expected)
    throw FormatError("truncated input: expected " + std::to_string(expected) + " bytes, got " +
                      std::to_string(size));
  if (size > expected)
    throw FormatError("trailing bytes: expected " + std::to_string(expected) + " bytes, got " +
                      std::to_string(size));
}

void throw_checksum_mismatch() { throw FormatError("checksum mismatch: the bytes are corrupted"); }

void check_checksum(const uint8_t* in, const Layout& layout) {
  if (hash_bytes(in, layout.body_bytes, 0) != get_u64(in + layout.body_bytes)) throw_checksum_mismatch();
}

TableState read_fixed_state(const uint8_t* in) {
  TableState state;
  state.items = get_u64(in + 32);
  state.victim.used = (in[7] & kFlagVictim) != 0;
  state.victim.fingerprint = get_u32(in + 12);
  state.victim.index = get_u64(in + 40);
  state.rng_state = get_u64(in + 48);
  return state;
}

TableState read_level_state(const uint8_t* at, const std::string& where) {
  const uint32_t level_flags = get_u32(at + 28);
  if ((level_flags & ~1u) != 0)
    throw FormatError(where + "unknown flag bits in level flags " + std::to_string(level_flags));
  TableState state;
  state.items = get_u64(at);
  state.victim.used = (level_flags & 1u) != 0;
  state.victim.index = get_u64(at + 8);
  state.rng_state = get_u64(at + 16);
  state.victim.fingerprint = get_u32(at + 24);
  return state;
}

std::unique_ptr<FilterCore> make_table(const Layout& layout, unsigned s, bool huge_pages, const uint8_t* borrowed) {
  Config c = layout.table_config(s);
  c.huge_pages = huge_pages;
  return make_level_core(c, layout.config, s, borrowed);
}

namespace {

// In a growing filter's level s, a key's fingerprint is its level-0 fingerprint (1 or more) followed by
// d_s bits, so it is at least 2^d_s. A smaller one is no key's, and a merge, which coarsens entries into
// older levels, would turn it into an empty entry that it counts as an item.
uint32_t least_fingerprint(const FilterCore& core, const Layout& layout) {
  return uint32_t{1} << (core.config().fingerprint_bits - layout.config.fingerprint_bits);
}

// Checks 9-10: the victim fields, and the item count against the slots.
void check_state(const FilterCore& core, const Layout& layout, const TableState& state, const std::string& where) {
  const Config& c = core.config();
  const internal::Victim& victim = state.victim;
  const uint32_t least = least_fingerprint(core, layout);
  if (victim.used) {
    if (victim.fingerprint < least || victim.fingerprint > low_mask(c.fingerprint_bits))
      throw FormatError(where + "invalid victim fingerprint");
    if (victim.index >= c.bucket_count) throw FormatError(where + "victim bucket index out of range");
  } else if (victim.fingerprint != 0 || victim.index != 0) {
    throw FormatError(where + "victim fields set without the victim flag");
  }
  if (state.items > c.slot_count() + (victim.used ? 1 : 0))
    throw FormatError(where + "item count " + std::to_string(state.items) + " exceeds the " +
                      std::to_string(c.slot_count()) + " slots");
}

// Checks 11-12, which scan the whole table: its contents, and its entries against the item count.
void check_contents(const FilterCore& core, const Layout& layout, const TableState& state, const std::string& where,
                    const uint64_t* entries) {
  const Config& c = core.config();
  const internal::Victim& victim = state.victim;
  const uint32_t least = least_fingerprint(core, layout);
  std::string why;
  if (!core.validate_table(&why)) throw FormatError(where + "invalid table: " + why);
  if (least > 1) {
    uint32_t entries[8];
    for (uint64_t bucket = 0; bucket < c.bucket_count; ++bucket) {
      core.read_bucket(bucket, entries);
      for (unsigned k = 0; k < c.bucket_size; ++k)
        if (entries[k] != 0 && entries[k] < least)
          throw FormatError(where + "a fingerprint that no key has in this level");
    }
  }
  // The item count is redundant (stored entries + the victim) but every operation trusts it: a count
  // that disagrees with the table would make size() and load_factor() lie and erase() wrap it below zero.
  const uint64_t stored = (entries != nullptr ? *entries : core.count_entries()) + (victim.used ? 1 : 0);
  if (state.items != stored)
    throw FormatError(where + "item count " + std::to_string(state.items) + " does not match the " +
                      std::to_string(stored) + " fingerprints stored");
}

// Check 13: a parked victim's two buckets are full.
void check_victim_home(const FilterCore& core, const TableState& state, const std::string& where) {
  const internal::Victim& victim = state.victim;
  // An insert parks a victim only when both of its buckets are full, and every later erase first tries to
  // move it home, so a file with room in one of them did not come from a filter (a consistency check: a
  // real filter can still be full while nearly empty, docs/format.md).
  if (victim.used && (core.has_empty_entry(victim.index) ||
                      core.has_empty_entry(core.alt_index(victim.index, victim.fingerprint))))
    throw FormatError(where + "victim parked although one of its buckets has an empty entry");
}

}  // namespace

void check_table(FilterCore& core, const Layout& layout, const TableState& state, const std::string& where,
                 const uint64_t* entries) {
  check_state(core, layout, state, where);
  check_contents(core, layout, state, where, entries);
  check_victim_home(core, state, where);
  core.restore_state(state.items, state.victim, state.rng_state);
}

void check_table_structure(FilterCore& core, const Layout& layout, const TableState& state,
                           const std::string& where) {
  check_state(core, layout, state, where);
  check_victim_home(core, state, where);
  core.restore_state(state.items, state.victim, state.rng_state);
}

CuckooFilter assemble(const Layout& layout, std::vector<std::unique_ptr<FilterCore>> cores, bool huge_pages) {
  return CoreAccess::wrap(assemble_core(layout, std::move(cores), huge_pages));
}

std::unique_ptr<FilterCore> assemble_core(const Layout& layout, std::vector<std::unique_ptr<FilterCore>> cores,
                                          bool huge_pages) {
  if (!layout.growing()) return std::move(cores.front());
  uint64_t items = 0;
  uint64_t table_bytes = 0;
  for (const auto& core : cores) {
    items += core->size();
    table_bytes += core->table_bytes();
  }
  if (items != layout.items)
    throw FormatError("item count " + std::to_string(layout.items) + " does not match the levels' " +
                      std::to_string(items));
  Config c = layout.config;
  if (c.max_memory_bytes != 0 && table_bytes > c.max_memory_bytes)
    throw FormatError("the levels' tables take " + std::to_string(table_bytes) +
                      " bytes, more than max_memory_bytes " + std::to_string(c.max_memory_bytes));
  c.huge_pages = huge_pages;
  return std::make_unique<GrowingCore>(c, std::move(cores));
}

void write_header(const FilterCore& core, uint8_t* out) {
  const Config& c = core.config();
  if (c.growable) {
    write_shape(out, kGrowingFormatVersion, c, c.semi_sort ? kFlagSemiSort : 0);
    put_u32(out + 12, core.level_count());
    put_u64(out + 32, core.size());
    put_u64(out + 40, c.max_memory_bytes);
    put_u64(out + 48, 0);
    return;
  }
  const Victim& v = core.victim();
  write_shape(out, kFormatVersion, c,
              static_cast<uint8_t>((c.semi_sort ? kFlagSemiSort : 0) | (v.used ? kFlagVictim : 0)));
  put_u32(out + 12, v.used ? v.fingerprint : 0);
  put_u64(out + 32, core.size());
  put_u64(out + 40, v.used ? v.index : 0);
  put_u64(out + 48, core.rng_state());
}

void write_level_header(const FilterCore& level, uint8_t* out) {
  const Victim& v = level.victim();
  put_u64(out, level.size());
  put_u64(out + 8, v.used ? v.index : 0);
  put_u64(out + 16, level.rng_state());
  put_u32(out + 24, v.used ? v.fingerprint : 0);
  put_u32(out + 28, v.used ? 1 : 0);
}

std::vector<std::unique_ptr<FilterCore>> read_tables(const uint8_t* in, const Layout& layout, bool huge_pages,
                                                     bool in_place) {
  std::vector<std::unique_ptr<FilterCore>> cores;
  for (unsigned s = 0; s < layout.levels; ++s) {
    const uint8_t* table = in + layout.table_offset(s);
    const std::string where = layout.growing() ? "level " + std::to_string(s) + ": " : "";
    const TableState state =
        layout.growing() ? read_level_state(table - kLevelHeaderBytes, where) : read_fixed_state(in);
    if (in_place) {
      auto core = make_table(layout, s, huge_pages, table);
      check_table_structure(*core, layout, state, where);
      cores.push_back(std::move(core));
    } else {
      auto core = make_table(layout, s, huge_pages);
      std::memcpy(core->table_data(), table, core->table_bytes());
      check_table(*core, layout, state, where);
      cores.push_back(std::move(core));
    }
  }
  return cores;
}

}  // namespace internal::format

namespace {

using namespace internal::format;

// XXH3_64bits, computed as XXH3_64bits_withSeed with seed 0 (xxHash defines them equal) so that it shares
// the key hash's code.
uint64_t checksum(const uint8_t* data, size_t size) { return internal::hash_bytes(data, size, 0); }

const internal::GrowingCore& growing(const internal::FilterCore& core) {
  return static_cast<const internal::GrowingCore&>(core);
}

}  // namespace

size_t CuckooFilter::serialized_size() const {
  const size_t level_headers = core_->config().growable ? core_->level_count() * kLevelHeaderBytes : 0;
  return kFormatOverhead + level_headers + core_->table_bytes();
}

void CuckooFilter::serialize_to(uint8_t* out) const {
  write_header(*core_, out);
  uint8_t* at = out + kHeaderBytes;
  const unsigned levels = core_->level_count();
  for (unsigned s = 0; s < levels; ++s) {
    const internal::FilterCore& table = core_->config().growable ? growing(*core_).level(s) : *core_;
    if (core_->config().growable) {
      write_level_header(table, at);
      at += kLevelHeaderBytes;
    }
    std::memcpy(at, table.table_data(), table.table_bytes());
    at += table.table_bytes();
  }
  put_u64(at, checksum(out, static_cast<size_t>(at - out)));
}

std::vector<uint8_t> CuckooFilter::serialize() const {
  std::vector<uint8_t> bytes(serialized_size());
  serialize_to(bytes.data());
  return bytes;
}

CuckooFilter CuckooFilter::deserialize(const void* data, size_t size, bool huge_pages) {
  const auto* in = static_cast<const uint8_t*>(data);
  if (in == nullptr && size != 0) throw FormatError("null input");
  check_minimum_size(size);
  const Layout layout = read_layout(in);
  check_length(size, layout.total_bytes());
  check_checksum(in, layout);

  auto cores = read_tables(in, layout, huge_pages, /*in_place=*/false);
  return assemble(layout, std::move(cores), huge_pages);
}

}  // namespace cuckoo
