#include "job_views.h"

#include <fmt/format.h>

#include <algorithm>

#include "wording.h"

namespace gpudiag::detail {

bool shown_in_full(const RankedReport& job) { return job.verdict != Verdict::kOk; }

std::vector<size_t> full_jobs(const RankedReport& top) {
  std::vector<size_t> out;
  for (size_t i = 0; i < top.jobs.size(); ++i) {
    if (i == 0 || shown_in_full(top.jobs[i])) out.push_back(i);
  }
  return out;
}

std::string unlisted_jobs_line(const RankedReport& top) {
  const UnlistedJobs& u = top.analysis->unlisted_jobs;
  if (u.jobs == 0) return "";
  std::vector<std::string> verdicts;
  if (u.failed > 0) verdicts.push_back(fmt::format("{} failed", u.failed));
  if (u.warning > 0) verdicts.push_back(fmt::format("{} warning", u.warning));
  if (u.ok > 0) verdicts.push_back(fmt::format("{} ok", u.ok));
  // Their causes, the commonest first, by the title a listed job's finding of the rule gives.
  std::vector<std::pair<std::string, uint64_t>> causes(u.top_rules.begin(), u.top_rules.end());
  std::stable_sort(causes.begin(), causes.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  const auto title = [&](const std::string& rule_id) -> std::string {
    if (rule_id.empty()) return "no rule explains it";
    for (const auto& job : top.jobs) {
      for (const auto& rf : job.findings) {
        if (rf.finding->rule_id == rule_id) return rf.finding->title;
      }
    }
    return rule_id;
  };
  std::vector<std::string> named;
  for (size_t i = 0; i < causes.size() && i < 3; ++i) {
    named.push_back(fmt::format("{} × {}", title(causes[i].first), causes[i].second));
  }
  if (causes.size() > 3) named.push_back(plural(causes.size() - 3, "more cause", "more causes"));
  return fmt::format("{} not listed, {} ({}{}{}): the report lists the {} worst jobs; --job-id gives any job's own",
                     plural(u.jobs, "more job", "more jobs"), plural(u.entries, "entry", "entries"),
                     fmt::join(verdicts, ", "), named.empty() ? "" : "; ", fmt::join(named, ", "), top.jobs.size());
}

std::string jobs_count(const RankedReport& top) {
  const uint64_t unlisted = top.analysis->unlisted_jobs.jobs;
  return unlisted == 0 ? fmt::format("{}", top.jobs.size())
                       : fmt::format("{} of {}", top.jobs.size(), top.jobs.size() + unlisted);
}

bool unlisted_jobs_trip(const RankedReport& top, Impact threshold) {
  const UnlistedJobs& u = top.analysis->unlisted_jobs;
  return u.jobs > 0 && u.top_severity >= threshold;
}

std::string job_label(const JobInfo& job) {
  if (job.id.empty()) return job.name.empty() ? "job (no id)" : fmt::format("job {}", job.name);
  return job.name.empty() ? fmt::format("job {}", job.id) : fmt::format("job {} ({})", job.name, job.id);
}

std::string pipeline_key(const RankedReport& job, const RankedReport& top) {
  if (job.history && !job.history->pipeline.empty()) return job.history->pipeline;
  const JobInfo& info = job.analysis->job;
  if (top.history && !top.history->pipeline.empty() && top.analysis->job.id == info.id) return top.history->pipeline;
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
