#include "aligned_buffer.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#define CUCKOO_HAVE_MMAP 1
#endif

#if defined(__EMSCRIPTEN__) && defined(CUCKOO_WASM_FRESH_HEAP_IS_ZERO)
#include <unistd.h>
#endif

namespace cuckoo::internal {

namespace {
constexpr size_t kAlignment = 64;
constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kPage = 4096;
#ifdef __EMSCRIPTEN__
constexpr size_t kMaxWasmTable = size_t{1} << 31;
#endif
}  // namespace

AlignedBuffer::AlignedBuffer(size_t size, bool huge_pages) : size_(size) {
#ifdef CUCKOO_HAVE_MMAP
  if (huge_pages && size >= kHugePage) {
    // Round to 4 KiB pages, not 2 MiB: memory stays within a page of the table size. But start on a
    // 2 MiB boundary (map 2 MiB more, unmap the unaligned head and the tail): the kernel backs only
    // aligned 2 MiB stretches with huge pages, and an unaligned 2.1 MiB table would get none. That
    // matters where page faults are slow (bench/README.md, "Figures behind the core's design choices").
    const size_t rounded = (size + kPage - 1) / kPage * kPage;
    const size_t span = rounded + kHugePage;
    void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    const uintptr_t raw_start = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t start = (raw_start + kHugePage - 1) / kHugePage * kHugePage;
    const size_t head = start - raw_start;
    const size_t tail = span - head - rounded;
    if (head != 0) munmap(raw, head);
    if (tail != 0) munmap(reinterpret_cast<void*>(start + rounded), tail);
    void* p = reinterpret_cast<void*>(start);
    madvise(p, rounded, MADV_HUGEPAGE);  // a hint: failure just means 4 KiB pages
    data_ = static_cast<uint8_t*>(p);    // mmap memory is zeroed
    reserved_ = rounded;
    mapped_ = true;
    return;
  }
#else
  (void)huge_pages;
#endif
#ifdef __EMSCRIPTEN__
  // In WebAssembly a table is one block under 2 GiB, whichever malloc the module links (dlmalloc refuses
  // larger blocks on wasm32, emmalloc does not): the limit wasm/factory.cpp's out-of-memory messages state.
  if (size >= kMaxWasmTable) throw std::bad_alloc();
#endif
  const size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
#if defined(__EMSCRIPTEN__) && defined(CUCKOO_WASM_FRESH_HEAP_IS_ZERO)
  // Memory at or past the heap's break has never been written: WebAssembly memory starts and grows
  // zeroed, and the module's malloc (dlmalloc, which cannot trim) never moves the break back. So only the
  // part of the block below the old break needs zeroing; a large table is mostly or wholly past it, and
  // its pages are first touched by whatever fills them (a load's reads) rather than by a memset.
  const uintptr_t fresh = reinterpret_cast<uintptr_t>(sbrk(0));
  void* p = std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded);
  if (p == nullptr) throw std::bad_alloc();
  const uintptr_t start = reinterpret_cast<uintptr_t>(p);
  if (start < fresh) std::memset(p, 0, std::min<uintptr_t>(rounded, fresh - start));
#else
  void* p = std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded);
  if (p == nullptr) throw std::bad_alloc();
  std::memset(p, 0, rounded);
#endif
  data_ = static_cast<uint8_t*>(p);
  reserved_ = rounded;
}

AlignedBuffer AlignedBuffer::borrow(const uint8_t* data, size_t size) {
  AlignedBuffer buffer;
  buffer.data_ = const_cast<uint8_t*>(data);  // never written: see the header
  buffer.size_ = size;
  buffer.borrowed_ = true;
  return buffer;
}

AlignedBuffer::AlignedBuffer(AlignedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      reserved_(std::exchange(other.reserved_, 0)),
      mapped_(std::exchange(other.mapped_, false)),
      borrowed_(std::exchange(other.borrowed_, false)) {}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    reserved_ = std::exchange(other.reserved_, 0);
    mapped_ = std::exchange(other.mapped_, false);
    borrowed_ = std::exchange(other.borrowed_, false);
  }
  return *this;
}

AlignedBuffer::~AlignedBuffer() { release(); }

void AlignedBuffer::release() {
  if (data_ == nullptr || borrowed_) return;
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
