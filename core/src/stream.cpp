// core/src/stream.cpp: FilterWriter and FilterLoader (cuckoo/stream.h). They walk the
// serialized bytes as a list of segments (header, [level header,] table, ..., checksum) and leave every
// field's meaning and every check to format_internal.h, which deserialize() uses too.
#include "cuckoo/stream.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "core_access.h"
#include "field_count.h"
#include "format_internal.h"
#include "growing_core.h"
#include "hash.h"  // xxhash.h, XXH_INLINE_ALL

namespace cuckoo {

namespace {

using namespace internal::format;

enum class Part { kHeader,
                  kLevelHeader,
                  kTable,
                  kChecksum };

struct Segment {
  Part part;
  unsigned table;  // kLevelHeader, kTable: which table
  uint64_t size;
};

// The loader counts a plain table's entries as its bytes arrive, except in the browser's module
// (CUCKOO_COMPACT_SHAPES=2), which leaves the count to finish()'s checks, as deserialize() does: less code.
constexpr bool kCountAsBytesArrive = CUCKOO_COMPACT_SHAPES < 2;

std::vector<Segment> segments_of(const Layout& layout) {
  std::vector<Segment> out{{Part::kHeader, 0, kHeaderBytes}};
  for (unsigned s = 0; s < layout.levels; ++s) {
    if (layout.growing()) out.push_back({Part::kLevelHeader, s, kLevelHeaderBytes});
    out.push_back({Part::kTable, s, layout.table_config(s).table_bytes()});
  }
  out.push_back({Part::kChecksum, 0, kChecksumBytes});
  return out;
}

// The layout of a filter in memory, as a reader of its bytes would see it.
Layout layout_of(const internal::FilterCore& core) {
  uint8_t header[kHeaderBytes];
  write_header(core, header);
  return read_layout(header);
}

}  // namespace

// ---------------------------------------------------------------------------------------------- writer

struct FilterWriter::State {
  XXH3_state_t hash;
  const internal::FilterCore* core = nullptr;
  std::vector<Segment> segments;
  size_t segment = 0;
  uint64_t offset = 0;  // within the segment
  uint64_t position = 0;
  uint64_t size = 0;
  uint8_t buffer[kHeaderBytes];
  // The last piece handed out, hashed at the next call: by then the caller has copied it (to a file, a
  // stream, a buffer), which read it into the CPU's cache, so the checksum reads the table from the cache
  // instead of from memory. The view stays valid until that call.
  Piece unhashed{nullptr, 0};

  void hash_unhashed() {
    if (unhashed.size != 0) XXH3_64bits_update(&hash, unhashed.data, unhashed.size);
    unhashed = {nullptr, 0};
  }

