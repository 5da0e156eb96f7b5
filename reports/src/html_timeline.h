// The HTML post-mortem's timeline: an inline SVG of the job's phases (from job messages), its
// worker count over time, one lane per finding pinned where it first appeared, and one per error no rule
// explains (the first kTimelineGroups) pinned at its first entry. Internal to
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
  int group_rank = 0;  // > 0 for errors no rule explains (U1, U2 …)
};

// The phases worth a marker (consecutive repeats dropped), findings' and unexplained error groups'
// first appearances, in time order; those without a time come last.
std::vector<StoryEvent> story_events(const RankedReport& report);

// Errors no rule explains given a lane, at most (the HTML section lists them all).
inline constexpr size_t kTimelineGroups = 10;

// The <svg> element (escaped, self-contained), or "" when the export has no timestamps.
// `prefix` goes before every id and in-page link ("" for the report's first job, "j2-" for another
// job's section of a several-job report).
std::string timeline_svg(const RankedReport& report, std::string_view prefix = "");

// "workers-started" → "workers started".
std::string phase_label(std::string_view phase);

}  // namespace gpudiag::detail
