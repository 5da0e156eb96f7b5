// JobAccumulator: merges what matching found in each batch of records, in input order — per-signal
// hits with bounded evidence, job facts from the fact extractors. Single-threaded. Internal to engine.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "facts/facts.h"
#include "gpudiag/analysis.h"
#include "gpudiag/ingest.h"
#include "match/match.h"
#include "pack/pack.h"
#include "unexplained/unexplained.h"

namespace gpudiag::detail {

// A hit reduced to what job-level reasoning needs: 32 bytes, as every job held at once keeps up to
// SignalHits::kMaxRefs of them per signal (the entry's line is not among them: nothing reads it).
struct HitRef {
  Timestamp at = kNoTime;
  // Where the entry starts in its input: what tells entries apart, as every entry of a one-line
  // JSON array (`bq query --format=json`) is on line 1. Ordered as the lines are.
  uint64_t offset = 0;
  uint32_t input = 0;
  uint32_t worker = 0;      // index into JobAccumulator::worker_names (0 = none)
  uint32_t sdk_worker = 0;  // an id for the SDK process ("sdk-0-1"), distinct per worker (0 = none)
};

// What the refs of every job held at once may take, in bytes of their vectors' capacity: one
// budget for the export (ExportAccumulator), so that many jobs with many hits each stay within the
// memory cap (50 jobs of 6,000 job messages held 33 MB of refs without it). Single-threaded.
struct RefBudget {
  static constexpr size_t kBytes = 4u << 20;  // 131,072 refs
  size_t held = 0;
};

// Orders hits by time, then position: the same for any thread count.
inline bool earlier(const HitRef& a, const HitRef& b) {
  if (a.at != b.at) return a.at < b.at;
  if (a.input != b.input) return a.input < b.input;
  return a.offset < b.offset;
}

struct SignalHits {
  // Beyond this many (or once the export's RefBudget is spent), counts stay exact but refs are the
  // first ones.
  static constexpr size_t kMaxRefs = 20'000;
  static constexpr size_t kEarliest = 8;  // evidence kept: the earliest …
  static constexpr size_t kLatest = 2;    // … and the latest entries
  // A lean job (one of many held at once, see ExportAccumulator::kFullJobs) keeps fewer, without
  // their neighbouring entries, so that a thousand jobs fit the memory cap.
  static constexpr size_t kLeanEarliest = 1;
  static constexpr size_t kLeanLatest = 1;
  static constexpr size_t kLeanTextBytes = 4u << 10;  // … each cropped to this
  bool lean = false;
  std::vector<HitRef> refs;
  uint64_t total = 0;
  uint64_t logged_as_handled = 0;  // … of which the program logged below ERROR (Hit::logged_as_handled)
  std::vector<std::pair<HitRef, Evidence>> evidence;
  std::map<std::string, std::set<std::string>> captures;  // group name → distinct values (bounded)
  // Once refs are full: one bit per worker id that hit, so a finding still counts its workers
  // exactly (grown to the highest worker id seen: at most ~130 KiB, none for hits without a worker).
  bool refs_full = false;
  std::vector<uint64_t> worker_bits;
  uint64_t past_budget = 0;  // hits whose refs were not kept because the export's RefBudget was spent

  // `budget` (none: unbounded, for tests of one job) pays for the refs' capacity.
  void add(const HitRef& ref, Hit&& hit, RefBudget* budget = nullptr);
  // Distinct workers among every hit (not only the refs kept); nullopt while refs hold them all.
  std::optional<uint64_t> distinct_workers() const;
  // The bytes of `budget` the refs hold.
  size_t ref_bytes() const { return refs.capacity() * sizeof(HitRef); }

 private:
  void note_worker(uint32_t worker);
  // Makes room for one more ref within kMaxRefs and the budget; false when there is none.
  bool room_for_ref(RefBudget* budget);
};

// What a fact extractor's applied hits read (the entry's log, the captures, the decoder's text) and
// the facts each set, per job. SDK harnesses echo the same few option sets once per process: a hit
// that reads what an earlier one did, while no fact was added since that one was applied
// (JobFacts::version), would set the same values again and add no sighting, so it is only counted —
// the same result without decoding the options again.
struct ExtractorReading {
  std::string log;
  std::vector<std::pair<std::string, std::string>> captures;
  uint64_t text_hash = 0;  // XXH3-64 of the decoder's text
  size_t text_size = 0;
  std::vector<std::string> facts;  // the facts it set, a name per setting
  uint64_t facts_version = 0;      // JobFacts::version() right after it was applied
};
struct ExtractorReadings {
  static constexpr size_t kMaxReadings = 8;
  std::vector<ExtractorReading> readings;  // distinct ones, the latest kMaxReadings
  size_t last = 0;                         // the one the last hit read
  size_t next = 0;                         // the slot a new reading takes once kMaxReadings are kept
  // The hits the job's entries gave (kept or not), and the entries its summary rows say the source
  // held: finish() counts the difference as sightings of the facts the last hit set.
  uint64_t hits = 0;
  uint64_t held = 0;

