#include "export_accumulator.h"

#include <fmt/format.h>

#include "gpudiag/stable_hash.h"

namespace gpudiag::detail {

ExportAccumulator::ExportAccumulator(const CompiledRulePack& p, std::vector<std::string> paths, size_t max)
    : pack(p), input_paths(std::move(paths)), max_jobs(max) {}

JobAccumulator* ExportAccumulator::job(const std::string& id) {
  if (last_ != nullptr && last_->job_id == id) return last_;
  auto it = jobs.find(id);
  if (it == jobs.end()) {
    if (!id.empty() && finished_ids_.count(stable_hash(id)) > 0) return nullptr;  // came back after it was finished
    // The unattributed entries always get an accumulator: they may be the export's only job's.
    if (jobs.size() >= max_jobs + (jobs.count("") ? 1 : 0) && !id.empty()) {
      if (!on_finish_early) return nullptr;
      // A job of the batch being merged is never finished before its entries are in: with more jobs
      // in one batch than the cap, the cap is restored when the batch ends (add_batch).
      finish_least_recent(batch_);
    }
    it = jobs.emplace(id, std::make_unique<JobAccumulator>(pack, input_paths, id)).first;
    it->second->errors.set_budget(&error_budget_);
    it->second->ref_budget = &ref_budget_;
    it->second->lean = jobs.size() > kFullJobs;
    if (jobs.size() > kFullJobs) many_jobs = true;
  }
  last_ = it->second.get();
  last_->last_batch = batch_;
  return last_;
}

void ExportAccumulator::finish_job(JobAccumulator& acc) {
  acc.facts.absorb(given);
  if (auto it = given_by_job.find(acc.job_id); it != given_by_job.end()) acc.facts.absorb(it->second);
  acc.finish();
}

bool ExportAccumulator::finish_least_recent(uint64_t before) {
  auto oldest = jobs.end();
  for (auto it = jobs.begin(); it != jobs.end(); ++it) {
    if (it->first.empty() || it->second->last_batch >= before) continue;  // "" waits for the end
    if (oldest == jobs.end() || it->second->last_batch < oldest->second->last_batch) oldest = it;
  }
  if (oldest == jobs.end()) return false;
  finish_job(*oldest->second);
  ref_budget_.held -= std::min(ref_budget_.held, oldest->second->ref_bytes());  // its refs are freed below
  on_finish_early(*oldest->second);
  finished_ids_.insert(stable_hash(oldest->first));
  ++finished_early;
  if (last_ == oldest->second.get()) last_ = nullptr;
  jobs.erase(oldest);
  return true;
}

void ExportAccumulator::count_elsewhere(const std::string& id, const JobSeen& what) {
  auto& counted = finished_ids_.count(stable_hash(id)) > 0 ? resumed : over_cap;
  auto it = counted.find(id);
  if (it == counted.end() && counted.size() < kMaxListedUndiagnosed) {
    it = counted.emplace(id, JobCount{id, what.job_name, 0}).first;
  }
  if (it != counted.end()) {
    it->second.entries += what.entries;
  } else {
    over_cap_unlisted += what.entries;
  }
}

void ExportAccumulator::add_batch(ChunkObservations&& seen, const std::function<bool(size_t entry)>& is_duplicate) {
  ++batch_;
  // Every job of the batch first, so that finishing a job early to make room never takes one that
  // this batch still adds to.
  std::vector<const std::string*> ids(seen.jobs.size());  // by JobSeen::ordinal, as hits name their job
  for (auto& [id, what] : seen.jobs) {
    job(id);
    ids[what.ordinal] = &id;
  }
  for (auto& hit : seen.hits) {
    if (hit.signal < 0) continue;  // superseded within its chunk
    if (is_duplicate(hit.entry_index)) continue;
    if (JobAccumulator* acc = job(*ids[hit.job])) acc->add_hit(std::move(hit), decoded_);
  }
  for (auto& error : seen.errors) {
    if (is_duplicate(error.entry_index)) continue;
    if (JobAccumulator* acc = job(*ids[error.job])) acc->errors.add(std::move(error));
  }
  for (auto& [id, what] : seen.jobs) {
    if (JobAccumulator* acc = job(id)) {
      acc->add_seen(std::move(what));
    } else {
      count_elsewhere(id, what);
    }
  }
  if (on_finish_early) {  // back to the cap, once the batch's entries are in their jobs
    while (jobs.size() > max_jobs + (jobs.count("") ? 1 : 0) && finish_least_recent(batch_ + 1)) {
    }
  }
}

void ExportAccumulator::finish() {
  // Entries of no job (a launcher's lines, an export without labels) belong to the export's only job.
  auto none = jobs.find("");
  if (none != jobs.end() && jobs.size() == 2 && finished_early == 0) {
    JobAccumulator& only = *(none == jobs.begin() ? std::next(jobs.begin()) : jobs.begin())->second;
    only.absorb(std::move(*none->second));
    jobs.erase(none);
  }
  last_ = nullptr;
  for (auto& [id, acc] : jobs) finish_job(*acc);
}

std::vector<std::string> ExportAccumulator::caps_reached() const {
  std::vector<std::string> notes;
  for (const auto& [id, acc] : jobs) {
    for (auto& note : acc->caps_reached()) {
      notes.push_back(jobs.size() > 1 ? fmt::format("job {}: {}", id.empty() ? "(none)" : id, note) : note);
    }
  }
  if (!over_cap.empty()) {
    uint64_t entries = over_cap_unlisted;
    for (const auto& [id, c] : over_cap) entries += c.entries;
    notes.push_back(
        fmt::format("more than {} jobs (--max-jobs): {} entries of {}{} further jobs are counted, not diagnosed",
                    max_jobs, entries, over_cap.size(), over_cap_unlisted > 0 ? "+" : ""));
  }
  if (finished_early > 0) {
    notes.push_back(
        fmt::format("more than {} jobs at once (--max-jobs): {} jobs were diagnosed as soon as the "
                    "next ones began, the healthy ones kept as a summary",
                    max_jobs, finished_early));
  }
  if (!resumed.empty()) {
    uint64_t entries = 0;
    for (const auto& [id, c] : resumed) entries += c.entries;
    notes.push_back(
        fmt::format("{} entries of {} jobs came after those jobs had been diagnosed (the input is not "
                    "grouped by job): counted, not diagnosed; a larger --max-jobs keeps them",
                    entries, resumed.size()));
  }
  return notes;
}

}  // namespace gpudiag::detail
