// bench/report.cpp: the shared output helpers (report.h).
#include "report.h"

#include <sys/stat.h>

#include <cstdarg>
#include <cstdio>
#include <stdexcept>

#include "machine_info.h"

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

std::string write_run_description(const std::string& out_dir, const std::string& config_text) {
  ::mkdir(out_dir.c_str(), 0755);
  std::string machine = describe_machine();
  write_text(out_dir + "/machine.txt", machine);
  write_text(out_dir + "/config.txt", config_text);
  return machine;
}

}  // namespace bench
