// core/src/mapped_file.cpp: see mapped_file.h.
#include "mapped_file.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <system_error>

#if (defined(__unix__) || defined(__APPLE__)) && !defined(__EMSCRIPTEN__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define CUCKOO_HAVE_FILE_MMAP 1
#endif

namespace cuckoo::internal {

namespace {
[[noreturn]] void fail(int error, const std::string& what, const std::string& path) {
  throw std::system_error(error, std::generic_category(), "cuckoo: cannot " + what + " " + path);
}
}  // namespace

#ifdef CUCKOO_HAVE_FILE_MMAP

MappedFile::MappedFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(errno, "open", path);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    ::close(fd);
    fail(error, "stat", path);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    fail(S_ISDIR(st.st_mode) ? EISDIR : EINVAL, "map (not a regular file)", path);
  }
  size_ = static_cast<size_t>(st.st_size);
  if (size_ != 0) {
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
      const int error = errno;
      ::close(fd);
      fail(error, "map", path);
    }
    data_ = static_cast<uint8_t*>(p);
    mapped_ = true;
  }
  ::close(fd);  // the mapping keeps the file
}

MappedFile::~MappedFile() {
  if (mapped_) ::munmap(data_, size_);
}

void MappedFile::prefer_huge_pages() const {
#ifdef MADV_HUGEPAGE
  if (mapped_) ::madvise(data_, size_, MADV_HUGEPAGE);  // a hint: failure just means 4 KiB pages
#endif
}

#else

MappedFile::MappedFile(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) fail(errno, "open", path);
  std::fseek(file, 0, SEEK_END);
  const long end = std::ftell(file);
  std::fseek(file, 0, SEEK_SET);
  if (end < 0) {
    std::fclose(file);
    fail(EIO, "read", path);
  }
  size_ = static_cast<size_t>(end);
  data_ = static_cast<uint8_t*>(std::malloc(size_ == 0 ? 1 : size_));
  if (data_ == nullptr || std::fread(data_, 1, size_, file) != size_) {
    std::fclose(file);
    std::free(data_);
    fail(EIO, "read", path);
  }
  std::fclose(file);
}

MappedFile::~MappedFile() { std::free(data_); }
void MappedFile::prefer_huge_pages() const {}

#endif

}  // namespace cuckoo::internal
