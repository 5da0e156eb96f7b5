// The rule pack compiled into one GoogleSQL query (issue 18, docs/sql.md): it filters the logs in
// BigQuery — REGEXP_CONTAINS with the pack's own RE2 patterns — and returns, in the rows
// `gpudiag analyze` reads (docs/formats.md, "BigQuery results"), only what the diagnosis needs, plus
// one summary row per job with the job's whole-job aggregates.
//
//   auto source = parse_sql_source("analytics:my-proj.my_logs");
//   SqlOptions o{.source = *source, .since = "24h"};
//   Result<std::string> sql = compile_sql(pack_selection(pack), o);
//
// Two schemas: the Log Analytics view `_AllLogs` (snake_case, JSON columns) and the tables of a
// BigQuery log sink (one per log, camelCase RECORDs of the fixed column set, partitioned or sharded).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/pack_selection.h"
#include "gpudiag/result.h"

namespace gpudiag {

enum class SqlSchema : uint8_t { kAnalytics, kSink };
enum class SinkLayout : uint8_t { kPartitioned, kSharded };

struct SqlSource {
  SqlSchema schema = SqlSchema::kAnalytics;
  std::string project;
  std::string dataset;
  std::string view = "_AllLogs";  // analytics only
};

// "analytics:PROJECT.DATASET[.VIEW]" or "sink:PROJECT.DATASET".
Result<SqlSource> parse_sql_source(std::string_view text);

// One table's columns as `bq show --schema --format=json` prints them: dotted paths of every
// field, RECORDs' fields included ("jsonPayload.message").
struct TableSchema {
  std::string table;  // the file's name up to its first '.', or what the caller says
  std::string file;
  std::vector<std::string> columns;
};
Result<TableSchema> parse_table_schema(std::string_view json, std::string table, std::string file);

struct SqlOptions {
  SqlSource source;
  SinkLayout layout = SinkLayout::kPartitioned;
  std::string since;  // "24h", "7d", "30m", a DATE "2024-05-01" or an RFC 3339 time; "" = no bound
  std::string until;  // the same forms; "" = no bound
  std::vector<std::string> job_ids;
  std::string job_name_glob;  // '*' and '?' as in analyze's --job-name
  uint64_t max_rows_per_job = 20000;
  std::vector<TableSchema> schemas;  // a column a table lacks is read as NULL there
};

Result<std::string> compile_sql(const PackSelection& selection, const SqlOptions& options);

// What `gpudiag sql --check` finds: patterns BigQuery cannot take as written, columns the query
// reads that a --schema file lacks, conditions that select every entry. Each is one line.
struct SqlCheck {
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
};
SqlCheck check_sql(const PackSelection& selection, const SqlOptions& options);

// What `gpudiag sql --explain` prints: the tables, the columns and partitions read, and the
// bytes scanned per day of logs at `daily_entries`.
std::string explain_sql(const PackSelection& selection, const SqlOptions& options, double daily_entries);
// The average bytes of the columns the query reads per entry, the estimate's assumption: the mean
// size of an entry of bench/generate.py's 31-job export (209,716,164 bytes, 189,465 entries; docs/sql.md).
inline constexpr double kAverageEntryBytes = 1107;

}  // namespace gpudiag

namespace gpudiag {

struct LogRecord;

// The query's selection (gd_pick) evaluated locally on records in time order, with the same RE2
// patterns and the same reading of the fields: what BigQuery would select of an export, for tests
// and bench/ (the share of entries a query returns, before the per-job cap). It counts each job's
// entries of the limited conditions (SelectedCondition::per_job), so records are given once each.
class LocalSelection {
 public:
  explicit LocalSelection(const PackSelection& selection);
  LocalSelection(LocalSelection&&) noexcept;
  ~LocalSelection();
  bool picks(const LogRecord& r) const;
  // Why it picks a record: the index of the first condition that holds (selection.conditions),
  // kWholeLog, kCandidate, or kNotPicked.
  static constexpr int kWholeLog = -1, kCandidate = -2, kNotPicked = -3;
  int reason(const LogRecord& r) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpudiag
