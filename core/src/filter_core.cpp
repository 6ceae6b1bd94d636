// core/src/filter_core.cpp: FilterCore's batches over keys, for the cores that do not fuse them (see
// filter_core.h): hash a block of keys, then hand the block to the *_hashed batch.
#include "filter_core.h"

namespace cuckoo::internal {

namespace {

// Keys hashed per block; the *_hashed batch prefetches within it.
constexpr size_t kBlock = 256;

template <typename HashOf>
size_t insert_blocks(FilterCore& core, size_t n, HashOf hash_of) {
  uint64_t hashes[kBlock];
  for (size_t start = 0; start < n; start += kBlock) {
    const size_t m = n - start < kBlock ? n - start : kBlock;
    for (size_t j = 0; j < m; ++j) hashes[j] = hash_of(start + j);
    const size_t stored = core.insert_many_hashed(hashes, m);
    if (stored < m) return start + stored;
  }
  return n;
}

template <typename HashOf>
void contains_blocks(const FilterCore& core, size_t n, uint8_t* out, HashOf hash_of) {
  uint64_t hashes[kBlock];
  for (size_t start = 0; start < n; start += kBlock) {
    const size_t m = n - start < kBlock ? n - start : kBlock;
    for (size_t j = 0; j < m; ++j) hashes[j] = hash_of(start + j);
    core.contains_many_hashed(hashes, m, out + start);
  }
}

}  // namespace

size_t FilterCore::insert_many(const uint64_t* keys, size_t n) {
  return insert_blocks(*this, n, [&](size_t i) { return hash_u64_(keys[i]); });
}
size_t FilterCore::insert_many(const std::string_view* keys, size_t n) {
  return insert_blocks(*this, n, [&](size_t i) { return hash_bytes(keys[i].data(), keys[i].size(), config_.seed); });
}
void FilterCore::contains_many(const uint64_t* keys, size_t n, uint8_t* out) const {
  contains_blocks(*this, n, out, [&](size_t i) { return hash_u64_(keys[i]); });
}
void FilterCore::contains_many(const std::string_view* keys, size_t n, uint8_t* out) const {
  contains_blocks(*this, n, out, [&](size_t i) { return hash_bytes(keys[i].data(), keys[i].size(), config_.seed); });
}

}  // namespace cuckoo::internal
