// history: a run history in one SQLite file, for CI gates (is this finding new, or a known flake?)
// and post-mortems (ad-hoc SQL over the stored log entries).
//
//   auto store = HistoryStore::open("runs.db");                      // Result<HistoryStore>
//   RankedReport report = rank(analysis);
//   auto run = store->record_run(report, pipeline_key(analysis.job.name));   // one transaction
//   annotate(report, *run);        // each finding: new or known, runs affected, last seen, streak
//
//   store->ingest({"logs.json"}, {});                   // the entries themselves, for SQL and FTS5
//   auto reader = HistoryStore::open("runs.db", {.read_only = true});
//   reader->query("SELECT worker, count(*) FROM entry GROUP BY 1", on_row);  // statements that read
//
// The database is WAL-mode with a busy timeout, so several gpudiag processes (two CI jobs) can write
// it at once; each run is written in one transaction. Its schema is versioned (PRAGMA user_version)
// and migrated forward on open; a database from a newer gpudiag, a corrupt or read-only one, or one
// locked past the timeout is an error (a Diagnostic naming the file) and is left as it was.
// docs/schema.md describes the tables. What it reads back (PipelineHistory, Reclassified) is a value of
// reports' run_history.h, which renders it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/ingest.h"
#include "gpudiag/report.h"
#include "gpudiag/result.h"
#include "gpudiag/rule_stub.h"
#include "gpudiag/run_history.h"

namespace gpudiag {

// The schema version this gpudiag writes; older databases are migrated to it on open.
inline constexpr int kHistorySchemaVersion = 8;

// The pipeline a job belongs to: its name without the parts that change per launch — Beam's default
// `beamapp-user-0426123456-abcdef`, `-20240101-120000`, `-2024-01-01`, trailing timestamps and random
// hex ids. "tensorflow-gpu-landsat-0115" → "tensorflow-gpu-landsat"; "" → "unnamed".
std::string pipeline_key(std::string_view job_name);

struct StoreOptions {
  bool read_only = false;        // open an existing database for reading only; nothing can change it
  bool create = true;            // create the file when it is missing (else: an error, "db-missing")
  int busy_timeout_ms = 30'000;  // how long to wait for another writer before giving up
};

// The runs recorded when one run was added: its id and each finding's status, parallel to
// RankedReport::findings, as annotate() attaches them.
struct RecordedRun {
  int64_t id = 0;
  std::string pipeline;
  uint64_t runs_recorded = 0;  // of the pipeline, this one included
  bool replaced = false;       // the same job was recorded before; its run was rewritten
  std::vector<FindingHistory> findings;
  std::vector<Novelty> unexplained;                      // parallel to RankedReport::unexplained
  std::optional<ChangesSinceGreen> changes_since_green;  // a failed run with a green one before it
};

// Attaches a recorded run's statuses to the report it was recorded from (for the renderers and the
// gate): each finding's history, each unexplained group's novelty (apply_novelty: noise is folded
// away and the verdict line re-made) and the changes since the last green run. `new_only`: known
// findings and groups that are not new no longer trip the gate (gate --new-only).
void annotate(RankedReport& report, const RecordedRun& run, bool new_only = false);

// What the history holds for a rule stub of one unexplained error group (patterns suggest --db).
struct StoredRuleStub {
  enum class Status : uint8_t {
    kFound,      // `stub` is the latest run's that stored the group
    kNotStored,  // only runs recorded before schema v7 had the group: they kept no stub fields
    kUnknown,    // no run had it; `near` lists the fingerprints it may have meant
  };
  Status status = Status::kUnknown;
  RuleStubInput stub;
  int64_t run_id = 0;
  std::string pipeline;
  std::string job_id;
  std::vector<std::string> near;  // "unexplained-error/…  headline", at most 10
  bool near_are_latest = false;   // none was close: `near` is the latest recorded run's groups
};

struct PruneOptions {
  std::optional<uint64_t> keep;               // keep the N latest runs of each pipeline
  std::optional<int64_t> older_than_seconds;  // drop runs (and ingested inputs) recorded before now − this
  std::string pipeline;                       // only this pipeline ("" = all)
};
struct PruneResult {
  uint64_t runs = 0;
  uint64_t sources = 0;
  uint64_t entries = 0;
};

struct IngestOptions {
  bool full_text = true;  // keep the FTS5 index on message and exception up to date
  ReadLimits limits;
};

struct IngestSummary {
  std::vector<InputSummary> inputs;  // as analyze reports them: entries = stored + skipped + duplicates
  Diagnostics input_errors;          // inputs that could not be read at all (nothing of them stored)
  uint64_t stored = 0;
  uint64_t bytes = 0;              // of JSON read (decompressed)
  uint64_t full_text_indexed = 0;  // entries added to the FTS5 index by this ingest
  std::string full_text_note;      // why the index was not updated ("" when it was)
};

// One cell of a query result: SQLite's type and the value as text (integers and reals in decimal,
// blobs as hex).
struct QueryValue {
  enum class Type : uint8_t { kNull, kInteger, kReal, kText, kBlob };
  Type type = Type::kNull;
  std::string text;
};
// Called once per row; `columns` is the same for every row of a query.
using QueryRowFn = std::function<void(const std::vector<std::string>& columns, const std::vector<QueryValue>& row)>;

class HistoryStore {
 public:
  // Opens (creating it unless read_only) and migrates the database at `path`.
  static Result<HistoryStore> open(const std::string& path, const StoreOptions& options = {});
  HistoryStore(HistoryStore&&) noexcept;
  HistoryStore& operator=(HistoryStore&&) noexcept;
  ~HistoryStore();

