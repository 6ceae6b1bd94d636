// core/src/chunks.cpp: ChunkWriter, ChunkLoader (cuckoo/chunks.h; framing: docs/format.md, "Chunks"). The
// filter's bytes come from FilterWriter and go to FilterLoader, so a chunked filter is checked exactly as
// a whole one is.
//
// Chunk framing, little-endian:
//   0 magic "CKCH"   4 index (u32)   8 count (u32)   12 payload_bytes (u32)   16 offset (u64)
//   24 total_bytes (u64: the serialized filter's size)   32 payload   32 + payload_bytes: XXH3_64bits of
//   bytes [0, 32 + payload_bytes), seed 0 (u64)
#include "cuckoo/chunks.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "cuckoo/stream.h"
#include "format_internal.h"
#include "hash.h"

namespace cuckoo {

namespace {

using internal::format::get_u32;
using internal::format::get_u64;
using internal::format::put_u32;
using internal::format::put_u64;

uint64_t chunk_checksum(const uint8_t* data, size_t size) { return internal::hash_bytes(data, size, 0); }

}  // namespace

// ---------------------------------------------------------------------------------------------- writer

struct ChunkWriter::State {
  explicit State(const CuckooFilter& filter) : writer(filter) {}
  FilterWriter writer;
  uint64_t payload = 0;  // bytes of every chunk's payload but the last's
  uint32_t count = 0;
  uint32_t index = 0;
};

ChunkWriter::ChunkWriter(const CuckooFilter& filter, size_t chunk_bytes)
    : state_(std::make_unique<State>(filter)) {
  if (chunk_bytes <= kChunkOverhead)
    throw std::invalid_argument("cuckoo: chunk_bytes must be more than the " + std::to_string(kChunkOverhead) +
                                "-byte chunk framing (got " + std::to_string(chunk_bytes) + ")");
  State& st = *state_;
  st.payload = std::min<uint64_t>(chunk_bytes - kChunkOverhead, std::numeric_limits<uint32_t>::max());
  const uint64_t count = (st.writer.size() + st.payload - 1) / st.payload;
  if (count > std::numeric_limits<uint32_t>::max())
    throw std::invalid_argument("cuckoo: chunk_bytes " + std::to_string(chunk_bytes) + " would make " +
                                std::to_string(count) + " chunks, more than 2^32 - 1");
  st.count = static_cast<uint32_t>(count);
}

ChunkWriter::ChunkWriter(ChunkWriter&&) noexcept = default;
ChunkWriter& ChunkWriter::operator=(ChunkWriter&&) noexcept = default;
ChunkWriter::~ChunkWriter() = default;

uint32_t ChunkWriter::count() const { return state_->count; }
uint32_t ChunkWriter::index() const { return state_->index; }

size_t ChunkWriter::next_size() const {
  const State& st = *state_;
  if (st.index == st.count) return 0;
  return static_cast<size_t>(std::min(st.payload, st.writer.size() - st.writer.position())) + kChunkOverhead;
}

size_t ChunkWriter::next(uint8_t* out) {
  State& st = *state_;
  const size_t size = next_size();
  if (size == 0) return 0;
  const size_t payload = size - kChunkOverhead;
  std::memcpy(out, kChunkMagic, 4);
  put_u32(out + 4, st.index);
  put_u32(out + 8, st.count);
  put_u32(out + 12, static_cast<uint32_t>(payload));
  put_u64(out + 16, st.writer.position());
  put_u64(out + 24, st.writer.size());
  st.writer.read(out + kChunkHeaderBytes, payload);
  put_u64(out + kChunkHeaderBytes + payload, chunk_checksum(out, kChunkHeaderBytes + payload));
  ++st.index;
  return size;
}

std::vector<uint8_t> ChunkWriter::next() {
  std::vector<uint8_t> chunk(next_size());
  if (!chunk.empty()) next(chunk.data());
  return chunk;
}

std::vector<std::vector<uint8_t>> to_chunks(const CuckooFilter& filter, size_t chunk_bytes) {
  ChunkWriter writer(filter, chunk_bytes);
  std::vector<std::vector<uint8_t>> chunks;
  chunks.reserve(writer.count());
  while (writer.index() < writer.count()) chunks.push_back(writer.next());
  return chunks;
}

// ---------------------------------------------------------------------------------------------- loader

struct ChunkLoader::State {
  explicit State(bool huge) : huge_pages(huge) {}
  bool huge_pages;
  std::unique_ptr<FilterLoader> loader;  // created with the first chunk, which gives the filter's size
  uint32_t count = 0;
  uint64_t total = 0;
  uint32_t received = 0;
  uint64_t offset = 0;  // payload bytes received
  std::string error;

