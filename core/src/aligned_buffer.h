// core/src/aligned_buffer.h: zeroed, 64-byte aligned memory for the tables, with a huge-page hint.
//
// Large tables are probed at random, so every lookup is a TLB miss on 4 KiB pages. On Linux with
// transparent huge pages in "madvise" mode, mmap + madvise(MADV_HUGEPAGE) lets the kernel back the table
// with 2 MiB pages; bench/ measures the difference. Elsewhere (WASM, other OSes) it is calloc-like.
//
// A borrowed buffer (borrow()) owns nothing: it names memory someone else keeps alive, such as the table
// inside a serialized filter that a FilterView (cuckoo/view.h) reads in place. Only const access is meant
// for it; the tables of a view are only ever probed.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuckoo/export.h"

namespace cuckoo::internal {

class CUCKOO_API AlignedBuffer {  // exported for the repo's tests (cuckoo/export.h)
 public:
  AlignedBuffer() = default;
  // Allocates `size` zeroed bytes. Throws std::bad_alloc on failure.
  AlignedBuffer(size_t size, bool huge_pages);
  // `size` bytes at `data`, not owned and never freed or written by this buffer's owner (see above).
  static AlignedBuffer borrow(const uint8_t* data, size_t size);
  // A table's storage: `borrowed` if it is not null, else `size` zeroed bytes of its own.
  static AlignedBuffer own_or_borrow(const uint8_t* borrowed, size_t size, bool huge_pages) {
    return borrowed != nullptr ? borrow(borrowed, size) : AlignedBuffer(size, huge_pages);
  }
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  AlignedBuffer(AlignedBuffer&& other) noexcept;
  AlignedBuffer& operator=(AlignedBuffer&& other) noexcept;
  ~AlignedBuffer();

  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  // Bytes actually reserved (mmap rounds up to pages).
  size_t reserved() const { return reserved_; }
  bool is_mapped() const { return mapped_; }
  bool is_borrowed() const { return borrowed_; }

 private:
  void release();
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t reserved_ = 0;
  bool mapped_ = false;
  bool borrowed_ = false;
};

}  // namespace cuckoo::internal
