// The HTML post-mortem's timeline: an inline SVG of the job's phases (from job messages), its
// worker count over time, and one lane per finding pinned where it first appeared. Internal to
// reports; html_report.cc places it.
#pragma once

#include <string>
#include <vector>

#include "gpudiag/report.h"

namespace gpudiag::detail {

// A moment in the job's story: a phase change or a finding first seen.
struct StoryEvent {
  Timestamp at = kNoTime;
  std::string label;     // "workers started", "#1 GPU ran out of memory first seen" (raw text)
  std::string detail;    // the job message, or where the finding was seen (raw text)
  int finding_rank = 0;  // > 0 for findings
  Impact severity = Impact::kInfo;
};

// The phases worth a marker (consecutive repeats dropped) and findings' first appearances, in time
// order; findings without a time come last.
std::vector<StoryEvent> story_events(const RankedReport& report);

// The <svg> element (escaped, self-contained), or "" when the export has no timestamps.
// `prefix` goes before every id and in-page link ("" for the report's first job, "j2-" for another
// job's section of a several-job report).
std::string timeline_svg(const RankedReport& report, std::string_view prefix = "");

// "workers-started" → "workers started".
std::string phase_label(std::string_view phase);

}  // namespace gpudiag::detail
