// cuckoo/stream.h: a filter's serialized bytes (docs/format.md) written and read in pieces, with no second
// copy of its table: peak memory is the table plus the caller's buffer.
//
//   std::ofstream out("big.cuckoo", std::ios::binary);
//   cuckoo::save(filter, out);                      // header, the table straight from memory, checksum
//   std::ifstream in("big.cuckoo", std::ios::binary);
//   cuckoo::CuckooFilter copy = cuckoo::load(in);   // bytes read straight into the new table
//
// FilterWriter and FilterLoader are the pieces save() and load() are made of, for other transports
// (sockets, callbacks, WebAssembly's JS side): the same bytes as serialize(), and the same checks, order
// and cuckoo::FormatError messages as deserialize().
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>

#include "cuckoo/export.h"
#include "cuckoo/filter.h"
#include "cuckoo/format.h"

namespace cuckoo {

// Produces filter.serialize()'s bytes in order, in pieces: the headers from a small buffer, each table
// straight from the filter's memory, and the checksum, computed as the pieces go by. The filter must
// outlive the writer and must not change while it is read (the bytes would mix two states).
class CUCKOO_API FilterWriter {
 public:
  struct Piece {
    const uint8_t* data;
    size_t size;
  };

  explicit FilterWriter(const CuckooFilter& filter);
  FilterWriter(FilterWriter&&) noexcept;
  FilterWriter& operator=(FilterWriter&&) noexcept;
  ~FilterWriter();

  uint64_t size() const;      // the serialized size, filter.serialized_size()
  uint64_t position() const;  // bytes produced so far
  bool done() const { return position() == size(); }
  // The next piece, at most max_bytes (> 0) long: a view into the filter's table or the writer's buffer,
  // valid until the next call. Empty (size 0) once every byte was produced.
  Piece next(size_t max_bytes = SIZE_MAX);
  // Copies the next min(n, size() - position()) bytes to out; returns how many.
  size_t read(uint8_t* out, size_t n);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Rebuilds a filter from its serialized bytes as they arrive, reading each table's bytes straight into
// the new table and hashing them on the way. Push-style: write bytes where buffer() says and commit()
// them (no copy), or feed() bytes from anywhere (one copy); then finish().
//
// Checks, in docs/format.md's order and with deserialize()'s messages: the header (magic, version, flags,
// shape) once the first 64 bytes are in, before anything is allocated; the length, checksum and contents
// in finish(). A stream that stops early gets "truncated input", bytes after the filter's end "trailing
// bytes". After a FormatError the loader is spent: every later call throws it again.
//
// Memory: each table is allocated when its first byte is asked for (buffer(), feed()), at the size the
// header announces. Given the input's size (a file's, a Content-Length), a header announcing another size
// is refused when it is read, with deserialize()'s length message, so hostile bytes allocate no more than
// their own size, as with deserialize(). Without it, a hostile header can make the loader allocate up to
// the largest table the format allows (std::bad_alloc if it does not fit).
class CUCKOO_API FilterLoader {
 public:
  // huge_pages: as for CuckooFilter::deserialize. input_size: the input's size in bytes if known, else 0.
  explicit FilterLoader(bool huge_pages = true, uint64_t input_size = 0);
  FilterLoader(FilterLoader&&) noexcept;
  FilterLoader& operator=(FilterLoader&&) noexcept;
  ~FilterLoader();

  // Where the next bytes go and how many fit there (*size >= 1), until every byte the header announces
  // has arrived; then *size is 0. Inside a table the buffer is the table's own memory, up to its end.
  // May allocate the next table (std::bad_alloc if it does not fit).
  uint8_t* buffer(size_t* size);
  // The first n (<= *size of the last buffer()) bytes at buffer() are the stream's next bytes. Throws
  // FormatError when they complete a header that is not valid.
  void commit(size_t n);
  // Copies data into buffer() and commits it, as often as it takes; bytes past the filter's end are
  // counted, for finish()'s "trailing bytes" error, and dropped.
  void feed(const void* data, size_t size);

  bool complete() const;           // every byte the header announces arrived
  uint64_t expected_size() const;  // the serialized size the header announces; 0 until it is read
  uint64_t received() const;       // bytes committed and fed, trailing ones included

  // The filter, once its bytes are checked: throws FormatError as deserialize() would for the same bytes.
  CuckooFilter finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Writes filter.serialize()'s bytes to out without a copy of the table. Throws std::ios_base::failure if
// the stream fails (out's exception mask is restored).
CUCKOO_API void save(const CuckooFilter& filter, std::ostream& out);
// Reads one serialized filter from in, straight into its table, and leaves in just past its last byte
// (a stream may hold more after it). Throws FormatError as deserialize() would, "truncated input" if the
// stream ends first, and std::ios_base::failure on a read error.
CUCKOO_API CuckooFilter load(std::istream& in, bool huge_pages = true);

}  // namespace cuckoo
