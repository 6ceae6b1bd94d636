// native-tests/stream_test.cpp: cuckoo/stream.h. save() writes serialize()'s bytes; load(), FilterLoader
// in pieces of any size, and FilterWriter's pieces round-trip every shape, fixed and growing; and for any
// bytes, valid or not (golden files, every truncation, every bit flip, trailing bytes, edits behind the
// checksum), the loader accepts what deserialize() accepts and refuses the rest with the same message.
#include <gtest/gtest.h>

#include <cuckoo/cuckoo.h>
#include <cuckoo/stream.h>

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "hash.h"  // XXH3, to reseal deliberate edits
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using cuckoo::CuckooFilter;
using cuckoo::FilterLoader;
using cuckoo::FilterWriter;
using cuckoo::FormatError;
using cuckoo_test::Shape;
using Bytes = std::vector<uint8_t>;

// What happened to some bytes: the serialized filter that came out, or the error's message.
struct Outcome {
  bool ok = false;
  std::string text;  // the error, or the reserialized bytes
  bool operator==(const Outcome& o) const { return ok == o.ok && text == o.text; }
};

std::ostream& operator<<(std::ostream& os, const Outcome& o) {
  return os << (o.ok ? "accepted (" + std::to_string(o.text.size()) + " bytes)" : "refused: " + o.text);
}

template <typename F>
Outcome outcome_of(F&& load) {
  try {
    const Bytes out = load().serialize();
    return {true, std::string(out.begin(), out.end())};
  } catch (const FormatError& e) {
    return {false, e.what()};
  }
}

Outcome whole(const Bytes& b) {
  return outcome_of([&] { return CuckooFilter::deserialize(b.data(), b.size()); });
}

// Feeds the bytes in pieces of `piece` bytes, telling the loader their size when `sized`.
Outcome fed(const Bytes& b, size_t piece, bool sized = true) {
  return outcome_of([&] {
    FilterLoader loader(true, sized ? b.size() : 0);
    for (size_t at = 0; at < b.size(); at += piece) loader.feed(b.data() + at, std::min(piece, b.size() - at));
    return loader.finish();
  });
}

// Writes the bytes where buffer() says, at most `piece` at a time, then feeds what is left.
Outcome committed(const Bytes& b, size_t piece, bool sized = true) {
  return outcome_of([&] {
    FilterLoader loader(true, sized ? b.size() : 0);
    size_t at = 0;
    while (at < b.size()) {
      size_t room = 0;
      uint8_t* to = loader.buffer(&room);
      if (room == 0) break;
      const size_t n = std::min({room, piece, b.size() - at});
      std::memcpy(to, b.data() + at, n);
      loader.commit(n);
      at += n;
    }
    if (at < b.size()) loader.feed(b.data() + at, b.size() - at);
    return loader.finish();
  });
}

Outcome streamed(const Bytes& b) {
  return outcome_of([&] {
    std::istringstream in(std::string(b.begin(), b.end()));
    return cuckoo::load(in);
  });
}

// The size a header announces (0 if it is not valid), read without allocating a table.
uint64_t announced_size(const Bytes& b) {
  if (b.size() < cuckoo::kFormatOverhead) return 0;
  try {
    FilterLoader loader;
    loader.feed(b.data(), cuckoo::kFormatOverhead);
    return loader.expected_size();
  } catch (const FormatError&) {
    return 0;
  }
}

// Every way of loading gives deserialize()'s outcome. A loader that is not told the input's size trusts
// the header's and allocates its tables as their bytes arrive, so it is run only where that size is small.
// `pieces`: the piece sizes tried (besides the whole input at once).
void expect_same_outcome(const Bytes& b, std::vector<size_t> pieces = {1, 7, 64, 1000}) {
  const Outcome expected = whole(b);
  const bool unsized_too = announced_size(b) < (1u << 20);
  pieces.push_back(b.size() + 1);
  for (size_t piece : pieces) {
    ASSERT_EQ(fed(b, piece), expected) << "fed in pieces of " << piece;
    ASSERT_EQ(committed(b, piece), expected) << "committed in pieces of " << piece;
    if (!unsized_too) continue;
    ASSERT_EQ(fed(b, piece, false), expected) << "fed in pieces of " << piece << ", size unknown";
    ASSERT_EQ(committed(b, piece, false), expected) << "committed in pieces of " << piece << ", size unknown";
  }
  // load() reads one filter and stops, so it does not see trailing bytes.
  if (unsized_too && (expected.ok || expected.text.find("trailing bytes") == std::string::npos))
    ASSERT_EQ(streamed(b), expected) << "load(istream)";
}

Bytes saved(const CuckooFilter& f) {
  std::ostringstream out;
  cuckoo::save(f, out);
  const std::string s = out.str();
  return Bytes(s.begin(), s.end());
}

