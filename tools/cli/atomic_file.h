// tools/cli/atomic_file.h: whole-file reads, and writes that replace a file all at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cuckoo_cli {

// The file's bytes ("-": standard input). Throws std::runtime_error naming the file.
std::vector<uint8_t> read_file(const std::string& path);

// Replaces (or creates) path with data[0, n): written to a temporary file in the same directory, flushed
// to disk, then renamed over path, so that readers and a crash see either the old file or the new one,
// never a partial one. The new file keeps an existing file's permissions (a new one gets 0666 minus the
// umask). On failure the temporary file is removed, path is untouched, and std::runtime_error says why.
// SIGINT, SIGTERM and SIGHUP during the write remove the temporary file before the process exits.
// An existing file the user may not write is refused. A symbolic link is replaced by the new file, never
// followed (so a link cannot choose which file is overwritten). A device, pipe or socket (/dev/null) is
// written into, since there is no file to replace, and /dev/stdout, /dev/stderr, /dev/fd/N and
// /proc/self/fd/N are written through the descriptor they name, so output lands where the shell sent it.
void write_file_atomically(const std::string& path, const uint8_t* data, size_t n);

}  // namespace cuckoo_cli
