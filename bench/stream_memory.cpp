// bench/stream_memory.cpp: peak memory and time of saving and loading a big filter natively, through
// cuckoo/stream.h (save to / load from a file stream, no second copy of the table) against the
// whole-buffer way (read the file into a vector + deserialize; serialize + write). Each command runs in
// its own process, so that its peak RSS (getrusage's ru_maxrss) is its own:
//
//   stream_memory build FILE KEYS FPR [FILL]   a filter for KEYS keys, FILL of them inserted, saved to FILE
//   stream_memory load FILE                    cuckoo::load(std::ifstream)
//   stream_memory deserialize FILE             the file into a std::vector, then CuckooFilter::deserialize
//   stream_memory save FILE                    load, then cuckoo::save to FILE.out
//   stream_memory serialize FILE               load, then serialize() and write the vector to FILE.out
//
// Each prints one line: the command, milliseconds, the table's bytes and the peak RSS in MB. bench/README.md
// has the command that runs them all and the figures.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <cuckoo/cuckoo.h>
#include <cuckoo/stream.h>

namespace {

double peak_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux: KiB
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

cuckoo::CuckooFilter load_file(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  return cuckoo::load(in);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: stream_memory build|load|deserialize|save|serialize FILE [KEYS FPR [FILL]]\n");
    return 2;
  }
  const std::string command = argv[1];
  const std::string file = argv[2];
  const auto start = std::chrono::steady_clock::now();
  uint64_t table = 0;
  if (command == "build" && argc >= 5) {
    cuckoo::Options options;
    options.capacity = std::strtoull(argv[3], nullptr, 10);
    options.fpr = std::strtod(argv[4], nullptr);
    cuckoo::CuckooFilter filter(options);
    const uint64_t fill = argc >= 6 ? std::strtoull(argv[5], nullptr, 10) : options.capacity;
    std::vector<uint64_t> keys(1 << 20);
    for (uint64_t at = 0; at < fill; at += keys.size()) {
      const size_t n = static_cast<size_t>(std::min<uint64_t>(keys.size(), fill - at));
      for (size_t i = 0; i < n; ++i) keys[i] = at + i;
      if (filter.insert_many(keys.data(), n) != n) {
        std::fprintf(stderr, "the filter refused a key after %llu\n", static_cast<unsigned long long>(at));
        return 1;
      }
    }
    std::ofstream out(file, std::ios::binary);
    cuckoo::save(filter, out);
    table = filter.config().table_bytes();
  } else if (command == "load") {
    table = load_file(file).config().table_bytes();
  } else if (command == "deserialize") {
    std::ifstream in(file, std::ios::binary | std::ios::ate);
    std::vector<char> bytes(static_cast<size_t>(in.tellg()));
    in.seekg(0);
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    table = cuckoo::CuckooFilter::deserialize(bytes.data(), bytes.size()).config().table_bytes();
  } else if (command == "save" || command == "serialize") {
    const cuckoo::CuckooFilter filter = load_file(file);
    table = filter.config().table_bytes();
    const double loaded_ms = ms_since(start);
    const auto written = std::chrono::steady_clock::now();
    std::ofstream out(file + ".out", std::ios::binary);
    if (command == "save") {
      cuckoo::save(filter, out);
    } else {
      const std::vector<uint8_t> bytes = filter.serialize();
      out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    out.close();
    std::printf("%s: %.0f ms (after a %.0f ms load), table %.0f MB, peak RSS %.0f MB\n", command.c_str(),
                ms_since(written), loaded_ms, table / 1e6, peak_rss_mb());
    std::remove((file + ".out").c_str());
    return 0;
  } else {
    std::fprintf(stderr, "unknown command %s\n", command.c_str());
    return 2;
  }
  std::printf("%s: %.0f ms, table %.0f MB, peak RSS %.0f MB\n", command.c_str(), ms_since(start), table / 1e6,
              peak_rss_mb());
  return 0;
}
