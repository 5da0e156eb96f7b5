// reports: ranks a Diagnosis (root causes before their symptoms, fixes best first) and renders it.
//
//   RankedReport report = rank(diagnosis);
//   std::string text = render_text(report, {.color = isatty(1)});
//   std::string json = render_json(report, {});
//
// Renderers see only the ranked report; everything taken from logs is escaped for its format.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpudiag/diagnosis.h"

namespace gpudiag {

// A fix in the job-wide list: proposed by one or more findings, listed once with all its reasons.
struct RankedFix {
  int rank = 0;
  std::string id;
  std::string action;
  std::vector<std::string> reasons;     // the `why` of each finding that proposes it (distinct)
  std::vector<std::string> for_rules;   // the findings proposing it, best first
  DocLink doc;
  double score = 0;
  bool demoted = false;
  std::string demoted_because;
  std::string rank_reason;              // why it ranks where it does, one line
};

struct RankedFinding {
  int rank = 0;                         // 1-based, in report order
  const Finding* finding = nullptr;     // points into the Diagnosis the report was built from
  std::optional<size_t> caused_by;      // index (into RankedReport::findings) of its cause
  std::vector<size_t> symptoms;         // indices of the findings it explains
  int depth = 0;                        // 0 for root causes
  std::vector<FindingFix> fixes;        // this finding's fixes, best first
  std::vector<std::string> fix_reasons; // parallel to fixes: why each ranks there
};

enum class Verdict { kOk, kWarning, kFailed };

struct RankedReport {
  const Diagnosis* diagnosis = nullptr;
  std::vector<RankedFinding> findings;  // roots in rank order, each followed by its symptoms
  std::vector<RankedFix> fixes;         // job-wide, best first
  Verdict verdict = Verdict::kOk;
  std::string verdict_line;             // one line a person reads first
};

// Orders findings and fixes. The Diagnosis must outlive the report.
RankedReport rank(const Diagnosis& diagnosis);

struct RenderOptions {
  bool color = false;              // ANSI colours (text only; callers enable it on a TTY)
  bool deterministic = false;      // no run times, no absolute paths, no version drift (goldens)
  std::string version = "0.0.0";   // gpudiag's version, shown unless deterministic
  size_t evidence_per_finding = 3; // text: evidence lines shown per finding
};

// The schema name and version of render_json's output (docs/json-schema.md).
inline constexpr std::string_view kJsonSchema = "gpudiag.report/v1";

std::string render_text(const RankedReport& report, const RenderOptions& options);
std::string render_json(const RankedReport& report, const RenderOptions& options);

// Helpers shared by renderers (and tests): text safe for a terminal (control characters shown as
// \xNN, never passed through), and UTF-8-safe cropping with an ellipsis in the middle.
std::string terminal_safe(std::string_view text);
std::string crop_middle(std::string_view text, size_t max_bytes);
// An input path as reports show it: as given, or only its file name when deterministic and absolute.
std::string display_path(const std::string& path, bool deterministic);

}  // namespace gpudiag
