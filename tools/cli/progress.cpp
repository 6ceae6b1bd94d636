// tools/cli/progress.cpp: see progress.h.
#include "progress.h"

#include <unistd.h>

#include <cstdio>
#include <string>

namespace cuckoo_cli {

Progress::Progress(bool wanted, uint64_t total_bytes)
    : enabled_(wanted && ::isatty(STDERR_FILENO) == 1),
      total_bytes_(total_bytes),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void Progress::update(uint64_t keys, uint64_t bytes) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  char line[160];
  int len = std::snprintf(line, sizeof line, "\r  %.1f M keys   %.1f M keys/s", keys / 1e6,
                          seconds > 0 ? keys / seconds / 1e6 : 0.0);
  if (total_bytes_ > 0 && len > 0) {
    const double done = bytes >= total_bytes_ ? 1.0 : static_cast<double>(bytes) / total_bytes_;
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(done * kWidth);
    std::string bar(kWidth, ' ');
    for (int i = 0; i < filled; ++i) bar[i] = '=';
    if (filled < kWidth) bar[filled] = '>';
    std::snprintf(line + len, sizeof line - len, "   [%s] %3d%%", bar.c_str(), static_cast<int>(done * 100));
  }
  std::fputs(line, stderr);
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::finish() {
  if (!drawn_) return;
  std::fputs("\r\033[K", stderr);  // back to the start of the line, erase it
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace cuckoo_cli
