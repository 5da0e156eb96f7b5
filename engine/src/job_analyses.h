// From the export's accumulated jobs to the Analysis reports read: one Analysis per job (its rules
// evaluated on its own entries and facts), the job's outcome applied, the jobs ordered worst first,
// and the worst one's fields at the top. Internal to engine.
#pragma once

#include "export_accumulator.h"
#include "gpudiag/analysis.h"
#include "gpudiag/analyzer.h"

namespace gpudiag::detail {

// Fills `out`'s job fields, `jobs`, `not_diagnosed` and `not_selected`; the caller fills the input
// totals. Call after acc.finish().
void analyse_jobs(const ExportAccumulator& acc, const JobSelection& select, Analysis& out);

}  // namespace gpudiag::detail
