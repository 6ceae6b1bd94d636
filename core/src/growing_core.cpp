// core/src/growing_core.cpp: see growing_core.h.
#include "growing_core.h"

#include <algorithm>
#include <utility>

#include "level_hasher.h"

namespace cuckoo::internal {

namespace {
// Keys per block of the batched lookups, which narrow each block to the keys not found yet.
constexpr size_t kBlock = 256;
// How many keys ahead of the one being probed a level pass prefetches. A burst of a whole block's
// prefetches fills the line-fill buffers and stalls; a rolling window keeps about as many misses in flight
// as the core can track.
constexpr size_t kPrefetchDistance = 16;
// Levels this small grow instead of refusing a failed walk: a jam below half load is ordinary chance in a
// handful of buckets, and growing past them costs little memory.
constexpr uint64_t kJamCheckSlots = 4096;
// Whether lookups go through LevelViews (level_view.h). The browser's module probes each level through
// its CuckooCore instead: a second lookup path would cost more download than it gains.
constexpr bool kFlatLookups = CUCKOO_COMPACT_SHAPES < 2;

// Items at which the newest level counts as full: a fixed filter's target load for its shape. The last
// few percent before a walk fails cost several times the average insert, and the next level is cheaper.
uint64_t growth_point(const FilterCore& level) { return items_at_target_load(level.config()); }

// A batch answered level by level through the levels' own batch lookups (levels that have no LevelView):
// for each block of kBlock keys, pass k calls answer_level(k, keys, m, found) for the m keys that no
// earlier pass found, which sets found[0..m). A present key is usually found in the first level or two,
// so positive lookups cost about two levels' probes whatever the level count; absent keys are probed in
// every level. contains_many_flat does the same with the answering and the narrowing in one loop.
template <typename Key, typename KeyOf, typename AnswerLevel>
void answer_by_level(size_t n, uint8_t* out, size_t levels, KeyOf key_of, AnswerLevel answer_level) {
  Key pending[kBlock];     // the keys not found yet
  uint32_t where[kBlock];  // their positions in the block
  uint8_t found[kBlock];
  for (size_t start = 0; start < n; start += kBlock) {
    size_t m = std::min(n - start, kBlock);
    for (size_t j = 0; j < m; ++j) {
      pending[j] = key_of(start + j);
      where[j] = static_cast<uint32_t>(j);
    }
    for (size_t k = 0; k < levels && m > 0; ++k) {
      answer_level(k, pending, m, found);
      size_t left = 0;
      for (size_t j = 0; j < m; ++j) {
        out[start + where[j]] = found[j];
        pending[left] = pending[j];
        where[left] = where[j];
        left += found[j] == 0;
      }
      m = left;
    }
  }
}
}  // namespace

GrowingCore::GrowingCore(const Config& config)
    : FilterCore(config), level0_hasher_(config.bucket_count, config.fingerprint_bits) {
  adopt(make_level_core(level_config(config, 0), config, 0));
}

GrowingCore::GrowingCore(const Config& config, std::vector<std::unique_ptr<FilterCore>> levels)
    : FilterCore(config), level0_hasher_(config.bucket_count, config.fingerprint_bits) {
  levels_.reserve(levels.size());
  for (auto& level : levels) {
    size_ += level->size();
    adopt(std::move(level));
  }
}

void GrowingCore::adopt(std::unique_ptr<FilterCore> level) {
  const uint64_t slots = level->slot_count();
  level->refuse_jams_below(slots >= kJamCheckSlots ? slots / 2 : 0);
  if (kFlatLookups) {
    flat_ = flat_ && has_flat_layout(level->config());
    views_.push_back(make_level_view(*level, level_count()));
  }
  levels_.push_back(std::move(level));
  order_levels();
}

void GrowingCore::order_levels() {
  if (!kFlatLookups) return;
  const size_t n = views_.size();
  newest_is_small_ = n >= 3 && levels_[n - 1]->size() < levels_[n - 3]->size();
  probe_order_.clear();
  probe_order_.reserve(kMaxLevels);  // allocates once: inserts that reorder then never allocate
  for (size_t s = n; s-- > 0;) {
    if (newest_is_small_ && s == n - 3) probe_order_.push_back(views_[n - 1]);
    if (!(newest_is_small_ && s == n - 1)) probe_order_.push_back(views_[s]);
  }
}

std::unique_ptr<FilterCore> GrowingCore::clone() const {
  std::vector<std::unique_ptr<FilterCore>> copies;
  copies.reserve(levels_.size());
  for (const auto& level : levels_) copies.push_back(level->clone());
  return std::make_unique<GrowingCore>(config_, std::move(copies));
}

bool GrowingCore::may_grow(Config* next) const {
  const unsigned s = level_count();
  if (s >= level_limit(config_)) return false;
  *next = level_config(config_, s);
  if (!is_valid_config(*next)) return false;  // a table larger than the address space
  return config_.max_memory_bytes == 0 || table_bytes() + next->table_bytes() <= config_.max_memory_bytes;
}

bool GrowingCore::grow() {
  Config next;
  if (!may_grow(&next)) return false;
  // So that push_back cannot throw after the table is allocated.
  levels_.reserve(levels_.size() + 1);
  views_.reserve(views_.size() + 1);
  adopt(make_level_core(next, config_, level_count()));
  return true;
}

bool GrowingCore::make_room() {
  const FilterCore& newest = *levels_.back();
  if (!newest.is_full() && newest.size() < growth_point(newest)) return true;
  // Past its growth point the newest level still takes keys if no level can be added, until a walk fails.
  return grow() || !newest.is_full();
}

bool GrowingCore::insert_hashed(uint64_t hash) {
  if (!make_room()) return false;
  if (!levels_.back()->insert_hashed(hash)) return false;
  ++size_;
  if (newest_is_small_ && levels_.back()->size() >= levels_[levels_.size() - 3]->size()) order_levels();
  return true;
}

LevelKey GrowingCore::level_key(uint64_t hash) const {
  return make_level_key(hash, level0_hasher_, config_.fingerprint_bits);
}

// In probe_order_, newest first. The first two levels, which hold about three quarters of the items, are
// probed without a branch between them: which of them holds a present key is a coin toss, and a
// mispredicted branch would discard the loads in flight behind it. Older levels are not prefetched ahead
// of their probes: a lookup that visits several levels is bound by the probes' instructions more than by
// their misses.
template <unsigned kMaxLoads>
bool GrowingCore::contains_flat(const LevelKey& key) const {
  auto probe_view = [&](const LevelView& v) {
    const LevelProbe p = level_probe(key, v.bucket_count, v.level, v.extra_bits);
    return has_whole_byte_buckets(v) ? probe_level<1, true, true>(v, p) : probe_level<kMaxLoads>(v, p);
  };
  const LevelView* view = probe_order_.data();
  const LevelView* const end = view + probe_order_.size();
  bool hit = probe_view(*view++);
  if (view == end) return hit;
  hit |= probe_view(*view++);
  while (!hit && view != end) hit = probe_view(*view++);
  return hit;
}

bool GrowingCore::contains_hashed(uint64_t hash) const {
  if (kFlatLookups && flat_) {
    const LevelKey key = level_key(hash);
    switch (config_.bucket_size) {
      case 2:
        return contains_flat<1>(key);
      case 4:
        return contains_flat<2>(key);
      default:
        return contains_flat<4>(key);
    }
  }
  for (size_t s = levels_.size(); s-- > 0;) {
    if (levels_[s]->contains_hashed(hash)) return true;
  }
  return false;
}

bool GrowingCore::erase(uint64_t hash) {
#ifdef CUCKOO_MUTANT_ERASE_OLDEST_FIRST
  // Mutation hook (native-tests/mutation.sh): the wrong order, which the tests must catch.
  for (size_t s = 0; s < levels_.size(); ++s) {
#else
  for (size_t s = levels_.size(); s-- > 0;) {
#endif
    if (levels_[s]->erase(hash)) {
      --size_;
      return true;
    }
  }
  return false;
}

size_t GrowingCore::count(uint64_t hash) const {
  size_t total = 0;
  for (const auto& level : levels_) total += level->count(hash);
  return total;
}

size_t GrowingCore::insert_many_hashed(const uint64_t* hashes, size_t n) {
  size_t done = 0;
  while (done < n) {
    if (!make_room()) break;
    FilterCore& newest = *levels_.back();
    const uint64_t point = growth_point(newest);
    const size_t take = newest.size() < point ? std::min<uint64_t>(n - done, point - newest.size()) : n - done;
    const size_t stored = newest.insert_many_hashed(hashes + done, take);
    done += stored;
    size_ += stored;
    if (newest_is_small_) order_levels();
    // The level stops at the first key it cannot take: it filled up (grow and go on) or refused the key.
    if (stored < take && !newest.is_full()) break;
  }
  return done;
}

// Level by level in probe_order_, block by block: each pass answers the block's keys not found yet in one
// level and keeps the rest for the next. A key is kept as its probe in the newest level, from which each
// pass derives its own (coarsen_probe). Within a pass, each key's buckets are prefetched
// kPrefetchDistance keys before it is probed, so that their misses overlap. Without prefetching
// (WebAssembly has none) the passes still help: their probes have no branch on their answers, so the CPU
// overlaps the misses of many keys by itself, where a key-by-key early exit would mispredict.
template <unsigned kMaxLoads>
void GrowingCore::contains_many_flat(const uint64_t* hashes, size_t n, uint8_t* out) const {
  const LevelView& finest = views_.back();
  PendingKey pending[kBlock];  // the block's keys not found yet
  for (size_t start = 0; start < n; start += kBlock) {
    size_t m = std::min(n - start, kBlock);
    for (size_t j = 0; j < m; ++j) {
      const LevelProbe p = level_probe(level_key(hashes[start + j]), finest.bucket_count, finest.level,
                                       finest.extra_bits);
      pending[j] = {static_cast<uint32_t>(p.index), static_cast<uint32_t>(p.alt), p.fingerprint,
                    static_cast<uint32_t>(j)};
    }
    uint8_t* const block_out = out + start;
    for (size_t k = 0; k < probe_order_.size() && m > 0; ++k) {
      const LevelView& view = probe_order_[k];
      const unsigned levels_between = finest.level - view.level, bits_between = finest.extra_bits - view.extra_bits;
      m = has_whole_byte_buckets(view)
              ? answer_pass<1, true>(view, levels_between, bits_between, pending, m, block_out)
          : view.loads == 1 ? answer_pass<1>(view, levels_between, bits_between, pending, m, block_out)
                            : answer_pass<kMaxLoads>(view, levels_between, bits_between, pending, m, block_out);
    }
  }
}

// One pass of contains_many_flat over a level whose buckets take kLoads loads and which is levels_between
// levels and bits_between fingerprint bits coarser than the newest: writes the answers of the m pending
// keys to out (the block's answers), moves the keys not found to the front, and returns how many there are.
template <unsigned kLoads, bool kWholeBytes>
size_t GrowingCore::answer_pass(const LevelView& level, unsigned levels_between, unsigned bits_between,
                                PendingKey* pending, size_t m, uint8_t* out) {
  // A copy the loop can keep in registers: its stores through `out` (bytes, which may alias anything)
  // would otherwise make the compiler reload the view's fields on every key.
  const LevelView view = level;
  constexpr size_t d = kPrefetchDistance;
  auto probe_of = [&](const PendingKey& key) {
    return coarsen_probe(LevelProbe{key.index, key.alt, key.fingerprint}, levels_between, bits_between);
  };
  for (size_t j = 0; j < std::min(m, d); ++j) prefetch_probe<kLoads>(view, probe_of(pending[j]));
  size_t left = 0;  // keys not found move down to `left` (<= j), which the prefetches, at j + d, never read
  for (size_t j = 0; j < m; ++j) {
    if (j + d < m) prefetch_probe<kLoads>(view, probe_of(pending[j + d]));
    const bool hit = probe_level<kLoads, true, kWholeBytes>(view, probe_of(pending[j]));
    out[pending[j].where] = hit;
    pending[left] = pending[j];
    left += !hit;
  }
  return left;
}

void GrowingCore::contains_many_hashed(const uint64_t* hashes, size_t n, uint8_t* out) const {
  if (kFlatLookups && flat_) {
    switch (config_.bucket_size) {
      case 2:
        return contains_many_flat<1>(hashes, n, out);
      case 4:
        return contains_many_flat<2>(hashes, n, out);
      default:
        return contains_many_flat<4>(hashes, n, out);
    }
  }
#if CUCKOO_COMPACT_SHAPES >= 2
  // The browser's module answers key by key: the level-by-level pipeline costs more download than it gains.
  for (size_t i = 0; i < n; ++i) out[i] = contains_hashed(hashes[i]);
#else
  // Levels that cannot be probed through a LevelView (semi-sorted or 29..31-bit fingerprints): newest
  // first, each level's own batch.
  answer_by_level<uint64_t>(
      n, out, levels_.size(), [&](size_t i) { return hashes[i]; },
      [&](size_t k, const uint64_t* keys, size_t m, uint8_t* found) {
        levels_[levels_.size() - 1 - k]->contains_many_hashed(keys, m, found);
      });
#endif
}

void GrowingCore::clear() {
  levels_.resize(1);
  if (kFlatLookups) {
    views_.resize(1);
    flat_ = has_flat_layout(levels_.front()->config());
  }
  order_levels();
  levels_.front()->clear();
  size_ = 0;
}

bool GrowingCore::is_full() const {
  Config next;
  return levels_.back()->is_full() && !may_grow(&next);
}

uint64_t GrowingCore::parked_count() const {
  uint64_t total = 0;
  for (const auto& level : levels_) total += level->parked_count();
  return total;
}

uint64_t GrowingCore::bucket_count() const {
  uint64_t total = 0;
  for (const auto& level : levels_) total += level->bucket_count();
  return total;
}

uint64_t GrowingCore::slot_count() const {
  uint64_t total = 0;
  for (const auto& level : levels_) total += level->slot_count();
  return total;
}

uint64_t GrowingCore::table_bytes() const {
  uint64_t total = 0;
  for (const auto& level : levels_) total += level->table_bytes();
  return total;
}

double GrowingCore::false_positive_bound() const { return level_false_positive_bound(config_, level_count()); }

uint64_t GrowingCore::alt_index(uint64_t bucket, uint32_t fingerprint) const {
  return levels_.front()->alt_index(bucket, fingerprint);
}

size_t GrowingCore::allocated_bytes() const {
  size_t total = sizeof(*this) + levels_.capacity() * sizeof(levels_.front());
  for (const auto& level : levels_) total += level->allocated_bytes();
  return total;
}

uint64_t GrowingCore::count_entries() const {
  uint64_t total = 0;
  for (const auto& level : levels_) total += level->count_entries();
  return total;
}

bool GrowingCore::validate_table(std::string* why) const {
  for (const auto& level : levels_) {
    if (!level->validate_table(why)) return false;
  }
  return true;
}

}  // namespace cuckoo::internal
