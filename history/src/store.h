// What the history library's source files share: the open store, how times and verdicts are
// written in the database, and a pipeline's runs loaded for recurrence.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpudiag/history.h"
#include "sqlite.h"

namespace gpudiag {

struct HistoryStore::Impl {
  detail::Database db;
  StoreOptions options;
  int opened_version = 0;
  bool full_text = false;  // this SQLite has FTS5
};

namespace detail {

// Times are stored as RFC 3339 UTC text with exactly nine fractional digits
// ("2024-06-01T10:00:00.000000000Z"), so that they sort as text and read as dates; NULL when unknown.
inline constexpr size_t kDbTimeSize = 30;
void write_db_time(char* out, Timestamp t);  // kDbTimeSize bytes
std::string db_time(Timestamp t);            // "" for kNoTime
Timestamp now();

// A pipeline's runs up to one of them, and which runs had which finding.
struct PipelineRuns {
  using Key = std::pair<std::string, std::string>;  // rule id, fingerprint
  struct Seen {
    std::vector<size_t> runs;  // indices into `runs`, ascending
    std::string title;         // from the latest
    Impact severity = Impact::kWarning;
  };
  std::vector<RunSummary> runs;  // id order
  std::map<Key, Seen> findings;
  std::set<Key> accepted;
};
// Loads the runs of `pipeline` with an id up to `last_run` (0: all).
PipelineRuns load_pipeline(const Database& db, const std::string& pipeline, int64_t last_run = 0);
// What the runs say about one finding, as seen from the run at index `reported` (runs.size(): from
// now, after the latest run).
FindingHistory recurrence(const PipelineRuns& p, const PipelineRuns::Key& key, size_t reported);
// One run, by id (throws DbError "no-such-run" when there is none).
RunSummary load_run(const Database& db, int64_t run_id);
// The latest run of `pipeline` whose job succeeded, with an id below `before_run_id` (0: any).
std::optional<RunSummary> last_green_run(const Database& db, const std::string& pipeline, int64_t before_run_id);

// Each run's unexplained groups and facts (unexplained_store.cc), inside the caller's transaction.
void insert_unexplained_and_facts(const Database& db, const RankedReport& report, int64_t run_id);
// The latest stored stub fields of one group (HistoryStore::rule_stub).
// `schema_version`: the file's (a read-only store is not migrated).
StoredRuleStub stored_rule_stub(const Database& db, std::string fingerprint, int schema_version);
// Each group's novelty (parallel to report.unexplained) from the runs of `pipeline` before `run_id`.
std::vector<Novelty> unexplained_novelty(const Database& db, const RankedReport& report, const std::string& pipeline,
                                         int64_t run_id);
// For a failed run: the facts that differ from the pipeline's last green run before it (nullopt when
// there is none, or it was recorded without facts, before schema v6).
std::optional<ChangesSinceGreen> changes_since_green(const Database& db, const RankedReport& report,
                                                     const std::string& pipeline, int64_t run_id);

// Deletes the ingested sources recorded before `cutoff` (a db time) with their entries, keeping the
// full-text index in step. Returns the sources and entries deleted. Inside the caller's transaction.
std::pair<uint64_t, uint64_t> prune_sources(const Database& db, const std::string& cutoff);

}  // namespace detail
}  // namespace gpudiag
