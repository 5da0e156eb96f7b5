// Opening a history database, and recording, accepting and pruning runs.
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "gpudiag/diagnostic_codes.h"
#include "schema.h"
#include "store.h"

namespace gpudiag {

using detail::Database;
using detail::DbError;
using detail::Statement;
using detail::Transaction;

namespace {

constexpr size_t kEvidencePerFinding = 5;
constexpr size_t kMaxEvidenceMessage = 4096;

// Refuses, before anything is written, a file that is not a gpudiag history this version can use.
// Returns its schema version. One statement reads it all from one snapshot (another process may be
// creating the database right now); reading the schema also finds a corrupt file.
int check_foreign_or_newer(const Database& db) {
  Statement s = db.prepare(
      "SELECT (SELECT user_version FROM pragma_user_version), (SELECT application_id FROM pragma_application_id), "
      "(SELECT count(*) FROM sqlite_schema)");
  s.step();
  const int64_t version = s.int64(0), application = s.int64(1), tables = s.int64(2);
  const auto refuse = [&](std::string code, std::string message, std::string help) {
    throw DbError{
        Diagnostic{.code = std::move(code), .message = std::move(message), .file = db.path(), .help = std::move(help)}};
  };
  if (application != 0 && application != detail::kApplicationId) {
    refuse(code_name(DiagnosticCode::kDbForeign),
           fmt::format("not a gpudiag history database (its application id is {:#x})", application),
           "it was left as it is; give --db a new file name");
  }
  if (version > kHistorySchemaVersion) {
    refuse(code_name(DiagnosticCode::kDbNewer),
           fmt::format("the database was written by a newer gpudiag (schema version {}; this gpudiag knows up to {})",
                       version, kHistorySchemaVersion),
           "it was left as it is; use a newer gpudiag with it, or give --db a new file");
  }
  if (version == 0 && tables > 0) {
    refuse(code_name(DiagnosticCode::kDbForeign), "not a gpudiag history database: it holds tables of its own",
           "it was left as it is; give --db a new file name");
  }
  return static_cast<int>(version);
}

// WAL: readers never block the writer, and a crash loses at most the transaction under way. Switching
// a new database to it needs the file to itself for a moment, and SQLite does not wait for that (the
// busy handler is not called), so two processes creating one database at once retry here.
void enable_wal(const Database& db, int timeout_ms) {
  constexpr int kPauseMs = 10;
  for (int waited = 0;; waited += kPauseMs) {
    try {
      db.prepare("PRAGMA journal_mode = WAL").step();
      return;
    } catch (const DbError& e) {
      if (e.sqlite_code != SQLITE_BUSY || waited >= timeout_ms) throw;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(kPauseMs));
  }
}

int64_t insert_run(const Database& db, const RankedReport& report, const std::string& pipeline, int64_t replace_id) {
  const Analysis& d = *report.analysis;
  Statement s = db.prepare(replace_id != 0 ? R"sql(
    UPDATE run SET pipeline = ?1, job_id = ?2, job_name = ?3, project = ?4, region = ?5, start_time = ?6,
      end_time = ?7, verdict = ?8, summary = ?9, rule_pack = ?10, entries = ?11, recorded_at = ?12, outcome = ?13
    WHERE id = ?14)sql"
                                           : R"sql(
    INSERT INTO run (pipeline, job_id, job_name, project, region, start_time, end_time, verdict, summary,
      rule_pack, entries, recorded_at, outcome) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13))sql");
  const std::string start = detail::db_time(d.start), end = detail::db_time(d.end), at = detail::db_time(detail::now());
  s.bind(1, pipeline).bind(2, d.job.id).bind(3, d.job.name).bind(4, d.job.project).bind(5, d.job.region);
  s.bind_or_null(6, start).bind_or_null(7, end).bind(8, verdict_name(report.verdict)).bind(9, report.verdict_line);
  s.bind(10, d.rule_pack_hash).bind(11, d.entries).bind(12, at).bind(13, job_outcome_name(d.job.outcome));
  if (replace_id != 0) s.bind(14, replace_id);
  s.run();
  return replace_id != 0 ? replace_id : db.last_insert_rowid();
}

