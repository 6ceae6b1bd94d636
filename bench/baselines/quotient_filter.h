// bench/baselines/quotient_filter.h: the paper's "QF" baseline, Bender et al.'s quotient filter [2].
//
// What it stores. A key's fingerprint is the pair (quotient fq, remainder fr): fq = range(h, slots) from
// the hash's top bits, fr = the hash's low R bits. The table is a circular array of `slots` slots; slot i
// holds one remainder plus three metadata bits:
//   is_occupied     some stored fingerprint has quotient i (belongs to slot i, never moves)
//   is_continuation the remainder here is not the first of its run
//   is_shifted      the remainder here is not in its canonical slot (its quotient)
// A run is the sorted remainders of one quotient, stored contiguously; runs of increasing quotients
// are stored back to back in a cluster (a maximal stretch starting at an unshifted slot). An empty
// slot has all three bits clear (an occupied slot is never empty: its run would start there).
// Each slot is packed in W = R + 3 bits: bit 0 occupied, bit 1 continuation, bit 2 shifted, remainder above.
//
// Operations (the Bender et al. algorithms, in dependency order):
//   run_start(fq)  walk back to the cluster start (first unshifted slot), then walk forward run by run,
//                  one run per occupied quotient, until reaching fq's run (or where it would start).
//   contains       scan fq's run; it is sorted, so stop at the first remainder > fr.
//   insert         set is_occupied(fq), find the sorted position in fq's run and shift everything from
//                  there to the next empty slot right by one (displaced entries become is_shifted).
//   erase          remove one copy and shift the rest of the cluster left by one, recomputing each moved
//                  entry's is_shifted from its quotient (tracked by walking the is_occupied bits).
// The filter is a multiset of fingerprints: duplicates are stored as repeated remainders, and erase
// removes one, so contains(x) is exactly "some stored fingerprint equals x's" (no false negatives).
// Invariant kept by the load limit: at least one slot is empty, so every walk above terminates.
// Cost: the walks read one slot at a time (Bender et al.'s algorithms as published, like the paper's own
// QF), so every operation pays for the length of its cluster, which grows fast near 90% load (linear
// probing: ~1/(1 - load)^2). That is the QF slowdown the paper's Figures 5-7 show; a rank/select
// metadata layout (Pandey et al.'s CQF) would be a different, later filter.
//
// Sizing for Table 3 (for_memory): the paper's QF has 2^27 entries of 3 metadata bits + a 9-bit
// remainder (12 bits per slot, 192 MB) and a maximum load of 90% (120.80 M items, 13.33 bits/item).
// So R = 9, slots = table bits / 12, design_capacity = floor(0.9 * slots), and insert returns false
// once that many items are stored. Expected eps ~ load / 2^R = 0.9 / 512 = 0.18% (the paper: 0.18%).
// Any slot count works (range() maps the hash onto it), not only powers of two.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <vector>

#include "baselines/baseline_common.h"
#include "bits.h"  // core/src: read_bits/write_bits, the core tables' own bit-stream access

namespace bench::baselines {

template <unsigned RemainderBits>
class BasicQuotientFilter {
  static_assert(RemainderBits >= 1 && RemainderBits <= 32, "a slot must fit one unaligned 64-bit load");

 public:
  static constexpr const char* kName = "QF";
  static constexpr bool kCanErase = true;
  static constexpr unsigned kRemainderBits = RemainderBits;
  static constexpr unsigned kSlotBits = RemainderBits + 3;
  static constexpr double kMaxLoad = 0.9;  // the paper's setting (after Bender et al.'s evaluation)

  static BasicQuotientFilter for_memory(size_t table_bytes, uint64_t seed) {
    return BasicQuotientFilter(uint64_t{table_bytes} * 8 / kSlotBits, seed);
  }

  // `slots` slots (>= 2), holding at most floor(max_load * slots) items (and always one empty slot).
  BasicQuotientFilter(uint64_t slots, uint64_t seed, double max_load = kMaxLoad)
      : slots_(slots),
        max_items_(max_items_for(slots, max_load)),
        seed_(seed),
        table_(table_bytes_for(slots) + 8, /*huge_pages=*/true) {  // +8: every slot is read by one 8-byte load
    if (slots < 2) throw std::invalid_argument("QuotientFilter: need at least 2 slots");
  }

