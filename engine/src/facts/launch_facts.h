// The one way launch options become job facts, whether they come from `--job job.json` (analyze,
// report, gate) or from `gpudiag preflight`: whatever the engine derives or defaults from options
// is done here, so the two paths agree; once every source of a launch is applied, both call
// apply_service_defaults (service_defaults.h) for what the options leave out. Internal to engine.
#pragma once

#include "job_facts.h"

namespace gpudiag::detail {

void apply_launch_options(const Options& options, const FactCatalog& catalog, JobFacts& facts, const FactSource& source,
                          int priority);

}  // namespace gpudiag::detail