  void add(const uint8_t* in, size_t size) {
    const std::string at = "chunk " + std::to_string(received) + ": ";  // by position, until its index is read
    if (in == nullptr && size != 0) throw FormatError(at + "null input");
    if (size < kChunkOverhead)
      throw FormatError(at + std::to_string(size) + " bytes is shorter than the " + std::to_string(kChunkOverhead) +
                        "-byte chunk framing");
    if (std::memcmp(in, kChunkMagic, 4) != 0) throw FormatError(at + "bad magic: not a cuckoo filter chunk");
    const uint32_t payload = get_u32(in + 12);
    if (uint64_t{payload} + kChunkOverhead != size)
      throw FormatError(at + (uint64_t{payload} + kChunkOverhead > size ? "truncated" : "trailing bytes") +
                        ": its framing says " + std::to_string(uint64_t{payload} + kChunkOverhead) + " bytes, got " +
                        std::to_string(size));
    if (chunk_checksum(in, kChunkHeaderBytes + payload) != get_u64(in + kChunkHeaderBytes + payload))
      throw FormatError(at + "checksum mismatch: the chunk is corrupted");

    // The framing is intact: name the chunk by its own index from here on.
    const uint32_t index = get_u32(in + 4);
    const uint32_t count_here = get_u32(in + 8);
    const uint64_t offset_here = get_u64(in + 16);
    const uint64_t total_here = get_u64(in + 24);
    const std::string name = "chunk " + std::to_string(index);
    if (received == 0) {
      if (count_here == 0 || total_here == 0 || total_here < count_here)
        throw FormatError(name + ": invalid framing: " + std::to_string(count_here) + " chunks of a " +
                          std::to_string(total_here) + "-byte filter");
      count = count_here;
      total = total_here;
    } else if (count_here != count || total_here != total) {
      throw FormatError(name + ": from another filter or chunk size: it says " + std::to_string(count_here) +
                        " chunks of a " + std::to_string(total_here) + "-byte filter, chunk 0 said " +
                        std::to_string(count) + " of " + std::to_string(total));
    }
    if (index >= count)
      throw FormatError(name + ": index out of range (the filter has " + std::to_string(count) + " chunks)");
    if (index < received)
      throw FormatError(name + ": repeated or out of order (chunk " + std::to_string(received) +
                        " was expected next)");
    if (index > received)
      throw FormatError("chunk " + std::to_string(received) + " is missing (" + name + " arrived in its place)");
    if (offset_here != offset)
      throw FormatError(name + ": offset " + std::to_string(offset_here) + ", expected " + std::to_string(offset));
    const bool last = index + 1 == count;
    if (payload == 0 || offset + payload > total || (last && offset + payload != total))
      throw FormatError(name + ": its " + std::to_string(payload) + " bytes at offset " + std::to_string(offset) +
                        " do not fit a " + std::to_string(total) + "-byte filter in " + std::to_string(count) +
                        " chunks");
    if (!loader) loader = std::make_unique<FilterLoader>(huge_pages, total);
    loader->feed(in + kChunkHeaderBytes, payload);
    offset += payload;
    ++received;
  }

  CuckooFilter finish() {
    if (received == 0) throw FormatError("no chunks");
    if (received < count)
      throw FormatError("chunk " + std::to_string(received) + " is missing (got " + std::to_string(received) +
                        " of " + std::to_string(count) + " chunks)");
    return loader->finish();
  }

  template <typename F>
  auto guarded(F&& f) -> decltype(f()) {
    if (!error.empty()) throw FormatError(error);
    try {
      return f();
    } catch (const FormatError& e) {
      error = std::string(e.what()).substr(std::char_traits<char>::length("cuckoo: "));
      throw;
    }
  }
};

ChunkLoader::ChunkLoader(bool huge_pages) : state_(std::make_unique<State>(huge_pages)) {}
ChunkLoader::ChunkLoader(ChunkLoader&&) noexcept = default;
ChunkLoader& ChunkLoader::operator=(ChunkLoader&&) noexcept = default;
ChunkLoader::~ChunkLoader() = default;

void ChunkLoader::add(const void* chunk, size_t size) {
  state_->guarded([&] { state_->add(static_cast<const uint8_t*>(chunk), size); });
}

bool ChunkLoader::complete() const { return state_->received != 0 && state_->received == state_->count; }
uint32_t ChunkLoader::received() const { return state_->received; }
uint32_t ChunkLoader::count() const { return state_->count; }

CuckooFilter ChunkLoader::finish() {
  return state_->guarded([&] {
    CuckooFilter filter = state_->finish();
    state_->error = "the loader already returned its filter";
    return filter;
  });
}

CuckooFilter from_chunks(const std::vector<std::vector<uint8_t>>& chunks, bool huge_pages) {
  ChunkLoader loader(huge_pages);
  for (const auto& chunk : chunks) loader.add(chunk.data(), chunk.size());
  return loader.finish();
}

}  // namespace cuckoo
