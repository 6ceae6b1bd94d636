// core/src/stream_io.cpp: save() and load() on std::ostream / std::istream (cuckoo/stream.h), over
// FilterWriter and FilterLoader. A file of its own so that programs that use only those (the WebAssembly
// module) do not link the iostreams library.
#include <algorithm>
#include <istream>
#include <ostream>

#include "cuckoo/stream.h"

namespace cuckoo {

namespace {
// Pieces small enough to stay in cache between being hashed and being copied to or from the stream.
constexpr size_t kStreamPiece = size_t{256} << 10;
}  // namespace

void save(const CuckooFilter& filter, std::ostream& out) {
  FilterWriter writer(filter);
  for (FilterWriter::Piece piece = writer.next(kStreamPiece); piece.size != 0; piece = writer.next(kStreamPiece)) {
    out.write(reinterpret_cast<const char*>(piece.data), static_cast<std::streamsize>(piece.size));
    if (!out) throw std::ios_base::failure("cuckoo: writing the filter to the stream failed");
  }
}

CuckooFilter load(std::istream& in, bool huge_pages) {
  FilterLoader loader(huge_pages);
  for (;;) {
    size_t room = 0;
    uint8_t* to = loader.buffer(&room);
    if (room == 0) break;
    room = std::min(room, kStreamPiece);
    in.read(reinterpret_cast<char*>(to), static_cast<std::streamsize>(room));
    const auto got = static_cast<size_t>(in.gcount());
    if (got > 0) loader.commit(got);
    if (got < room) {
      if (in.bad()) throw std::ios_base::failure("cuckoo: reading the filter from the stream failed");
      break;  // the stream ended: finish() reports the truncation
    }
  }
  return loader.finish();
}

}  // namespace cuckoo
