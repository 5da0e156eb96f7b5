#include "job_file.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <re2/re2.h>

#include <algorithm>

#include "gpudiag/analyzer.h"
#include "gpudiag/diagnostic_codes.h"
#include "launch_facts.h"
#include "service_defaults.h"

namespace gpudiag {
namespace detail {
namespace {

// The options as the job model reads them (job_facts.h).
Options options_of(const DescribedJob& job) {
  Options options;
  for (const auto& [name, value] : job.options)
    options.emplace(name, PythonValue{value.text, value.items, value.is_list});
  return options;
}

}  // namespace

void apply_job(const DescribedJob& job, const FactCatalog& catalog, JobFacts& facts) {
  const FactSource source{"job.json"};
  const Options options = options_of(job);
  apply_launch_options(options, catalog, facts, source, kJobFilePriority);
  if (job.type) {
    facts.set("job_type", *job.type, source, kJobFilePriority);
    facts.set("streaming", *job.type == "JOB_TYPE_STREAMING" ? "true" : "false", source, kJobFilePriority);
  }
  if (job.sdk_version) facts.set("beam_version_launch", *job.sdk_version, source, kJobFilePriority);
  if (job.sdk_version_display) {
    static const RE2 python(R"(Python (\d\.\d+))");
    std::string v;
    if (RE2::PartialMatch(*job.sdk_version_display, python, &v)) {
      facts.set("python_version_launch", v, source, kJobFilePriority);
    }
  }
  // The job's own state, as Dataflow reports it: the strongest source of the `outcome` fact.
  if (const auto outcome = parse_job_outcome(job.about.current_state)) {
    facts.set("outcome", std::string(job_outcome_name(*outcome)), source, kJobFilePriority);
  }
  // The launch options are known here: what they leave out is Dataflow's default, not unknown.
  apply_service_defaults(catalog, options, facts);
}

Status apply_job_file(const std::string& path, const FactCatalog& catalog, JobFacts& facts) {
  return apply_job_files({path}, catalog, facts);
}

Status apply_job_files(const std::vector<std::string>& paths, const FactCatalog& catalog, JobFacts& facts,
                       std::map<std::string, JobFacts, std::less<>>* by_job) {
  std::vector<DescribedJob> jobs;
  for (const auto& path : paths) {
    auto parsed = read_job_file(path);
    if (!parsed) return parsed.error();
    for (auto& job : *parsed) jobs.push_back(std::move(job));
  }
  if (by_job != nullptr) {  // each description to its own job; one without an id to every job
    for (const auto& job : jobs) apply_job(job, catalog, job.about.id.empty() ? facts : (*by_job)[job.about.id]);
    return Ok{};
  }
  std::vector<JobDescription> described;
  for (const auto& job : jobs) described.push_back(job.about);
  if (const auto which = job_whose_facts_apply(described)) apply_job(jobs[*which], catalog, facts);
  return Ok{};
}

}  // namespace detail

std::optional<size_t> job_whose_facts_apply(const std::vector<JobDescription>& jobs) {
  std::optional<size_t> described;  // the one job of a `jobs describe` file
  size_t files = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (jobs[i].in_list) continue;
    ++files;
    described = i;
  }
  if (files == 1) return described;
  if (files == 0 && jobs.size() == 1) return 0;
  return std::nullopt;
}

Result<std::string> check_job_descriptions(const Analysis& analysis, const std::vector<JobDescription>& jobs) {
  if (jobs.empty()) return std::string{};
  const JobInfo& exported = analysis.job;
  if (exported.id.empty() && exported.other_ids.empty()) {
    return fmt::format("the export holds no job id, so the --job description{} could not be checked against it",
                       jobs.size() == 1 ? "" : "s");
  }
  const auto in_export = [&](const std::string& id) {
    return id == exported.id ||
           std::find(exported.other_ids.begin(), exported.other_ids.end(), id) != exported.other_ids.end();
  };
  std::string exported_ids = exported.id;
  if (!exported.other_ids.empty()) {
    exported_ids +=
        fmt::format(" (and {} other{})", exported.other_ids.size(), exported.other_ids.size() == 1 ? "" : "s");
  }
  const auto mismatch = [&](const JobDescription& job, std::string described) {
    return Diagnostic{.code = code_name(DiagnosticCode::kJobMismatch),
                      .message = fmt::format("the --job file describes {}, but the export holds job {}",
                                             std::move(described), exported_ids),
                      .file = job.file,
                      .line = job.line,
                      .column = job.column,
                      .help = fmt::format("describe the exported job (gcloud dataflow jobs describe {} --full "
                                          "--format=json), or export the logs of the job described",
                                          exported.id)};
  };
  size_t listed_elsewhere = 0;
  for (size_t i = 0; i < jobs.size();) {
    const JobDescription& job = jobs[i];
    if (!job.in_list) {  // the file's one job
      if (!in_export(job.id)) {
        return mismatch(job, fmt::format("job {}{}", job.id, job.name.empty() ? "" : fmt::format(" ({})", job.name)));
      }
      ++i;
      continue;
    }
    size_t end = i;  // the jobs of one list
    bool any = false;
    std::vector<std::string> ids;
    for (; end < jobs.size() && jobs[end].in_list && jobs[end].file == job.file; ++end) {
      any = any || in_export(jobs[end].id);
      if (ids.size() < 3) ids.push_back(jobs[end].id);
      if (!in_export(jobs[end].id)) ++listed_elsewhere;
    }
    if (!any) {
      return mismatch(job, fmt::format("{} job{} ({}{}), none of them in the export", end - i, end - i == 1 ? "" : "s",
                                       fmt::join(ids, ", "), end - i > ids.size() ? ", …" : ""));
    }
    i = end;
  }
  if (listed_elsewhere == 0) return std::string{};
  return fmt::format("{} of the jobs the --job list describes {} not in the export (ignored)", listed_elsewhere,
                     listed_elsewhere == 1 ? "is" : "are");
}

}  // namespace gpudiag
