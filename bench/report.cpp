// bench/report.cpp: the shared output helpers (report.h).
#include "report.h"

#include <cstdarg>
#include <cstdio>
#include <stdexcept>

namespace bench {

void progress(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fflush(stderr);
}

std::string fmt(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

void write_text(const std::string& path, const std::string& text) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (!file) throw std::runtime_error("cannot write " + path);
  std::fputs(text.c_str(), file);
  std::fclose(file);
}

}  // namespace bench
