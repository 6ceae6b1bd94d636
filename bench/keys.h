// bench/keys.h: the evaluation's keys. Inserted key i is mix(base + 2i) and negative key j is
// mix(base + 2j + 1); mix (the splitmix64 finalizer) is a bijection on 64-bit words, so the two streams are
// disjoint by construction and every key looks uniformly random. Positive queries pick a random index
// below the number inserted, so no key array needs to be kept for a 128 M-item filter.
#pragma once

#include <cstdint>
#include <vector>

namespace bench {

inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class KeyStream {
 public:
  explicit KeyStream(uint64_t seed) : base_(mix64(seed) & ~uint64_t{1}) {}
  uint64_t positive(uint64_t i) const { return mix64(base_ + 2 * i); }
  uint64_t negative(uint64_t j) const { return mix64(base_ + 2 * j + 1); }

 private:
  uint64_t base_;
};

// splitmix64 as a generator: cheap, good enough for choosing queries.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() { return mix64(state_ += 0x9E3779B97F4A7C15ull); }
  uint64_t below(uint64_t n) { return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64); }
  double unit() { return (next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

// n queries, each positive (an inserted key, index < inserted) with probability p, else a fresh negative
// key starting at negative index *next_negative.
inline std::vector<uint64_t> make_queries(const KeyStream& keys, uint64_t inserted, double p, size_t n, Rng& rng,
                                          uint64_t* next_negative) {
  std::vector<uint64_t> queries(n);
  for (auto& q : queries) {
    if (inserted > 0 && rng.unit() < p) q = keys.positive(rng.below(inserted));
    else q = keys.negative((*next_negative)++);
  }
  return queries;
}

}  // namespace bench
