// native-tests/consumer/main.cpp: what a downstream program does with the installed or vendored library.
// Uses only the public header; exits non-zero on any surprise so the ctest entry fails.
#include <cuckoo/cuckoo.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

#define CHECK(cond)                                                 \
  do {                                                              \
    if (!(cond)) {                                                  \
      std::fprintf(stderr, "consumer: check failed: %s\n", #cond); \
      return 1;                                                     \
    }                                                               \
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
