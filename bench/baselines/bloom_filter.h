// bench/baselines/bloom_filter.h: the paper's "BF" baseline, a space-optimised standard Bloom filter.
//
// Design (paper section 7, Bloom [3], Kirsch-Mitzenmacher [16]):
// - m bits in 64-bit words, k bit positions per key, k = round(ln 2 * m / n) for the design capacity n,
//   the k that minimises the false-positive rate (1 - e^(-kn/m))^k.
// - k positions from two hashes, g_i = h1 + i * h2 (i = 0..k-1), as the paper does. Both come from the
//   one 64-bit key hash: h1 = h and h2 = rotl(h, 32). A position is range(g_i, m), the multiply-high of
//   g_i by m, which reads g_i's top bits: those are h_hi + i * h_lo (mod 2^32, plus a carry), i.e. exactly
//   the paper's "high 32 bits and low 32 bits as the two hashes", widened to 64 bits so m can exceed
//   2^32 without the positions losing range. No modulo on the per-key path.
// - contains() stops at the first 0 bit, so negative lookups usually touch one or two cache lines
//   (the behaviour the paper's Figures 5 and 6 show for BF).
//
// Sizing for Table 3 (for_memory): the paper's BF row is 13.00 bits per item with k = 9 ("nine hash
// functions, which minimizes the false positive rate with thirteen bits per item"; 192 MB -> 123.89 M
// items). So design_capacity = m / 13, and k = round(ln 2 * 13) = 9. Expected eps = (1 - e^(-9/13))^9
// = 0.19%, the paper's figure. Bloom filters never fill: insert always returns true and the driver
// inserts design_capacity() items (fills_to_failure() is false).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "baselines/baseline_common.h"

namespace bench::baselines {

class BloomFilter {
 public:
  static constexpr const char* kName = "BF";
  static constexpr bool kCanErase = false;
  // The paper's Table 3 setting: 13 bits per item (-> k = 9).
  static constexpr double kBitsPerItem = 13.0;

  // Uses table_bytes rounded down to whole 64-bit words, designed for m / 13 items.
  static BloomFilter for_memory(size_t table_bytes, uint64_t seed) {
    const uint64_t bits = table_bytes / 8 * 64;
    return BloomFilter(bits, static_cast<size_t>(static_cast<double>(bits) / kBitsPerItem), seed);
  }

  // m = bits (rounded up to a multiple of 64) and the k optimal for `capacity` items.
  BloomFilter(uint64_t bits, size_t capacity, uint64_t seed)
      : words_((bits + 63) / 64),
        bits_(words_ * 64),
        capacity_(capacity),
        k_(optimal_k(bits_, capacity)),
        seed_(seed),
        table_(words_ * 8, /*huge_pages=*/true) {
    if (bits == 0) throw std::invalid_argument("BloomFilter: bits must be > 0");
  }

  bool insert(uint64_t key) {
    const uint64_t h = bench::hash_key(key, seed_);
    const uint64_t step = rotl64(h, 32);
    uint64_t g = h;
    uint64_t* words = this->words();
    for (unsigned i = 0; i < k_; ++i, g += step) {
      const uint64_t pos = range(g, bits_);
      words[pos >> 6] |= uint64_t{1} << (pos & 63);
    }
    return true;
  }

  bool contains(uint64_t key) const { return contains_hash(bench::hash_key(key, seed_)); }

  bool erase(uint64_t) { return false; }  // not supported (kCanErase is false)

  void contains_many(const uint64_t* keys, size_t n, uint8_t* out) const {
    contains_many_prefetched(*this, keys, n, out);
  }

  size_t design_capacity() const { return capacity_; }
  bool fills_to_failure() const { return false; }
  size_t memory_bytes() const { return words_ * 8; }

  uint64_t bit_count() const { return bits_; }
  unsigned hash_count() const { return k_; }

  // The per-hash halves of contains(), public for contains_many_prefetched().
  uint64_t seed() const { return seed_; }
  void prefetch_hash(uint64_t h) const {
    const uint64_t step = rotl64(h, 32);
    uint64_t g = h;
    for (unsigned i = 0; i < k_; ++i, g += step) prefetch_read(words() + (range(g, bits_) >> 6));
  }
  bool contains_hash(uint64_t h) const {
    const uint64_t step = rotl64(h, 32);
    uint64_t g = h;
    const uint64_t* words = this->words();
    for (unsigned i = 0; i < k_; ++i, g += step) {
      const uint64_t pos = range(g, bits_);
      if ((words[pos >> 6] & (uint64_t{1} << (pos & 63))) == 0) return false;
    }
    return true;
  }

 private:
  uint64_t* words() { return reinterpret_cast<uint64_t*>(table_.data()); }
  const uint64_t* words() const { return reinterpret_cast<const uint64_t*>(table_.data()); }

  uint64_t words_;
  uint64_t bits_;
  size_t capacity_;
  unsigned k_;
  uint64_t seed_;
  AlignedBuffer table_;
};

}  // namespace bench::baselines
