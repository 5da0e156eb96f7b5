// --job-id and --job-name name jobs of the export: one the export does not hold is a usage error
// (exit 2) that names the jobs it does hold, closest first, rather than an "empty" report.
#pragma once

#include "gpudiag/analysis.h"
#include "gpudiag/analyzer.h"

namespace gpudiag::cli {

// True when every --job-id is a job of the export and --job-name matched one, or when the export
// holds no job at all (its verdict, `empty`, says why). Otherwise prints why on stderr.
bool check_job_selection(const JobSelection& select, const Analysis& d);

}  // namespace gpudiag::cli
