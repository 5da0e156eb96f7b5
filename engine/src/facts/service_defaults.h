// Dataflow's service defaults: what a fact is when the launch options leave it out (no --disk_size_gb
// is a 25 GB boot disk for a batch job, not an unknown disk). The table is data
// (rules/facts/service-defaults.yaml, `service_defaults:`), each default with its page and the date
// it was read. Applied only where a job's launch options are known (`--job job.json`, and the
// preflight options that go the same way): in a plain `analyze` a fact missing from the logs says
// nothing about the options. Internal to engine.
//
//   apply_job(job, catalog, facts);   // job.json's facts, then apply_service_defaults(catalog, facts)
#pragma once

#include "job_facts.h"
#include "pack/pack.h"

namespace gpudiag::detail {

// Below every real source: a log line, an options echo or job.json always wins over a default.
inline constexpr int kServiceDefaultPriority = 0;

// Sets each default whose fact is still unknown in `facts`, whose option (any spelling of the
// catalog's option_names) is absent from `options`, and whose `when` tests hold on the facts known
// (in table order, so a default may depend on one set before it). An option that is present but
// gave no fact (an ALL-CAPS placeholder such as DISK_SIZE_GB) stays unknown: it is not absent. The
// source says it is a default and names the page and the date the table was read.
void apply_service_defaults(const FactCatalog& catalog, const Options& options, JobFacts& facts);

// `a` compared with `b` as dotted numbers ("2.21.0" < "2.60.0", "2.50.0rc1" counts as 2.50.0):
// negative, zero or positive; nullopt when either has no leading number.
std::optional<int> compare_versions(std::string_view a, std::string_view b);

}  // namespace gpudiag::detail