  const internal::FilterCore& table(unsigned s) const {
    if (!core->config().growable) return *core;
    return static_cast<const internal::GrowingCore&>(*core).level(s);
  }
};

FilterWriter::FilterWriter(const CuckooFilter& filter) : state_(std::make_unique<State>()) {
  State& st = *state_;
  st.core = &internal::CoreAccess::core(filter);
  st.segments = segments_of(layout_of(*st.core));
  st.size = filter.serialized_size();
  XXH3_64bits_reset(&st.hash);
}

FilterWriter::FilterWriter(FilterWriter&&) noexcept = default;
FilterWriter& FilterWriter::operator=(FilterWriter&&) noexcept = default;
FilterWriter::~FilterWriter() = default;

uint64_t FilterWriter::size() const { return state_->size; }
uint64_t FilterWriter::position() const { return state_->position; }

FilterWriter::Piece FilterWriter::next(size_t max_bytes) {
  State& st = *state_;
  st.hash_unhashed();
  if (st.segment == st.segments.size() || max_bytes == 0) return {nullptr, 0};
  const Segment& seg = st.segments[st.segment];
  if (st.offset == 0) {  // entering the segment: build what it is made of
    if (seg.part == Part::kHeader) write_header(*st.core, st.buffer);
    if (seg.part == Part::kLevelHeader) write_level_header(st.table(seg.table), st.buffer);
    if (seg.part == Part::kChecksum) put_u64(st.buffer, XXH3_64bits_digest(&st.hash));
  }
  const uint8_t* base = seg.part == Part::kTable ? st.table(seg.table).table_data() : st.buffer;
  const size_t n = static_cast<size_t>(std::min<uint64_t>(max_bytes, seg.size - st.offset));
  const Piece piece{base + st.offset, n};
  if (seg.part != Part::kChecksum) st.unhashed = piece;
  st.offset += n;
  st.position += n;
  if (st.offset == seg.size) {
    ++st.segment;
    st.offset = 0;
  }
  return piece;
}

size_t FilterWriter::read(uint8_t* out, size_t n) {
  size_t done = 0;
  while (done < n) {
    const Piece piece = next(n - done);
    if (piece.size == 0) break;
    std::memcpy(out + done, piece.data, piece.size);
    done += piece.size;
  }
  return done;
}

// ---------------------------------------------------------------------------------------------- loader

struct FilterLoader::State {
  XXH3_state_t hash;
  bool huge_pages = true;
  uint64_t input_size = 0;  // 0: unknown
  // The first kFormatOverhead bytes: every valid input has that many, so the header is read only once
  // they are in, and an input shorter than that is refused with deserialize()'s message for it.
  uint8_t prefix[kFormatOverhead];
  size_t prefix_size = 0;
  bool has_layout = false;
  bool replayed = false;  // the prefix's bytes after the header went where they belong
  Layout layout;
  std::vector<Segment> segments;
  size_t segment = 0;
  uint64_t offset = 0;               // within the segment
  uint8_t small[kLevelHeaderBytes];  // a level header or the checksum as it arrives
  std::vector<std::array<uint8_t, kLevelHeaderBytes>> level_headers;
  uint64_t stored_checksum = 0;
  std::vector<std::unique_ptr<internal::FilterCore>> cores;
  // A plain table's entries, counted as its bytes arrive (while they are in cache): finish() compares
  // them with the item count instead of reading the whole table again. counted: fields counted so far in
  // the current table. Semi-sorted tables are counted by finish() (their entries are not plain fields).
  std::vector<uint64_t> entries;
  uint64_t counted = 0;
  uint64_t received = 0;
  uint64_t trailing = 0;
  std::string error;  // the FormatError that spent the loader, without "cuckoo: "

  bool complete() const { return has_layout && replayed && segment == segments.size(); }

  uint8_t* buffer(size_t* size) {
    if (!has_layout) {
      *size = kFormatOverhead - prefix_size;
      return prefix + prefix_size;
    }
    if (!replayed) {
      replayed = true;
      copy_in(prefix + kHeaderBytes, kFormatOverhead - kHeaderBytes);
    }
    if (complete()) {
      *size = 0;
      return nullptr;
    }
    const Segment& seg = segments[segment];
    *size = static_cast<size_t>(std::min<uint64_t>(seg.size - offset, SIZE_MAX));
    if (seg.part == Part::kTable) {
      if (cores.size() == seg.table) cores.push_back(make_table(layout, seg.table, huge_pages));
      return cores[seg.table]->table_data() + offset;
    }
    return small + offset;
  }

  // n bytes were written at buffer(): hash them and move on.
  void advance(size_t n) {
    if (!has_layout) {
      prefix_size += n;
      if (prefix_size == kFormatOverhead) read_prefix();
      return;
    }
    const Segment& seg = segments[segment];
    const uint8_t* data = seg.part == Part::kTable ? cores[seg.table]->table_data() + offset : small + offset;
    if (seg.part != Part::kChecksum) XXH3_64bits_update(&hash, data, n);
    offset += n;
    if (kCountAsBytesArrive && seg.part == Part::kTable) count_entries(seg.table);
    if (offset < seg.size) return;
    if (seg.part == Part::kLevelHeader)
      std::memcpy(level_headers.emplace_back().data(), small, kLevelHeaderBytes);
    if (seg.part == Part::kChecksum) stored_checksum = get_u64(small);
    ++segment;
    offset = 0;
  }

