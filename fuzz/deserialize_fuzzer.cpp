// fuzz/deserialize_fuzzer.cpp: libFuzzer harness for CuckooFilter::deserialize on hostile bytes.
//
// Input: one mode byte, then the candidate file. The checksum would stop almost every mutated input at
// the first check, so the mode byte can ask the harness to repair the file first and reach the deeper
// checks (configuration, victim, item count, table contents):
//   bit 0: fix the item counts to what the tables hold (when the header describes loadable tables): in
//          version 1 the header's count; in version 2 each level header's and the header's total
//   bit 1: recompute the trailing checksum
// Whatever deserialize accepts must behave: re-serializing gives the same bytes, lookups agree with
// count(), inserted keys are found and can be erased, and what we serialize after that loads again. The
// read-only module's operations (wasm/reader_probe.h, `cuckoo-wasm/reader`), run on the accepted bytes in
// place, must find every table valid with the core's counts and give the core's contains() and count().
// The incremental reader (cuckoo::FilterLoader, cuckoo/stream.h), fed the same bytes in pieces whose size
// the mode byte's high bits pick, must give deserialize's outcome: the same filter, or the same message.
// Any violation aborts, which libFuzzer reports as a crash. Seeds: testdata/golden/*.bin (fuzz/run.sh).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <cuckoo/cuckoo.h>
#include <cuckoo/stream.h>

#include "filter_core.h"
#include "hash.h"
#include "level_hasher.h"
#include "reader_probe.h"  // wasm/: the read-only module's operations, compiled natively here
#include "repair.h"