  bool insert(uint64_t key) {
    const uint64_t h = bench::hash_key(key, seed_);
    return insert_fingerprint(quotient(h), remainder(h));
  }
  bool contains(uint64_t key) const { return contains_hash(bench::hash_key(key, seed_)); }
  bool erase(uint64_t key) {
    const uint64_t h = bench::hash_key(key, seed_);
    return erase_fingerprint(quotient(h), remainder(h));
  }
  void contains_many(const uint64_t* keys, size_t n, uint8_t* out) const {
    contains_many_prefetched(*this, keys, n, out);
  }

  size_t design_capacity() const { return max_items_; }
  bool fills_to_failure() const { return false; }
  size_t memory_bytes() const { return table_bytes_for(slots_); }

  uint64_t slot_count() const { return slots_; }
  uint64_t size() const { return count_; }
  double load_factor() const { return static_cast<double>(count_) / static_cast<double>(slots_); }

  // The per-hash halves of contains(), public for contains_many_prefetched().
  uint64_t seed() const { return seed_; }
  void prefetch_hash(uint64_t h) const { prefetch_read(table_.data() + quotient(h) * kSlotBits / 8); }
  bool contains_hash(uint64_t h) const { return contains_fingerprint(quotient(h), remainder(h)); }

  // For tests: key -> (quotient << R | remainder), the value the filter is a multiset of.
  uint64_t fingerprint_of(uint64_t key) const {
    const uint64_t h = bench::hash_key(key, seed_);
    return quotient(h) << RemainderBits | remainder(h);
  }

  // For tests: decodes the whole table into `fingerprints` (quotient << R | remainder, in table order)
  // while checking every structural invariant. Returns false at the first violation.
  bool validate(std::vector<uint64_t>* fingerprints) const {
    fingerprints->clear();
    uint64_t empty = slots_;
    for (uint64_t i = 0; i < slots_; ++i) {
      if (is_empty(slot(i))) {
        empty = i;
        break;
      }
    }
    if (empty == slots_) return false;  // the load limit guarantees an empty slot
    std::deque<uint64_t> pending;       // occupied quotients whose run has not started yet
    uint64_t run_quotient = 0, last_remainder = 0;
    bool in_run = false;
    for (uint64_t step = 1; step <= slots_; ++step) {  // ends on the empty slot it started after
      const uint64_t i = (empty + step) % slots_;
      const uint64_t v = slot(i);
      if (v & kOccupied) pending.push_back(i);
      if (is_empty(v)) {
        if (!pending.empty() || (v >> 3) != 0) return false;
        in_run = false;
        continue;
      }
      const uint64_t r = v >> 3;
      if (!(v & kContinuation)) {  // a run starts: it belongs to the oldest pending quotient
        if (pending.empty()) return false;
        run_quotient = pending.front();
        pending.pop_front();
      } else if (!in_run || r < last_remainder) {
        return false;  // a continuation must follow its run, in sorted order
      }
      if (((v & kShifted) != 0) != (i != run_quotient)) return false;
      in_run = true;
      last_remainder = r;
      fingerprints->push_back(run_quotient << RemainderBits | r);
    }
    return fingerprints->size() == count_;
  }

 private:
  static constexpr uint64_t kOccupied = 1, kContinuation = 2, kShifted = 4;

  static uint64_t max_items_for(uint64_t slots, double max_load) {
    const uint64_t m = static_cast<uint64_t>(max_load * static_cast<double>(slots));
    return m >= slots ? slots - 1 : m;  // keep one slot empty whatever the load limit
  }
  static size_t table_bytes_for(uint64_t slots) { return static_cast<size_t>((slots * kSlotBits + 7) / 8); }

  uint64_t quotient(uint64_t h) const { return range(h, slots_); }
  static uint64_t remainder(uint64_t h) { return h & ((uint64_t{1} << RemainderBits) - 1); }

  static bool is_empty(uint64_t v) { return (v & 7) == 0; }
  uint64_t next(uint64_t i) const { return i + 1 == slots_ ? 0 : i + 1; }
  uint64_t prev(uint64_t i) const { return i == 0 ? slots_ - 1 : i - 1; }

  // Slot i lives at bit i * W; one unaligned 8-byte load covers it (W + 7 <= 64).
  uint64_t slot(uint64_t i) const { return cuckoo::internal::read_bits(table_.data(), i * kSlotBits, kSlotBits); }
  void set_slot(uint64_t i, uint64_t v) { cuckoo::internal::write_bits(table_.data(), i * kSlotBits, kSlotBits, v); }

