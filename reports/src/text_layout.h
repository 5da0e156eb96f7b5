// Laying out the text report on a terminal: display columns (wide CJK characters count two,
// combining marks none, colour codes none), prose wrapped or folded to a width, one-line crops,
// times to the millisecond, and the legend of the notations the report used. Internal to reports.
//
//   TextLegend legend;
//   out += wrap_prose(legend.safe(f.description), "   ", "   ", o.width);
//   out += legend.line(o.width);  // "" when no notation was used
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/report.h"

namespace gpudiag::detail {

// The columns `text` takes on a terminal: East Asian wide and fullwidth characters (and emoji) two,
// combining marks and zero-width characters none, SGR colour sequences (ESC [ … m) none.
size_t display_width(std::string_view text);

// Words filled into lines of at most `width` columns: the first line starts with `first_indent`, the
// others with `indent`. A word longer than a line gets a line of its own. Every line ends with "\n".
std::string wrap_prose(std::string_view text, std::string_view first_indent, std::string_view indent, size_t width);
// The same, as lines (no "\n"), at most `max_lines` of them: when the text does not fit, the last
// line ends with `tail` (" … more"), which always fits, and `*cut` (when given) is set.
std::vector<std::string> fold_prose(std::string_view text, std::string_view first_indent, std::string_view indent,
                                    size_t width, size_t max_lines, std::string_view tail = " …", bool* cut = nullptr);
// `text` within `columns` display columns, cut at the end with " …" when it does not fit.
std::string crop_columns(std::string_view text, size_t columns);

// "2022-11-28T22:09:27.200Z": a time to the millisecond (always three digits, truncated).
std::string time_ms(Timestamp t);
// time_span with times to the millisecond.
std::string time_span_ms(Timestamp a, Timestamp b);

// The notations of the text report, each explained once in a legend line printed only when the report
// used it: "…" where text was cut, "\x1b" for a control character, "<U+202E>" for an invisible one,
// U+FFFD for bytes that are not UTF-8.
class TextLegend {
 public:
  // terminal_safe(text), noting which notations it used.
  std::string safe(std::string_view text);
  // Notes a cut (crop_around, crop_middle …) when `shown` is not all of `whole`.
  void note_cut(std::string_view shown, std::string_view whole);
  void note_cut() { cut_ = true; }
  void add(const TextLegend& other);
  bool empty() const { return !cut_ && !control_ && !invisible_ && !replacement_; }
  // "legend: … text cut (the JSON report keeps it whole) · …", wrapped to `width`; "" when empty.
  std::string line(size_t width) const;

 private:
  bool cut_ = false, control_ = false, invisible_ = false, replacement_ = false;
};

}  // namespace gpudiag::detail
