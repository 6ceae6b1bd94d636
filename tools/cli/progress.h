// tools/cli/progress.h: a progress line on stderr for long builds.
//
// Shown only when stderr is a terminal (never in logs or pipes) and not silenced with --quiet:
//   "  12.6 M keys   5.8 M keys/s   [=========>          ]  48%"   (the bar when the input size is known)
// redrawn at most 10 times a second, and erased when done.
#pragma once

#include <chrono>
#include <cstdint>

namespace cuckoo_cli {

class Progress {
 public:
  // total_bytes: the input size for the bar, or 0 if unknown.
  Progress(bool wanted, uint64_t total_bytes);
  ~Progress() { finish(); }
  void update(uint64_t keys, uint64_t bytes);
  void finish();

 private:
  bool enabled_;
  uint64_t total_bytes_;
  std::chrono::steady_clock::time_point start_, last_;
  bool drawn_ = false;
};

}  // namespace cuckoo_cli
