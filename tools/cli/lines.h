// tools/cli/lines.h: keys from text, one per line, read in large blocks.
//
// The rules, the same in the npm package's CLI (js/cli/lines.js), so both build identical filters:
//   - a line ends at '\n'; a trailing '\r' is removed (CRLF files give the same keys as LF files);
//   - empty lines (after removing the '\r') are skipped: the empty key cannot be given in a file;
//   - the last line needs no '\n';
//   - every other byte is part of the key, unchanged (no trimming, no UTF-8 decoding).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace cuckoo_cli {

// Appends the keys of the complete lines in data[0, n) to out; at_end also takes a last line without
// '\n'. Returns the bytes consumed (the start of an incomplete last line when !at_end).
size_t split_lines(const char* data, size_t n, bool at_end, std::vector<std::string_view>& out);

// Reads files ("-" is standard input) in blocks of 4 MiB and hands their keys to `batch` in order, one
// batch per block (the block's complete lines), as views that stay valid until `batch` returns. Throws std::runtime_error
// naming the file on a read error. A file whose last line has no '\n' does not run into the next file.
class LineReader {
 public:
  using Batch = std::function<void(const std::vector<std::string_view>& keys)>;
  explicit LineReader(std::vector<std::string> paths) : paths_(std::move(paths)) {}
  // Bytes of all the files (0 if any is not a regular file): the progress bar's 100%.
  uint64_t total_bytes() const;
  uint64_t bytes_read() const { return bytes_read_; }
  void read(const Batch& batch);

 private:
  void read_file(int fd, const std::string& name, const Batch& batch);

  std::vector<std::string> paths_;
  uint64_t bytes_read_ = 0;
};

}  // namespace cuckoo_cli
