// redis/src/cf_value.h: what a key of this module's type holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <cuckoo/cuckoo.h>
#include <cuckoo/stream.h>

#include "module_api.h"

namespace cuckoo_redis {

// A key holds either a filter, or (while CF.LOADCHUNK pieces arrive) the prefix of a filter's portable bytes
// received so far. A loading value answers every command but CF.LOADCHUNK with an error; it becomes a filter
// when its last byte arrives and the bytes deserialize, and is deleted by a piece that does not fit.
struct CfValue {
  std::unique_ptr<cuckoo::CuckooFilter> filter;  // null while loading

  // Loading only: the bytes received, and the length the header announces (dump_size()).
  std::string pending;
  uint64_t expected_bytes = 0;

  // CF.INFO's "Number of items deleted": successful CF.DEL calls. Not part of the portable bytes, so kept
  // by RDB only (AOF rewrite and CF.SCANDUMP/CF.LOADCHUNK restart it at 0).
  uint64_t deletes = 0;

  // CF.SCANDUMP's state. A scan from position 0 that asks for each next piece in turn reads the filter's
  // bytes through `writer`, straight from its tables. Any write drops it (invalidate()); a scan that goes
  // on then reads from `dump`, a copy of the new state's bytes, so its pieces mix two states and loading
  // them fails the checksum: such a dump is rejected rather than loaded wrong. Declared after `filter`,
  // which the writer reads, so that it is destroyed first.
  std::unique_ptr<cuckoo::FilterWriter> writer;
  std::vector<uint8_t> dump;

  bool loading() const { return filter == nullptr; }
  void invalidate() {
    writer.reset();
    std::vector<uint8_t>().swap(dump);
  }
  size_t memory_bytes() const;
};

// The module's data type; null until register_type() succeeded (module.cpp calls it once, at load).
extern rm::Type* g_cf_type;
bool register_type(rm::Ctx* ctx);

// Largest piece CF.SCANDUMP hands out and AOF rewrite emits (the module argument CHUNK_BYTES).
extern size_t g_chunk_bytes;
// The most bytes the tables of a growing filter created here may take (module argument MAX_FILTER_BYTES;
// 0 = no limit): cuckoo::Options::max_memory_bytes. The tables are not allocated through Redis, so
// maxmemory does not bound them; this does.
extern uint64_t g_max_filter_bytes;

// Portable bytes announce their own length in their first kHeaderBytes (docs/format.md): returns it, or 0
// when the header's magic or version is not this library's, or its shape fields are out of range.
uint64_t dump_size(const uint8_t* header, size_t size);

}  // namespace cuckoo_redis