void insert_findings(const Database& db, const RankedReport& report, int64_t run_id) {
  const Analysis& d = *report.analysis;
  Statement finding = db.prepare(R"sql(
    INSERT INTO finding (run_id, rule_id, fingerprint, rank, title, family, severity, confidence, count,
      first_seen, last_seen, workers, caused_by, fingerprint_v1, identity, fingerprint_v2)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16) ON CONFLICT DO NOTHING)sql");
  Statement evidence = db.prepare(R"sql(
    INSERT INTO evidence (run_id, rule_id, fingerprint, seq, time, severity, log, worker, file, line, message)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) ON CONFLICT DO NOTHING)sql");
  for (const RankedFinding& rf : report.findings) {
    const Finding& f = *rf.finding;
    const std::string first = detail::db_time(f.first_seen), last = detail::db_time(f.last_seen);
    finding.bind(1, run_id).bind(2, f.rule_id).bind(3, f.fingerprint).bind(4, rf.rank).bind(5, f.title);
    finding.bind(6, f.family).bind(7, impact_name(f.severity)).bind(8, f.confidence).bind(9, f.count);
    finding.bind_or_null(10, first).bind_or_null(11, last).bind(12, f.workers_total);
    if (rf.caused_by)
      finding.bind(13, report.findings[*rf.caused_by].finding->rule_id);
    else
      finding.bind_null(13);
    finding.bind_or_null(14, f.legacy_fingerprint).bind(15, f.identity).bind_or_null(16, f.fingerprint_v2);
    finding.run();
    for (size_t i = 0; i < f.evidence.size() && i < kEvidencePerFinding; ++i) {
      const LogRecord& r = f.evidence[i].entry.record();
      const std::string time = detail::db_time(r.timestamp);
      const std::string message = crop_middle(r.message.empty() ? r.exception : r.message, kMaxEvidenceMessage);
      const std::string& file = r.where.input < d.inputs.size() ? d.inputs[r.where.input].path : std::string();
      evidence.bind(1, run_id).bind(2, f.rule_id).bind(3, f.fingerprint).bind(4, static_cast<int64_t>(i));
      evidence.bind_or_null(5, time).bind(6, severity_name(r.severity)).bind_or_null(7, r.log);
      evidence.bind_or_null(8, r.worker).bind(9, file).bind(10, r.where.line).bind(11, message);
      evidence.run();
    }
  }
}

}  // namespace

HistoryStore::HistoryStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
HistoryStore::HistoryStore(HistoryStore&&) noexcept = default;
HistoryStore& HistoryStore::operator=(HistoryStore&&) noexcept = default;
HistoryStore::~HistoryStore() = default;

const std::string& HistoryStore::path() const { return impl_->db.path(); }
int HistoryStore::opened_version() const { return impl_->opened_version; }
bool HistoryStore::has_full_text() const { return impl_->full_text; }

Result<HistoryStore> HistoryStore::open(const std::string& path, const StoreOptions& options) {
  return detail::guarded([&]() -> HistoryStore {
    std::error_code ec;
    if ((options.read_only || !options.create) && !std::filesystem::exists(path, ec)) {
      throw DbError{Diagnostic{.code = code_name(DiagnosticCode::kDbMissing),
                               .message = "no history database here",
                               .file = path,
                               .help = "record runs with --db, or store entries with `gpudiag ingest --db`"}};
    }
    const int flags = options.read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    auto impl = std::make_unique<Impl>(Impl{Database(path, flags, options.busy_timeout_ms), options});
    const Database& db = impl->db;
    if (!options.read_only && sqlite3_db_readonly(db.handle(), "main") == 1) {
      throw DbError{detail::db_diagnostic(path, SQLITE_READONLY, "attempt to write a readonly database",
                                          "opening it for writing")};
    }
    impl->opened_version = check_foreign_or_newer(db);
    impl->full_text = sqlite3_compileoption_used("ENABLE_FTS5") == 1;
    if (options.read_only) return HistoryStore(std::move(impl));
    if (impl->opened_version == 0) db.exec("PRAGMA page_size = 16384");  // only a new, empty file takes it
    enable_wal(db, options.busy_timeout_ms);
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec("PRAGMA foreign_keys = ON");
    if (impl->opened_version < kHistorySchemaVersion) detail::migrate(db);
    return HistoryStore(std::move(impl));
  });
}

namespace {

// One run of a pipeline, inside the caller's transaction: replaces an earlier recording of the same
// job, then says what each finding's history is.
RecordedRun record_one(const Database& db, const RankedReport& report, const std::string& pipeline) {
  const Analysis& d = *report.analysis;
  RecordedRun out;
  out.pipeline = pipeline;
  int64_t replace_id = 0;
  if (!d.job.id.empty()) {
    replace_id =
        db.single_int("SELECT coalesce(max(id), 0) FROM run WHERE pipeline = ?1 AND job_id = ?2", pipeline, d.job.id);
  }
  if (replace_id != 0) {
    db.execute("DELETE FROM finding WHERE run_id = ?1", replace_id);
    db.execute("DELETE FROM unexplained WHERE run_id = ?1", replace_id);
    db.execute("DELETE FROM fact WHERE run_id = ?1", replace_id);
    out.replaced = true;
  }
  out.id = insert_run(db, report, pipeline, replace_id);
  insert_findings(db, report, out.id);
  detail::insert_unexplained_and_facts(db, report, out.id);
  const detail::PipelineRuns runs = detail::load_pipeline(db, pipeline, out.id);
  out.runs_recorded = runs.runs.size();
  for (const RankedFinding& rf : report.findings) {
    out.findings.push_back(
        detail::recurrence(runs, {rf.finding->rule_id, rf.finding->fingerprint}, runs.runs.size() - 1));
  }
  out.unexplained = detail::unexplained_novelty(db, report, pipeline, out.id);
  out.changes_since_green = detail::changes_since_green(db, report, pipeline, out.id);
  return out;
}

}  // namespace

