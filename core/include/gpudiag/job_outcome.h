// JobOutcome: how the job itself ended (or where it stands), as Dataflow's JOB_STATE_* values say it.
// It is the `outcome` fact of the job model, written by the reports (gpudiag.report/v1 `outcome`)
// and the history database.
#pragma once

#include <array>
#include <optional>
#include <string_view>

#include "gpudiag/enum_names.h"

namespace gpudiag {

enum class JobOutcome : uint8_t { kUnknown, kSucceeded, kFailed, kCancelled, kDrained, kUpdated, kRunning, kQueued };

struct JobOutcomeInfo {
  JobOutcome outcome;
  std::string_view name;       // the fact's value, as reports and the history write it
  std::string_view job_state;  // Dataflow's currentState (`gcloud dataflow jobs describe`)
  bool ended;                  // a terminal state
};

inline constexpr std::array<JobOutcomeInfo, 8> kJobOutcomes{{
    {JobOutcome::kUnknown, "unknown", "JOB_STATE_UNKNOWN", false},
    {JobOutcome::kSucceeded, "succeeded", "JOB_STATE_DONE", true},
    {JobOutcome::kFailed, "failed", "JOB_STATE_FAILED", true},
    {JobOutcome::kCancelled, "cancelled", "JOB_STATE_CANCELLED", true},
    {JobOutcome::kDrained, "drained", "JOB_STATE_DRAINED", true},
    {JobOutcome::kUpdated, "updated", "JOB_STATE_UPDATED", true},
    {JobOutcome::kRunning, "running", "JOB_STATE_RUNNING", false},
    {JobOutcome::kQueued, "queued", "JOB_STATE_QUEUED", false},
}};

static_assert(
    [] {
      for (size_t i = 0; i < kJobOutcomes.size(); ++i) {
        if (static_cast<size_t>(kJobOutcomes[i].outcome) != i) return false;
      }
      return true;
    }(),
    "kJobOutcomes is indexed by JobOutcome");

constexpr const JobOutcomeInfo& job_outcome_info(JobOutcome o) { return kJobOutcomes[static_cast<size_t>(o)]; }
constexpr std::string_view job_outcome_name(JobOutcome o) { return job_outcome_info(o).name; }
// "succeeded" … (a fact value) or "JOB_STATE_DONE" … (a job file's currentState; also the transitional
// JOB_STATE_CANCELLING, JOB_STATE_DRAINING, JOB_STATE_PENDING as their ends' running or queued).
std::optional<JobOutcome> parse_job_outcome(std::string_view text);

}  // namespace gpudiag
