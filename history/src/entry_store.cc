// `gpudiag ingest`: log entries into the entry table, fast. Exports are parsed by ingest's record
// stream on worker threads while this one inserts: one prepared INSERT, one transaction per ingest, and no
// secondary index on entry to keep up to date; the FTS5 index is filled in one INSERT … SELECT at
// the end.
#include <fmt/format.h>

#include <algorithm>
#include <thread>
#include <unordered_map>

#include "gpudiag/ingest.h"
#include "schema.h"
#include "store.h"

namespace gpudiag {

using detail::Database;
using detail::Statement;

namespace {

constexpr std::string_view kFullTextMark = "fts_indexed_through";  // meta: the last entry id indexed

struct JobRow {
  std::string name, project, region;
};

// Fills the FTS5 index with the entries it does not hold yet. Returns how many it added.
uint64_t update_full_text(const Database& db) {
  db.exec(detail::kFullTextDdl);
  const int64_t through = db.single_int("SELECT coalesce((SELECT value FROM meta WHERE key = ?1), 0)", kFullTextMark);
  const int64_t added = db.execute(
      "INSERT INTO entry_fts (rowid, message, exception) SELECT id, message, exception FROM entry WHERE id > ?1",
      through);
  db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, (SELECT coalesce(max(id), 0) FROM entry))",
             kFullTextMark);
  return static_cast<uint64_t>(added);
}

bool table_exists(const Database& db, std::string_view name) {
  return db.single_int("SELECT count(*) FROM sqlite_schema WHERE name = ?1", name) > 0;
}

// Entries not in the full-text index yet (for the note after --no-fts).
int64_t unindexed(const Database& db) {
  return db.single_int("SELECT count(*) FROM entry WHERE id > coalesce((SELECT value FROM meta WHERE key = ?1), 0)",
                       kFullTextMark);
}

class EntryWriter {
 public:
  explicit EntryWriter(const Database& db)
      : db_(&db), insert_(db.prepare(R"sql(
          INSERT INTO entry (source_id, line, time, severity, log, worker, sdk_worker, job_id, step, logger,
            message, exception, insert_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13))sql")) {}

  void add(int64_t source, const LogRecord& r) {
    char time[detail::kDbTimeSize];
    insert_.bind(1, source).bind(2, r.where.line);
    if (r.timestamp == kNoTime) {
      insert_.bind_null(3);
    } else {
      detail::write_db_time(time, r.timestamp);
      insert_.bind(3, std::string_view(time, sizeof time));
    }
    insert_.bind(4, severity_name(r.severity)).bind_or_null(5, r.log).bind_or_null(6, r.worker);
    insert_.bind_or_null(7, r.sdk_worker).bind_or_null(8, r.job_id).bind_or_null(9, r.step);
    insert_.bind_or_null(10, r.logger).bind_or_null(11, r.message).bind_or_null(12, r.exception);
    insert_.bind_or_null(13, r.insert_id);
    insert_.step();
    sqlite3_reset(insert_.handle());  // bindings are all set again for the next row
    if (!r.job_id.empty()) note_job(r);
    if (jobs_.size() >= kMaxPendingJobs) write_jobs(*db_);  // bounded: an upsert merges later rows
  }

  void write_jobs(const Database& db) {
    Statement upsert = db.prepare(R"sql(
      INSERT INTO job (id, name, project, region) VALUES (?1, ?2, ?3, ?4)
      ON CONFLICT (id) DO UPDATE SET
        name = CASE WHEN excluded.name != '' THEN excluded.name ELSE name END,
        project = CASE WHEN excluded.project != '' THEN excluded.project ELSE project END,
        region = CASE WHEN excluded.region != '' THEN excluded.region ELSE region END)sql");
    for (const auto& [id, job] : jobs_) {
      upsert.bind(1, id).bind(2, job.name).bind(3, job.project).bind(4, job.region).run();
    }
    jobs_.clear();
    last_job_.clear();
  }

 private:
  void note_job(const LogRecord& r) {
    if (r.job_id == last_job_) return;  // entries come in runs of one job
    last_job_ = r.job_id;
    JobRow& job = jobs_[last_job_];
    if (job.name.empty()) job.name = r.job_name;
    if (job.project.empty()) job.project = r.project;
    if (job.region.empty()) job.region = r.region;
  }

  static constexpr size_t kMaxPendingJobs = 1'000;
  const Database* db_;
  Statement insert_;
  std::string last_job_;
  std::unordered_map<std::string, JobRow> jobs_;
};

}  // namespace

