// Several jobs in one export (issue 14): what the post-mortem and CI formats share. Each job's own
// RankedReport is RankedReport::jobs[i] (its Analysis carries the export's inputs, so evidence
// paths resolve). Internal to reports.
#pragma once

#include <string>
#include <vector>

#include "gpudiag/report.h"

namespace gpudiag::detail {

// Whether the report covers several jobs (formats only add to their one-job output then).
inline bool several_jobs(const RankedReport& report) { return report.jobs.size() > 1; }

// Whether a job is shown in full (its verdict is not ok); the healthy ones get one line or row.
bool shown_in_full(const RankedReport& job);
// The jobs shown in full, by index into top.jobs, worst first; always at least the first (worst).
std::vector<size_t> full_jobs(const RankedReport& top);

// Jobs diagnosed past the report's list (Analysis::unlisted_jobs, the least bad ones), in one line:
// "24,000 more jobs not listed (23,990 failed, 10 ok; GPU ran out of memory × 23,990): …"; "" when none.
std::string unlisted_jobs_line(const RankedReport& top);
// "N", or "N of TOTAL" when jobs are past the list: a jobs table's count.
std::string jobs_count(const RankedReport& top);
// Whether the unlisted jobs trip a gate at `threshold`: a finding or error group of theirs is at or
// above it (no baseline can accept what is not listed).
bool unlisted_jobs_trip(const RankedReport& top, Impact threshold);

// "job NAME (ID)", "job ID" or "job (no id)", raw text.
std::string job_label(const JobInfo& job);
// The key a job is recorded under: the run history's pipeline when the report has one, else the
// job's name (else its id).
std::string pipeline_key(const RankedReport& job, const RankedReport& top);
// The job's most likely cause: its top unexplained group's headline when that group is at error, else
// the title of its top root cause; "" when none.
std::string top_cause(const RankedReport& job);

}  // namespace gpudiag::detail
