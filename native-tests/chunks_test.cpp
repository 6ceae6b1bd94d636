// native-tests/chunks_test.cpp: cuckoo/chunks.h. Chunks of any size rebuild the same filter as
// deserialize() for every shape, fixed and growing; their payloads are exactly serialize()'s bytes; the
// committed golden chunks (testdata/chunks/, which the JS tests compare too) are what to_chunks writes; and a
// missing, repeated, reordered, truncated, corrupt or foreign chunk is refused naming the chunk.
#include <gtest/gtest.h>

#include <cuckoo/chunks.h>
#include <cuckoo/cuckoo.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "hash.h"  // XXH3, to reseal a deliberately edited chunk
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using cuckoo::CuckooFilter;
using cuckoo::FormatError;
using Bytes = std::vector<uint8_t>;
using Chunks = std::vector<Bytes>;

Bytes read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << path;
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The message from_chunks throws, or "" if it accepted the chunks.
std::string rejection(const Chunks& chunks) {
  try {
    cuckoo::from_chunks(chunks);
  } catch (const FormatError& e) {
    return e.what();
  }
  return "";
}

CuckooFilter sample(bool growing) {
  cuckoo::Options o = cuckoo_test::options_for({4, 12, false}, 64, 5);
  o.growable = growing;
  CuckooFilter f(o);
  for (uint64_t k = 0; k < (growing ? 1500 : 200); ++k) f.insert(k);
  return f;
}

TEST(Chunks, EveryShapeAndSizeRebuildsTheSameFilter) {
  for (const cuckoo_test::Shape& s : cuckoo_test::all_shapes()) {
    for (bool growing : {false, true}) {
      SCOPED_TRACE(testing::PrintToString(s) + (growing ? " growing" : " fixed"));
      cuckoo::Options o = cuckoo_test::options_for(s, 16, s.f + s.b);
      o.growable = growing;
      if (growing && s.f > 28) o.fingerprint_bits = 28;
      CuckooFilter f(o);
      for (uint64_t k = 0; k < 300; ++k)
        if (!f.insert(k)) break;
      const Bytes bytes = f.serialize();
      for (size_t size : {size_t{41}, size_t{47}, size_t{64}, size_t{100}, bytes.size() + 39, bytes.size() + 40,
                          bytes.size() + 1000}) {
        const Chunks chunks = cuckoo::to_chunks(f, size);
        Bytes payloads;
        for (const Bytes& c : chunks) {
          ASSERT_LE(c.size(), size);
          payloads.insert(payloads.end(), c.begin() + cuckoo::kChunkHeaderBytes, c.end() - 8);
        }
        ASSERT_EQ(payloads, bytes) << size;
        const CuckooFilter copy = cuckoo::from_chunks(chunks);
        ASSERT_EQ(copy.serialize(), bytes) << size;
        for (uint64_t k = 0; k < 300; ++k)
          if (f.contains(k)) ASSERT_TRUE(copy.contains(k));
      }
    }
  }
}

TEST(Chunks, WriterCountsAndSizes) {
  const CuckooFilter f = sample(false);
  const size_t total = f.serialized_size();
  cuckoo::ChunkWriter writer(f, 140);
  EXPECT_EQ(writer.count(), (total + 99) / 100);
  size_t sum = 0;
  while (writer.next_size() != 0) {
    const size_t expected = writer.next_size();
    const Bytes chunk = writer.next();
    EXPECT_EQ(chunk.size(), expected);
    sum += chunk.size() - cuckoo::kChunkOverhead;
  }
  EXPECT_EQ(sum, total);
  EXPECT_EQ(writer.index(), writer.count());
  EXPECT_TRUE(writer.next().empty());
  EXPECT_THROW(cuckoo::ChunkWriter(f, cuckoo::kChunkOverhead), std::invalid_argument);
}

// testdata/chunks/: the golden filter b4_f12_u64 in chunks of 100 and 1000 bytes, written by to_chunks and
// compared by js-tests/chunks.test.js, so that both implementations write the same chunks.
TEST(Chunks, GoldenChunksAreWhatToChunksWrites) {
  const fs::path dir = fs::path(CUCKOO_SOURCE_DIR) / "testdata";
  const Bytes bin = read_file(dir / "golden" / "b4_f12_u64.bin");
  const CuckooFilter f = CuckooFilter::deserialize(bin.data(), bin.size());
  for (size_t size : {100, 1000}) {
    const Chunks chunks = cuckoo::to_chunks(f, size);
    Bytes joined;
    for (const Bytes& c : chunks) joined.insert(joined.end(), c.begin(), c.end());
    const fs::path golden = dir / "chunks" / ("b4_f12_u64." + std::to_string(size) + ".chunks");
    if (std::getenv("CUCKOO_WRITE_GOLDEN_CHUNKS")) {
      std::ofstream(golden, std::ios::binary).write(reinterpret_cast<const char*>(joined.data()), static_cast<std::streamsize>(joined.size()));
    }
    EXPECT_EQ(read_file(golden), joined) << golden << " (regenerate: CUCKOO_WRITE_GOLDEN_CHUNKS=1)";
    EXPECT_EQ(cuckoo::from_chunks(chunks).serialize(), bin);
  }
}

class BadChunks : public ::testing::Test {
 protected:
  CuckooFilter filter_ = sample(true);
  Chunks chunks_ = cuckoo::to_chunks(filter_, 200);
  void SetUp() override { ASSERT_GE(chunks_.size(), 6u); }
};

