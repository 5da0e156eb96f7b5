#include "job_tally.h"

#include <algorithm>

namespace gpudiag::detail {

void JobTally::start_chunk() {
  job_ = nullptr;
  job_id_ = {};
  recent_jobs_ = {};
  job_caches_.clear();
  caches_ = nullptr;
  last_worker_.clear();
  last_sdk_worker_.clear();
}

namespace {

// A map's value for `key`, added as `initial` when missing.
template <typename Map>
typename Map::mapped_type& lookup(Map& map, std::string_view key, const typename Map::mapped_type& initial) {
  auto it = map.find(key);
  if (it == map.end()) it = map.emplace(std::string(key), initial).first;
  return it->second;
}

}  // namespace

JobSeen& JobTally::job_of(const LogRecord& r, ChunkObservations& out) {
  if (job_ != nullptr && r.job_id == job_id_) return *job_;
  auto recent = std::find_if(recent_jobs_.begin(), recent_jobs_.end(),
                             [&](const RecentJob& j) { return j.seen != nullptr && j.id == r.job_id; });
  if (recent == recent_jobs_.end()) {
    auto it = out.jobs.find(r.job_id);
    if (it == out.jobs.end()) {
      it = out.jobs.emplace(std::string(r.job_id), JobSeen{}).first;
      it->second.ordinal = static_cast<uint32_t>(out.jobs.size() - 1);
    }
    recent = recent_jobs_.end() - 1;  // the one seen longest ago makes room
    *recent = RecentJob{it->first, &it->second};
  }
  const RecentJob found = *recent;
  std::move_backward(recent_jobs_.begin(), recent, recent + 1);
  recent_jobs_.front() = found;
  job_ = found.seen;
  job_id_ = found.id;
  caches_ = nullptr;
  if (job_->ordinal < kCachedJobs) {
    if (job_caches_.size() <= job_->ordinal) job_caches_.resize(job_->ordinal + 1);
    caches_ = &job_caches_[job_->ordinal];
  }
  last_worker_.clear();
  last_sdk_worker_.clear();
  return *job_;
}

JobSeen& JobTally::note(const LogRecord& r, ChunkObservations& out) {
  JobSeen& job = job_of(r, out);
  ++job.entries;
  if (r.timestamp != kNoTime) {
    if (job.earliest == kNoTime || r.timestamp < job.earliest) job.earliest = r.timestamp;
    if (job.latest == kNoTime || r.timestamp > job.latest) job.latest = r.timestamp;
  }
  if (!r.log.empty()) {
    Timestamp& first =
        caches_ != nullptr ? caches_->logs.get(job.logs, r.log, kNoTime) : lookup(job.logs, r.log, kNoTime);
    if (r.timestamp != kNoTime && (first == kNoTime || r.timestamp < first)) first = r.timestamp;
  }
  // An entry's SDK process is noted once per run of entries from the same worker and process.
  if (!r.worker.empty() && (r.worker != last_worker_ || r.sdk_worker != last_sdk_worker_)) {
    auto& sdk = (caches_ != nullptr ? caches_->workers.get(job.workers, r.worker) : lookup(job.workers, r.worker, {}))
                    .sdk_workers;
    last_worker_ = r.worker;
    last_sdk_worker_ = r.sdk_worker;
    if (!r.sdk_worker.empty() && sdk.find(r.sdk_worker) == sdk.end()) sdk.emplace(r.sdk_worker);
  }
  if (job.job_name.empty() && !r.job_name.empty()) job.job_name = r.job_name;
  if (job.project.empty() && !r.project.empty()) job.project = r.project;
  if (job.region.empty() && !r.region.empty()) job.region = r.region;
  return job;
}

void JobTally::note_summary(const JobSummary& s, ChunkObservations& out) {
  LogRecord r;
  r.job_id = s.job_id;
  JobSeen& job = job_of(r, out);
  job.source.add(s);
  job.workers_floor = std::max(job.workers_floor, s.workers_total);
  const auto widen = [](Timestamp& earliest, Timestamp& latest, Timestamp first, Timestamp last) {
    if (first != kNoTime && (earliest == kNoTime || first < earliest)) earliest = first;
    if (last != kNoTime && (latest == kNoTime || last > latest)) latest = last;
  };
  widen(job.earliest, job.latest, s.first, s.last);
  for (const auto& log : s.logs) {
    Timestamp& first = lookup(job.logs, log.log, kNoTime);
    if (log.first != kNoTime && (first == kNoTime || log.first < first)) first = log.first;
  }
  for (const auto& worker : s.workers) {
    auto& sdk = lookup(job.workers, worker.worker, {}).sdk_workers;
    for (const auto& name : worker.sdk_workers) sdk.emplace(name);
  }
  for (const auto& [extractor, entries] : s.fact_entries) {
    for (size_t si = 0; si < pack_.signals.size(); ++si) {
      const Signal& signal = pack_.signals[si];
      if (signal.role == SignalRole::kObserver && pack_.extractors[signal.extractor].id == extractor) {
        job.extractor_source[static_cast<int>(si)] += entries;
      }
    }
  }
  if (job.job_name.empty()) job.job_name = s.job_name;
  if (job.project.empty()) job.project = s.project;
  if (job.region.empty()) job.region = s.region;
  // The cached logs and workers point at the maps just changed: look them up again.
  job_ = nullptr;
  last_worker_.clear();
  last_sdk_worker_.clear();
}

}  // namespace gpudiag::detail