  // The facts the last hit set (none before the first).
  const std::vector<std::string>& last_facts() const;
};

// Counts distinct names exactly, in fixed memory, up to kCapacity of them (beyond: saturated()).
// Names are told apart by a 64-bit FNV-1a hash; each gets a slot index, stable while it is counted.
class DistinctNames {
 public:
  static constexpr size_t kSlots = size_t{1} << 20;  // 8 MiB
  static constexpr size_t kCapacity = kSlots / 4 * 3;
  // The name's slot (added when new), or -1 when the table is full and the name new.
  int64_t slot(std::string_view name);
  uint64_t count() const { return count_; }
  bool saturated() const { return saturated_; }

 private:
  std::vector<uint64_t> slots_;  // allocated on first use
  uint64_t count_ = 0;
  bool saturated_ = false;
};

// What a job's accumulator keeps per worker is bounded (docs/performance.md, "Memory caps"): the
// first kMaxNamedWorkers workers are named and tracked (SDK processes, lists in findings); later
// ones are counted and told apart, not named.
inline constexpr size_t kMaxNamedWorkers = 10'000;

// What one job's entries showed, merged batch by batch in input order: per-signal hits with bounded
// evidence, job facts from the fact extractors, the logs and workers seen. Single-threaded.
class JobAccumulator {
 public:
  JobAccumulator(const CompiledRulePack& pack, const std::vector<std::string>& input_paths, std::string job_id);

  // One hit of this job's entries (not a duplicate); `decoded` is the export's decoder cache.
  void add_hit(Hit&& hit, std::map<int, DecodeCache>& decoded);
  // What a batch's entries of this job showed besides hits.
  void add_seen(JobSeen&& seen);
  // Everything `other` (the export's unattributed entries) holds, as if its entries were this job's.
  void absorb(JobAccumulator&& other);
  // Derived facts (workers seen, SDK processes per worker, the labels); call once after the last batch.
  void finish();
  // One line per memory cap that was reached, saying what was summarised instead of kept.
  std::vector<std::string> caps_reached() const;
  // The bytes of the export's RefBudget this job's refs hold.
  size_t ref_bytes() const;

  // The hits of `signal` (none: an empty set).
  const SignalHits& hits(int signal) const;

  uint32_t worker_id(std::string_view name);
  // Distinct workers seen (named + counted), and whether that number is exact.
  uint64_t workers_total() const {
    return std::max<uint64_t>(worker_names.size() - 1 + unnamed_workers.count(), workers_floor);
  }
  // A worker's name, "" for the ones past kMaxNamedWorkers.
  const std::string& worker_name(uint32_t id) const;
  uint32_t sdk_worker_id(std::string_view worker, std::string_view sdk_worker);

  const CompiledRulePack& pack;
  const std::vector<std::string>& input_paths;
  std::string job_id;  // "" for the unattributed entries
  uint64_t entries = 0;
  SummaryRowCounts source;            // from summary rows (docs/sql.md); rows 0: none
  uint64_t workers_floor = 0;         // distinct workers the summary rows counted
  uint64_t last_batch = 0;            // the last batch that held the job's entries (set by ExportAccumulator)
  bool lean = false;                  // keeps less evidence per signal (SignalHits::lean)
  RefBudget* ref_budget = nullptr;    // the export's, for every signal's refs (none: unbounded)
  std::map<int, SignalHits> signals;  // only the signals that were hit: a job costs what it shows
  std::vector<std::string> worker_names{""};
  std::map<std::string, uint32_t, std::less<>> worker_ids;
  std::map<std::string, uint32_t, std::less<>> sdk_worker_ids;  // "worker/sdk-0-1" → id
  JobFacts facts;
  ErrorGroups errors;  // error entries, grouped: the unexplained ones once rules are evaluated
  ObserverOutput observed;
  std::map<int, ExtractorReadings> facts_set_by;  // extractor signal → what its hits read and set
  Timestamp earliest = kNoTime;
  Timestamp latest = kNoTime;
  std::map<std::string, Timestamp, std::less<>> logs;
  std::map<std::string, std::set<std::string, std::less<>>, std::less<>> sdk_by_worker;
  DistinctNames unnamed_workers;  // workers past kMaxNamedWorkers
  std::string job_name, project, region;
};

}  // namespace gpudiag::detail
