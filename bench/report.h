// bench/report.h: the small output helpers paper_eval and growth_eval share. Tables go to stdout (and a
// text file), progress to stderr, CSV files through csv.h and figures through svg_plot.h.
#pragma once

#include <string>

namespace bench {

// printf-style progress on stderr, flushed at once (lines that rewrite themselves use "\r").
void progress(const char* format, ...) __attribute__((format(printf, 1, 2)));

// One number formatted with a printf format, e.g. fmt("%.2f", x).
std::string fmt(const char* format, double value);

// Writes text to path, replacing it; throws std::runtime_error when the file cannot be opened.
void write_text(const std::string& path, const std::string& text);

}  // namespace bench