#define EXPECT_REFUSED(chunks, message) EXPECT_EQ(rejection(chunks), std::string("cuckoo: ") + (message))

TEST_F(BadChunks, Missing) {
  for (size_t k = 0; k < chunks_.size(); ++k) {
    Chunks c = chunks_;
    c.erase(c.begin() + static_cast<long>(k));
    const std::string next = std::to_string(k + 1);
    if (k + 1 < chunks_.size())
      EXPECT_REFUSED(c, "chunk " + std::to_string(k) + " is missing (chunk " + next + " arrived in its place)");
    else
      EXPECT_REFUSED(c, "chunk " + std::to_string(k) + " is missing (got " + std::to_string(k) + " of " +
                            std::to_string(chunks_.size()) + " chunks)");
  }
  EXPECT_REFUSED(Chunks{}, "no chunks");
}

TEST_F(BadChunks, Repeated) {
  for (size_t k = 0; k < chunks_.size(); ++k) {
    Chunks c = chunks_;
    c.insert(c.begin() + static_cast<long>(k) + 1, chunks_[k]);
    EXPECT_REFUSED(c, "chunk " + std::to_string(k) + ": repeated or out of order (chunk " + std::to_string(k + 1) +
                          " was expected next)");
  }
}

TEST_F(BadChunks, Reordered) {
  for (size_t k = 0; k + 1 < chunks_.size(); ++k) {
    Chunks c = chunks_;
    std::swap(c[k], c[k + 1]);
    EXPECT_REFUSED(c, "chunk " + std::to_string(k) + " is missing (chunk " + std::to_string(k + 1) +
                          " arrived in its place)");
  }
}

TEST_F(BadChunks, CorruptEveryByteOfOneChunk) {
  const size_t k = 2;
  for (size_t i = 0; i < chunks_[k].size(); ++i) {
    Chunks c = chunks_;
    c[k][i] ^= 0x10;
    const std::string why = rejection(c);
    // The index, count and payload length are read before the checksum is; a flip there changes which
    // checks fail first, and each message names the chunk by its position.
    EXPECT_EQ(why.rfind("cuckoo: chunk 2: ", 0), 0u) << "byte " << i << ": " << why;
  }
}

TEST_F(BadChunks, TruncatedOrLonger) {
  Chunks c = chunks_;
  c[3].pop_back();
  EXPECT_REFUSED(c, "chunk 3: truncated: its framing says " + std::to_string(chunks_[3].size()) + " bytes, got " +
                        std::to_string(chunks_[3].size() - 1));
  c = chunks_;
  c[3].push_back(0);
  EXPECT_REFUSED(c, "chunk 3: trailing bytes: its framing says " + std::to_string(chunks_[3].size()) +
                        " bytes, got " + std::to_string(chunks_[3].size() + 1));
  c = chunks_;
  c[1].resize(10);
  EXPECT_REFUSED(c, "chunk 1: 10 bytes is shorter than the 40-byte chunk framing");
  c = chunks_;
  c[1][0] = 'X';
  EXPECT_REFUSED(c, "chunk 1: bad magic: not a cuckoo filter chunk");
}

TEST_F(BadChunks, FromAnotherFilterOrChunkSize) {
  const Chunks other = cuckoo::to_chunks(sample(false), 200);
  Chunks c = chunks_;
  c[1] = other[1];
  EXPECT_NE(rejection(c).find("chunk 1: from another filter or chunk size"), std::string::npos) << rejection(c);
  const Chunks resized = cuckoo::to_chunks(filter_, 150);
  c = chunks_;
  c[1] = resized[1];
  EXPECT_NE(rejection(c).find("chunk 1: from another filter or chunk size"), std::string::npos) << rejection(c);
}

TEST_F(BadChunks, AFilterWhoseBytesAreBadIsRefusedAsDeserializeRefusesIt) {
  // Chunks that are well framed around bad filter bytes: the filter's error, as deserialize() gives it.
  Bytes bytes = filter_.serialize();
  bytes[100] ^= 1;  // in a table: the filter's checksum no longer matches
  std::string expected;
  try {
    CuckooFilter::deserialize(bytes.data(), bytes.size());
  } catch (const FormatError& e) {
    expected = e.what();
  }
  ASSERT_NE(expected, "");
  Chunks c = chunks_;
  const size_t k = 100 / (200 - cuckoo::kChunkOverhead);
  Bytes& chunk = c[k];
  chunk[cuckoo::kChunkHeaderBytes + 100 % (200 - cuckoo::kChunkOverhead)] ^= 1;
  const size_t body = chunk.size() - 8;
  const uint64_t sum = XXH3_64bits(chunk.data(), body);
  for (int i = 0; i < 8; ++i) chunk[body + i] = static_cast<uint8_t>(sum >> (8 * i));
  EXPECT_EQ(rejection(c), expected);
}

TEST_F(BadChunks, TheLoaderIsSpentAfterAnError) {
  cuckoo::ChunkLoader loader;
  loader.add(chunks_[0].data(), chunks_[0].size());
  EXPECT_THROW(loader.add(chunks_[2].data(), chunks_[2].size()), FormatError);
  EXPECT_THROW(loader.add(chunks_[1].data(), chunks_[1].size()), FormatError);
  EXPECT_FALSE(loader.complete());
  EXPECT_THROW(loader.finish(), FormatError);
}

}  // namespace
