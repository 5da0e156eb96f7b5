#include "job_views.h"

#include <fmt/format.h>

namespace gpudiag::detail {

bool shown_in_full(const RankedReport& job) { return job.verdict != Verdict::kOk; }

std::vector<size_t> full_jobs(const RankedReport& top) {
  std::vector<size_t> out;
  for (size_t i = 0; i < top.jobs.size(); ++i) {
    if (i == 0 || shown_in_full(top.jobs[i])) out.push_back(i);
  }
  return out;
}

std::string job_label(const JobInfo& job) {
  if (job.id.empty()) return job.name.empty() ? "job (no id)" : fmt::format("job {}", job.name);
  return job.name.empty() ? fmt::format("job {}", job.id) : fmt::format("job {} ({})", job.name, job.id);
}

std::string pipeline_key(const RankedReport& job, const RankedReport& top) {
  if (job.history && !job.history->pipeline.empty()) return job.history->pipeline;
  const JobInfo& info = job.diagnosis->job;
  if (top.history && !top.history->pipeline.empty() && top.diagnosis->job.id == info.id) return top.history->pipeline;
  return info.name.empty() ? info.id : info.name;
}

std::string top_cause(const RankedReport& job) {
  // An error no rule explains at error is the job's most likely cause (ranker.cc's verdict line).
  if (!job.unexplained.empty() && job.unexplained.front().severity() >= Impact::kError)
    return unexplained_headline(*job.unexplained.front().group);
  for (const auto& rf : job.findings) {
    if (rf.depth == 0) return rf.finding->title;
  }
  return "";
}

}  // namespace gpudiag::detail
