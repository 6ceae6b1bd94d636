// core/src/aligned_buffer.h: zeroed, 64-byte aligned memory for the tables, with a huge-page hint.
//
// Large tables are probed at random, so every lookup is a TLB miss on 4 KiB pages. On Linux with
// transparent huge pages in "madvise" mode, mmap + madvise(MADV_HUGEPAGE) lets the kernel back the table
// with 2 MiB pages; bench/ measures the difference. Elsewhere (WASM, other OSes) it is calloc-like.
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

 private:
  void release();
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t reserved_ = 0;
  bool mapped_ = false;
};

}  // namespace cuckoo::internal
