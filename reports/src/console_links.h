// Links from a report back into the Google Cloud console: the job's entries in Logs Explorer, one
// entry there, and the job's Dataflow page. Internal to reports; the HTML post-mortem places them.
#pragma once

#include <string>

#include "gpudiag/analysis.h"

namespace gpudiag::detail {

// Logs Explorer showing the job's entries (`resource.labels.job_id="…"`) between `from` and `to`
// (either may be kNoTime: no time range). "" when the job id is unknown.
std::string logs_explorer_job_url(const JobInfo& job, Timestamp from, Timestamp to);
// Logs Explorer at one entry: the job's entries in the minutes around it, the cursor on its
// timestamp. Its own job id and project when it carries them, else `job`'s. "" without a job id.
std::string logs_explorer_entry_url(const JobInfo& job, const LogRecord& entry);
// https://console.cloud.google.com/dataflow/jobs/REGION/JOB?project=PROJECT; "" without a job id
// or region.
std::string dataflow_job_url(const JobInfo& job);

// RFC 3986 percent-encoding of everything but unreserved characters (A–Z a–z 0–9 - . _ ~).
std::string percent_encode(std::string_view text);

}  // namespace gpudiag::detail
