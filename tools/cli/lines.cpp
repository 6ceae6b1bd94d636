// tools/cli/lines.cpp: see lines.h.
#include "lines.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace cuckoo_cli {

namespace {

constexpr size_t kBlock = size_t{4} << 20;

void take(const char* begin, const char* end, std::vector<std::string_view>& out) {
  if (end > begin && end[-1] == '\r') --end;
  if (end > begin) out.emplace_back(begin, static_cast<size_t>(end - begin));
}

std::runtime_error failure(const char* what, const std::string& name) {
  return std::runtime_error(name + ": " + what + ": " + std::strerror(errno));
}

}  // namespace

size_t split_lines(const char* data, size_t n, bool at_end, std::vector<std::string_view>& out) {
  const char* p = data;
  const char* const end = data + n;
  while (p < end) {
    const auto* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    if (nl == nullptr) break;
    take(p, nl, out);
    p = nl + 1;
  }
  if (at_end && p < end) {
    take(p, end, out);
    p = end;
  }
  return static_cast<size_t>(p - data);
}

uint64_t LineReader::total_bytes() const {
  uint64_t total = 0;
  for (const std::string& path : paths_) {
    struct stat st;
    const int rc = path == "-" ? fstat(STDIN_FILENO, &st) : stat(path.c_str(), &st);
    if (rc != 0 || !S_ISREG(st.st_mode)) return 0;
    total += static_cast<uint64_t>(st.st_size);
  }
  return total;
}

void LineReader::read(const Batch& batch) {
  for (const std::string& path : paths_) {
    if (path == "-") {
      read_file(STDIN_FILENO, "standard input", batch);
      continue;
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw failure("cannot open", path);
    try {
      read_file(fd, path, batch);
    } catch (...) {
      ::close(fd);
      throw;
    }
    ::close(fd);
  }
}

// The buffer holds an incomplete line carried over from the last block, then the next block. A line
// longer than the buffer grows it.
void LineReader::read_file(int fd, const std::string& name, const Batch& batch) {
  std::vector<char> buffer(kBlock);
  std::vector<std::string_view> keys;
  size_t carried = 0;
  for (;;) {
    if (buffer.size() - carried < kBlock / 2) buffer.resize(buffer.size() * 2);
    const ssize_t got = ::read(fd, buffer.data() + carried, buffer.size() - carried);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw failure("cannot read", name);
    }
    bytes_read_ += static_cast<uint64_t>(got);
    const bool at_end = got == 0;
    const size_t n = carried + static_cast<size_t>(got);
    keys.clear();
    const size_t used = split_lines(buffer.data(), n, at_end, keys);
    if (!keys.empty()) batch(keys);
    if (at_end) return;
    carried = n - used;
    std::memmove(buffer.data(), buffer.data() + used, carried);
  }
}

}  // namespace cuckoo_cli
