// The run-history annotations (gpudiag --db) in JSON, shared by the JSON report and the history
// library's own JSON. Internal to reports (and history, which renders the same objects).
#pragma once

#include "gpudiag/json_writer.h"
#include "gpudiag/report.h"

namespace gpudiag::detail {

// {"status": "new"|"known", "accepted", "runs_affected", "runs_recorded", "streak",
//  "first_seen": {run, job_id, time}|null, "last_seen": …}
void write_finding_history(JsonWriter& w, const FindingHistory& h);
// {"run", "job_id", "time"}, or null for none.
void write_run_ref(JsonWriter& w, const RunRef& ref);

}  // namespace gpudiag::detail
