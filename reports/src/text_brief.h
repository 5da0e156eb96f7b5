// The text report's short forms (RenderOptions::text_detail): --brief, the verdict, the causes with
// one evidence line each and the first fix in at most kBriefLines lines of at most 100 columns
// (with several jobs the jobs that are not ok one line each, and how many are healthy); -q, the
// verdict line alone. Internal to reports: render_text calls it with its colours.
#pragma once

#include <string>
#include <string_view>

#include "gpudiag/report.h"

namespace gpudiag::detail {

inline constexpr size_t kBriefLines = 15;
inline constexpr size_t kBriefColumns = 100;

// What the brief paints; text_report.cc implements it with its terminal style.
class TextPaint {
 public:
  virtual ~TextPaint() = default;
  virtual std::string bold(std::string_view text) const = 0;
  virtual std::string dim(std::string_view text) const = 0;
  virtual std::string severity(Impact impact) const = 0;  // "[ERROR]"
  virtual std::string verdict(const RankedReport& report, std::string_view text) const = 0;
};

// Whether the text report shows a finding or group of this severity (RenderOptions::min_severity).
inline bool shown_at(Impact severity, const RenderOptions& o) { return !o.min_severity || severity >= *o.min_severity; }

std::string render_text_brief(const RankedReport& report, const RenderOptions& options, const TextPaint& paint);
std::string render_text_verdict(const RankedReport& report, const RenderOptions& o, const TextPaint& paint);

}  // namespace gpudiag::detail