Bytes reseal(Bytes b) {
  const size_t body = b.size() - cuckoo::kChecksumBytes;
  const uint64_t sum = XXH3_64bits(b.data(), body);
  for (int i = 0; i < 8; ++i) b[body + i] = static_cast<uint8_t>(sum >> (8 * i));
  return b;
}

std::vector<Bytes> golden_files() {
  std::vector<Bytes> out;
  for (const auto& entry : fs::directory_iterator(fs::path(CUCKOO_SOURCE_DIR) / "testdata" / "golden")) {
    if (entry.path().extension() != ".bin") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    out.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  EXPECT_GE(out.size(), 10u);
  return out;
}

CuckooFilter filled(const Shape& s, bool growing, uint64_t keys) {
  cuckoo::Options o = cuckoo_test::options_for(s, growing ? 8 : 30, s.f * 3 + s.b);
  if (growing) {
    o.growable = true;
    if (s.f > 28) o.fingerprint_bits = 28;  // a growing filter's widest level 0
  }
  CuckooFilter f(o);
  for (uint64_t k = 0; k < keys; ++k)
    if (!f.insert(k)) break;
  return f;
}

TEST(StreamRoundTrip, EveryShapeFixedAndGrowing) {
  for (const Shape& s : cuckoo_test::all_shapes()) {
    for (bool growing : {false, true}) {
      SCOPED_TRACE(testing::PrintToString(s) + (growing ? " growing" : " fixed"));
      // Fixed: filled to a parked victim; growing: to several levels.
      const CuckooFilter original = filled(s, growing, growing ? 400 : 100000);
      if (!growing) ASSERT_TRUE(original.is_full());
      if (growing) ASSERT_GE(original.levels(), 3u);
      const Bytes bytes = original.serialize();
      ASSERT_EQ(saved(original), bytes);
      expect_same_outcome(bytes);
      std::istringstream in(std::string(bytes.begin(), bytes.end()));
      const CuckooFilter copy = cuckoo::load(in);
      EXPECT_EQ(copy.size(), original.size());
      EXPECT_EQ(copy.levels(), original.levels());
      for (uint64_t k = 0; k < original.size(); ++k)
        if (original.contains(k)) ASSERT_TRUE(copy.contains(k)) << k;
    }
  }
}

TEST(StreamRoundTrip, WriterPiecesOfAnySizeMakeTheSerializedBytes) {
  const CuckooFilter f = filled({4, 13, true}, true, 300);
  const Bytes bytes = f.serialize();
  for (size_t piece : {size_t{1}, size_t{5}, size_t{32}, size_t{57}, size_t{4096}, SIZE_MAX}) {
    FilterWriter writer(f);
    EXPECT_EQ(writer.size(), bytes.size());
    Bytes out;
    for (auto p = writer.next(piece); p.size != 0; p = writer.next(piece)) {
      ASSERT_LE(p.size, piece);
      out.insert(out.end(), p.data, p.data + p.size);
      EXPECT_EQ(writer.position(), out.size());
    }
    EXPECT_TRUE(writer.done());
    EXPECT_EQ(out, bytes) << piece;
  }
  FilterWriter writer(f);
  Bytes out(bytes.size() + 10);
  EXPECT_EQ(writer.read(out.data(), 3), 3u);
  EXPECT_EQ(writer.read(out.data() + 3, out.size() - 3), bytes.size() - 3);
  EXPECT_EQ(writer.read(out.data(), 1), 0u);
  out.resize(bytes.size());
  EXPECT_EQ(out, bytes);
}

TEST(StreamRoundTrip, LoadStopsAfterTheFilter) {
  const CuckooFilter a = filled({2, 8, false}, false, 20);
  const CuckooFilter b = filled({8, 17, false}, true, 200);
  std::stringstream both;
  cuckoo::save(a, both);
  cuckoo::save(b, both);
  both << "tail";
  EXPECT_EQ(cuckoo::load(both).serialize(), a.serialize());
  EXPECT_EQ(cuckoo::load(both).serialize(), b.serialize());
  std::string rest;
  both >> rest;
  EXPECT_EQ(rest, "tail");
}

TEST(StreamRoundTrip, FilesThroughFstreams) {
  const fs::path path = fs::temp_directory_path() / ("cuckoo_stream_test_" + std::to_string(::getpid()));
  const CuckooFilter f = filled({4, 16, false}, false, 3000);
  {
    std::ofstream out(path, std::ios::binary);
    cuckoo::save(f, out);
  }
  std::ifstream in(path, std::ios::binary);
  EXPECT_EQ(cuckoo::load(in).serialize(), f.serialize());
  fs::remove(path);
}

TEST(StreamRoundTrip, SaveToAFailingStreamThrows) {
  const CuckooFilter f = filled({4, 12, false}, false, 100);
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  EXPECT_THROW(cuckoo::save(f, out), std::ios_base::failure);
}

TEST(StreamReject, GoldenFilesEveryTruncationAndBitFlip) {
  for (const Bytes& file : golden_files()) {
    expect_same_outcome(file);
    if (file.size() > 4096) continue;
    for (size_t n = 0; n < file.size(); ++n) {
      SCOPED_TRACE("truncated to " + std::to_string(n));
      expect_same_outcome(Bytes(file.begin(), file.begin() + n), {5});
    }
    // Every bit of the headers; a sample of the tables' bits, all of them at CUCKOO_TEST_SCALE >= 8.
    const size_t stride = std::max<size_t>(1, static_cast<size_t>(8 / cuckoo_test::test_scale()));
    for (size_t bit = 0; bit < file.size() * 8; bit += (bit < 8 * cuckoo::kHeaderBytes ? 1 : stride)) {
      SCOPED_TRACE("bit " + std::to_string(bit));
      Bytes b = file;
      b[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
      expect_same_outcome(b, {3});
      expect_same_outcome(reseal(b), {3});  // reaches the checks behind the checksum
    }
    Bytes longer = file;
    longer.insert(longer.end(), {1, 2, 3});
    expect_same_outcome(longer);
  }
}

TEST(StreamReject, AnItemCountOffByOneIsRefusedHoweverTheBytesAreSplit) {
  // The loader counts a plain table's entries as its bytes arrive: pieces that split a field, a bucket or
  // a level must give deserialize()'s verdict, in every shape.
  for (const Shape& s : cuckoo_test::all_shapes()) {
    for (bool growing : {false, true}) {
      SCOPED_TRACE(testing::PrintToString(s) + (growing ? " growing" : " fixed"));
      Bytes bytes = filled(s, growing, growing ? 400 : 1000).serialize();
      expect_same_outcome(bytes, {1, 3, 13});
      // The item count: the header's (version 1), or level 0's in its level header (version 2).
      const size_t at = growing ? cuckoo::kHeaderBytes : 32;
      bytes[at] ^= 1;
      const Bytes edited = reseal(bytes);
      ASSERT_FALSE(whole(edited).ok);
      expect_same_outcome(edited, {1, 3, 13});
    }
  }
}

TEST(StreamReject, TruncatedStreamsAndTrailingBytesNameTheLength) {
  const Bytes bytes = filled({4, 12, false}, false, 100).serialize();
  EXPECT_EQ(fed(Bytes(bytes.begin(), bytes.begin() + 10), 3).text,
            "cuckoo: truncated input: 10 bytes is shorter than the 64-byte header and checksum");
  EXPECT_EQ(fed(Bytes(bytes.begin(), bytes.end() - 1), 5).text,
            "cuckoo: truncated input: expected " + std::to_string(bytes.size()) + " bytes, got " +
                std::to_string(bytes.size() - 1));
  Bytes longer = bytes;
  longer.push_back(0);
  EXPECT_EQ(fed(longer, 5).text, "cuckoo: trailing bytes: expected " + std::to_string(bytes.size()) +
                                     " bytes, got " + std::to_string(bytes.size() + 1));
}

TEST(StreamReject, AKnownSizeRefusesAHeaderAnnouncingAnotherBeforeAllocating) {
  // A header announcing 2^32 buckets of 32-bit entries (128 GiB) is refused as deserialize() refuses it,
  // when its 64 bytes are in.
  Bytes bytes = filled({8, 32, false}, false, 10).serialize();
  for (int i = 0; i < 8; ++i) bytes[24 + i] = static_cast<uint8_t>((uint64_t{1} << 32) >> (8 * i));
  FilterLoader loader(true, bytes.size());
  try {
    loader.feed(bytes.data(), 64);
    FAIL() << "accepted the header";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.what(), whole(bytes).text);
    EXPECT_NE(std::string(e.what()).find("truncated input: expected"), std::string::npos);
  }
}

TEST(StreamReject, ABadHeaderIsRefusedBeforeTheTableArrivesAndSpendsTheLoader) {
  Bytes bytes = filled({4, 12, false}, false, 100).serialize();
  bytes[0] = 'X';
  FilterLoader loader;
  loader.feed(bytes.data(), 63);
  EXPECT_EQ(loader.expected_size(), 0u);
  EXPECT_THROW(loader.feed(bytes.data() + 63, 1), FormatError);
  size_t room = 0;
  EXPECT_THROW(loader.buffer(&room), FormatError);
  try {
    loader.finish();
    FAIL() << "finish() accepted a spent loader";
  } catch (const FormatError& e) {
    EXPECT_STREQ(e.what(), "cuckoo: bad magic: not a cuckoo filter");
  }
}

}  // namespace
