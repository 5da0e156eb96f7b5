#include "job_accumulator.h"

#include <fmt/format.h>

#include <algorithm>

#include "facts/facts.h"
#include "gpudiag/stable_hash.h"

namespace gpudiag::detail {
namespace {

constexpr size_t kMaxCaptureValues = 20;

}  // namespace

namespace {
// Worker ids: named ones up to kMaxNamedWorkers + 1, unnamed ones above that by their slot.
constexpr size_t kWorkerIdLimit = kMaxNamedWorkers + 2 + DistinctNames::kSlots;
}  // namespace

void SignalHits::note_worker(uint32_t worker) {
  if (worker == 0 || worker >= kWorkerIdLimit) return;
  if (worker / 64 >= worker_bits.size()) worker_bits.resize(worker / 64 + 1, 0);
  worker_bits[worker / 64] |= uint64_t{1} << (worker % 64);
}

std::optional<uint64_t> SignalHits::distinct_workers() const {
  if (!refs_full) return std::nullopt;
  uint64_t n = 0;
  for (uint64_t word : worker_bits) n += static_cast<uint64_t>(__builtin_popcountll(word));
  return n;
}

bool SignalHits::room_for_ref(RefBudget* budget) {
  if (refs.size() >= kMaxRefs) return false;
  if (refs.size() < refs.capacity()) return true;
  // Grown by hand, doubling as push_back would, so that what the budget pays is what is held.
  const size_t capacity = refs.capacity();
  size_t grown = std::min(kMaxRefs, std::max<size_t>(16, 2 * capacity));
  if (budget != nullptr) {
    const size_t left = (RefBudget::kBytes - std::min(budget->held, RefBudget::kBytes)) / sizeof(HitRef);
    grown = std::min(grown, capacity + left);
    if (grown == capacity) return false;
    budget->held += (grown - capacity) * sizeof(HitRef);
  }
  refs.reserve(grown);
  return true;
}

void SignalHits::add(const HitRef& ref, Hit&& hit, RefBudget* budget) {
  ++total;
  if (hit.logged_as_handled) ++logged_as_handled;
  if (!refs_full && room_for_ref(budget)) {
    refs.push_back(ref);
  } else {
    if (!refs_full) {  // refs just filled up: from here on the bits count workers
      refs_full = true;
      for (const HitRef& r : refs) note_worker(r.worker);
    }
    if (refs.size() < kMaxRefs) ++past_budget;
    note_worker(ref.worker);
  }
  std::vector<std::string> captured;  // this entry's own values, for its excerpt
  if (hit.record) {
    for (const auto& [name, value] : hit.captures) captured.push_back(value);
  }
  for (auto& [name, value] : hit.captures) {
    auto& values = captures[name];
    if (values.size() < kMaxCaptureValues) values.insert(std::move(value));
  }
  if (!hit.record) return;
  const size_t keep_earliest = lean ? kLeanEarliest : kEarliest, keep_latest = lean ? kLeanLatest : kLatest;
  if (lean) {
    hit.before.clear();
    hit.after.clear();
  }
  // Keep the kEarliest earliest and the kLatest latest of everything seen so far, in time order:
  // a new hit goes to its place, and when that makes one too many, the one after the earliest
  // kEarliest goes (the new hit itself when that is its place: nothing to move then).
  const auto at = std::lower_bound(evidence.begin(), evidence.end(), ref,
                                   [](const auto& kept, const HitRef& r) { return earlier(kept.first, r); });
  const auto place = static_cast<size_t>(at - evidence.begin());
  if (evidence.size() == keep_earliest + keep_latest && place == keep_earliest) return;
  Evidence e{lean ? KeptRecord(hit.record->record(), kLeanTextBytes) : std::move(*hit.record),
             std::move(hit.matched_line), std::move(hit.before), std::move(hit.after)};
  if (lean && e.matched_line.size() > kLeanTextBytes) e.matched_line = crop_text(e.matched_line, kLeanTextBytes);
  e.match_at = hit.match_at;
  e.match_length = hit.match_length;
  e.captured = std::move(captured);
  evidence.emplace(at, ref, std::move(e));
  if (evidence.size() > keep_earliest + keep_latest) evidence.erase(evidence.begin() + keep_earliest);
}

const std::vector<std::string>& ExtractorReadings::last_facts() const {
  static const std::vector<std::string> kNone;
  return readings.empty() ? kNone : readings[last].facts;
}

JobAccumulator::JobAccumulator(const CompiledRulePack& p, const std::vector<std::string>& paths, std::string id)
    : pack(p), input_paths(paths), job_id(std::move(id)) {}

const SignalHits& JobAccumulator::hits(int signal) const {
  static const SignalHits kNone;
  auto it = signals.find(signal);
  return it == signals.end() ? kNone : it->second;
}

int64_t DistinctNames::slot(std::string_view name) {
  if (slots_.empty()) slots_.assign(kSlots, 0);
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a 64
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  h |= 1;  // 0 marks an empty slot
  for (size_t i = h & (kSlots - 1);; i = (i + 1) & (kSlots - 1)) {
    if (slots_[i] == h) return static_cast<int64_t>(i);
    if (slots_[i] == 0) {
      if (count_ >= kCapacity) {
        saturated_ = true;
        return -1;
      }
      slots_[i] = h;
      ++count_;
      return static_cast<int64_t>(i);
    }
  }
}

uint32_t JobAccumulator::worker_id(std::string_view name) {
  if (name.empty()) return 0;
  auto it = worker_ids.find(name);
  if (it != worker_ids.end()) return it->second;
  if (worker_names.size() > kMaxNamedWorkers) {
    // Past the cap a worker is only told apart: its id is above every named one.
    const int64_t slot = unnamed_workers.slot(name);
    return slot < 0 ? 0 : static_cast<uint32_t>(kMaxNamedWorkers + 1 + static_cast<size_t>(slot));
  }
  const auto id = static_cast<uint32_t>(worker_names.size());
  worker_names.emplace_back(name);
  worker_ids.emplace(std::string(name), id);
  return id;
}

const std::string& JobAccumulator::worker_name(uint32_t id) const {
  static const std::string kUnnamed;
  return id < worker_names.size() ? worker_names[id] : kUnnamed;
}

uint32_t JobAccumulator::sdk_worker_id(std::string_view worker, std::string_view sdk_worker) {
  if (sdk_worker.empty() || worker_ids.find(worker) == worker_ids.end()) return 0;  // named workers only
  std::string key = std::string(worker) + "/" + std::string(sdk_worker);
  auto it = sdk_worker_ids.find(key);
  if (it != sdk_worker_ids.end()) return it->second;
  const auto id = static_cast<uint32_t>(sdk_worker_ids.size() + 1);
  sdk_worker_ids.emplace(std::move(key), id);
  return id;
}

void JobAccumulator::add_hit(Hit&& hit, std::map<int, DecodeCache>& decoded) {
  const Signal& signal = pack.signals[hit.signal];
  if (signal.role == SignalRole::kObserver) {
    const FactExtractorSpec& extractor = pack.extractors[signal.extractor];
    ExtractorReadings& seen = facts_set_by[hit.signal];
    ++seen.hits;
    // Phases and worker counts are points in time: every hit gives a new one.
    const bool facts_only = extractor.phase.empty() && extractor.worker_count.empty();
    const uint64_t text_hash = hit.text.empty() ? 0 : stable_hash(hit.text);
    const auto same = std::find_if(seen.readings.begin(), seen.readings.end(), [&](const ExtractorReading& r) {
      return r.text_size == hit.text.size() && r.text_hash == text_hash && r.log == hit.log &&
             r.captures == hit.captures;
    });
    if (facts_only && same != seen.readings.end() && same->facts_version == facts.version()) {
      for (const auto& name : same->facts) facts.note_more(name, 1);
      seen.last = static_cast<size_t>(same - seen.readings.begin());
      return;
    }
    std::vector<std::string> set = apply_extraction(extractor, pack.catalog, hit, facts, observed, decoded[hit.signal]);
    if (same != seen.readings.end()) {
      seen.last = static_cast<size_t>(same - seen.readings.begin());
    } else if (seen.readings.size() < ExtractorReadings::kMaxReadings) {
      seen.last = seen.readings.size();
      seen.readings.emplace_back();
    } else {
      seen.last = seen.next;
      seen.next = (seen.next + 1) % ExtractorReadings::kMaxReadings;
    }
    ExtractorReading& reading = seen.readings[seen.last];
    reading.log = hit.log;
    reading.captures = hit.captures;
    reading.text_hash = text_hash;
    reading.text_size = hit.text.size();
    reading.facts = std::move(set);
    reading.facts_version = facts.version();
    return;
  }
  const HitRef ref{hit.at, hit.where.offset, hit.where.input, worker_id(hit.worker),
                   sdk_worker_id(hit.worker, hit.sdk_worker)};
  SignalHits& hits = signals[hit.signal];
  hits.lean = lean;
  hits.add(ref, std::move(hit), ref_budget);
}

size_t JobAccumulator::ref_bytes() const {
  size_t bytes = 0;
  for (const auto& [signal, hits] : signals) bytes += hits.ref_bytes();
  return bytes;
}

void JobAccumulator::add_seen(JobSeen&& seen) {
  entries += seen.entries;
  source.add(seen.source);
  workers_floor = std::max(workers_floor, seen.workers_floor);
  for (const auto& [signal, n] : seen.extractor_overflow) {
    ExtractorReadings& readings = facts_set_by[signal];
    for (const auto& name : readings.last_facts()) facts.note_more(name, n);
    readings.hits += n;
  }
  for (const auto& [signal, n] : seen.extractor_source) facts_set_by[signal].held += n;
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
    if (worker_id(worker) > kMaxNamedWorkers || w.sdk_workers.empty()) continue;
    auto& sdk = sdk_by_worker[worker];
    sdk.insert(w.sdk_workers.begin(), w.sdk_workers.end());
  }
  if (job_name.empty()) job_name = seen.job_name;
  if (project.empty()) project = seen.project;
  if (region.empty()) region = seen.region;
}