  // Where fq's run starts, or would start (fq must be marked occupied).
  uint64_t run_start(uint64_t fq) const {
    uint64_t b = fq;
    while (slot(b) & kShifted) b = prev(b);  // cluster start: its slot holds its own quotient's run
    uint64_t s = b;
    while (b != fq) {  // one run per occupied quotient, in order
      do { s = next(s); } while (slot(s) & kContinuation);
      do { b = next(b); } while (!(slot(b) & kOccupied));
    }
    return s;
  }

  bool contains_fingerprint(uint64_t fq, uint64_t fr) const {
    if (!(slot(fq) & kOccupied)) return false;
    uint64_t s = run_start(fq);
    do {
      const uint64_t r = slot(s) >> 3;
      if (r >= fr) return r == fr;  // runs are sorted
      s = next(s);
    } while (slot(s) & kContinuation);
    return false;
  }

  bool insert_fingerprint(uint64_t fq, uint64_t fr) {
    if (count_ >= max_items_) return false;
    const uint64_t home = slot(fq);
    if (is_empty(home)) {  // the common case at low load: the canonical slot is free
      set_slot(fq, fr << 3 | kOccupied);
      ++count_;
      return true;
    }
    const bool had_run = home & kOccupied;
    if (!had_run) set_slot(fq, home | kOccupied);
    const uint64_t start = run_start(fq);
    uint64_t pos = start;
    if (had_run) {  // sorted position inside the run, or just past its end
      do {
        if ((slot(pos) >> 3) >= fr) break;
        pos = next(pos);
      } while (slot(pos) & kContinuation);
    }
    const bool new_head = pos == start;
    uint64_t entry = fr << 3;
    if (!new_head) entry |= kContinuation;
    if (pos != fq) entry |= kShifted;
    shift_right_from(pos, entry);
    // The old head of fq's run now sits right after the new head and continues the run.
    if (had_run && new_head) set_slot(next(pos), slot(next(pos)) | kContinuation);
    ++count_;
    return true;
  }

  // Writes `entry` (remainder and continuation/shifted bits) at pos and moves everything from pos up to
  // the next empty slot one slot right; occupied bits stay with their slots.
  void shift_right_from(uint64_t pos, uint64_t entry) {
    uint64_t i = pos;
    for (;;) {
      const uint64_t v = slot(i);
      set_slot(i, entry | (v & kOccupied));
      if (is_empty(v)) return;
      entry = (v & ~kOccupied) | kShifted;
      i = next(i);
    }
  }

  bool erase_fingerprint(uint64_t fq, uint64_t fr) {
    if (!(slot(fq) & kOccupied)) return false;
    const uint64_t start = run_start(fq);
    uint64_t pos = start;
    for (;;) {  // find one copy of fr in the sorted run
      const uint64_t r = slot(pos) >> 3;
      if (r == fr) break;
      if (r > fr) return false;
      pos = next(pos);
      if (!(slot(pos) & kContinuation)) return false;
    }
    const uint64_t after = next(pos);
    const bool was_head = pos == start;
    const bool run_continues = (slot(after) & kContinuation) != 0;
    if (was_head && !run_continues) set_slot(fq, slot(fq) & ~kOccupied);  // fq's run is gone

    // Shift the rest of the cluster left by one. q tracks the quotient of the run being moved.
    uint64_t q = fq, hole = pos, i = after;
    for (;;) {
      const uint64_t v = slot(i);
      if (!(v & kShifted)) break;  // empty, or an entry in its canonical slot: the cluster ends
      uint64_t entry = v & ~kOccupied;
      if (!(v & kContinuation)) {
        do { q = next(q); } while (!(slot(q) & kOccupied));  // the next run's quotient
      } else if (i == after && was_head) {
        entry &= ~kContinuation;  // the old second entry of fq's run becomes its head
      }
      entry = hole == q ? (entry & ~kShifted) : (entry | kShifted);
      set_slot(hole, entry | (slot(hole) & kOccupied));
      hole = i;
      i = next(i);
    }
    set_slot(hole, slot(hole) & kOccupied);
    --count_;
    return true;
  }

  uint64_t slots_;
  uint64_t max_items_;
  uint64_t seed_;
  uint64_t count_ = 0;
  AlignedBuffer table_;
};

// The paper's configuration: 9-bit remainders, 12-bit slots.
using QuotientFilter = BasicQuotientFilter<9>;

}  // namespace bench::baselines
