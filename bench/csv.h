// bench/csv.h: a minimal CSV writer (header once, then rows of mixed strings and numbers).
#pragma once

#include <cstdio>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {

class CsvWriter {
 public:
  CsvWriter(const std::string& path, std::initializer_list<const char*> header) {
    file_ = std::fopen(path.c_str(), "w");
    if (!file_) throw std::runtime_error("cannot write " + path);
    bool first = true;
    for (const char* column : header) {
      std::fprintf(file_, "%s%s", first ? "" : ",", column);
      first = false;
    }
    std::fputc('\n', file_);
  }
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  ~CsvWriter() {
    if (file_) std::fclose(file_);
  }

  // One row; each cell is already formatted (use cell() for numbers).
  void row(const std::vector<std::string>& cells) {
    for (size_t i = 0; i < cells.size(); ++i) std::fprintf(file_, "%s%s", i ? "," : "", cells[i].c_str());
    std::fputc('\n', file_);
    std::fflush(file_);
  }

  static std::string cell(double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
  }
  static std::string cell(const std::string& value) { return value; }

 private:
  std::FILE* file_ = nullptr;
};

}  // namespace bench
