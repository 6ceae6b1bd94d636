// bench/load_sim.cpp: see load_sim.h.
#include "load_sim.h"

#include <utility>
#include <vector>

#include "hash.h"  // core/src/hash.h: the frozen key -> (bucket, fingerprint) spec
#include "keys.h"

namespace bench {

double simulate_load_at_first_failure(uint64_t bucket_count, unsigned bucket_size, unsigned fingerprint_bits,
                                      uint64_t seed, unsigned max_kicks) {
  const cuckoo::internal::BucketHasher hasher(bucket_count, fingerprint_bits);
  std::vector<uint32_t> slots(bucket_count * bucket_size, 0);  // 0 = empty; fingerprints are >= 1
  auto try_put = [&](uint64_t bucket, uint32_t fp) {
    uint32_t* row = &slots[bucket * bucket_size];
    for (unsigned s = 0; s < bucket_size; ++s) {
      if (row[s] == 0) {
        row[s] = fp;
        return true;
      }
    }
    return false;
  };
  const KeyStream keys(seed);
  Rng rng(seed ^ 0x5EED);
  uint64_t stored = 0;
  for (uint64_t i = 0;; ++i) {
    const uint64_t h = cuckoo::internal::hash_u64(keys.positive(i), seed);
    const uint64_t i1 = hasher.index(h);
    uint32_t fp = hasher.fingerprint(h);
    const uint64_t i2 = hasher.alt_index(i1, fp);
    if (try_put(i1, fp) || try_put(i2, fp)) {
      ++stored;
      continue;
    }
    uint64_t bucket = (rng.next() & 1) ? i1 : i2;
    bool placed = false;
    for (unsigned kick = 0; kick < max_kicks && !placed; ++kick) {
      std::swap(fp, slots[bucket * bucket_size + rng.below(bucket_size)]);
      bucket = hasher.alt_index(bucket, fp);
      placed = try_put(bucket, fp);
    }
    if (!placed) return static_cast<double>(stored) / slots.size();  // the paper's "first failure"
    ++stored;
  }
}

}  // namespace bench