Result<RecordedRun> HistoryStore::record_run(const RankedReport& report, const std::string& pipeline,
                                             const std::function<bool(const RecordedRun&)>& before_commit) {
  auto runs = record_runs({{&report, pipeline}}, [&](const std::vector<RecordedRun>& recorded) {
    return !before_commit || before_commit(recorded.front());
  });
  if (!runs) return runs.error();
  return std::move(runs->front());
}

Result<std::vector<RecordedRun>> HistoryStore::record_runs(
    const std::vector<std::pair<const RankedReport*, std::string>>& runs,
    const std::function<bool(const std::vector<RecordedRun>&)>& before_commit) {
  return detail::guarded([&]() -> std::vector<RecordedRun> {
    const Database& db = impl_->db;
    Transaction tx(db);
    std::vector<RecordedRun> out;
    for (const auto& [report, pipeline] : runs) out.push_back(record_one(db, *report, pipeline));
    if (before_commit && !before_commit(out)) {
      throw detail::DbError{.diagnostic =
                                Diagnostic{.code = code_name(DiagnosticCode::kHistoryNotRecorded),
                                           .message = "the run was not recorded: its outputs were not written",
                                           .file = impl_->db.path()}};
    }
    tx.commit();
    return out;
  });
}

void annotate(RankedReport& report, const RecordedRun& run, bool new_only) {
  report.history =
      ReportHistory{.pipeline = run.pipeline, .run = run.id, .runs_recorded = run.runs_recorded, .new_only = new_only};
  for (size_t i = 0; i < report.findings.size() && i < run.findings.size(); ++i) {
    FindingHistory& h = report.findings[i].history.emplace(run.findings[i]);
    h.gate_ignores = new_only && h.known;
  }
  apply_novelty(report, run.unexplained, new_only);
  report.changes_since_green = run.changes_since_green;
}

Result<RunSummary> HistoryStore::accept(int64_t run_id, const std::string& reason) {
  return detail::guarded([&]() -> RunSummary {
    const Database& db = impl_->db;
    Transaction tx(db);
    RunSummary run = detail::load_run(db, run_id);
    const std::string at = detail::db_time(detail::now());
    db.execute(R"sql(
      INSERT OR REPLACE INTO accepted (pipeline, rule_id, fingerprint, run_id, accepted_at, reason, fingerprint_v1,
        fingerprint_v2)
      SELECT r.pipeline, f.rule_id, f.fingerprint, r.id, ?2, ?3, f.fingerprint_v1, f.fingerprint_v2 FROM finding f
      JOIN run r ON r.id = f.run_id WHERE r.id = ?1)sql",
               run_id, at, reason);
    db.execute("UPDATE run SET accepted_at = ?2 WHERE id = ?1", run_id, at);
    tx.commit();
    run.accepted = true;
    return run;
  });
}

Result<PruneResult> HistoryStore::prune(const PruneOptions& o) {
  return detail::guarded([&]() -> PruneResult {
    const Database& db = impl_->db;
    Transaction tx(db);
    PruneResult out;
    if (o.keep) {
      out.runs += static_cast<uint64_t>(db.execute(R"sql(
        DELETE FROM run WHERE id IN (
          SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY pipeline ORDER BY id DESC) AS n
                          FROM run WHERE ?1 = '' OR pipeline = ?1)
          WHERE n > ?2))sql",
                                                   o.pipeline, *o.keep));
    }
    if (o.older_than_seconds) {
      const std::string cutoff = detail::db_time(detail::now() - *o.older_than_seconds * 1'000'000'000);
      out.runs += static_cast<uint64_t>(
          db.execute("DELETE FROM run WHERE recorded_at < ?1 AND (?2 = '' OR pipeline = ?2)", cutoff, o.pipeline));
      if (o.pipeline.empty()) {
        const auto [sources, entries] = detail::prune_sources(db, cutoff);
        out.sources = sources;
        out.entries = entries;
      }
    }
    tx.commit();
    return out;
  });
}

}  // namespace gpudiag
