// core/src/insert_if_absent.cpp: CuckooFilter::insert_if_absent and insert_many_if_absent: a lookup, then
// an insert of the keys not found, on one hash per key.
#include <algorithm>
#include <cstdint>
#include <string_view>

#include "cuckoo/filter.h"
#include "filter_core.h"

namespace cuckoo {

namespace {

InsertResult insert_hashed_if_absent(internal::FilterCore& core, uint64_t hash) {
  if (core.contains_hashed(hash)) return InsertResult::kPresent;
  return core.insert_hashed(hash) ? InsertResult::kInserted : InsertResult::kRefused;
}

// Keys go through in blocks: hashed, looked up as a batch (which prefetches), then each key not found is
// looked up again right before its insert, since an earlier key of the same block may have been it.
constexpr size_t kBlock = 256;

template <typename Key>
size_t insert_many_hashed_if_absent(const CuckooFilter& filter, internal::FilterCore& core, const Key* keys,
                                    size_t n) {
  uint64_t hashes[kBlock];
  uint8_t found[kBlock];
  for (size_t done = 0; done < n;) {
    const size_t m = std::min(kBlock, n - done);
    for (size_t i = 0; i < m; ++i) hashes[i] = filter.hash(keys[done + i]);
    core.contains_many_hashed(hashes, m, found);
    for (size_t i = 0; i < m; ++i, ++done) {
      if (found[i] == 0 && insert_hashed_if_absent(core, hashes[i]) == InsertResult::kRefused) return done;
    }
  }
  return n;
}

}  // namespace

InsertResult CuckooFilter::insert_if_absent(std::string_view key) {
  return insert_hashed_if_absent(*core_, hash(key));
}
InsertResult CuckooFilter::insert_if_absent(uint64_t key) { return insert_hashed_if_absent(*core_, hash(key)); }
InsertResult CuckooFilter::insert_if_absent(const void* data, size_t size) {
  return insert_hashed_if_absent(*core_, hash(data, size));
}

size_t CuckooFilter::insert_many_if_absent(const uint64_t* keys, size_t n) {
  return insert_many_hashed_if_absent(*this, *core_, keys, n);
}
size_t CuckooFilter::insert_many_if_absent(const std::string_view* keys, size_t n) {
  return insert_many_hashed_if_absent(*this, *core_, keys, n);
}

}  // namespace cuckoo