void JobAccumulator::absorb(JobAccumulator&& other) {
  errors.absorb(std::move(other.errors));
  // Worker and SDK process ids are the other accumulator's own: map them by name (workers past
  // the other's kMaxNamedWorkers have no name left and count as none).
  std::vector<std::string> sdk_names(other.sdk_worker_ids.size() + 1);
  for (const auto& [key, id] : other.sdk_worker_ids) sdk_names[id] = key;
  const auto remap = [&](HitRef ref) {
    const std::string& worker = other.worker_name(ref.worker);
    ref.worker = worker_id(worker);
    if (ref.sdk_worker != 0 && ref.sdk_worker < sdk_names.size()) {
      const std::string& key = sdk_names[ref.sdk_worker];
      ref.sdk_worker = sdk_worker_id(worker, std::string_view(key).substr(std::min(key.size(), worker.size() + 1)));
    }
    return ref;
  };
  for (auto& [signal, theirs] : other.signals) {
    SignalHits& ours = signals[signal];
    for (const HitRef& r : theirs.refs) {
      if (ours.refs.size() < SignalHits::kMaxRefs) ours.refs.push_back(remap(r));
    }
    ours.total += theirs.total;
    ours.logged_as_handled += theirs.logged_as_handled;
    for (auto& [name, values] : theirs.captures) {
      auto& mine = ours.captures[name];
      for (const auto& v : values) {
        if (mine.size() < kMaxCaptureValues) mine.insert(v);
      }
    }
    for (auto& kept : theirs.evidence) ours.evidence.emplace_back(remap(kept.first), std::move(kept.second));
    std::stable_sort(ours.evidence.begin(), ours.evidence.end(),
                     [](const auto& a, const auto& b) { return earlier(a.first, b.first); });
    while (ours.evidence.size() > SignalHits::kEarliest + SignalHits::kLatest) {
      ours.evidence.erase(ours.evidence.begin() + SignalHits::kEarliest);
    }
  }
  facts.absorb(other.facts);
  for (const auto& [signal, theirs] : other.facts_set_by) {
    ExtractorReadings& ours = facts_set_by[signal];
    ours.hits += theirs.hits;
    ours.held += theirs.held;
  }
  for (auto& p : other.observed.phases) observed.phases.push_back(std::move(p));
  for (auto& w : other.observed.worker_counts) observed.worker_counts.push_back(w);
  observed.phases_dropped += other.observed.phases_dropped;
  observed.worker_counts_dropped += other.observed.worker_counts_dropped;
  JobSeen seen;
  seen.entries = other.entries;
  seen.earliest = other.earliest;
  seen.latest = other.latest;
  seen.source = other.source;
  seen.workers_floor = other.workers_floor;
  seen.logs = std::move(other.logs);
  for (auto& [worker, sdk] : other.sdk_by_worker) seen.workers[worker].sdk_workers = std::move(sdk);
  for (size_t i = 1; i < other.worker_names.size(); ++i) worker_id(other.worker_names[i]);
  seen.job_name = other.job_name;
  seen.project = other.project;
  seen.region = other.region;
  add_seen(std::move(seen));
}

