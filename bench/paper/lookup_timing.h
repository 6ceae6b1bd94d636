// bench/paper/lookup_timing.h: how every lookup figure is timed. The filter's contains() in a loop of
// independent queries (single-key) or its contains_many() over blocks of kBatch queries (batched); the
// rate is the median of kRepetitions passes, each over its own third of the queries: the machine may be
// shared, and a median shrugs off a pass that another process interrupted.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "timer.h"

namespace bench::paper {

// Figure 5's fractions of positive queries; also the points of the batch and huge-page lookups.
constexpr double kFractions[] = {0.0, 0.25, 0.5, 0.75, 1.0};
constexpr size_t kBatch = 8192;
constexpr int kRepetitions = 3;

template <class Pass>
double median_of_passes(const std::vector<uint64_t>& queries, Pass pass) {
  double rates[kRepetitions];
  const size_t part = queries.size() / kRepetitions;
  for (int r = 0; r < kRepetitions; ++r) {
    Timer timer;
    consume(pass(queries.data() + r * part, part));
    rates[r] = mops(part, timer.seconds());
  }
  std::sort(rates, rates + kRepetitions);
  return rates[kRepetitions / 2];
}

template <class F>
double time_single_lookups(const F& filter, const std::vector<uint64_t>& queries) {
  return median_of_passes(queries, [&](const uint64_t* q, size_t n) {
    uint64_t hits = 0;
    for (size_t i = 0; i < n; ++i) hits += filter.contains(q[i]);
    return hits;
  });
}

template <class F>
double time_batched_lookups(const F& filter, const std::vector<uint64_t>& queries) {
  std::vector<uint8_t> out(kBatch);
  return median_of_passes(queries, [&](const uint64_t* q, size_t count) {
    uint64_t hits = 0;
    for (size_t start = 0; start < count; start += kBatch) {
      const size_t n = std::min(kBatch, count - start);
      filter.contains_many(q + start, n, out.data());
      for (size_t i = 0; i < n; ++i) hits += out[i];
    }
    return hits;
  });
}

}  // namespace bench::paper
