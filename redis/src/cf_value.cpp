// redis/src/cf_value.cpp: the module's data type: RDB, AOF rewrite, MEMORY USAGE, DEBUG DIGEST, COPY.
#include "cf_value.h"

#include <algorithm>
#include <cstring>
#include <exception>

namespace cuckoo_redis {

rm::Type* g_cf_type = nullptr;
size_t g_chunk_bytes = size_t{16} << 20;
uint64_t g_max_filter_bytes = 0;

size_t CfValue::memory_bytes() const {
  return sizeof(CfValue) + (filter ? filter->memory_bytes() : 0) + pending.capacity() + dump.capacity();
}

namespace {

uint64_t read_le(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

uint64_t table_bytes(uint64_t buckets, uint64_t bucket_size, uint64_t entry_bits) {
  return (buckets * bucket_size * entry_bits + 7) / 8;  // at most 2^32 * 8 * 32 bits: no overflow
}

unsigned ceil_log2(unsigned x) {  // ceil(log2(x)) for x >= 1
  unsigned bits = 0;
  while ((1u << bits) < x) ++bits;
  return bits;
}

}  // namespace

uint64_t dump_size(const uint8_t* h, size_t size) {
  if (size < cuckoo::kHeaderBytes || std::memcmp(h, cuckoo::kFormatMagic, 4) != 0) return 0;
  const unsigned version = h[4], b = h[5], f = h[6];
  const bool semi = h[7] & 1;
  const uint64_t n0 = read_le(h + 24, 8);
  if (b != 2 && b != 4 && b != 8) return 0;
  if (f < cuckoo::kMinFingerprintBits || f > cuckoo::kMaxFingerprintBits) return 0;
  if (n0 < 2 || n0 > cuckoo::kMaxBucketCount) return 0;
  if (version == cuckoo::kFormatVersion) {
    return cuckoo::kFormatOverhead + table_bytes(n0, b, semi ? f - 1 : f);
  }
  if (version != cuckoo::kGrowingFormatVersion) return 0;
  const uint64_t levels = read_le(h + 12, 4);
  if (levels < 1 || levels > 32) return 0;
  uint64_t total = cuckoo::kFormatOverhead;
  for (unsigned s = 0; s < levels; ++s) {
    const uint64_t buckets = n0 << s;
    const unsigned bits = f + ceil_log2(s + 1);
    if (buckets > cuckoo::kMaxBucketCount || bits > cuckoo::kMaxFingerprintBits) return 0;
    total += cuckoo::kLevelHeaderBytes + table_bytes(buckets, b, semi ? bits - 1 : bits);
  }
  return total;
}

namespace {

constexpr int kEncodingVersion = 1;
constexpr uint64_t kStateFilter = 0;
constexpr uint64_t kStateLoading = 1;

// RDB payload (encoding version 1): state (filter / loading), deletes, the byte count n of the portable
// bytes (a loading value: of the prefix received so far), then those n bytes as strings of at most
// g_chunk_bytes each, so that neither saving nor loading needs a second copy of a large filter.
size_t piece_limit() { return g_chunk_bytes < cuckoo::kHeaderBytes ? cuckoo::kHeaderBytes : g_chunk_bytes; }

void rdb_save(rm::IO* io, void* raw) {
  auto* value = static_cast<CfValue*>(raw);
  rm::SaveUnsigned(io, value->loading() ? kStateLoading : kStateFilter);
  rm::SaveUnsigned(io, value->deletes);
  if (value->loading()) {
    rm::SaveUnsigned(io, value->pending.size());
    for (size_t at = 0; at < value->pending.size(); at += piece_limit())
      rm::SaveStringBuffer(io, value->pending.data() + at, std::min(piece_limit(), value->pending.size() - at));
    return;
  }
  cuckoo::FilterWriter writer(*value->filter);
  rm::SaveUnsigned(io, writer.size());
  while (!writer.done()) {
    const cuckoo::FilterWriter::Piece piece = writer.next(piece_limit());
    rm::SaveStringBuffer(io, reinterpret_cast<const char*>(piece.data), piece.size);
  }
}

// Reads the n bytes as rdb_save wrote them, handing each string to `take`.
template <typename Take>
void load_pieces(rm::IO* io, uint64_t size, Take take) {
  for (uint64_t received = 0; received < size;) {
    size_t length = 0;
    char* piece = rm::LoadStringBuffer(io, &length);
    if (piece == nullptr) throw cuckoo::FormatError("the RDB ended inside a filter");
    std::unique_ptr<char, void (*)(void*)> owned(piece, rm::Free);
    if (length == 0 || length > size - received) throw cuckoo::FormatError("a filter's piece does not fit its size");
    take(piece, length);
    received += length;
  }
}

void* rdb_load(rm::IO* io, int encver) {
  if (encver != kEncodingVersion) {
    rm::LogIOError(io, "warning", "cuckoo: RDB encoding version %d is not one this module reads (1)", encver);
    return nullptr;
  }
  try {
    const uint64_t state = rm::LoadUnsigned(io);
    auto value = std::make_unique<CfValue>();
    value->deletes = rm::LoadUnsigned(io);
    const uint64_t size = rm::LoadUnsigned(io);
    if (state == kStateLoading) {
      load_pieces(io, size, [&](const char* data, size_t length) { value->pending.append(data, length); });
      value->expected_bytes = dump_size(reinterpret_cast<const uint8_t*>(value->pending.data()), size);
      if (value->expected_bytes == 0 || size >= value->expected_bytes) throw cuckoo::FormatError("bad partial dump");
    } else if (state == kStateFilter) {
      cuckoo::FilterLoader loader(true, size);
      load_pieces(io, size, [&](const char* data, size_t length) { loader.feed(data, length); });
      value->filter = std::make_unique<cuckoo::CuckooFilter>(loader.finish());
    } else {
      throw cuckoo::FormatError("unknown value state");
    }
    return value.release();
  } catch (const std::exception& e) {
    rm::LogIOError(io, "warning", "cuckoo: cannot load a filter from the RDB: %s", e.what());
    return nullptr;
  }
}

// Emits the bytes as CF.LOADCHUNK pieces of at most g_chunk_bytes, as CF.SCANDUMP would hand them out.
void emit_piece(rm::IO* aof, rm::String* key, uint64_t start, const void* data, size_t size) {
  rm::EmitAOF(aof, "CF.LOADCHUNK", "slb", key, static_cast<long long>(start + size + 1),
              static_cast<const char*>(data), size);
}

void aof_rewrite(rm::IO* aof, rm::String* key, void* raw) {
  auto* value = static_cast<CfValue*>(raw);
  if (value->loading()) {
    for (size_t at = 0; at < value->pending.size(); at += piece_limit())
      emit_piece(aof, key, at, value->pending.data() + at, std::min(piece_limit(), value->pending.size() - at));
    return;
  }
  cuckoo::FilterWriter writer(*value->filter);
  while (!writer.done()) {
    const uint64_t start = writer.position();
    const cuckoo::FilterWriter::Piece piece = writer.next(piece_limit());
    emit_piece(aof, key, start, piece.data, piece.size);
  }
}

size_t mem_usage(const void* raw) { return static_cast<const CfValue*>(raw)->memory_bytes(); }

void digest(rm::Digest* md, void* raw) {
  auto* value = static_cast<CfValue*>(raw);
  if (value->loading()) {
    rm::DigestAddStringBuffer(md, value->pending.data(), value->pending.size());
  } else {
    const std::vector<uint8_t> bytes = value->filter->serialize();
    rm::DigestAddStringBuffer(md, reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  rm::DigestEndSequence(md);
}

void free_value(void* raw) { delete static_cast<CfValue*>(raw); }

void* copy(rm::String*, rm::String*, const void* raw) {
  const auto* from = static_cast<const CfValue*>(raw);
  try {
    auto value = std::make_unique<CfValue>();
    if (from->filter) value->filter = std::make_unique<cuckoo::CuckooFilter>(*from->filter);
    value->pending = from->pending;
    value->expected_bytes = from->expected_bytes;
    value->deletes = from->deletes;
    return value.release();
  } catch (const std::exception&) {
    return nullptr;  // COPY then fails with an error; the source is unchanged
  }
}

}  // namespace

bool register_type(rm::Ctx* ctx) {
  rm::TypeMethods methods;
  methods.rdb_load = rdb_load;
  methods.rdb_save = rdb_save;
  methods.aof_rewrite = aof_rewrite;
  methods.mem_usage = mem_usage;
  methods.digest = digest;
  methods.free = free_value;
  methods.copy = copy;
  // Nine characters, as Redis requires; not RedisBloom's "MBbloomCF", whose RDB payloads this module
  // does not read.
  g_cf_type = rm::CreateDataType(ctx, "cuckoo-cf", kEncodingVersion, &methods);
  return g_cf_type != nullptr;
}

}  // namespace cuckoo_redis
