// tools/cli/atomic_file.cpp: see atomic_file.h.
#include "atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace cuckoo_cli {

namespace {

constexpr size_t kTempStemBytes = 200;

std::runtime_error failure(const std::string& what, const std::string& path) {
  return std::runtime_error(path + ": " + what + ": " + std::strerror(errno));
}

// The temporary file being written, for the signal handler (unlink() is async-signal-safe).
char g_temp_path[4096] = "";

extern "C" void remove_temp_and_exit(int sig) {
  if (g_temp_path[0] != '\0') ::unlink(g_temp_path);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

class SignalGuard {
 public:
  explicit SignalGuard(const std::string& temp) {
    std::snprintf(g_temp_path, sizeof g_temp_path, "%s", temp.c_str());
    for (int sig : kSignals) previous_[index(sig)] = std::signal(sig, remove_temp_and_exit);
  }
  ~SignalGuard() {
    for (int sig : kSignals) std::signal(sig, previous_[index(sig)]);
    g_temp_path[0] = '\0';
  }
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;

 private:
  static constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};
  static int index(int sig) { return sig == SIGINT ? 0 : sig == SIGTERM ? 1
                                                                        : 2; }
  void (*previous_[3])(int) = {};
};

std::string directory_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

mode_t new_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

// The descriptor a path names, or -1: /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N. Written
// through that descriptor, output lands where the shell sent it (appended after `>>`, followed by what
// the next command writes), where opening the path again would start a new file position, and replacing
// it would replace the file the descriptor is open on.
int descriptor_named(const std::string& path) {
  if (path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    const std::string p = prefix;
    if (path.size() > p.size() && path.compare(0, p.size(), p) == 0 &&
        path.find_first_not_of("0123456789", p.size()) == std::string::npos && path.size() - p.size() < 9)
      return std::stoi(path.substr(p.size()));
  }
  return -1;
}

void write_all(int fd, const uint8_t* data, size_t n, const std::string& path) {
  size_t done = 0;
  while (done < n) {
    const ssize_t put = ::write(fd, data + done, n - done);
    if (put < 0 && errno == EINTR) continue;
    if (put < 0) throw failure("cannot write", path);
    done += static_cast<size_t>(put);
  }
}

// A device, a pipe or a socket cannot be replaced, and need not be: it is written into.
void write_into(const std::string& path, const uint8_t* data, size_t n) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw failure("cannot open", path);
  try {
    write_all(fd, data, n, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) throw failure("cannot write", path);
}

}  // namespace

std::vector<uint8_t> read_file(const std::string& path) {
  const bool stdin_ = path == "-";
  const int fd = stdin_ ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw failure("cannot open", path);
  std::vector<uint8_t> bytes;
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) bytes.reserve(static_cast<size_t>(st.st_size));
  uint8_t block[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, block, sizeof block);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      const std::runtime_error error = failure("cannot read", path);
      if (!stdin_) ::close(fd);
      throw error;
    }
    bytes.insert(bytes.end(), block, block + got);
  }
  if (!stdin_) ::close(fd);
  return bytes;
}

void write_file_atomically(const std::string& path, const uint8_t* data, size_t n) {
  if (const int fd = descriptor_named(path); fd >= 0) {
    write_all(fd, data, n, path);
    return;
  }
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    write_into(path, data, n);
    return;
  }
  // A symbolic link is replaced, never followed: following it would let whoever made the link choose the
  // file overwritten (another user's, through a link in a shared directory), where a rename over the link
  // leaves the file it names alone, and the kernel's rules for shared directories apply to the link.
  const bool regular = ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  // The rename ignores the target's permissions: a file the user may not write is refused, as any other
  // write to it would be.
  if (regular && ::access(path.c_str(), W_OK) != 0) throw failure("cannot write", path);
  const std::string dir = directory_of(path);
  // At most kTempStemBytes of the name, so that the temporary name fits NAME_MAX (255) whatever its length.
  std::string temp = dir + "/." + base_of(path).substr(0, kTempStemBytes) + ".tmp-XXXXXX";
  const mode_t mode = regular ? st.st_mode & 07777 : new_file_mode();
  SignalGuard guard(temp);  // the name is completed below; nothing exists to remove before mkstemp
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) throw failure("cannot create a temporary file in " + dir, path);
  std::snprintf(g_temp_path, sizeof g_temp_path, "%s", temp.c_str());
  auto fail = [&](const char* what) {
    const std::runtime_error error = failure(what, path);
    ::close(fd);
    ::unlink(temp.c_str());
    throw error;
  };
  size_t done = 0;
  while (done < n) {
    const ssize_t put = ::write(fd, data + done, n - done);
    if (put < 0) {
      if (errno == EINTR) continue;
      fail("cannot write");
    }
    done += static_cast<size_t>(put);
  }
  if (::fchmod(fd, mode) != 0) fail("cannot set permissions");
  if (::fsync(fd) != 0) fail("cannot flush to disk");
  if (::close(fd) != 0) {
    const std::runtime_error error = failure("cannot write", path);
    ::unlink(temp.c_str());
    throw error;
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const std::runtime_error error = failure("cannot replace", path);
    ::unlink(temp.c_str());
    throw error;
  }
  // Make the rename itself durable (best effort: some file systems refuse fsync on a directory).
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
}

}  // namespace cuckoo_cli
