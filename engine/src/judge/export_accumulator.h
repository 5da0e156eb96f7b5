// ExportAccumulator: routes what matching found in each batch to the job it belongs to — one
// JobAccumulator per job id, up to a cap — in input order. Single-threaded. Internal to engine.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "job_accumulator.h"
#include "match/match.h"
#include "pack/pack.h"

namespace gpudiag::detail {

class ExportAccumulator {
 public:
  // A listed job past `max_jobs` costs its id; past this many of them only their entries are summed.
  static constexpr size_t kMaxListedUndiagnosed = 10'000;
  // While this many jobs hold state, a new one keeps full evidence; past it, new jobs are lean
  // (SignalHits::lean) and a healthy one's result is a summary (JobAnalyses). A day's sink shard of
  // a few dozen jobs is reported in full; a thousand jobs fit the memory cap (docs/performance.md).
  static constexpr size_t kFullJobs = 64;

  ExportAccumulator(const CompiledRulePack& pack, std::vector<std::string> input_paths, size_t max_jobs);

  // Called with a job whose accumulator is given up to make room: when `max_jobs` jobs hold state and
  // a new one starts, the one seen least recently is finished (given facts applied, finish() called)
  // and handed here, so an export grouped by job streams through whatever its number of jobs. Unset:
  // jobs past the cap are counted only (over_cap).
  std::function<void(JobAccumulator& finished)> on_finish_early;

  // Merges what matching found in one batch, batches in input order. Hits on entries that
  // `is_duplicate` says were seen before are dropped.
  void add_batch(ChunkObservations&& seen, const std::function<bool(size_t entry)>& is_duplicate);
  // After the last batch: the unattributed entries join the export's only job when there is one,
  // `given` facts (--job) are applied, each job's derived facts are set.
  void finish();
  // One line per memory cap that was reached.
  std::vector<std::string> caps_reached() const;

  const CompiledRulePack& pack;
  const std::vector<std::string> input_paths;
  const size_t max_jobs;
  JobFacts given;  // facts from --job or the caller, stronger than any log line, for every job
  std::map<std::string, JobFacts, std::less<>> given_by_job;  // … for the job of that id (--job files)
  // The jobs diagnosed, by id ("" = entries of no job). After finish(), "" is present only when
  // there were entries of no job beside several jobs, or of no job at all.
  std::map<std::string, std::unique_ptr<JobAccumulator>, std::less<>> jobs;
  std::map<std::string, JobCount, std::less<>> over_cap;  // jobs past max_jobs: counted only
  uint64_t over_cap_unlisted = 0;                         // … entries of those past kMaxListedUndiagnosed
  // Jobs finished early whose entries came back later (the input is not grouped by job): their
  // later entries are counted here, not diagnosed.
  std::map<std::string, JobCount, std::less<>> resumed;
  size_t finished_early = 0;
  bool many_jobs = false;  // more than kFullJobs jobs held state at once

 private:
  // The job's accumulator, or nullptr past the cap or for a job finished early (its entries are
  // then counted in over_cap or resumed).
  JobAccumulator* job(const std::string& id);
  void finish_job(JobAccumulator& acc);
  void count_elsewhere(const std::string& id, const JobSeen& what);
  // Finishes the job seen least recently before batch `before`; false when every job held is newer.
  bool finish_least_recent(uint64_t before);

  // The jobs finished early, as XXH3-64 of their ids (8 bytes a job, so that even a million jobs
  // cannot come back as new ones).
  std::unordered_set<uint64_t> finished_ids_;
  uint64_t batch_ = 0;  // batches merged so far, for "seen least recently"

  ErrorBudget error_budget_;            // what every job's error groups hold at once
  RefBudget ref_budget_;                // what every job's hit references hold at once
  std::map<int, DecodeCache> decoded_;  // extractor signal → its decoder's last value (shared by jobs)
  JobAccumulator* last_ = nullptr;      // the last hit's job (entries come in runs of one job)
};

}  // namespace gpudiag::detail
