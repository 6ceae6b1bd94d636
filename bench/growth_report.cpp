// bench/growth_report.cpp: growth_eval's output. The summary puts each figure beside its target
// (growth_eval.h) and says "NOT met" where it falls short; the CSV files hold every point; the SVGs draw
// bits per item and the false-positive rate against items (log x), and lookups against levels.
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "csv.h"
#include "growth_eval.h"
#include "svg_plot.h"

namespace bench {
namespace {

std::string fmt(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  return buffer;
}

const char* verdict(bool met) { return met ? "met" : "NOT met"; }

std::string fpr_label(double fpr) { return fmt("%g", fpr); }

// The last point of a kind (the final size's "levels full" / "just grown").
const CurvePoint* last_of(const GrowthResult& result, CurvePoint::Kind kind) {
  for (auto it = result.curve.rbegin(); it != result.curve.rend(); ++it)
    if (it->kind == kind) return &*it;
  return nullptr;
}

std::string render_one(const GrowthConfig& config, const GrowthResult& r) {
  std::string out = fmt(
      "== Requested false-positive rate %g: %llu items at the end, %.0fx the initial capacity "
      "%llu (%.0f s)\n\n",
      r.fpr, (unsigned long long)r.final_items, double(r.final_items) / config.initial_capacity,
      (unsigned long long)config.initial_capacity, r.seconds);

  out +=
      "Around every growth (levels full = the next insert adds a level; just grown = the newest level holds "
      "one item).\nLookup columns: growing / fixed, M lookups/s of the growing filter in brackets.\n";
  out += fmt("%-11s %10s %7s %3s %6s %6s %5s  %-9s %-9s %-9s  %-12s %-12s %-12s %-12s\n", "point", "items", "growth",
             "lv", "bits/i", "fixed", "ratio", "fpr", "bound", "fixed fpr", "neg single", "neg batched",
             "pos single", "pos batched");
  for (const CurvePoint& p : r.curve) {
    if (p.kind == CurvePoint::kGrid) continue;
    const Measured& g = p.growing;
    const Measured& f = p.fixed;
    out += fmt(
        "%-11s %10llu %6.1fx %3u %6.2f %6.2f %5.2f  %-9.6f %-9.6f %-9.6f  %4.2f (%5.1f) %4.2f (%5.1f) "
        "%4.2f (%5.1f) %4.2f (%5.1f)\n",
        kind_name(p.kind), (unsigned long long)g.items, double(g.items) / config.initial_capacity, g.levels,
        g.bits_per_item, f.bits_per_item, g.bits_per_item / f.bits_per_item, g.fpr, g.bound, f.fpr,
        g.neg_single / f.neg_single, g.neg_single, g.neg_batched / f.neg_batched, g.neg_batched,
        g.pos_single / f.pos_single, g.pos_single, g.pos_batched / f.pos_batched, g.pos_batched);
  }

  // Targets.
  double worst_fpr = 0, worst_bound = 0;
  uint64_t worst_at = 0, false_negatives = 0, failed = 0;
  for (const CurvePoint& p : r.curve) {
    if (p.growing.fpr / r.fpr > worst_fpr) worst_fpr = p.growing.fpr / r.fpr, worst_at = p.growing.items;
    worst_bound = std::max(worst_bound, p.growing.bound / r.fpr);
    false_negatives += p.growing.false_negatives + p.fixed.false_negatives;
    failed += p.fixed.failed_inserts;
  }
  out += fmt("\nTargets (%zu curve points from %llu to %llu items)\n", r.curve.size(),
             (unsigned long long)r.curve.front().growing.items, (unsigned long long)r.curve.back().growing.items);
  out += fmt(
      "  false-positive rate <= %g at every size: highest measured %.6f (%.2f of the rate, at %llu items); "
      "highest bound %.6f: %s\n",
      r.fpr, worst_fpr * r.fpr, worst_fpr, (unsigned long long)worst_at, worst_bound * r.fpr,
      verdict(worst_fpr <= 1 && worst_bound <= 1));
  if (const CurvePoint* full = last_of(r, CurvePoint::kLevelsFull)) {
    const double ratio = full->growing.bits_per_item / full->fixed.bits_per_item;
    out += fmt("  memory, levels full at %.0fx (%u levels): %.2f vs %.2f bits/item = %.2fx (target <= %.1fx): %s\n",
               double(full->growing.items) / config.initial_capacity, full->growing.levels,
               full->growing.bits_per_item, full->fixed.bits_per_item, ratio, kMemoryTargetFull,
               verdict(ratio <= kMemoryTargetFull));
  }
  if (const CurvePoint* grown = last_of(r, CurvePoint::kJustGrown)) {
    const double ratio = grown->growing.bits_per_item / grown->fixed.bits_per_item;
    out += fmt("  memory, just grown (%u levels): %.2f vs %.2f bits/item = %.2fx (target <= %.1fx): %s\n",
               grown->growing.levels, grown->growing.bits_per_item, grown->fixed.bits_per_item, ratio,
               kMemoryTargetGrown, verdict(ratio <= kMemoryTargetGrown));
  }
  out += fmt("  false negatives %llu, fixed-filter inserts refused %llu: %s\n", (unsigned long long)false_negatives,
             (unsigned long long)failed, verdict(false_negatives == 0 && failed == 0));

  out += fmt(
      "\nAt the final size, medians of %d rounds (alternating which filter goes first); ratio = median of "
      "the rounds' growing / fixed\n",
      config.rounds);
  int width = 58;
  for (const Rate& rate : r.rates) width = std::max(width, static_cast<int>(rate.what.size()));
  out += fmt("%-*s %9s %9s %6s\n", width, "M operations/s", "growing", "fixed", "ratio");
  for (const Rate& rate : r.rates) {
    const bool bound = rate.what.find("bound") != std::string::npos;
    const bool targeted = !bound && (rate.what.rfind("insert", 0) == 0 || rate.what.rfind("positive", 0) == 0);
    out += fmt("%-*s %9.2f %9.2f %6.2f%s\n", width, rate.what.c_str(), rate.growing, rate.fixed, rate.ratio,
               targeted ? fmt("  (target >= %.1f: %s)", kRateTarget, verdict(rate.ratio >= kRateTarget)).c_str()
                        : "");
  }
  return out + "\n";
}

}  // namespace

std::string render_summary(const GrowthConfig& config, const std::vector<GrowthResult>& results) {
  std::string out = "Growing filter vs a right-sized fixed filter (bench/growth_eval.cpp)\n\n";
  for (const GrowthResult& r : results) out += render_one(config, r);
  return out;
}

void write_csv(const GrowthConfig& config, const std::vector<GrowthResult>& results) {
  CsvWriter curve(config.out_dir + "/growth_curve.csv",
                  {"fpr", "point", "items", "levels", "growing_bits_per_item", "fixed_bits_per_item",
                   "growing_fpr", "growing_bound", "fixed_fpr", "fixed_bound", "growing_neg_single_mops",
                   "fixed_neg_single_mops", "growing_neg_batched_mops", "fixed_neg_batched_mops",
                   "growing_pos_single_mops", "fixed_pos_single_mops", "growing_pos_batched_mops",
                   "fixed_pos_batched_mops", "false_negatives"});
  for (const GrowthResult& r : results) {
    for (const CurvePoint& p : r.curve) {
      const Measured& g = p.growing;
      const Measured& f = p.fixed;
      curve.row({CsvWriter::cell(r.fpr), kind_name(p.kind), CsvWriter::cell(double(g.items)),
                 CsvWriter::cell(double(g.levels)), CsvWriter::cell(g.bits_per_item), CsvWriter::cell(f.bits_per_item),
                 CsvWriter::cell(g.fpr), CsvWriter::cell(g.bound), CsvWriter::cell(f.fpr), CsvWriter::cell(f.bound),
                 CsvWriter::cell(g.neg_single), CsvWriter::cell(f.neg_single), CsvWriter::cell(g.neg_batched),
                 CsvWriter::cell(f.neg_batched), CsvWriter::cell(g.pos_single), CsvWriter::cell(f.pos_single),
                 CsvWriter::cell(g.pos_batched), CsvWriter::cell(f.pos_batched),
                 CsvWriter::cell(double(g.false_negatives + f.false_negatives))});
    }
  }
  CsvWriter rates(config.out_dir + "/growth_rates.csv", {"fpr", "items", "what", "growing_mops", "fixed_mops", "ratio"});
  for (const GrowthResult& r : results)
    for (const Rate& rate : r.rates)
      rates.row({CsvWriter::cell(r.fpr), CsvWriter::cell(double(r.final_items)), "\"" + rate.what + "\"",
                 CsvWriter::cell(rate.growing), CsvWriter::cell(rate.fixed), CsvWriter::cell(rate.ratio)});
}

void write_figures(const GrowthConfig& config, const std::vector<GrowthResult>& results) {
  const std::string c0 = fmt("initial capacity %llu", (unsigned long long)config.initial_capacity);

  Plot bits{"Bits per item as the filter grows (" + c0 + ")", "items", "bits per item (table bits / items)", true, true, {}, {}};
  for (const GrowthResult& r : results) {
    Series growing{"growing, fpr " + fpr_label(r.fpr), {}, false, false};
    Series fixed{"fixed for the items, fpr " + fpr_label(r.fpr), {}, true, false};
    for (const CurvePoint& p : r.curve) {
      growing.points.push_back({double(p.growing.items), p.growing.bits_per_item});
      fixed.points.push_back({double(p.fixed.items), p.fixed.bits_per_item});
    }
    bits.series.push_back(growing);
    bits.series.push_back(fixed);
  }
  write_svg(bits, config.out_dir + "/growth_bits_per_item.svg");

  for (const GrowthResult& r : results) {
    Plot plot{"False-positive rate as the filter grows (fpr " + fpr_label(r.fpr) + ", " + c0 + ")", "items", "false-positive rate", true, true, {}, {}};
    Series measured{"growing, measured", {}, false, false};
    Series bound{"growing, false_positive_bound()", {}, true, false};
    Series fixed{"fixed for the items, measured", {}, false, true};
    Series requested{"requested rate", {}, true, false};
    for (const CurvePoint& p : r.curve) {
      measured.points.push_back({double(p.growing.items), p.growing.fpr});
      bound.points.push_back({double(p.growing.items), p.growing.bound});
      fixed.points.push_back({double(p.fixed.items), p.fixed.fpr});
    }
    requested.points = {{double(r.curve.front().growing.items), r.fpr}, {double(r.curve.back().growing.items), r.fpr}};
    plot.series = {measured, bound, fixed, requested};
    write_svg(plot, config.out_dir + "/growth_fpr_" + fpr_label(r.fpr) + ".svg");
  }

  // Lookups against levels, at the points where the levels are full, for the first rate.
  const GrowthResult& r = results.front();
  Plot lookups{"Lookups, growing / fixed, levels full (fpr " + fpr_label(r.fpr) + ")", "levels", "rate relative to the fixed filter", false, true, {}, {}};
  Series neg{"negative, single", {}, false, false}, neg_b{"negative, batched", {}, false, false};
  Series pos{"positive, single", {}, false, false}, pos_b{"positive, batched", {}, false, false};
  Series target{"target for positive lookups", {}, true, false};
  for (const CurvePoint& p : r.curve) {
    if (p.kind != CurvePoint::kLevelsFull) continue;
    const double levels = p.growing.levels;
    neg.points.push_back({levels, p.growing.neg_single / p.fixed.neg_single});
    neg_b.points.push_back({levels, p.growing.neg_batched / p.fixed.neg_batched});
    pos.points.push_back({levels, p.growing.pos_single / p.fixed.pos_single});
    pos_b.points.push_back({levels, p.growing.pos_batched / p.fixed.pos_batched});
  }
  if (!neg.points.empty()) target.points = {{neg.points.front().first, kRateTarget}, {neg.points.back().first, kRateTarget}};
  lookups.series = {neg, neg_b, pos, pos_b, target};
  write_svg(lookups, config.out_dir + "/growth_lookups_vs_levels.svg");
}

}  // namespace bench
