// fuzz/view_fuzzer.cpp: libFuzzer harness for cuckoo::FilterView on hostile bytes, checksum not verified.
//
// Input: one mode byte, then the candidate file. Bits 0 and 1 repair it as in deserialize_fuzzer.cpp
// (fuzz/repair.h: item counts, checksum); bits 2..4 place it at that misalignment (0..7) at the end of an
// allocation of exactly its size, so AddressSanitizer sees any read past it.
// What must hold:
// - a view opens whatever deserialize loads, and rejects only what deserialize rejects (its checks are a
//   subset of deserialize's);
// - whatever it opens answers lookups, counts and batches without reading outside the bytes, and
//   consistently (contains == count > 0, a batch as single lookups);
// - where deserialize also loads the bytes, every answer and property equals the loaded filter's, and
//   verify_checksum() accepts them.
// Any violation aborts, which libFuzzer reports as a crash. Seeds: testdata/golden/*.bin (fuzz/run.sh).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include <cuckoo/cuckoo.h>

#include "repair.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

template <typename Filter>
void lookups(const Filter& f, const std::vector<std::string_view>& keys, const std::vector<uint64_t>& ints,
             std::vector<uint8_t>& answers) {
  for (std::string_view k : keys) {
    const bool hit = f.contains(k);
    check(hit == (f.count(k) > 0));
    answers.push_back(hit);
  }
  for (uint64_t k : ints) {
    const bool hit = f.contains(k);
    check(hit == (f.count(k) > 0));
    answers.push_back(hit);
  }
  std::vector<uint8_t> batch(keys.size() + ints.size());
  f.contains_many(keys.data(), keys.size(), batch.data());
  f.contains_many(ints.data(), ints.size(), batch.data() + keys.size());
  check(std::memcmp(batch.data(), answers.data() + answers.size() - batch.size(), batch.size()) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  std::vector<uint8_t> candidate(data + 1, data + size);
  if (mode & 1) fuzz_repair::fix_item_count(candidate);
  if (mode & 2) fuzz_repair::reseal(candidate);
  const size_t misalignment = (mode >> 2) & 7;
  const std::unique_ptr<uint8_t[]> block(new uint8_t[candidate.size() + misalignment]);
  uint8_t* bytes = block.get() + misalignment;
  if (!candidate.empty()) std::memcpy(bytes, candidate.data(), candidate.size());

  std::optional<cuckoo::CuckooFilter> loaded;
  try {
    loaded.emplace(cuckoo::CuckooFilter::deserialize(candidate.data(), candidate.size()));
  } catch (const cuckoo::FormatError&) {
  }
  std::optional<cuckoo::FilterView> view;
  try {
    view.emplace(cuckoo::FilterView::from_bytes(bytes, candidate.size()));
  } catch (const cuckoo::FormatError&) {
    check(!loaded);
    return 0;
  }

  // Up to 16 byte-string keys and 16 integer keys cut from the input, and some fixed ones.
  std::vector<std::string_view> keys = {"", "a", "alpha", "example.com"};
  const auto* text = reinterpret_cast<const char*>(data);
  for (size_t i = 0, off = 1; i < 16 && off < size; ++i) {
    const size_t len = data[off] % 17;
    keys.emplace_back(text + off, std::min(len, size - off));
    off += len + 1;
  }
  std::vector<uint64_t> ints = {0, 1, 42, ~uint64_t{0}};
  for (size_t off = 1; off + 8 <= size && ints.size() < 20; off += 7) ints.push_back(fuzz_repair::get_le(data + off, 8));

  std::vector<uint8_t> viewed;
  lookups(*view, keys, ints, viewed);
  const double load = view->load_factor();
  const double bits = view->bits_per_item();
  (void)load, (void)bits, (void)view->false_positive_bound(), (void)view->is_full();
  bool checksum_ok = true;
  try {
    view->verify_checksum();
  } catch (const cuckoo::FormatError&) {
    checksum_ok = false;
  }
  if (!loaded) return 0;

  check(checksum_ok);
  std::vector<uint8_t> expected;
  lookups(*loaded, keys, ints, expected);
  check(viewed == expected);
  check(view->size() == loaded->size());
  check(view->slot_count() == loaded->slot_count());
  check(view->bucket_count() == loaded->bucket_count());
  check(view->levels() == loaded->levels());
  check(view->is_full() == loaded->is_full());
  check(view->false_positive_bound() == loaded->false_positive_bound());
  return 0;
}
