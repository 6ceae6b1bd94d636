// tools/cli/distinct.cpp: see distinct.h. An open-addressing set of the keys' offsets in the data, with
// linear probing, sized for the input's lines so that it never grows. A slot holds the key's offset + 1
// (0: empty) in its low 40 bits and 24 bits of the key's hash above them, so most probes that meet another
// key are told apart without reading it.
#include "distinct.h"

#include <cstring>
#include <functional>
#include <stdexcept>
#include <vector>

#include "lines.h"

namespace cuckoo_cli {

namespace {

constexpr unsigned kOffsetBits = 40;
constexpr uint64_t kOffsetMask = (uint64_t{1} << kOffsetBits) - 1;

class DistinctSet {
 public:
  // Room for `keys` distinct keys at most 3/4 full: the set never grows.
  DistinctSet(std::string_view data, uint64_t keys) : data_(data) {
    uint64_t size = uint64_t{1} << 10;
    while (size * 3 < keys * 4) size *= 2;
    slots_.assign(size, 0);
  }

  // Adds keys[0..n): hashes them all and prefetches their slots, then places them.
  void add(const std::string_view* keys, size_t n) {
    uint64_t hashes[kBlock];
    for (size_t done = 0; done < n; done += kBlock) {
      const size_t m = n - done < kBlock ? n - done : kBlock;
      for (size_t i = 0; i < m; ++i) {
        hashes[i] = std::hash<std::string_view>()(keys[done + i]);
        __builtin_prefetch(&slots_[hashes[i] & (slots_.size() - 1)]);
      }
      for (size_t i = 0; i < m; ++i) {
        const std::string_view key = keys[done + i];
        count_ += place(hashes[i], static_cast<uint64_t>(key.data() - data_.data()), key);
      }
    }
  }

  uint64_t count() const { return count_; }

 private:
  static constexpr size_t kBlock = 64;

  // The key that starts at offset: up to its line's '\n', less one trailing '\r' (lines.h).
  std::string_view key_at(uint64_t offset) const {
    const char* start = data_.data() + offset;
    const auto* nl = static_cast<const char*>(std::memchr(start, '\n', data_.size() - offset));
    size_t n = static_cast<size_t>(nl - start);
    if (n > 0 && start[n - 1] == '\r') --n;
    return std::string_view(start, n);
  }

  // Inserts the key at offset unless an equal key is there; true if it was new.
  bool place(uint64_t hash, uint64_t offset, std::string_view key) {
    const uint64_t mask = slots_.size() - 1;
    const uint64_t tag = hash >> kOffsetBits;
    for (uint64_t i = hash & mask;; i = (i + 1) & mask) {
      const uint64_t slot = slots_[i];
      if (slot == 0) {
        slots_[i] = tag << kOffsetBits | (offset + 1);
        return true;
      }
      if (slot >> kOffsetBits == tag && key_at((slot & kOffsetMask) - 1) == key) return false;
    }
  }

  std::string_view data_;
  std::vector<uint64_t> slots_;  // a power of two, at most 3/4 full
  uint64_t count_ = 0;
};

}  // namespace

uint64_t count_distinct_keys(std::string_view data) {
  if (data.size() >= kOffsetMask) throw std::runtime_error("the input is too large to count its distinct keys");
  // At most one key per line: the set is sized for the lines and never grows.
  uint64_t lines = 0;
  for (const char* p = data.data(); (p = static_cast<const char*>(std::memchr(p, '\n', data.data() + data.size() - p)));) {
    ++lines;
    ++p;
  }
  DistinctSet set(data, lines);
  std::vector<std::string_view> keys;
  constexpr size_t kWindow = size_t{4} << 20;
  for (size_t pos = 0; pos < data.size();) {
    keys.clear();
    // Whole lines of about kWindow bytes: the window, extended to the end of the line it ends in.
    size_t end = pos + kWindow < data.size() ? pos + kWindow : data.size();
    if (data[end - 1] != '\n') end = data.find('\n', end) + 1;  // data ends with '\n'
    split_lines(data.data() + pos, end - pos, true, keys);
    set.add(keys.data(), keys.size());
    pos = end;
  }
  return set.count();
}

}  // namespace cuckoo_cli
