// bench/timer.h: wall-clock timing for the drivers (std::chrono::steady_clock) and a sink that keeps the
// compiler from deleting lookups whose answers are otherwise unused.
#pragma once

#include <chrono>
#include <cstdint>

namespace bench {

class Timer {
 public:
  Timer() : start_(std::chrono::steady_clock::now()) {}
  void reset() { start_ = std::chrono::steady_clock::now(); }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

// Every timed loop folds its answers into a checksum that is printed at the end of the run, so the
// optimizer cannot drop the work (and a change in the checksum across runs flags a behaviour change).
inline volatile uint64_t g_checksum_sink = 0;
inline void consume(uint64_t value) { g_checksum_sink = g_checksum_sink + value; }

// Millions of operations per second.
inline double mops(uint64_t ops, double seconds) { return seconds > 0 ? ops / seconds / 1e6 : 0.0; }

}  // namespace bench
