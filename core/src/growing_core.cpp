// core/src/growing_core.cpp: see growing_core.h.
#include "growing_core.h"

#include <utility>

#include "level_hasher.h"

namespace cuckoo::internal {

GrowingCore::GrowingCore(const Config& config) : FilterCore(config) {
  adopt(make_level_core(level_config(config, 0), config, 0));
}

GrowingCore::GrowingCore(const Config& config, std::vector<std::unique_ptr<FilterCore>> levels)
    : FilterCore(config) {
  levels_.reserve(levels.size());
  for (auto& level : levels) {
    size_ += level->size();
    adopt(std::move(level));
  }
}

void GrowingCore::adopt(std::unique_ptr<FilterCore> level) {
  level->refuse_jams_below(level->slot_count() / 2);
  levels_.push_back(std::move(level));
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
  levels_.reserve(levels_.size() + 1);  // so that push_back cannot throw after the table is allocated
  adopt(make_level_core(next, config_, level_count()));
  return true;
}

bool GrowingCore::insert_hashed(uint64_t hash) {
  if (levels_.back()->is_full() && !grow()) return false;
  if (!levels_.back()->insert_hashed(hash)) return false;
  ++size_;
  return true;
}

bool GrowingCore::contains_hashed(uint64_t hash) const {
  for (size_t s = levels_.size(); s-- > 0;) {
    if (levels_[s]->contains_hashed(hash)) return true;
  }
  return false;
}

bool GrowingCore::erase(uint64_t hash) {
  for (size_t s = levels_.size(); s-- > 0;) {
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
    if (levels_.back()->is_full() && !grow()) break;
    const size_t stored = levels_.back()->insert_many_hashed(hashes + done, n - done);
    done += stored;
    size_ += stored;
    // The newest level stops at the first key it cannot take: it filled up (grow and go on) or refused it.
    if (done < n && !levels_.back()->is_full()) break;
  }
  return done;
}

void GrowingCore::contains_many_hashed(const uint64_t* hashes, size_t n, uint8_t* out) const {
  for (size_t s = levels_.size(); s-- > 0;) levels_[s]->contains_many_hashed(hashes, n, out);
}

void GrowingCore::clear() {
  levels_.resize(1);
  levels_.front()->clear();
  size_ = 0;
}

bool GrowingCore::is_full() const {
  Config next;
  return levels_.back()->is_full() && !may_grow(&next);
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
