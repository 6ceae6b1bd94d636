// core/src/filter.cpp: CuckooFilter, the public face: forwards to the FilterCore (which hashes the keys of
// insert, contains and the batches itself; erase, count and hash() hash here). The u64 overloads of insert
// and contains, and is_full, are inline in cuckoo/filter.h and come here only for what they cannot do.
#include "cuckoo/filter.h"

#include <limits>

#include "filter_core.h"
#include "hash.h"

namespace cuckoo {

using internal::hash_bytes;
using internal::hash_u64;

CuckooFilter::CuckooFilter(const Options& options) { adopt(internal::make_core(resolve(options))); }
CuckooFilter::CuckooFilter(const Config& config) { adopt(internal::make_core(config)); }
CuckooFilter::CuckooFilter(std::unique_ptr<internal::FilterCore> core) { adopt(std::move(core)); }
CuckooFilter::CuckooFilter(const CuckooFilter& other) { adopt(other.core_->clone()); }
CuckooFilter& CuckooFilter::operator=(const CuckooFilter& other) {
  if (this != &other) adopt(other.core_->clone());
  return *this;
}
CuckooFilter::CuckooFilter(CuckooFilter&& other) noexcept = default;
CuckooFilter& CuckooFilter::operator=(CuckooFilter&& other) noexcept = default;
CuckooFilter::~CuckooFilter() = default;

void CuckooFilter::adopt(std::unique_ptr<internal::FilterCore> core) {
  core_ = std::move(core);
  inline_table_ = &core_->inline_table();
}

uint64_t CuckooFilter::hash(std::string_view key) const {
  return hash_bytes(key.data(), key.size(), core_->config().seed);
}
uint64_t CuckooFilter::hash(uint64_t key) const { return hash_u64(key, core_->config().seed); }
uint64_t CuckooFilter::hash(const void* data, size_t size) const {
  return hash_bytes(data, size, core_->config().seed);
}

bool CuckooFilter::insert(std::string_view key) { return core_->insert_bytes_key(key.data(), key.size()); }
bool CuckooFilter::insert_in_core(uint64_t key) { return core_->insert_u64_key(key); }
bool CuckooFilter::insert(const void* data, size_t size) { return core_->insert_bytes_key(data, size); }

bool CuckooFilter::contains(std::string_view key) const { return core_->contains_bytes_key(key.data(), key.size()); }
bool CuckooFilter::contains_in_core(uint64_t key) const { return core_->contains_u64_key(key); }
bool CuckooFilter::contains(const void* data, size_t size) const { return core_->contains_bytes_key(data, size); }

bool CuckooFilter::erase(std::string_view key) { return core_->erase(hash(key)); }
bool CuckooFilter::erase(uint64_t key) { return core_->erase(hash(key)); }
bool CuckooFilter::erase(const void* data, size_t size) {
  return core_->erase(hash(data, size));
}

size_t CuckooFilter::count(std::string_view key) const { return core_->count(hash(key)); }
size_t CuckooFilter::count(uint64_t key) const { return core_->count(hash(key)); }
size_t CuckooFilter::count(const void* data, size_t size) const {
  return core_->count(hash(data, size));
}

size_t CuckooFilter::insert_many(const uint64_t* keys, size_t n) { return core_->insert_many(keys, n); }
size_t CuckooFilter::insert_many(const std::string_view* keys, size_t n) { return core_->insert_many(keys, n); }
void CuckooFilter::contains_many(const uint64_t* keys, size_t n, uint8_t* out) const {
  core_->contains_many(keys, n, out);
}
void CuckooFilter::contains_many(const std::string_view* keys, size_t n, uint8_t* out) const {
  core_->contains_many(keys, n, out);
}

void CuckooFilter::clear() { core_->clear(); }
uint64_t CuckooFilter::size() const { return core_->size(); }
uint64_t CuckooFilter::bucket_count() const { return core_->bucket_count(); }
uint64_t CuckooFilter::slot_count() const { return core_->slot_count(); }
bool CuckooFilter::is_full_in_core() const { return core_->is_full(); }
unsigned CuckooFilter::levels() const { return core_->level_count(); }
double CuckooFilter::false_positive_bound() const { return core_->false_positive_bound(); }
double CuckooFilter::load_factor() const {
  return static_cast<double>(size() - core_->parked_count()) / static_cast<double>(slot_count());
}
double CuckooFilter::bits_per_item() const {
  if (size() == 0) return std::numeric_limits<double>::infinity();
  return static_cast<double>(core_->table_bytes()) * 8.0 / static_cast<double>(size());
}
size_t CuckooFilter::memory_bytes() const { return core_->allocated_bytes() + sizeof(*this); }
const Config& CuckooFilter::config() const { return core_->config(); }

}  // namespace cuckoo
