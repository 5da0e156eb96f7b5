// From the export's accumulated jobs to the Analysis reports read: one Analysis per job (its rules
// evaluated on its own entries and facts), the job's outcome applied, the jobs ordered worst first,
// and the worst one's fields at the top. Internal to engine.
#pragma once

#include "evidence/evidence.h"
#include "export_accumulator.h"
#include "gpudiag/analysis.h"
#include "gpudiag/analyzer.h"

namespace gpudiag::detail {

// The analyses of the export's jobs as each is finished: early (ExportAccumulator::on_finish_early),
// then the rest at the end.
class JobAnalyses {
 public:
  JobAnalyses(const CompiledRulePack& pack, JobSelection select)
      : pack_(pack), frameworks_(*pack.frameworks), select_(std::move(select)) {}

  // Evaluates the rules on a finished job. A healthy job finished early is kept as a summary (its
  // facts, phases and inconclusive checks dropped), so that thousands of them fit the memory cap.
  // With many jobs held at once (ExportAccumulator::many_jobs), healthy jobs and the jobs that are not
  // ok past this many are kept as summaries (summarise(): no evidence, descriptions, fixes, facts).
  static constexpr size_t kMaxFullResults = 256;

  void add(JobAccumulator& job, bool many_jobs);  // takes the job's error groups
  // After acc.finish(): the jobs still held, then `out`'s job fields, `jobs` (worst first),
  // `not_diagnosed` and `not_selected`. The caller has filled the input totals and `inputs`.
  void finish(ExportAccumulator& acc, Analysis& out);  // frees each job's state once analysed

 private:
  void keep(Analysis job);  // into the list of the worst kMaxListedJobs, or counted

  const CompiledRulePack& pack_;
  const FrameFilter& frameworks_;
  const JobSelection select_;
  std::vector<Analysis> jobs_;  // a heap by badness, the least bad in front (keep())
  UnlistedJobs unlisted_;
  std::vector<JobCount> not_selected_;
  uint64_t not_selected_unlisted_ = 0;
  size_t full_results_ = 0;
};

}  // namespace gpudiag::detail
