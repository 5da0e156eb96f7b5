#include "export_accumulator.h"

#include <fmt/format.h>

namespace gpudiag::detail {

ExportAccumulator::ExportAccumulator(const CompiledRulePack& p, std::vector<std::string> paths, size_t max)
    : pack(p), input_paths(std::move(paths)), max_jobs(max) {}

JobAccumulator* ExportAccumulator::job(const std::string& id) {
  if (last_ != nullptr && last_->job_id == id) return last_;
  auto it = jobs.find(id);
  if (it == jobs.end()) {
    // The unattributed entries always get an accumulator: they may be the export's only job's.
    if (jobs.size() >= max_jobs + (jobs.count("") ? 1 : 0) && !id.empty()) return nullptr;
    it = jobs.emplace(id, std::make_unique<JobAccumulator>(pack, input_paths, id)).first;
  }
  last_ = it->second.get();
  return last_;
}

void ExportAccumulator::add_batch(ChunkObservations&& seen, const std::function<bool(size_t entry)>& is_duplicate) {
  for (auto& hit : seen.hits) {
    if (hit.signal < 0) continue;  // superseded within its chunk
    if (is_duplicate(hit.entry_index)) continue;
    if (JobAccumulator* acc = job(hit.job)) acc->add_hit(std::move(hit), decoded_);
  }
  for (auto& [id, what] : seen.jobs) {
    if (JobAccumulator* acc = job(id)) {
      acc->add_seen(std::move(what));
      continue;
    }
    auto it = over_cap.find(id);
    if (it == over_cap.end() && over_cap.size() < kMaxListedUndiagnosed) {
      it = over_cap.emplace(id, JobCount{id, what.job_name, 0}).first;
    }
    if (it != over_cap.end()) {
      it->second.entries += what.entries;
    } else {
      over_cap_unlisted += what.entries;
    }
  }
}

void ExportAccumulator::finish() {
  // Entries of no job (a launcher's lines, an export without labels) belong to the export's only job.
  auto none = jobs.find("");
  if (none != jobs.end() && jobs.size() == 2) {
    JobAccumulator& only = *(none == jobs.begin() ? std::next(jobs.begin()) : jobs.begin())->second;
    only.absorb(std::move(*none->second));
    jobs.erase(none);
  } else if (none != jobs.end() && none->second->entries == 0 && jobs.size() > 1) {
    jobs.erase(none);
  }
  last_ = nullptr;
  for (auto& [id, acc] : jobs) {
    acc->facts.absorb(given);
    if (auto it = given_by_job.find(id); it != given_by_job.end()) acc->facts.absorb(it->second);
    acc->finish();
  }
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
  return notes;
}

}  // namespace gpudiag::detail
