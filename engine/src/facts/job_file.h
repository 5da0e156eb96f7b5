// --job files: `gcloud dataflow jobs describe JOB --full --format=json` (one job object) or
// `gcloud dataflow jobs list --format=json` (an array of them). Two steps: parse_job_file() checks
// the shape (positions as file:line:column) and reads, per job described, its id, name, state and
// the facts it gives; apply_job() writes those facts into the job model (of one job only:
// job_whose_facts_apply, analyzer.h). Internal to engine; the
// public view is JobDescription (analyzer.h).
//
//   auto jobs = read_job_file("job.json");
//   if (!jobs) return jobs.error();          // "job.json:1:1: … is not a Dataflow job description"
//   for (const auto& job : *jobs) apply_job(job, catalog, facts);
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpudiag/analyzer.h"
#include "gpudiag/result.h"
#include "job_facts.h"

namespace gpudiag::detail {

struct ParsedJob {
  JobDescription about;  // file, line:column of its object, id, name, currentState
  Options options;       // pipeline options (environment, sdkPipelineOptions, worker pools): facts via the catalog
  std::vector<std::pair<std::string, std::string>> facts;  // facts it gives directly (job_type, streaming …)
};

// `text` is the file's content, `path` its name for diagnostics.
Result<std::vector<ParsedJob>> parse_job_file(std::string_view text, const std::string& path);
Result<std::vector<ParsedJob>> read_job_file(const std::string& path);
// Writes the job's facts as the --job source (the strongest).
void apply_job(const ParsedJob& job, const FactCatalog& catalog, JobFacts& facts);

}  // namespace gpudiag::detail
