// Writing baseline files for people (docs/baseline.md, "Writing one"): a draft that accepts every
// current finding, and an update that drops the entries nothing matches any more by deleting their
// lines, so that the rest of the file — comments, order, spacing — stays as the user wrote it.
//
//   std::string text = draft_baseline(report, {.today = "2026-12-02", .inputs = {"logs.json"}});
//   Result<BaselineTrim> trimmed = drop_unseen_entries(old_text, "gpudiag-baseline.yaml", report);
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/baseline.h"
#include "gpudiag/report.h"
#include "gpudiag/result.h"

namespace gpudiag {

// The reason every drafted entry carries until a person writes the real one. The gate accepts it
// (the file is valid) but says on stderr which lines still hold it.
inline constexpr std::string_view kBaselineReasonPlaceholder = "TODO: say why this finding is accepted";

struct BaselineDraft {
  std::string today;                // "YYYY-MM-DD", for the header comment
  std::string expires;              // "" or "YYYY-MM-DD": written on every entry
  std::vector<std::string> inputs;  // the exports it was made from, for the header comment
};

// A baseline file (version 1) with one entry per distinct finding and unexplained error group of
// every job of the report, in report order, each under a comment saying what it is. It parses.
std::string draft_baseline(const RankedReport& report, const BaselineDraft& draft);

struct BaselineTrim {
  std::string text;                    // the file without the dropped entries' lines
  std::vector<BaselineEntry> dropped;  // in file order
  std::vector<BaselineEntry> kept;
  size_t not_listed = 0;  // distinct current findings and groups the file does not list
};

// Drops the entries that match no finding or unexplained group of any job of `report` (by the
// current, v2 or v1 fingerprint). An entry's lines are those from its `- ` line to its last line of
// content, plus the comment lines directly above it indented at least as far as its `-` (its own
// comment); blank lines, other comments and everything else are kept. Fails when the file does not
// parse, or when its `suppress` list is not in block style (a JSON or flow-style list: edit it by
// hand).
Result<BaselineTrim> drop_unseen_entries(std::string_view text, std::string_view file, const RankedReport& report);

// The entries whose reason is still kBaselineReasonPlaceholder, as a note for stderr ("" when none).
std::string baseline_placeholder_note(const Baseline& baseline);

}  // namespace gpudiag
