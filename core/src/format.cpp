// core/src/format.cpp: serialize / deserialize (spec: docs/format.md).
//
// Header, little-endian, 56 bytes:
//   0  magic "CKOO"        4  version (1)        5  bucket_size       6  fingerprint_bits
//   7  flags (bit 0 semi_sort, bit 1 victim used; others 0)          8  max_kicks (u32)
//   12 victim fingerprint (u32)   16 seed (u64)   24 bucket_count (u64)   32 item count (u64)
//   40 victim bucket index (u64)  48 kick RNG state (u64)
// then the table's bit stream (bits.h), then XXH3_64bits (seed 0) of bytes [0, 56 + table) as a u64.
//
// deserialize checks, in order, before allocating or trusting anything: length >= 64, magic, version,
// flags, configuration ranges, exact length, checksum, victim fields, item count <= slots; then the table
// contents (semi-sort codes, padding bits), that the item count equals the stored entries, and that a
// victim's buckets are full (docs/format.md lists each check with its message).
#include "cuckoo/format.h"

#include <cstring>
#include <string>

#include "cuckoo/filter.h"
#include "filter_core.h"
#include "bits.h"
#include "hash.h"

namespace cuckoo {

FormatError::~FormatError() = default;

namespace {

constexpr uint8_t kFlagSemiSort = 1;
constexpr uint8_t kFlagVictim = 2;

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

uint64_t checksum(const uint8_t* data, size_t size) { return XXH3_64bits(data, size); }

}  // namespace

size_t CuckooFilter::serialized_size() const { return kFormatOverhead + core_->config().table_bytes(); }

void CuckooFilter::serialize_to(uint8_t* out) const {
  const Config& c = core_->config();
  const internal::Victim& v = core_->victim();
  std::memcpy(out, kFormatMagic, 4);
  out[4] = kFormatVersion;
  out[5] = static_cast<uint8_t>(c.bucket_size);
  out[6] = static_cast<uint8_t>(c.fingerprint_bits);
  out[7] = static_cast<uint8_t>((c.semi_sort ? kFlagSemiSort : 0) | (v.used ? kFlagVictim : 0));
  put_u32(out + 8, c.max_kicks);
  put_u32(out + 12, v.used ? v.fingerprint : 0);
  put_u64(out + 16, c.seed);
  put_u64(out + 24, c.bucket_count);
  put_u64(out + 32, core_->size());
  put_u64(out + 40, v.used ? v.index : 0);
  put_u64(out + 48, core_->rng_state());
  const size_t table = c.table_bytes();
  std::memcpy(out + kHeaderBytes, core_->table_data(), table);
  put_u64(out + kHeaderBytes + table, checksum(out, kHeaderBytes + table));
}

std::vector<uint8_t> CuckooFilter::serialize() const {
  std::vector<uint8_t> bytes(serialized_size());
  serialize_to(bytes.data());
  return bytes;
}

CuckooFilter CuckooFilter::deserialize(const void* data, size_t size, bool huge_pages) {
  const auto* in = static_cast<const uint8_t*>(data);
  if (in == nullptr && size != 0) throw FormatError("null input");
  if (size < kFormatOverhead)
    throw FormatError("truncated input: " + std::to_string(size) + " bytes is shorter than the " +
                      std::to_string(kFormatOverhead) + "-byte header and checksum");
  if (std::memcmp(in, kFormatMagic, 4) != 0) throw FormatError("bad magic: not a cuckoo filter");
  if (in[4] != kFormatVersion)
    throw FormatError("unsupported format version " + std::to_string(in[4]) + " (this build reads version " +
                      std::to_string(kFormatVersion) + ")");
  const uint8_t flags = in[7];
  if ((flags & ~(kFlagSemiSort | kFlagVictim)) != 0)
    throw FormatError("unknown flag bits in flags byte " + std::to_string(flags));

  Config c;
  c.bucket_size = in[5];
  c.fingerprint_bits = in[6];
  c.semi_sort = (flags & kFlagSemiSort) != 0;
  c.max_kicks = get_u32(in + 8);
  c.seed = get_u64(in + 16);
  c.bucket_count = get_u64(in + 24);
  std::string why;
  if (!is_valid_config(c, &why)) throw FormatError("invalid header: " + why);

  const uint64_t table = c.table_bytes();
  const uint64_t expected = kFormatOverhead + table;
  if (size < expected)
    throw FormatError("truncated input: expected " + std::to_string(expected) + " bytes, got " +
                      std::to_string(size));
  if (size > expected)
    throw FormatError("trailing bytes: expected " + std::to_string(expected) + " bytes, got " +
                      std::to_string(size));
  if (checksum(in, kHeaderBytes + table) != get_u64(in + kHeaderBytes + table))
    throw FormatError("checksum mismatch: the bytes are corrupted");

  internal::Victim victim;
  victim.used = (flags & kFlagVictim) != 0;
  victim.fingerprint = get_u32(in + 12);
  victim.index = get_u64(in + 40);
  if (victim.used) {
    if (victim.fingerprint == 0 || victim.fingerprint > internal::low_mask(c.fingerprint_bits))
      throw FormatError("invalid victim fingerprint");
    if (victim.index >= c.bucket_count) throw FormatError("victim bucket index out of range");
  } else if (victim.fingerprint != 0 || victim.index != 0) {
    throw FormatError("victim fields set without the victim flag");
  }
  const uint64_t items = get_u64(in + 32);
  if (items > c.slot_count() + (victim.used ? 1 : 0))
    throw FormatError("item count " + std::to_string(items) + " exceeds the " + std::to_string(c.slot_count()) +
                      " slots");

  c.huge_pages = huge_pages;
  auto core = internal::make_core(c);
  std::memcpy(core->table_data(), in + kHeaderBytes, table);
  if (!core->validate_table(&why)) throw FormatError("invalid table: " + why);
  // The item count is redundant (stored entries + the victim) but every operation trusts it: a count
  // that disagrees with the table would make size() and load_factor() lie and erase() wrap it below zero.
  const uint64_t stored = core->count_entries() + (victim.used ? 1 : 0);
  if (items != stored)
    throw FormatError("item count " + std::to_string(items) + " does not match the " + std::to_string(stored) +
                      " fingerprints stored");
  // An insert parks a victim only when both of its buckets are full, and every later erase first tries to
  // move it home, so a file with room in one of them did not come from a filter (a consistency check: a
  // real filter can still be full while nearly empty, docs/format.md).
  if (victim.used && (core->has_empty_entry(victim.index) ||
                      core->has_empty_entry(core->hasher().alt_index(victim.index, victim.fingerprint))))
    throw FormatError("victim parked although one of its buckets has an empty entry (a filter parks one only "
                      "when both are full)");
  core->restore_state(items, victim, get_u64(in + 48));
  return CuckooFilter(std::move(core));
}

}  // namespace cuckoo
