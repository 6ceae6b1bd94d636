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

// The start of a run's output: creates out_dir if it is missing and writes machine.txt (describe_machine(),
// machine_info.h) and config.txt (config_text) into it; returns the machine's description.
std::string write_run_description(const std::string& out_dir, const std::string& config_text);

}  // namespace bench