  // Counts the plain table s's entries whose fields are wholly within its first `offset` bytes.
  void count_entries(unsigned s) {
    const Config c = layout.table_config(s);
    if (c.semi_sort) return;
    if (entries.size() == s) {
      entries.push_back(0);
      counted = 0;
    }
    const uint64_t fields = std::min(c.bucket_count * c.bucket_size, offset * 8 / c.fingerprint_bits);
    entries[s] += internal::count_nonzero_fields(cores[s]->table_data(), counted, fields, c.fingerprint_bits);
    counted = fields;
  }

  // The header is in: check it. The next buffer() passes the bytes after it on to where they belong
  // (allocating the first table), so that reading a header allocates nothing.
  void read_prefix() {
    try {
      layout = read_layout(prefix);
      if (input_size != 0) check_length(input_size, layout.total_bytes());
    } catch (const FormatError& e) {
      spend(e);
    }
    segments = segments_of(layout);
    has_layout = true;
    XXH3_64bits_update(&hash, prefix, kHeaderBytes);
    segment = 1;
  }

  // Copies bytes in as if written at buffer(); returns how many fitted before the end.
  size_t copy_in(const uint8_t* data, size_t size) {
    size_t done = 0;
    while (done < size) {
      size_t room = 0;
      uint8_t* to = buffer(&room);
      if (room == 0) break;
      const size_t n = std::min(room, size - done);
      std::memcpy(to, data + done, n);
      advance(n);
      done += n;
    }
    return done;
  }

  CuckooFilter finish() {
    check_spent();
    try {
      CuckooFilter filter = checked_filter();
      error = "the loader already returned its filter";
      return filter;
    } catch (const FormatError& e) {
      spend(e);
    }
  }

  CuckooFilter checked_filter() {
    if (!has_layout) check_minimum_size(received);
    check_length(received, layout.total_bytes());

    if (XXH3_64bits_digest(&hash) != stored_checksum) throw_checksum_mismatch();
    for (unsigned s = 0; s < layout.levels; ++s) {
      const std::string where = layout.growing() ? "level " + std::to_string(s) + ": " : "";
      const TableState state =
          layout.growing() ? read_level_state(level_headers[s].data(), where) : read_fixed_state(prefix);
      check_table(*cores[s], layout, state, where, s < entries.size() ? &entries[s] : nullptr);
    }
    return assemble(layout, std::move(cores), huge_pages);
  }

  // Throws the FormatError that spent the loader, if one did.
  void check_spent() const {
    if (!error.empty()) throw FormatError(error);
  }

  // Records e, which spends the loader, and throws it.
  [[noreturn]] void spend(const FormatError& e) {
    error = std::string(e.what()).substr(std::char_traits<char>::length("cuckoo: "));
    throw e;
  }
};

FilterLoader::FilterLoader(bool huge_pages, uint64_t input_size) : state_(std::make_unique<State>()) {
  state_->huge_pages = huge_pages;
  state_->input_size = input_size;
  XXH3_64bits_reset(&state_->hash);
}

FilterLoader::FilterLoader(FilterLoader&&) noexcept = default;
FilterLoader& FilterLoader::operator=(FilterLoader&&) noexcept = default;
FilterLoader::~FilterLoader() = default;

uint8_t* FilterLoader::buffer(size_t* size) {
  state_->check_spent();
  return state_->buffer(size);
}

void FilterLoader::commit(size_t n) {
  state_->check_spent();
  state_->received += n;
  state_->advance(n);
}

void FilterLoader::feed(const void* data, size_t size) {
  state_->check_spent();
  const size_t used = state_->copy_in(static_cast<const uint8_t*>(data), size);
  state_->received += size;
  state_->trailing += size - used;
}

bool FilterLoader::complete() const { return state_->complete(); }
uint64_t FilterLoader::expected_size() const { return state_->has_layout ? state_->layout.total_bytes() : 0; }
uint64_t FilterLoader::received() const { return state_->received; }

CuckooFilter FilterLoader::finish() { return state_->finish(); }

}  // namespace cuckoo
