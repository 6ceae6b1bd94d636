// tools/format_speed.cpp: how long serialize() and deserialize() take for a filter of 1M items.
//
// A measurement, not a test: timings on a shared machine are noisy, so nothing here passes or fails.
// Usage: format_speed [items (default 1000000)] [repetitions (default 20)]
// Prints the best and median time of each step for the common configurations.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuckoo/cuckoo.h>

namespace {

using Clock = std::chrono::steady_clock;

struct Stats {
  double best_ms, median_ms;
};

template <typename F>
Stats time_it(int reps, F&& f) {
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms.front(), ms[ms.size() / 2]};
}

void measure(const char* name, cuckoo::Options o, uint64_t items, int reps) {
  o.capacity = items;
  cuckoo::CuckooFilter filter(o);
  std::vector<uint64_t> keys(items);
  for (uint64_t i = 0; i < items; ++i) keys[i] = i * 0x9E3779B97F4A7C15ull;
  if (filter.insert_many(keys.data(), keys.size()) != items) {
    std::fprintf(stderr, "%s: could not insert %llu items\n", name, static_cast<unsigned long long>(items));
    std::exit(1);
  }
  std::vector<uint8_t> bytes(filter.serialized_size());
  // serialize_to into a preallocated buffer: the format's own cost; serialize() adds one allocation.
  const Stats ser = time_it(reps, [&] { filter.serialize_to(bytes.data()); });
  const Stats ser_vec = time_it(reps, [&] { volatile size_t n = filter.serialize().size(); (void)n; });
  const Stats de = time_it(reps, [&] {
    cuckoo::CuckooFilter g = cuckoo::CuckooFilter::deserialize(bytes.data(), bytes.size());
    if (g.size() != items) std::abort();
  });
  std::printf(
      "%-18s %9.2f MB  serialize_to %6.2f ms (median %6.2f)  serialize %6.2f ms (median %6.2f)  "
      "deserialize %6.2f ms (median %6.2f)\n",
      name, bytes.size() / 1e6, ser.best_ms, ser.median_ms, ser_vec.best_ms, ser_vec.median_ms, de.best_ms,
      de.median_ms);
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t items = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 20;
  std::printf("%llu items, best of %d\n", static_cast<unsigned long long>(items), reps);
  cuckoo::Options o;
  o.fingerprint_bits = 12;
  measure("b=4 f=12", o, items, reps);
  o.fingerprint_bits = 16;
  measure("b=4 f=16", o, items, reps);
  o.fingerprint_bits = 13;
  o.semi_sort = true;
  measure("b=4 f=13 semi", o, items, reps);
  o.semi_sort = false;
  o.bucket_size = 2;
  o.fingerprint_bits = 8;
  measure("b=2 f=8", o, items, reps);
  o.bucket_size = 8;
  o.fingerprint_bits = 7;
  measure("b=8 f=7", o, items, reps);
  return 0;
}
