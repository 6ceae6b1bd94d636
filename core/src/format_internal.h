// core/src/format_internal.h: the pieces of the binary format (docs/format.md) that every reader and writer
// shares: CuckooFilter::deserialize / serialize_to (format.cpp), FilterView (view.cpp), the incremental
// FilterLoader / FilterWriter (stream.cpp). Each check throws cuckoo::FormatError with docs/format.md's
// message, so a filter read whole or in pieces is refused with the same words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuckoo/filter.h"
#include "cuckoo/format.h"
#include "cuckoo/options.h"
#include "filter_core.h"

namespace cuckoo::internal::format {

uint32_t get_u32(const uint8_t* p);
uint64_t get_u64(const uint8_t* p);
void put_u32(uint8_t* p, uint32_t v);
void put_u64(uint8_t* p, uint64_t v);

// What a header announces, once checks 3-6 (and version 2's level count and reserved field) passed.
struct Layout {
  uint8_t version = 0;      // kFormatVersion or kGrowingFormatVersion
  uint8_t flags = 0;        // the header's flags byte
  Config config;            // version 1: the table's; version 2: level 0's shape, growable, max_memory_bytes
  unsigned levels = 1;      // tables stored: 1 for version 1
  uint64_t body_bytes = 0;  // bytes before the checksum
  uint64_t items = 0;       // the header's item count (version 2: of every level)

  uint64_t total_bytes() const { return body_bytes + kChecksumBytes; }
  bool growing() const { return version == kGrowingFormatVersion; }
  // Shape of table s (version 2: internal::level_config).
  Config table_config(unsigned s) const;
  // Offset of table s's first byte in the serialized bytes.
  uint64_t table_offset(unsigned s) const;
};

// Checks 3-6 of docs/format.md on the kHeaderBytes bytes at header (the caller checked step 2).
Layout read_layout(const uint8_t* header);

// Step 2, for an input of `size` bytes: throws when it is shorter than a header and a checksum.
void check_minimum_size(uint64_t size);
// Step 7: throws unless size == expected.
void check_length(uint64_t size, uint64_t expected);
[[noreturn]] void throw_checksum_mismatch();

// A table's state besides its entries, as stored in a version 1 header or a version 2 level header.
struct TableState {
  uint64_t items = 0;
  Victim victim;
  uint64_t rng_state = 0;
};
TableState read_fixed_state(const uint8_t* header);
// Reads a version 2 level header; throws on unknown level flags (message prefixed with `where`).
TableState read_level_state(const uint8_t* level_header, const std::string& where);

// Step 8 on the whole input (layout.total_bytes() of them).
void check_checksum(const uint8_t* in, const Layout& layout);

// A zeroed core for table s of the layout, for its bytes to be copied or read into; or, with `borrowed`,
// a core that reads table s in place there (a FilterView's: make_core in filter_core.h). Every table in the
// format is followed by at least kChecksumBytes more bytes of the input (the checksum, or the next level's
// header), which covers the kTablePadding bytes past its end that a probe may read (bits.h).
std::unique_ptr<FilterCore> make_table(const Layout& layout, unsigned s, bool huge_pages,
                                       const uint8_t* borrowed = nullptr);
// Checks 9-13 on a core whose table bytes are in place, then restores its state. `where` prefixes each
// message ("" or "level 3: "). `entries`: the table's nonzero entries if the caller counted them (as the
// bytes arrived), else null, and they are counted here.
void check_table(FilterCore& core, const Layout& layout, const TableState& state, const std::string& where,
                 const uint64_t* entries = nullptr);
// What a view checks (docs/format.md, "Views"): checks 9, 10 and 13, which read the state and the victim's
// two buckets, not the whole table; then restores the state.
void check_table_structure(FilterCore& core, const Layout& layout, const TableState& state,
                           const std::string& where);
// The cores of every table of a whole input whose layout is read, oldest level first, each checked and its
// state restored from the header (version 1) or its level header (version 2): with `in_place`, cores that
// read the tables where they lie in `in`, checked as a view is (check_table_structure); else cores of their
// own (`huge_pages`) with the tables copied in, checked fully (check_table).
std::vector<std::unique_ptr<FilterCore>> read_tables(const uint8_t* in, const Layout& layout, bool huge_pages,
                                                     bool in_place);
// The filter from its checked cores, oldest level first; for version 2, first checks that the levels' item
// counts add up to the header's and that the tables fit max_memory_bytes.
CuckooFilter assemble(const Layout& layout, std::vector<std::unique_ptr<FilterCore>> cores, bool huge_pages);
// The same, as the core behind the filter.
std::unique_ptr<FilterCore> assemble_core(const Layout& layout, std::vector<std::unique_ptr<FilterCore>> cores,
                                          bool huge_pages);

// Writes the kHeaderBytes header of a filter.
void write_header(const FilterCore& core, uint8_t* out);
// Writes the kLevelHeaderBytes header of one level of a growing filter.
void write_level_header(const FilterCore& level, uint8_t* out);

}  // namespace cuckoo::internal::format
