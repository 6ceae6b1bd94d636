// native-tests/consumer/main.cpp: what a downstream program does with the installed or vendored library.
// Uses only the public header; exits non-zero on any surprise so the ctest entry fails.
#include <cuckoo/cuckoo.h>

#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <vector>
#if __cplusplus >= 202002L
#include <span>
#endif

#define CHECK(cond)                                                \
  do {                                                             \
    if (!(cond)) {                                                 \
      std::fprintf(stderr, "consumer: check failed: %s\n", #cond); \
      return 1;                                                    \
    }                                                              \
  } while (0)

int main() {
  cuckoo::Options options;
  options.capacity = 1000;
  options.fpr = 0.001;
  cuckoo::CuckooFilter filter(options);
  for (uint64_t k = 0; k < 1000; ++k) CHECK(filter.insert(k));
  CHECK(filter.insert("alice"));
  CHECK(filter.contains("alice"));
  CHECK(filter.contains(uint64_t{999}));
  CHECK(filter.erase("alice"));
  // Byte containers and spans are keys: their bytes.
  const std::vector<uint8_t> raw = {0x00, 0xff, 0x10};
  CHECK(filter.insert(raw));
  CHECK(filter.contains(raw.data(), raw.size()));
#if __cplusplus >= 202002L
  const std::span<const std::byte> span = std::as_bytes(std::span(raw));
  CHECK(filter.contains(span));
  CHECK(filter.erase(span));
#else
  CHECK(filter.erase(raw));
#endif
  CHECK(filter.size() == 1000);

  const std::vector<uint8_t> bytes = filter.serialize();
  const cuckoo::CuckooFilter copy = cuckoo::CuckooFilter::deserialize(bytes.data(), bytes.size());
  for (uint64_t k = 0; k < 1000; ++k) CHECK(copy.contains(k));

  bool threw = false;
  try {
    options.bucket_size = 3;
    cuckoo::CuckooFilter bad(options);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  CHECK(threw);
  try {
    cuckoo::CuckooFilter::deserialize(bytes.data(), 10);
    CHECK(false);
  } catch (const cuckoo::FormatError&) {
  }
  std::printf("consumer: ok (%llu items, %.2f bits/item)\n", static_cast<unsigned long long>(filter.size()),
              filter.bits_per_item());
  return 0;
}
