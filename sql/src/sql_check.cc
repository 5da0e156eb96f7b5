// check_sql and explain_sql: what the query needs of BigQuery, said before it runs.
#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>

#include "gpudiag/entry_labels.h"
#include "gpudiag/sql_query.h"
#include "sql_tables.h"
#include "sql_text.h"

namespace gpudiag {

std::vector<std::pair<std::string, std::string>> sql_tables(const SqlOptions& o);  // sql_query.cc

namespace {

// Every column path the query reads in one table.
std::vector<std::string> columns_read(SqlSchema schema) {
  std::vector<std::string> out;
  const auto add = [&](std::string path) {
    if (!path.empty() && std::find(out.begin(), out.end(), path) == out.end()) out.push_back(std::move(path));
  };
  if (schema == SqlSchema::kAnalytics) {
    for (const char* c :
         {"timestamp", "severity", "log_name", "insert_id", "resource", "labels", "text_payload", "json_payload"}) {
      add(c);
    }
  } else {
    for (const char* c : {"timestamp", "severity", "logName", "insertId", "textPayload", "resource.type"}) add(c);
    for (const auto& r : resource_label_fields()) add(fmt::format("resource.labels.{}", r.key));
    for (const auto& l : entry_label_fields()) add(fmt::format("labels.{}", l.sink_key));
    for (const auto& p : sql::sink_payload_fields()) add("jsonPayload." + p);
  }
  for (const auto& row : record_field_sources()) {
    for (const auto& s : row.sources()) add(sql::column_path(schema, s));
  }
  return out;
}

void collect_patterns(const SelectionFilter& f, const std::string& source,
                      std::vector<std::pair<std::string, std::string>>& out) {
  if (f.kind == SelectionFilter::Kind::kRegex) out.emplace_back(f.regex, source);
  for (const auto& c : f.children) collect_patterns(c, source, out);
}

}  // namespace

SqlCheck check_sql(const PackSelection& selection, const SqlOptions& options) {
  SqlCheck out;
  std::vector<std::pair<std::string, std::string>> patterns;  // pattern, where it comes from
  for (const auto& c : selection.conditions) {
    collect_patterns(c.filter, c.source, patterns);
    if (c.filter.kind == SelectionFilter::Kind::kAny) {
      out.warnings.push_back(
          fmt::format("{} has no filter BigQuery can apply: the query returns every entry", c.source));
    }
  }
  for (const auto& p : selection.candidates.benign_errors) patterns.emplace_back(p, "benign_errors");
  for (const auto& p : selection.candidates.demoting_prefixes) patterns.emplace_back(p, "the error-candidate screen");
  patterns.emplace_back(selection.candidates.fragment_pattern, "the error-candidate screen");
  for (const auto& p : selection.candidates.line_formats) patterns.emplace_back(p, "line_formats");
  // BigQuery compiles a REGEXP_CONTAINS pattern with RE2's defaults: flags only inline.
  RE2::Options defaults;
  defaults.set_log_errors(false);
  for (const auto& [pattern, source] : patterns) {
    RE2 re(pattern, defaults);
    if (!re.ok()) {
      out.errors.push_back(
          fmt::format("{}: BigQuery cannot take the pattern `{}` as written: {}", source, pattern, re.error()));
    }
  }
  if (!options.schemas.empty()) {
    if (options.source.schema == SqlSchema::kSink) {
      for (std::string_view log : sql::kDataflowLogs) {
        const std::string t = sql::sink_table_name(log);
        const bool described = std::any_of(options.schemas.begin(), options.schemas.end(),
                                           [&](const TableSchema& s) { return s.table == t; });
        if (!described) {
          out.warnings.push_back(fmt::format("no --schema for {}.{}.{}: the query does not read that table",
                                             options.source.project, options.source.dataset, t));
        }
      }
    }
    for (const auto& [table, schema_name] : sql_tables(options)) {
      const TableSchema* found = nullptr;
      for (const auto& t : options.schemas) {
        if (t.table == schema_name || options.source.schema == SqlSchema::kAnalytics) found = &t;
      }
      if (found == nullptr) continue;
      for (const auto& col : columns_read(options.source.schema)) {
        if (std::find(found->columns.begin(), found->columns.end(), col) == found->columns.end()) {
          out.errors.push_back(fmt::format("{}: table {} has no column {}, which the query reads (it is read as NULL)",
                                           found->file, table, col));
        }
      }
    }
  }
  return out;
}

std::string explain_sql(const PackSelection& selection, const SqlOptions& options, double daily_entries) {
  (void)selection;
  std::string out;
  const auto tables = sql_tables(options);
  out += fmt::format("tables read ({}):\n", tables.size());
  for (const auto& t : tables) out += fmt::format("  {}\n", t.first);
  const auto cols = columns_read(options.source.schema);
  out += fmt::format("columns read ({}): {}\n", cols.size(), fmt::join(cols, ", "));
  if (options.since.empty()) {
    out += "partitions read: all (no --since: no partition filter; give --since to bound the scan)\n";
  } else {
    out += fmt::format("partitions read: timestamp from --since {}{}{}\n", options.since,
                       options.until.empty() ? "" : " to --until ", options.until);
    if (options.layout == SinkLayout::kSharded && options.source.schema == SqlSchema::kSink) {
      out += "  date shards: _TABLE_SUFFIX between the two dates\n";
    }
  }
  const double bytes = daily_entries * kAverageEntryBytes;
  out += fmt::format(
      "estimate: {:.0f} entries a day × {:.0f} bytes of the columns read = {:.2f} GB scanned per day of logs{}\n",
      daily_entries, kAverageEntryBytes, bytes / 1e9,
      options.source.schema == SqlSchema::kAnalytics
          ? " (every entry of the bucket's day is scanned: the view holds all its logs, the resource filter "
            "drops rows, not bytes)"
          : " (only the Dataflow log tables are read)");
  return out;
}

}  // namespace gpudiag
