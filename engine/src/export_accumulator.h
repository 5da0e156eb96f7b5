// ExportAccumulator: routes what matching found in each batch to the job it belongs to — one
// JobAccumulator per job id, up to a cap — in input order. Single-threaded. Internal to engine.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiled_rule_pack.h"
#include "job_accumulator.h"
#include "observations.h"

namespace gpudiag::detail {

class ExportAccumulator {
 public:
  // A listed job past `max_jobs` costs its id; past this many of them only their entries are summed.
  static constexpr size_t kMaxListedUndiagnosed = 10'000;

  ExportAccumulator(const CompiledRulePack& pack, std::vector<std::string> input_paths, size_t max_jobs);

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

 private:
  // The job's accumulator, or nullptr past the cap (its entries are then counted in over_cap).
  JobAccumulator* job(const std::string& id);

  std::map<int, DecodeCache> decoded_;  // extractor signal → its decoder's last value (shared by jobs)
  JobAccumulator* last_ = nullptr;      // the last hit's job (entries come in runs of one job)
};

}  // namespace gpudiag::detail