Result<IngestSummary> HistoryStore::ingest(const std::vector<std::string>& paths, const IngestOptions& options) {
  return detail::guarded([&]() -> IngestSummary {
    const Database& db = impl_->db;
    // 16 MiB of page cache: ingest stays within gpudiag's memory promise (docs/performance.md, "Memory
    // caps"); a bigger cache saved little once the insert order follows the index.
    db.exec("PRAGMA cache_size = -16384");
    detail::Transaction tx(db);
    IngestSummary out;
    EntryWriter writer(db);
    // A source row per input up front (its counts filled in at its end; dropped if unreadable).
    std::vector<int64_t> source_ids;
    const std::string at = detail::db_time(detail::now());
    for (const std::string& path : paths) {
      db.execute("INSERT INTO source (path, format, bytes, entries, ingested_at) VALUES (?1, '', 0, 0, ?2)", path, at);
      source_ids.push_back(db.last_insert_rowid());
    }
    // Duplicates (overlapping exports) are flagged by the stream and not stored.
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    StreamSummary read =
        read_exports(paths, StreamOptions{.threads = threads, .limits = options.limits, .long_text = nullptr},
                     keeping_sink, [&](RecordBatch&& batch) {
                       const int64_t source_id = source_ids[batch.input];
                       for (const auto& kept : static_cast<KeptBatch&>(*batch.output).records) {
                         if (!batch.is_duplicate(kept.first)) writer.add(source_id, kept.second.record());
                       }
                     });
    for (size_t i = 0; i < paths.size(); ++i) {
      if (!read.inputs[i]) {
        out.input_errors.push_back(read.inputs[i].error());
        db.execute("DELETE FROM source WHERE id = ?1", source_ids[i]);
        continue;
      }
      InputSummary& summary = read.inputs[i].value();
      db.execute("UPDATE source SET format = ?2, bytes = ?3, entries = ?4 WHERE id = ?1", source_ids[i],
                 shape_name(summary.shape), summary.bytes, summary.analysed);
      out.stored += summary.analysed;
      out.bytes += summary.bytes;
      out.inputs.push_back(std::move(summary));
    }
    writer.write_jobs(db);
    if (!options.full_text) {
      out.full_text_note = table_exists(db, "entry_fts")
                               ? fmt::format(
                                     "the full-text index was not updated (--no-fts): {} entries are not in it yet; "
                                     "the next ingest without --no-fts adds them",
                                     unindexed(db))
                               : "no full-text index (--no-fts): the next ingest without --no-fts builds it";
    } else if (!impl_->full_text) {
      out.full_text_note =
          "this SQLite has no FTS5, so there is no full-text index: entries are stored without "
          "one (search them with LIKE, or use a SQLite built with FTS5, as Debian's is)";
    } else {
      out.full_text_indexed = update_full_text(db);
    }
    tx.commit();
    return out;
  });
}

namespace detail {

std::pair<uint64_t, uint64_t> prune_sources(const Database& db, const std::string& cutoff) {
  if (table_exists(db, "entry_fts")) {
    // An external-content FTS5 index is told what it held, before the rows go.
    db.execute(R"sql(
      INSERT INTO entry_fts (entry_fts, rowid, message, exception)
      SELECT 'delete', e.id, e.message, e.exception FROM entry e JOIN source s ON s.id = e.source_id
      WHERE s.ingested_at < ?1 AND e.id <= coalesce((SELECT value FROM meta WHERE key = ?2), 0))sql",
               cutoff, kFullTextMark);
  }
  const int64_t entries =
      db.execute("DELETE FROM entry WHERE source_id IN (SELECT id FROM source WHERE ingested_at < ?1)", cutoff);
  const int64_t sources = db.execute("DELETE FROM source WHERE ingested_at < ?1", cutoff);
  return {static_cast<uint64_t>(sources), static_cast<uint64_t>(entries)};
}

}  // namespace detail
}  // namespace gpudiag
