// bench/load_sim.h: Figure 2's partial-key cuckoo simulation for any fingerprint width 1..32.
//
// The core only builds filters with 4..32-bit fingerprints, and Figure 2 needs 1..20. This simulation
// maps keys to buckets and fingerprints exactly as the core does, through the core's own spec functions
// (core/src/hash.h: BucketHasher::index, fingerprint and alt_index, which work for any width), with plain
// uint32_t slots and the paper's insert: try both buckets, then a random walk of at most 500 kicks. The
// core's walk also looks two levels ahead before each kick, so it fills further than this (native-tests
// fill-to-failure prints the core's loads); the simulation keeps the paper's algorithm, as Figure 2 does.
#pragma once

#include <cstdint>

namespace bench {

// Inserts distinct random keys into an empty table of bucket_count buckets (even) x bucket_size slots
// until the first insert that fails; returns the load factor reached (items stored / slots).
double simulate_load_at_first_failure(uint64_t bucket_count, unsigned bucket_size, unsigned fingerprint_bits,
                                      uint64_t seed, unsigned max_kicks = 500);

}  // namespace bench
