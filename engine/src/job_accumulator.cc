#include "job_accumulator.h"

#include <algorithm>

namespace gpudiag::detail {
namespace {

constexpr size_t kMaxCaptureValues = 20;

}  // namespace

void SignalHits::add(const HitRef& ref, Hit&& hit) {
  ++total;
  if (refs.size() < kMaxRefs) refs.push_back(ref);
  for (auto& [name, value] : hit.captures) {
    auto& values = captures[name];
    if (values.size() < kMaxCaptureValues) values.insert(std::move(value));
  }
  if (!hit.record) return;
  // Keep the kEarliest earliest and the kLatest latest of everything seen so far, in time order:
  // a new hit goes to its place, and when that makes one too many, the one after the earliest
  // kEarliest goes (the new hit itself when that is its place: nothing to move then).
  const auto at = std::lower_bound(evidence.begin(), evidence.end(), ref,
                                   [](const auto& kept, const HitRef& r) { return earlier(kept.first, r); });
  const auto place = static_cast<size_t>(at - evidence.begin());
  if (evidence.size() == kEarliest + kLatest && place == kEarliest) return;
  evidence.emplace(
      at, ref,
      Evidence{std::move(*hit.record), std::move(hit.matched_line), std::move(hit.before), std::move(hit.after)});
  if (evidence.size() > kEarliest + kLatest) evidence.erase(evidence.begin() + kEarliest);
}

JobAccumulator::JobAccumulator(const RulePack::Impl& p, std::vector<std::string> paths)
    : pack(p), input_paths(std::move(paths)), signals(p.signals.size()), lines_(input_paths.size(), 0) {}

uint32_t JobAccumulator::worker_id(std::string_view name) {
  if (name.empty()) return 0;
  auto it = worker_ids.find(name);
  if (it != worker_ids.end()) return it->second;
  const auto id = static_cast<uint32_t>(worker_names.size());
  worker_names.emplace_back(name);
  worker_ids.emplace(std::string(name), id);
  return id;
}

uint32_t JobAccumulator::sdk_worker_id(std::string_view worker, std::string_view sdk_worker) {
  if (sdk_worker.empty()) return 0;
  std::string key = std::string(worker) + "/" + std::string(sdk_worker);
  auto it = sdk_worker_ids.find(key);
  if (it != sdk_worker_ids.end()) return it->second;
  const auto id = static_cast<uint32_t>(sdk_worker_ids.size() + 1);
  sdk_worker_ids.emplace(std::move(key), id);
  return id;
}

void JobAccumulator::add_chunk(const Chunk& chunk, ChunkReport&& report, ChunkObservations&& seen,
                               InputSummary& summary, bool absolute_lines) {
  uint64_t& lines = lines_[chunk.input];
  lines += chunk.newlines_before;
  const uint64_t base_line = absolute_lines ? 0 : lines + 1;

  // Duplicates, in input order. An entry that failed to parse has no fingerprint.
  is_dup_.assign(report.entries, 0);
  uint64_t dups = 0;
  constexpr size_t kAhead = 16;  // lookups in flight: enough to hide the tables' cache misses
  const auto& fingerprints = report.fingerprints;
  for (size_t i = 0; i < fingerprints.size(); ++i) {
    if (i + kAhead < fingerprints.size()) dedup.prefetch(fingerprints[i + kAhead]);
    if (dedup.seen(fingerprints[i])) {
      is_dup_[i] = 1;
      ++dups;
    }
  }
  uint64_t skipped_here = 0;
  for (auto& p : report.problems) {
    if (p.skipped_entry) ++skipped_here;
    summary.add_problem(to_input_problem(std::move(p), chunk, base_line));
  }
  if (!report.input_changed.empty() && summary.aborted.empty()) summary.aborted = report.input_changed;
  summary.entries += report.entries;
  summary.skipped += skipped_here;
  summary.duplicates += dups;
  summary.analysed += report.entries - skipped_here - dups;

  for (auto& hit : seen.hits) {
    if (hit.signal < 0) continue;  // superseded within its chunk
    if (hit.entry_index < is_dup_.size() && is_dup_[hit.entry_index]) continue;
    hit.where.line += base_line;
    if (hit.record) hit.record->set_where(hit.where);  // the kept copies get absolute lines too
    for (auto* neighbours : {&hit.before, &hit.after}) {
      for (auto& n : *neighbours) {
        SourceLocation where = n->where;
        where.line += base_line;
        n.set_where(where);
      }
    }
    const Signal& signal = pack.signals[hit.signal];
    if (signal.role == SignalRole::kObserver) {
      apply_observation(signal.observer, hit, facts, observed);
      continue;
    }
    const HitRef ref{hit.at, chunk.input, hit.where.line, worker_id(hit.worker),
                     sdk_worker_id(hit.worker, hit.sdk_worker)};
    signals[hit.signal].add(ref, std::move(hit));
  }

  if (seen.earliest != kNoTime && (earliest == kNoTime || seen.earliest < earliest)) earliest = seen.earliest;
  if (seen.latest != kNoTime && (latest == kNoTime || seen.latest > latest)) latest = seen.latest;
  for (auto& [log, first] : seen.logs) {
    auto it = logs.find(log);
    if (it == logs.end()) {
      logs.emplace(log, first);
    } else if (first != kNoTime && (it->second == kNoTime || first < it->second)) {
      it->second = first;
    }
  }
  for (auto& [worker, w] : seen.workers) {
    worker_id(worker);
    auto& sdk = sdk_by_worker[worker];
    sdk.insert(w.sdk_workers.begin(), w.sdk_workers.end());
  }
  for (auto& [job, n] : seen.job_ids) job_ids[job] += n;
  if (job_name.empty()) job_name = seen.job_name;
  if (project.empty()) project = seen.project;
  if (region.empty()) region = seen.region;

  lines += report.newlines;
}

void JobAccumulator::finish() {
  const FactSource source{"the export"};
  if (worker_names.size() > 1) {
    facts.set("workers_seen", std::to_string(worker_names.size() - 1), source, FactPriority::kLogLine);
  }
  size_t most = 0;
  for (const auto& [worker, sdk] : sdk_by_worker) most = std::max(most, sdk.size());
  if (most > 0) facts.set("sdk_processes_per_worker", std::to_string(most), source, FactPriority::kLogLine);
  for (auto& s : signals) std::sort(s.refs.begin(), s.refs.end(), earlier);
  std::sort(observed.phases.begin(), observed.phases.end(),
            [](const JobPhase& a, const JobPhase& b) { return a.at < b.at; });
  std::stable_sort(observed.worker_counts.begin(), observed.worker_counts.end(),
                   [](const WorkerCountPoint& a, const WorkerCountPoint& b) { return a.at < b.at; });
}

}  // namespace gpudiag::detail
