#include "aligned_buffer.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#define CUCKOO_HAVE_MMAP 1
#endif

namespace cuckoo::internal {

namespace {
constexpr size_t kAlignment = 64;
constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kPage = 4096;
}  // namespace

AlignedBuffer::AlignedBuffer(size_t size, bool huge_pages) : size_(size) {
#ifdef CUCKOO_HAVE_MMAP
  if (huge_pages && size >= kHugePage) {
    // Round to 4 KiB pages, not 2 MiB: memory stays within a page of the table size, and the kernel
    // still backs every 2 MiB-aligned stretch inside the mapping with a huge page.
    const size_t rounded = (size + kPage - 1) / kPage * kPage;
    void* p = mmap(nullptr, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    madvise(p, rounded, MADV_HUGEPAGE);  // a hint: failure just means 4 KiB pages
    data_ = static_cast<uint8_t*>(p);    // mmap memory is zeroed
    reserved_ = rounded;
    mapped_ = true;
    return;
  }
#else
  (void)huge_pages;
#endif
  const size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
  void* p = std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded);
  if (p == nullptr) throw std::bad_alloc();
  std::memset(p, 0, rounded);
  data_ = static_cast<uint8_t*>(p);
  reserved_ = rounded;
}

AlignedBuffer::AlignedBuffer(AlignedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      reserved_(std::exchange(other.reserved_, 0)),
      mapped_(std::exchange(other.mapped_, false)) {}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    reserved_ = std::exchange(other.reserved_, 0);
    mapped_ = std::exchange(other.mapped_, false);
  }
  return *this;
}

AlignedBuffer::~AlignedBuffer() { release(); }

void AlignedBuffer::release() {
  if (data_ == nullptr) return;
#ifdef CUCKOO_HAVE_MMAP
  if (mapped_) {
    munmap(data_, reserved_);
    data_ = nullptr;
    return;
  }
#endif
  std::free(data_);
  data_ = nullptr;
}

}  // namespace cuckoo::internal
