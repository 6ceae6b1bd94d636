// bench/svg_plot.cpp: see svg_plot.h. Layout: a fixed 820 x 440 canvas, the plot area on the left, the
// legend on the right; "nice" ticks (1, 2, 5 x 10^k) on linear axes and decades on a log x axis.
#include "svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace bench {
namespace {

constexpr double kWidth = 820, kHeight = 440;
constexpr double kLeft = 70, kRight = 540, kTop = 40, kBottom = 380;  // plot area
const char* const kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                               "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

std::string format_number(double value) {
  char buffer[32];
  if (value != 0 && (std::fabs(value) < 1e-3 || std::fabs(value) >= 1e6)) {
    std::snprintf(buffer, sizeof buffer, "%.0e", value);
  } else {
    std::snprintf(buffer, sizeof buffer, "%g", value);
  }
  return buffer;
}

double nice_step(double span, int target_ticks) {
  const double raw = span / target_ticks;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double fraction = raw / magnitude;
  const double nice = fraction <= 1 ? 1 : fraction <= 2 ? 2
                                      : fraction <= 5   ? 5
                                                        : 10;
  return nice * magnitude;
}

}  // namespace

std::string render_svg(const Plot& plot) {
  double x_min = std::numeric_limits<double>::infinity(), x_max = -x_min;
  double y_min = x_min, y_max = -x_min;
  for (const Series& series : plot.series) {
    for (auto [x, y] : series.points) {
      if (!std::isfinite(x) || !std::isfinite(y) || (plot.log_x && x <= 0)) continue;
      x_min = std::min(x_min, x), x_max = std::max(x_max, x);
      y_min = std::min(y_min, y), y_max = std::max(y_max, y);
    }
  }
  if (!std::isfinite(x_min)) x_min = 0, x_max = 1, y_min = 0, y_max = 1;
  if (plot.y_from_zero) y_min = std::min(0.0, y_min);
  if (y_max <= y_min) y_max = y_min + 1;
  if (x_max <= x_min) x_max = x_min + 1;

  // Axes ranges rounded out to tick boundaries.
  const double y_step = nice_step(y_max - y_min, 6);
  y_min = std::floor(y_min / y_step) * y_step;
  y_max = std::ceil(y_max / y_step) * y_step;
  double lx_min = 0, lx_max = 0, x_step = 0;
  if (plot.log_x) {
    lx_min = std::floor(std::log10(x_min));
    lx_max = std::ceil(std::log10(x_max));
    if (lx_max <= lx_min) lx_max = lx_min + 1;
  } else {
    x_step = nice_step(x_max - x_min, 8);
    x_min = std::floor(x_min / x_step) * x_step;
    x_max = std::ceil(x_max / x_step) * x_step;
  }
  auto px = [&](double x) {
    const double t = plot.log_x ? (std::log10(x) - lx_min) / (lx_max - lx_min) : (x - x_min) / (x_max - x_min);
    return kLeft + t * (kRight - kLeft);
  };
  auto py = [&](double y) { return kBottom - (y - y_min) / (y_max - y_min) * (kBottom - kTop); };

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
      << "\" viewBox=\"0 0 " << kWidth << " " << kHeight << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"" << (kLeft + kRight) / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">"
      << escape(plot.title) << "</text>\n";

  // Grid and ticks.
  for (double y = y_min; y <= y_max + y_step / 2; y += y_step) {
    svg << "<line x1=\"" << kLeft << "\" x2=\"" << kRight << "\" y1=\"" << py(y) << "\" y2=\"" << py(y)
        << "\" stroke=\"#ddd\"/>\n";
    svg << "<text x=\"" << kLeft - 6 << "\" y=\"" << py(y) + 4 << "\" text-anchor=\"end\">" << format_number(y)
        << "</text>\n";
  }
  auto x_tick = [&](double x, const std::string& label) {
    svg << "<line x1=\"" << px(x) << "\" x2=\"" << px(x) << "\" y1=\"" << kTop << "\" y2=\"" << kBottom
        << "\" stroke=\"#eee\"/>\n";
    svg << "<text x=\"" << px(x) << "\" y=\"" << kBottom + 16 << "\" text-anchor=\"middle\">" << escape(label)
        << "</text>\n";
  };
  if (!plot.x_tick_labels.empty() && !plot.series.empty()) {
    const auto& points = plot.series.front().points;
    for (size_t i = 0; i < points.size() && i < plot.x_tick_labels.size(); ++i)
      x_tick(points[i].first, plot.x_tick_labels[i]);
  } else if (plot.log_x) {
    for (double e = lx_min; e <= lx_max + 0.5; e += 1) x_tick(std::pow(10.0, e), format_number(std::pow(10.0, e)));
  } else {
    for (double x = x_min; x <= x_max + x_step / 2; x += x_step) x_tick(x, format_number(x));
  }
  svg << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << kRight - kLeft << "\" height=\""
      << kBottom - kTop << "\" fill=\"none\" stroke=\"#333\"/>\n";
  svg << "<text x=\"" << (kLeft + kRight) / 2 << "\" y=\"" << kBottom + 38 << "\" text-anchor=\"middle\">"
      << escape(plot.x_label) << "</text>\n";
  svg << "<text transform=\"translate(18," << (kTop + kBottom) / 2
      << ") rotate(-90)\" text-anchor=\"middle\">" << escape(plot.y_label) << "</text>\n";

  // Series and legend.
  for (size_t s = 0; s < plot.series.size(); ++s) {
    const Series& series = plot.series[s];
    const char* color = kColors[s % (sizeof kColors / sizeof kColors[0])];
    std::ostringstream path;
    bool open = false;
    for (auto [x, y] : series.points) {
      if (!std::isfinite(x) || !std::isfinite(y) || (plot.log_x && x <= 0)) continue;
      path << (open ? " L" : "M") << px(x) << "," << py(y);
      open = true;
    }
    if (!series.markers_only && open) {
      svg << "<path d=\"" << path.str() << "\" fill=\"none\" stroke=\"" << color << "\" stroke-width=\"2\""
          << (series.dashed ? " stroke-dasharray=\"6,4\"" : "") << "/>\n";
    }
    if (!series.dashed) {
      for (auto [x, y] : series.points) {
        if (!std::isfinite(x) || !std::isfinite(y) || (plot.log_x && x <= 0)) continue;
        svg << "<circle cx=\"" << px(x) << "\" cy=\"" << py(y) << "\" r=\"3\" fill=\"" << color << "\"/>\n";
      }
    }
    const double ly = kTop + 10 + 20 * s;
    if (series.markers_only) {
      svg << "<circle cx=\"" << kRight + 30 << "\" cy=\"" << ly << "\" r=\"3\" fill=\"" << color << "\"/>\n";
    } else {
      svg << "<line x1=\"" << kRight + 15 << "\" x2=\"" << kRight + 45 << "\" y1=\"" << ly << "\" y2=\"" << ly
          << "\" stroke=\"" << color << "\" stroke-width=\"2\""
          << (series.dashed ? " stroke-dasharray=\"6,4\"" : "") << "/>\n";
    }
    svg << "<text x=\"" << kRight + 52 << "\" y=\"" << ly + 4 << "\">" << escape(series.name) << "</text>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

void write_svg(const Plot& plot, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << render_svg(plot);
}

}  // namespace bench