void JobAccumulator::finish() {
  // A query's rows hold an extractor's first entry of the job; its summary row counted them all.
  for (const auto& [signal, readings] : facts_set_by) {
    if (readings.held <= readings.hits) continue;
    for (const auto& name : readings.last_facts()) facts.note_more(name, readings.held - readings.hits);
  }
  const FactSource source{"the export"};
  if (workers_total() > 0) {
    facts.set("workers_seen", std::to_string(workers_total()), source, kLogLinePriority);
  }
  size_t most = 0;
  for (const auto& [worker, sdk] : sdk_by_worker) most = std::max(most, sdk.size());
  if (most > 0) facts.set("sdk_processes_per_worker", std::to_string(most), source, kLogLinePriority);
  // Facts derived from the others, once every source has spoken.
  derive_gpu_machine_fit(pack.catalog, facts);
  derive_accelerator_corrected(facts);
  derive_sdk_processes_per_gpu(facts);
  // The job's labels.
  const FactSource labels{"resource labels"};
  if (!job_id.empty()) facts.set("job_id", job_id, labels, kLogLinePriority);
  if (!job_name.empty()) facts.set("job_name", job_name, labels, kLogLinePriority);
  if (!project.empty()) facts.set("project", project, labels, kLogLinePriority);
  if (!region.empty()) facts.set("region", region, labels, kLogLinePriority);
  for (auto& [signal, s] : signals) std::sort(s.refs.begin(), s.refs.end(), earlier);
  std::sort(observed.phases.begin(), observed.phases.end(),
            [](const JobPhase& a, const JobPhase& b) { return a.at < b.at; });
  std::stable_sort(observed.worker_counts.begin(), observed.worker_counts.end(),
                   [](const WorkerCountPoint& a, const WorkerCountPoint& b) { return a.at < b.at; });
}

}  // namespace gpudiag::detail

