// core/src/mapped_file.h: a whole file mapped read-only and shared (MAP_SHARED), for FilterView::open.
// Processes that map the same file read the same pages of the page cache: one copy in memory for all of
// them. Where there is no mmap, the file is read into memory of its own instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace cuckoo::internal {

class MappedFile {
 public:
  // Throws std::system_error naming the path if the file cannot be opened, read or mapped.
  explicit MappedFile(const std::string& path);
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

  // Asks the kernel to map the file's pages with 2 MiB entries (MADV_HUGEPAGE; a no-op without mmap).
  // Lookups probe at random across the whole table, and on 4 KiB pages nearly every probe is a TLB miss,
  // as for an allocated table (aligned_buffer.h). Where the filesystem keeps large folios in the page
  // cache (ext4 and xfs on recent Linux), pages read in after this hint come in 2 MiB folios, which the
  // mapping then maps whole. Elsewhere it changes nothing.
  void prefer_huge_pages() const;

 private:
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
};

}  // namespace cuckoo::internal
