// bench/svg_plot.h: line charts written as plain SVG (no scripts, fonts or anything downloaded), so the
// benchmark draws the paper's figures itself.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace bench {

struct Series {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y), drawn in the order given
  bool dashed = false;                            // e.g. analytic curves next to measured ones
  bool markers_only = false;                      // measured points without a line
};

struct Plot {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_x = false;       // base-10 logarithmic x axis (x must be > 0)
  bool y_from_zero = true;  // y axis starts at 0 rather than at the smallest value
  std::vector<Series> series;
  std::vector<std::string> x_tick_labels;  // optional: replaces numeric x labels at the data's x values
};

// Renders the plot to SVG text; write_svg() also saves it. Throws std::runtime_error on a write error.
std::string render_svg(const Plot& plot);
void write_svg(const Plot& plot, const std::string& path);

}  // namespace bench