namespace gpudiag::detail {

std::vector<std::string> JobAccumulator::caps_reached() const {
  std::vector<std::string> notes;
  if (unnamed_workers.count() > 0) {
    notes.push_back(fmt::format("{}{} distinct workers: the first {} are named, the other {} counted only",
                                unnamed_workers.saturated() ? "at least " : "", workers_total(), kMaxNamedWorkers,
                                unnamed_workers.count()));
  }
  if (errors.capped()) {
    notes.push_back(fmt::format(
        "errors no rule explains: past a cap ({} groups a job, {} pending traceback lines, "
        "{} MiB of kept text for all jobs), {} entries counted, not grouped",
        ErrorGroups::kMaxGroups, ErrorGroups::kMaxFragments, ErrorBudget::kBytes >> 20, errors.entries_past_cap()));
  }
  uint64_t past_budget = 0;
  size_t signals_past_budget = 0;
  for (const auto& [signal, hits] : signals) {
    past_budget += hits.past_budget;
    signals_past_budget += hits.past_budget > 0 ? 1 : 0;
  }
  if (past_budget > 0) {
    notes.push_back(fmt::format(
        "hit references: past the {} MiB that all jobs held at once share, {} hits of {} signals are counted "
        "(with their workers), not kept: first and last seen, windows, sequences and per-worker counts use "
        "the hits kept",
        RefBudget::kBytes >> 20, past_budget, signals_past_budget));
  }
  if (observed.phases_dropped > 0) {
    notes.push_back(fmt::format("{} further job phase messages are counted, not kept (each phase is kept {} times)",
                                observed.phases_dropped, ObserverOutput::kMaxPhasesPerKind));
  }
  if (observed.worker_counts_dropped > 0) {
    notes.push_back(fmt::format("{} further worker-count changes are counted, not kept (the first {} are)",
                                observed.worker_counts_dropped, ObserverOutput::kMaxWorkerCounts));
  }
  return notes;
}

}  // namespace gpudiag::detail
