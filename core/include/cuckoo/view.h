// cuckoo/view.h: cuckoo::FilterView, a read-only filter over serialized bytes (docs/format.md), read in
// place: from a file mapped into memory, or from bytes the caller keeps (shared memory, a section of a
// larger file, a network buffer). Included by cuckoo/cuckoo.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "cuckoo/export.h"
#include "cuckoo/internal/inline_table.h"
#include "cuckoo/internal/key_traits.h"
#include "cuckoo/options.h"

namespace cuckoo {

namespace internal {
class FilterCore;
class MappedFile;
struct CoreAccess;
}  // namespace internal

struct ViewOptions {
  // Verify the checksum on open, which reads every byte (a view opens without reading its table). Also
  // available later as FilterView::verify_checksum().
  bool verify_checksum = false;
};

// A filter opened from serialized bytes without copying its table: opening reads the header and runs the
// structural checks, not the table, so it costs about the same for any size, and the table's pages are
// read when lookups touch them. A file is mapped read-only and shared, so processes that open the same
// file share one copy of it in memory (the page cache).
//
// It answers contains, count, contains_many and the read-only properties exactly as the filter that
// CuckooFilter::deserialize loads from the same bytes. Opening checks what deserialize checks except
// what needs the whole table: the checksum (unless ViewOptions::verify_checksum), the table contents and
// the item count against the stored entries (docs/format.md, "Views"); bad structure throws the same
// cuckoo::FormatError as deserialize. Bytes that pass those checks but are corrupt give wrong answers,
// never a read outside the bytes: call verify_checksum() when the bytes may be damaged.
//
// Keys are taken as by CuckooFilter (cuckoo/filter.h). All member functions are const and may run from
// many threads at once. While a view is alive, the bytes must stay readable and unchanged: for from_bytes
// the caller keeps them; a mapped file must not be truncated (reading a page past its new end raises
// SIGBUS) and should be replaced by rename rather than rewritten in place (as the CLI writes filters).
class CUCKOO_API FilterView {
 public:
  // Maps the file at `path`. Throws std::system_error if it cannot be opened or mapped, and
  // cuckoo::FormatError (cuckoo/format.h) for bytes that are not a filter.
  static FilterView open(const std::string& path, const ViewOptions& options = {});
  // Views `size` bytes at `data`, exactly one serialized filter, at any alignment. They are not copied:
  // they must outlive the view and its moved-to successors. Throws cuckoo::FormatError.
  static FilterView from_bytes(const void* data, size_t size, const ViewOptions& options = {});

  FilterView(FilterView&& other) noexcept;
  FilterView& operator=(FilterView&& other) noexcept;
  FilterView(const FilterView&) = delete;
  FilterView& operator=(const FilterView&) = delete;
  ~FilterView();

  // Throws cuckoo::FormatError("checksum mismatch: the bytes are corrupted") unless the checksum matches.
  // Reads every byte once.
  void verify_checksum() const;

  bool contains(std::string_view key) const;
  CUCKOO_INLINE_ALWAYS bool contains(uint64_t key) const {
#if CUCKOO_INLINE_LOOKUP
    return internal::inline_contains(*inline_table_, key, [this](uint64_t k) { return contains_in_core(k); });
#else
    return contains_in_core(key);
#endif
  }
  bool contains(const void* data, size_t size) const;
  template <typename Bytes, typename = internal::IfByteRange<Bytes>>
  bool contains(const Bytes& key) const { return contains(std::data(key), std::size(key)); }
  template <typename NotAKey, typename = internal::IfNotAKey<NotAKey>>
  bool contains(NotAKey key) const = delete;

  size_t count(std::string_view key) const;
  size_t count(uint64_t key) const;
  size_t count(const void* data, size_t size) const;
  template <typename Bytes, typename = internal::IfByteRange<Bytes>>
  size_t count(const Bytes& key) const { return count(std::data(key), std::size(key)); }
  template <typename NotAKey, typename = internal::IfNotAKey<NotAKey>>
  size_t count(NotAKey key) const = delete;

  void contains_many(const uint64_t* keys, size_t n, uint8_t* out) const;
  void contains_many(const std::string_view* keys, size_t n, uint8_t* out) const;

  uint64_t hash(std::string_view key) const;
  uint64_t hash(uint64_t key) const;
  uint64_t hash(const void* data, size_t size) const;

  // As CuckooFilter's.
  uint64_t size() const;
  uint64_t bucket_count() const;
  uint64_t slot_count() const;
  bool is_full() const;
  unsigned levels() const;
  double false_positive_bound() const;
  double load_factor() const;
  double bits_per_item() const;
  const Config& config() const;

  // The serialized bytes the view reads (a mapped file's mapping).
  const uint8_t* data() const { return data_; }
  size_t serialized_size() const { return size_; }

 private:
  // Tests reach the implementation through internal::CoreAccess (core/src/core_access.h).
  friend struct internal::CoreAccess;
  FilterView(std::unique_ptr<internal::FilterCore> core, std::unique_ptr<internal::MappedFile> file,
             const uint8_t* data, size_t size);

  // The library's side of contains(uint64_t), for keys the inline code does not answer. Pure, as
  // CuckooFilter's.
  CUCKOO_PURE bool contains_in_core(uint64_t key) const;

  std::unique_ptr<internal::FilterCore> core_;
  // The core's InlineTable (cuckoo/internal/inline_table.h), for lookups only; kept with core_ by moves.
  const internal::InlineTable* inline_table_ = nullptr;
  std::unique_ptr<internal::MappedFile> file_;  // null for from_bytes
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace cuckoo
