#include <gtest/gtest.h>
#include <cuckoo/cuckoo.h>
#include <random>

TEST(Smoke, InsertContainsAllConfigs) {
  for (unsigned b : {2u, 4u, 8u})
    for (unsigned f : {4u, 5u, 8u, 12u, 13u, 16u, 17u, 32u})
      for (bool ss : {false, true}) {
        if (ss && b != 4) continue;
        cuckoo::Options o; o.bucket_count = 1 << 12; o.bucket_size = b; o.fingerprint_bits = f; o.semi_sort = ss;
        cuckoo::CuckooFilter filt(o);
        std::vector<uint64_t> in;
        for (uint64_t k = 0; filt.insert(k); ++k) in.push_back(k);
        for (auto k : in) ASSERT_TRUE(filt.contains(k)) << b << " " << f << " " << ss;
        double load = filt.load_factor();
        printf("b=%u f=%u ss=%d load=%.4f\n", b, f, ss, load);
        auto bytes = filt.serialize();
        auto g = cuckoo::CuckooFilter::deserialize(bytes.data(), bytes.size());
        for (auto k : in) ASSERT_TRUE(g.contains(k));
        ASSERT_EQ(g.serialize(), bytes);
        for (auto k : in) ASSERT_TRUE(filt.erase(k)) << k;
        ASSERT_EQ(filt.size(), 0u);
      }
}
