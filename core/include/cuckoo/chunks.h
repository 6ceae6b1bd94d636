// cuckoo/chunks.h: a filter as a sequence of chunks of a chosen size, for transports with a message limit
// (WebSocket, postMessage, a Redis value), and the filter rebuilt from them (framing: docs/format.md,
// "Chunks"). Each chunk is a small frame around a piece of serialize()'s bytes; the pieces, in order, are
// exactly those bytes. The JS package's filter.chunks() / CuckooFilter.fromChunks() make the same chunks.
//
//   for (auto& chunk : cuckoo::to_chunks(filter, 64 * 1024)) send(chunk);      // each <= 64 KiB
//   cuckoo::ChunkLoader loader;
//   while (!loader.complete()) { auto c = receive(); loader.add(c.data(), c.size()); }
//   cuckoo::CuckooFilter copy = loader.finish();
//
// A missing, repeated, reordered, truncated or corrupt chunk is a cuckoo::FormatError naming the chunk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "cuckoo/export.h"
#include "cuckoo/filter.h"
#include "cuckoo/format.h"

namespace cuckoo {

inline constexpr uint8_t kChunkMagic[4] = {'C', 'K', 'C', 'H'};
inline constexpr size_t kChunkHeaderBytes = 32;
inline constexpr size_t kChunkOverhead = kChunkHeaderBytes + 8;  // header and checksum around the payload

// The chunks of one filter, in order. The filter must outlive the writer and must not change meanwhile.
class CUCKOO_API ChunkWriter {
 public:
  // chunk_bytes: the most bytes a chunk may take, framing included; more than kChunkOverhead. Throws
  // std::invalid_argument if it is not, or if the filter would take more than 2^32 - 1 chunks.
  ChunkWriter(const CuckooFilter& filter, size_t chunk_bytes);
  ChunkWriter(ChunkWriter&&) noexcept;
  ChunkWriter& operator=(ChunkWriter&&) noexcept;
  ~ChunkWriter();

  uint32_t count() const;    // chunks in all
  uint32_t index() const;    // of the next chunk; count() once all were written
  size_t next_size() const;  // bytes of the next chunk, 0 once all were written
  // Writes the next chunk (next_size() bytes) at out and returns its size; 0 once all were written.
  size_t next(uint8_t* out);
  std::vector<uint8_t> next();  // the next chunk, empty once all were written

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Every chunk of the filter, each at most chunk_bytes.
CUCKOO_API std::vector<std::vector<uint8_t>> to_chunks(const CuckooFilter& filter, size_t chunk_bytes);

// Rebuilds a filter from its chunks, given in order, each straight into the new table (peak memory: the
// table and one chunk). add() checks each chunk as it comes: its framing and checksum, then that it is
// the next one of the same filter; the filter's own bytes are checked as deserialize() checks them, with
// its messages. After a FormatError the loader is spent: every later call throws it again.
class CUCKOO_API ChunkLoader {
 public:
  explicit ChunkLoader(bool huge_pages = true);
  ChunkLoader(ChunkLoader&&) noexcept;
  ChunkLoader& operator=(ChunkLoader&&) noexcept;
  ~ChunkLoader();

  void add(const void* chunk, size_t size);
  bool complete() const;      // the last chunk arrived
  uint32_t received() const;  // chunks added
  uint32_t count() const;     // chunks the first one announced (0 before it)
  // The filter; throws FormatError naming the first missing chunk if any is, or the filter's problem.
  CuckooFilter finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The filter from all of its chunks, in order.
CUCKOO_API CuckooFilter from_chunks(const std::vector<std::vector<uint8_t>>& chunks, bool huge_pages = true);

}  // namespace cuckoo