  const std::string& path() const;
  // The schema version the file had before this open migrated it (0: it was new).
  int opened_version() const;

  // Records one analysed run of `pipeline` in one transaction, and says which of its findings no
  // earlier run of the pipeline had (and none was accepted). A run of a job recorded before
  // replaces that run, keeping its place in the history. `before_commit`, when given, runs inside
  // the transaction once the run is known (the caller writes its outputs there); when it returns
  // false nothing is recorded, so no run is in the history whose reports were never written.
  Result<RecordedRun> record_run(const RankedReport& report, const std::string& pipeline,
                                 const std::function<bool(const RecordedRun&)>& before_commit = {});
  // Several runs in one transaction, each under its own pipeline (the jobs of one export): all
  // of them are recorded, or none.
  Result<std::vector<RecordedRun>> record_runs(
      const std::vector<std::pair<const RankedReport*, std::string>>& runs,
      const std::function<bool(const std::vector<RecordedRun>&)>& before_commit = {});

  // Every pipeline's runs and findings (or one pipeline's, or none when it has no runs).
  Result<std::vector<PipelineHistory>> history(const std::string& pipeline = "");
  // The pipeline's last green run: the latest whose job's own outcome was `succeeded` (whatever its
  // verdict: a succeeded job's findings are risks), with an id below `before_run_id` (0: the latest of
  // all), with its findings; nullopt when there is none. Runs recorded before schema version 5 have
  // the outcome `unknown` and are never green.
  Result<std::optional<RunSummary>> last_green_run(const std::string& pipeline, int64_t before_run_id = 0);
  // Adds a run's findings to its pipeline's baseline: they count as known from now on, whatever
  // its verdict, and stay known when the run is pruned.
  Result<RunSummary> accept(int64_t run_id, const std::string& reason = "");
  // The latest stored stub fields of the unexplained group `fingerprint` (with or without its
  // "unexplained-error/" prefix).
  Result<StoredRuleStub> rule_stub(const std::string& fingerprint);
  Result<PruneResult> prune(const PruneOptions& options);
  // Judges stored runs again with `pack` over their jobs' ingested entries (nothing is changed).
  Result<std::vector<Reclassified>> reclassify(const RulePack& pack, const std::string& pipeline = "");

  // Stores the entries of exports (streamed; large transactions; one per call).
  Result<IngestSummary> ingest(const std::vector<std::string>& paths, const IngestOptions& options);
  // Runs one SQL statement that only reads, calling `on_row` for each row; returns the column names
  // (also when there was no row). Errors point into `sql`. A statement still running after
  // `timeout_seconds` (0: no limit) is stopped, with a query-timeout error.
  Result<std::vector<std::string>> query(std::string_view sql, const QueryRowFn& on_row, double timeout_seconds = 0);
  // Whether this SQLite has FTS5 (Debian's does).
  bool has_full_text() const;

 private:
  struct Impl;
  explicit HistoryStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Writes query rows as they come (csv, json) or all at the end (table, which sizes its columns).
class QueryPrinter {
 public:
  enum class Format : uint8_t { kTable, kCsv, kJson };
  QueryPrinter(Format format, std::function<void(std::string_view)> write);
  void row(const std::vector<std::string>& columns, const std::vector<QueryValue>& values);
  // The table, the CSV header of an empty result, or the end of the JSON.
  void finish(const std::vector<std::string>& columns);

 private:
  void start(const std::vector<std::string>& columns);  // the CSV header, the JSON head
  Format format_;
  std::function<void(std::string_view)> write_;
  std::vector<std::string> json_keys_;         // JSON: the row objects' keys, escaped
  std::vector<std::vector<QueryValue>> rows_;  // table only
  uint64_t count_ = 0;
};

}  // namespace gpudiag