namespace {

using fuzz_repair::fix_item_count;
using fuzz_repair::get_le;
using fuzz_repair::put_le;
using fuzz_repair::reseal;

void check(bool ok) {
  if (!ok) std::abort();
}

// The read-only module's view of accepted bytes, laid out as js/reader_filter.js writes it, over the bytes
// in place (their own allocation: AddressSanitizer sees any read past them): every table passes its
// checks with the core's counts, and the lookups give the core's answers.
void check_reader(const cuckoo::CuckooFilter& f, const std::vector<uint8_t>& bytes, const std::vector<std::string_view>& keys,
                  const std::vector<uint64_t>& ints) {
  using cuckoo_reader::Filter;
  using cuckoo_reader::Level;
  const cuckoo::Config& c = f.config();
  const unsigned levels = f.levels();
  std::vector<uint64_t> storage((offsetof(Filter, levels) + levels * sizeof(Level)) / 8 + 1);
  auto* r = reinterpret_cast<Filter*>(storage.data());
  r->seed = c.seed;
  r->bucket_size = c.bucket_size;
  r->semi_sort = c.semi_sort;
  r->base_bits = c.fingerprint_bits;
  r->base_buckets = static_cast<uint32_t>(c.bucket_count);
  r->level_count = levels;
  size_t at = cuckoo::kHeaderBytes;
  for (unsigned s = 0; s < levels; ++s) {
    const cuckoo::Config lc = c.growable ? cuckoo::internal::level_config(c, s) : c;
    Level& l = r->levels[levels - 1 - s];  // newest first
    if (c.growable) {
      l.victim_used = get_le(&bytes[at + 28], 4) & 1;
      l.victim_fp = static_cast<uint32_t>(get_le(&bytes[at + 24], 4));
      l.victim_index = static_cast<uint32_t>(get_le(&bytes[at + 8], 8));
      at += cuckoo::kLevelHeaderBytes;
    } else {
      l.victim_used = (bytes[7] & 2) != 0;
      l.victim_fp = static_cast<uint32_t>(get_le(&bytes[12], 4));
      l.victim_index = static_cast<uint32_t>(get_le(&bytes[40], 8));
    }
    l.table = reinterpret_cast<uintptr_t>(bytes.data() + at);
    l.bucket_count = static_cast<uint32_t>(lc.bucket_count);
    l.bits = lc.fingerprint_bits;
    l.extra_bits = lc.fingerprint_bits - c.fingerprint_bits;
    l.level = s;
    at += lc.table_bytes();
  }
  cuckoo_reader::prepare(*r);
  uint64_t stored = 0;
  for (unsigned i = 0; i < levels; ++i) {
    const double entries = cuckoo_reader::scan(*r, i);
    check(entries >= 0);
    stored += static_cast<uint64_t>(entries) + r->levels[i].victim_used;
    check(!r->levels[i].victim_used || !cuckoo_reader::victim_has_room(*r, i));
  }
  check(stored == f.size());
  for (std::string_view k : keys) {
    const uint64_t h = cuckoo_reader::hash_key(*r, reinterpret_cast<const uint8_t*>(k.data()), k.size());
    check(cuckoo_reader::contains_hash(*r, h) == f.contains(k));
    check(cuckoo_reader::count_hash(*r, h) == f.count(k));
  }
  for (uint64_t k : ints) {
    const uint64_t h = cuckoo_reader::hash_u64(*r, k);
    check(cuckoo_reader::contains_hash(*r, h) == f.contains(k));
    check(cuckoo_reader::count_hash(*r, h) == f.count(k));
  }
}

// The longest insert walk the harness runs (the format allows 2^20 kicks).
constexpr uint32_t kMaxKicksExercised = 4096;

// Exercises a filter that deserialize accepted, with keys taken from the input.
void exercise(cuckoo::CuckooFilter& f, const std::vector<uint8_t>& bytes) {
  check(f.serialize() == bytes);                   // before any mutation: loading and saving is the identity
  check(f.size() <= f.slot_count() + f.levels());  // each level may hold a parked victim
  check(f.levels() == 1 || f.config().growable);
  check(f.config().growable || f.is_full() || f.size() <= f.slot_count());

  // Up to 8 byte-string keys and 8 integer keys cut from the input.
  std::vector<std::string_view> keys;
  const auto* text = reinterpret_cast<const char*>(bytes.data());
  for (size_t i = 0, off = 0; i < 8 && off < bytes.size(); ++i) {
    const size_t len = bytes[off] % 13;
    keys.emplace_back(text + off, std::min(len, bytes.size() - off));
    off += len + 1;
  }
  std::vector<uint64_t> ints;
  for (size_t off = 0; off + 8 <= bytes.size() && ints.size() < 8; off += 11) ints.push_back(get_le(&bytes[off], 8));

  for (std::string_view k : keys) check(f.contains(k) == (f.count(k) > 0));
  for (uint64_t k : ints) check(f.contains(k) == (f.count(k) > 0));
  check_reader(f, bytes, keys, ints);

  // Insert, find, erase: no false negatives, and the size comes back. Only where a failing insert's walk
  // is short: at up to 2^20 kicks it takes seconds under the sanitizers, past libFuzzer's timeout, and
  // the walk's code is the same for every limit.
  if (f.config().max_kicks > kMaxKicksExercised) return;
  const uint64_t size_before = f.size();
  std::vector<std::string_view> inserted;
  for (std::string_view k : keys) {
    if (!f.insert(k)) break;
    inserted.push_back(k);
    check(f.contains(k));
  }
  std::vector<uint64_t> inserted_ints;
  for (uint64_t k : ints) {
    if (!f.insert(k)) break;
    inserted_ints.push_back(k);
    check(f.contains(k));
  }
  check(f.size() == size_before + inserted.size() + inserted_ints.size());
  for (std::string_view k : inserted) check(f.contains(k));
  for (uint64_t k : inserted_ints) check(f.contains(k));

  // What we write must load, with the same bytes.
  const std::vector<uint8_t> after = f.serialize();
  cuckoo::CuckooFilter g = cuckoo::CuckooFilter::deserialize(after.data(), after.size());
  check(g.serialize() == after);

  for (uint64_t k : inserted_ints) check(f.erase(k));
  for (std::string_view k : inserted) check(f.erase(k));
  check(f.size() == size_before);
  const std::vector<uint8_t> erased = f.serialize();
  check(cuckoo::CuckooFilter::deserialize(erased.data(), erased.size()).size() == size_before);
}

// What FilterLoader makes of bytes fed in pieces of `piece` bytes (told their size, as a file's reader
// is): the serialized filter, or the error's message.
std::pair<bool, std::string> loaded_in_pieces(const std::vector<uint8_t>& bytes, size_t piece) {
  try {
    cuckoo::FilterLoader loader(false, bytes.size());
    for (size_t at = 0; at < bytes.size(); at += piece)
      loader.feed(bytes.data() + at, std::min(piece, bytes.size() - at));
    const std::vector<uint8_t> out = loader.finish().serialize();
    return {true, std::string(out.begin(), out.end())};
  } catch (const cuckoo::FormatError& e) {
    return {false, e.what()};
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) {
    try {
      cuckoo::CuckooFilter::deserialize(data, 0);
    } catch (const cuckoo::FormatError&) {
      return 0;
    }
    std::abort();  // empty input must be rejected
  }
  const uint8_t mode = data[0];
  // Exactly the candidate's bytes in their own allocation, so AddressSanitizer sees any read past them.
  std::vector<uint8_t> bytes(data + 1, data + size);
  if (mode & 1) fix_item_count(bytes);
  if (mode & 2) reseal(bytes);

  std::optional<cuckoo::CuckooFilter> filter;
  const auto streamed = loaded_in_pieces(bytes, size_t{1} + (mode >> 2) * 3);
  try {
    filter.emplace(cuckoo::CuckooFilter::deserialize(bytes.data(), bytes.size()));
  } catch (const cuckoo::FormatError& e) {
    check(!streamed.first && streamed.second == e.what());
    return 0;  // rejected: the point of the harness is that this is the only way out
  }
  check(streamed.first && streamed.second == std::string(bytes.begin(), bytes.end()));
  exercise(*filter, bytes);
  return 0;
}
