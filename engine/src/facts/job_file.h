// --job files as job facts: ingest reads and checks a file (gpudiag/job_file.h: DescribedJob, with its
// place as file:line:column); apply_job() writes what one job says into the job model, as the --job
// source (of one job only: job_whose_facts_apply, analyzer.h). Internal to engine.
//
//   auto jobs = read_job_file("job.json");
//   if (!jobs) return jobs.error();          // "job.json:1:1: … is not a Dataflow job description"
//   apply_job((*jobs)[0], catalog, facts);
#pragma once

#include "gpudiag/job_file.h"
#include "job_facts.h"

namespace gpudiag::detail {

// Writes the job's facts as the --job source (the strongest).
void apply_job(const DescribedJob& job, const FactCatalog& catalog, JobFacts& facts);

}  // namespace gpudiag::detail
