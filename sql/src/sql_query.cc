// compile_sql: the selection as one query. The query's CTEs, in order:
//   src     every entry of the tables read, in the output row shape, beside its normalised fields
//           (gd_*: ingest's LogRecord fields, written from gpudiag/entry_fields.h)
//   e       the entries of the jobs asked for, with gd_pick: whether the diagnosis reads it
//   picked  the entries picked, at most --max-rows-per-job per job (job messages first)
//   jobs, kept, logs, sdks, workers, worker_list, summary   one summary row per job (docs/sql.md),
//           with each fact extractor's count of the job's entries (fact_entries)
#include "gpudiag/sql_query.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "gpudiag/entry_labels.h"
#include "gpudiag/severity.h"
#include "sql_tables.h"
#include "sql_text.h"

namespace gpudiag {
namespace sql {

std::string sink_table_name(std::string_view log_id) {
  std::string out(log_id);
  for (char& c : out) {
    const bool kept = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!kept) c = '_';
  }
  return out;
}

std::string column_path(SqlSchema schema, const EntryFieldSource& s) {
  if (schema == SqlSchema::kAnalytics) {
    switch (s.part) {
      case EntryPart::kEntry:
        if (s.key == "textPayload") return "text_payload";
        if (s.key == "logName") return "log_name";
        if (s.key == "severity") return "severity";
        return "";  // severity_number: the view always has severity beside it
      case EntryPart::kJsonPayload:
        return "json_payload";
      case EntryPart::kProtoPayload:
        return "";  // not in the row shape: Dataflow's logs carry no protoPayload
      case EntryPart::kLabel:
        return "labels";
      case EntryPart::kResource:
        return fmt::format("resource.{}", s.key);
      case EntryPart::kResourceLabel:
        return "resource.labels";
    }
    return "";
  }
  switch (s.part) {
    case EntryPart::kEntry:
      return s.key == "severity_number" ? "" : std::string(s.key);
    case EntryPart::kJsonPayload: {
      std::string lowered(s.key);  // a sink lowercases payload field names
      for (char& c : lowered) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
      return "jsonPayload." + sink_label_key(lowered);
    }
    case EntryPart::kProtoPayload:
      return "";
    case EntryPart::kLabel:
      return "labels." + sink_label_key(s.key);
    case EntryPart::kResource:
      return fmt::format("resource.{}", s.key);
    case EntryPart::kResourceLabel:
      return fmt::format("resource.labels.{}", s.key);
  }
  return "";
}

std::vector<std::string> sink_payload_fields() {
  std::vector<std::string> out;
  for (const auto& row : record_field_sources()) {
    for (const auto& s : row.sources()) {
      if (s.part != EntryPart::kJsonPayload) continue;
      const std::string path = column_path(SqlSchema::kSink, s);
      const std::string field = path.substr(path.find('.') + 1);
      if (std::find(out.begin(), out.end(), field) == out.end()) out.push_back(field);
    }
  }
  return out;
}

}  // namespace sql

namespace {

using sql::quote;

// Whether the table (by its --schema file, if one was given) has a column.
using HasColumn = std::function<bool(const std::string&)>;

// The expression that reads one source in one table.
std::string read_expr(SqlSchema schema, const EntryFieldSource& s, const HasColumn& has) {
  const std::string path = sql::column_path(schema, s);
  if (path.empty() || !has(path)) return "";
  if (schema == SqlSchema::kAnalytics) {
    switch (s.part) {
      case EntryPart::kJsonPayload:
        return fmt::format("JSON_VALUE(json_payload, {})", quote(fmt::format("$.{}", s.key)));
      case EntryPart::kLabel:
        return fmt::format("JSON_VALUE(labels, {})", quote(fmt::format("$.\"{}\"", s.key)));
      case EntryPart::kResourceLabel:
        return fmt::format("JSON_VALUE(resource.labels, {})", quote(fmt::format("$.{}", s.key)));
      default:
        return path;
    }
  }
  return path;
}

// A LogRecord field: its first non-empty source, else ''.
std::string field_expr(SqlSchema schema, std::string_view field, const HasColumn& has) {
  const RecordFieldSources* row = record_field(field);
  std::vector<std::string> parts;
  for (const auto& s : row->sources()) {
    std::string e = read_expr(schema, s, has);
    if (!e.empty()) parts.push_back(fmt::format("NULLIF({}, '')", e));
  }
  if (parts.empty()) return "''";
  parts.push_back("''");
  return fmt::format("COALESCE({})", fmt::join(parts, ", "));
}

// The severity's number from its name, alias or number (core's tables), DEFAULT (0) otherwise.
std::string severity_expr(SqlSchema schema, const HasColumn& has) {
  const std::string col = read_expr(schema, {EntryPart::kEntry, "severity"}, has);
  if (col.empty()) return "0";
  std::string out = fmt::format("CASE UPPER({})", col);
  for (const auto& row : kSeverityNames) {
    out += fmt::format(" WHEN {} THEN {} WHEN '{}' THEN {}", quote(row.name), static_cast<int>(row.value),
                       static_cast<int>(row.value), static_cast<int>(row.value));
  }
  for (const auto& row : kSeverityAliases) {
    out += fmt::format(" WHEN {} THEN {}", quote(row.name), static_cast<int>(row.value));
  }
  return out + " ELSE 0 END";
}

// The record fields a filter can read, and the gd_ column each is in.
struct FieldColumn {
  std::string_view record_field;
  std::string_view column;
};
constexpr std::array kFieldColumns = {
    FieldColumn{"message", "gd_message"}, FieldColumn{"exception", "gd_exception"},
    FieldColumn{"worker", "gd_worker"},   FieldColumn{"sdk_worker", "gd_sdk_worker"},
    FieldColumn{"job_id", "gd_job"},      FieldColumn{"job_name", "gd_job_name"},
    FieldColumn{"project", "gd_project"}, FieldColumn{"region", "gd_region"},
    FieldColumn{"step", "gd_step"},       FieldColumn{"logger", "gd_logger"},
    FieldColumn{"thread", "gd_thread"},   FieldColumn{"resource_type", "gd_resource_type"},
};

std::string column_of(SelectField f) {
  switch (f) {
    case SelectField::kLog:
      return "gd_log";
    case SelectField::kSeverity:
      return "gd_severity";
    default:
      break;
  }
  const std::string_view name = select_field_name(f);
  for (const auto& c : kFieldColumns) {
    if (c.record_field == name) return std::string(c.column);
  }
  return "gd_message";
}

// A literal as an RE2 pattern, a line break as `\n` (a newline in a literal is an escape sqlglot
// leaves as two characters for DuckDB; a regex's `\n` means the same in both).
std::string literal_regex(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ' ' ||
                       c == ':' || c == '_' || static_cast<unsigned char>(c) >= 0x80;
    if (c == '\n') {
      out += "\\n";
    } else {
      if (!plain) out += '\\';
      out += c;
    }
  }
  return out;
}

struct Compiler {
  const PackSelection& selection;
  const SqlOptions& options;
  std::vector<std::string> label_keys;  // labels the filters read: gd_label_<i>

  std::string label_column(const std::string& key) {
    auto it = std::find(label_keys.begin(), label_keys.end(), key);
    if (it == label_keys.end()) {
      label_keys.push_back(key);
      it = label_keys.end() - 1;
    }
    return fmt::format("gd_label_{}", it - label_keys.begin());
  }

  std::string severity_name_expr() {
    std::string out = "CASE gd_severity";
    for (const auto& row : kSeverityNames)
      out += fmt::format(" WHEN {} THEN {}", static_cast<int>(row.value), quote(row.name));
    return out + " ELSE 'DEFAULT' END";
  }

  std::string value_of(SelectField f, const std::string& label_key) {
    if (f == SelectField::kLabel) return label_column(label_key);
    if (f == SelectField::kSeverity) return severity_name_expr();
    return column_of(f);
  }

  // The filter as a boolean expression; "" for "any record".
  std::string filter(const SelectionFilter& f) {
    switch (f.kind) {
      case SelectionFilter::Kind::kAny:
        return "";
      case SelectionFilter::Kind::kRegex: {
        const std::string re = sql::quote_regex(f.regex);
        if (f.field == SelectField::kText) {
          return fmt::format("(REGEXP_CONTAINS(gd_message, {0}) OR REGEXP_CONTAINS(gd_exception, {0}))", re);
        }
        return fmt::format("REGEXP_CONTAINS({}, {})", value_of(f.field, f.label_key), re);
      }
      case SelectionFilter::Kind::kNames: {
        std::vector<std::string> names;
        if (f.field == SelectField::kSeverity) {
          for (const auto& n : f.names) {
            if (auto s = parse_severity(n)) names.push_back(std::to_string(static_cast<int>(*s)));
          }
          if (names.empty()) return "FALSE";
          return fmt::format("gd_severity IN ({})", fmt::join(names, ", "));
        }
        for (const auto& n : f.names) names.push_back(quote(n));
        return fmt::format("{} IN ({})", value_of(f.field, f.label_key), fmt::join(names, ", "));
      }
      case SelectionFilter::Kind::kSeverityAtLeast:
        return fmt::format("gd_severity >= {}", static_cast<int>(f.min_severity));
      case SelectionFilter::Kind::kNone: {
        std::vector<std::string> parts;
        for (const auto& c : f.children) parts.push_back(filter(c));
        return fmt::format("NOT ({})", fmt::join(parts, " OR "));
      }
      case SelectionFilter::Kind::kAll:
      case SelectionFilter::Kind::kOneOf: {
        std::vector<std::string> parts;
        for (const auto& c : f.children) {
          std::string p = filter(c);
          if (p.empty()) {
            if (f.kind == SelectionFilter::Kind::kOneOf) return "";
            continue;
          }
          parts.push_back(std::move(p));
        }
        if (parts.empty()) return "";
        if (parts.size() == 1) return parts.front();
        return fmt::format("({})", fmt::join(parts, f.kind == SelectionFilter::Kind::kAll ? " AND " : " OR "));
      }
    }
    return "";
  }

  std::string candidates() {
    const CandidateScreen& s = selection.candidates;
    std::vector<std::string> tb;
    for (const auto& m : s.traceback_markers) {
      const std::string re = sql::quote_regex(literal_regex(m));
      tb.push_back(fmt::format("REGEXP_CONTAINS(gd_message, {0}) OR REGEXP_CONTAINS(gd_exception, {0})", re));
    }
    const std::string traceback = fmt::format("({})", fmt::join(tb, " OR "));
    std::string not_benign = "TRUE";
    if (!s.benign_errors.empty()) {
      std::vector<std::string> alts;
      for (const auto& p : s.benign_errors) alts.push_back(fmt::format("(?:{})", p));
      not_benign = fmt::format("NOT REGEXP_CONTAINS(gd_first_line, {})",
                               sql::quote_regex(fmt::format("{}", fmt::join(alts, "|"))));
    }
    std::vector<std::string> demote;
    for (const auto& p : s.demoting_prefixes)
      demote.push_back(fmt::format("REGEXP_CONTAINS(gd_message, {})", sql::quote_regex(p)));
    std::vector<std::string> logs;
    for (const auto& l : s.fragment_logs) logs.push_back(quote(l));
    std::string relayed;  // (d): another program's one-line output, whatever its severity
    if (!s.line_formats.empty()) {
      std::vector<std::string> alts;
      for (const auto& p : s.line_formats) alts.push_back(fmt::format("(?:{})", p));
      relayed = fmt::format(
          "\n    OR (gd_exception = '' AND NOT REGEXP_CONTAINS(gd_message, '\\\\n') AND REGEXP_CONTAINS(gd_message, "
          "{}))",
          sql::quote_regex(fmt::format("{}", fmt::join(alts, "|"))));
    }
    return fmt::format(
        "(gd_severity >= {sev} AND {nb} AND (NOT ({dem}) OR {tb}))\n"
        "    OR ({tb} AND {nb})\n"
        "    OR (gd_log IN ({logs}) AND gd_exception = '' AND NOT REGEXP_CONTAINS(gd_message, '\\\\n') AND "
        "REGEXP_CONTAINS(gd_message, {frag})){rel}",
        fmt::arg("sev", static_cast<int>(s.min_severity)), fmt::arg("nb", not_benign),
        fmt::arg("dem", fmt::join(demote, " OR ")), fmt::arg("tb", traceback), fmt::arg("logs", fmt::join(logs, ", ")),
        fmt::arg("frag", sql::quote_regex(s.fragment_pattern)), fmt::arg("rel", relayed));
  }

  // What gd_pick is made of: the conditions whose every entry is read (one line each, with the
  // job messages and the candidate screen), and those of which a job's first N are (each a column
  // gd_lim_<i>, ranked in `ranked`). One filter is written once, with the largest N it needs.
  struct Limited {
    std::string filter;
    size_t per_job = 0;
    std::vector<std::string> counted;  // the summary row's fact_entries keys this filter's count goes to
  };
  struct Pick {
    std::string all;
    std::vector<Limited> limited;
  };
  Pick pick() {
    std::vector<std::string> lines;
    std::map<std::string, size_t> limits;  // filter → the largest per_job asked (0 = every entry)
    std::map<std::string, std::vector<std::string>> counted;
    std::vector<std::string> order;
    bool everything = false;
    for (const auto& c : selection.conditions) {
      std::string f = filter(c.filter);
      if (f.empty()) {
        everything = true;
        continue;
      }
      if (!c.counted.empty()) counted[f].push_back(c.counted);
      auto [it, added] = limits.emplace(f, c.per_job);
      if (added) {
        order.push_back(f);
      } else if (it->second != 0) {
        it->second = c.per_job == 0 ? 0 : std::max(it->second, c.per_job);
      }
    }
    Pick p;
    if (everything) {
      p.all = "TRUE";
      return p;
    }
    std::vector<std::string> logs;
    for (const auto& l : selection.whole_logs) logs.push_back(quote(l));
    lines.push_back(fmt::format("gd_log IN ({})", fmt::join(logs, ", ")));
    for (const auto& f : order) {
      if (limits[f] == 0) {
        lines.push_back(f);
      } else {
        p.limited.push_back(Limited{f, limits[f], counted[f]});
      }
    }
    lines.push_back(candidates());
    p.all = fmt::format("{}", fmt::join(lines, "\n    OR "));
    return p;
  }

  HasColumn has_for(const std::string& schema_name) const {
    const TableSchema* found = nullptr;
    for (const auto& t : options.schemas) {
      if (t.table == schema_name || options.source.schema == SqlSchema::kAnalytics) found = &t;
    }
    if (found == nullptr) return [](const std::string&) { return true; };
    return [found](const std::string& path) {
      return std::find(found->columns.begin(), found->columns.end(), path) != found->columns.end();
    };
  }

  // A column of the output row: the path, or a typed NULL where the table lacks it.
  static std::string out_col(const HasColumn& has, const std::string& path) {
    return has(path) ? path : "CAST(NULL AS STRING)";
  }

  std::string output_columns(const HasColumn& has) {
    if (options.source.schema == SqlSchema::kAnalytics) {
      return "timestamp, severity, log_name, insert_id, resource, labels, text_payload, json_payload";
    }
    std::vector<std::string> res, lab, pay;
    for (const auto& r : resource_label_fields()) {
      res.push_back(fmt::format("{} AS {}", out_col(has, fmt::format("resource.labels.{}", r.key)), r.key));
    }
    for (const auto& l : entry_label_fields()) {
      lab.push_back(fmt::format("{} AS {}", out_col(has, fmt::format("labels.{}", l.sink_key)), l.sink_key));
    }
    for (const auto& p : sql::sink_payload_fields()) {
      pay.push_back(fmt::format("{} AS {}", out_col(has, "jsonPayload." + p), p));
    }
    return fmt::format(
        "timestamp, severity, logName AS log_name, insertId AS insert_id,\n"
        "    STRUCT({} AS type, STRUCT({}) AS labels) AS resource,\n"
        "    STRUCT({}) AS labels,\n"
        "    {} AS text_payload,\n"
        "    STRUCT({}) AS json_payload",
        out_col(has, "resource.type"), fmt::join(res, ", "), fmt::join(lab, ", "), out_col(has, "textPayload"),
        fmt::join(pay, ", "));
  }

  std::string table_select(const std::string& table, const std::string& schema_name, const std::string& since,
                           const std::string& until) {
    const SqlSchema schema = options.source.schema;
    const HasColumn has = has_for(schema_name);
    std::vector<std::string> cols;
    cols.push_back(output_columns(has));
    for (const auto& c : kFieldColumns)
      cols.push_back(fmt::format("{} AS {}", field_expr(schema, c.record_field, has), c.column));
    const std::string log = read_expr(schema, {EntryPart::kEntry, "logName"}, has);
    // short_log_name(): what follows the last '/' or "%2F".
    cols.push_back(log.empty() ? "'' AS gd_log"
                               : fmt::format("REGEXP_REPLACE(COALESCE({}, ''), '^.*(?:/|%2[Ff])', '') AS gd_log", log));
    cols.push_back(fmt::format("{} AS gd_severity", severity_expr(schema, has)));
    for (size_t i = 0; i < label_keys.size(); ++i) {
      const std::string e = read_expr(schema, {EntryPart::kLabel, label_keys[i]}, has);
      cols.push_back(fmt::format("COALESCE({}, '') AS gd_label_{}", e.empty() ? "CAST(NULL AS STRING)" : e, i));
    }
    std::vector<std::string> where;
    if (schema == SqlSchema::kAnalytics)
      where.push_back(fmt::format("resource.type = {}", quote(sql::kDataflowResourceType)));
    if (!since.empty()) where.push_back(fmt::format("timestamp >= {}", since));
    if (!until.empty()) where.push_back(fmt::format("timestamp < {}", until));
    if (options.layout == SinkLayout::kSharded && schema == SqlSchema::kSink && !since.empty()) {
      where.push_back(fmt::format("_TABLE_SUFFIX BETWEEN {} AND {}", sql::suffix_of(since),
                                  sql::suffix_of(until.empty() ? "CURRENT_TIMESTAMP()" : until)));
    }
    return fmt::format("  SELECT\n    {}\n  FROM `{}`{}", fmt::join(cols, ",\n    "), table,
                       where.empty() ? "" : fmt::format("\n  WHERE {}", fmt::join(where, " AND ")));
  }
};

}  // namespace

std::vector<std::pair<std::string, std::string>> sql_tables(const SqlOptions& o) {
  std::vector<std::pair<std::string, std::string>> out;  // FROM name, schema name
  const std::string base = fmt::format("{}.{}", o.source.project, o.source.dataset);
  if (o.source.schema == SqlSchema::kAnalytics) {
    out.emplace_back(fmt::format("{}.{}", base, o.source.view), o.source.view);
    return out;
  }
  for (std::string_view log : sql::kDataflowLogs) {
    const std::string t = sql::sink_table_name(log);
    // A sink creates a log's table when it first routes an entry of it, and a query that names a
    // missing table fails: given schemas, only the tables they describe are read.
    const bool described =
        std::any_of(o.schemas.begin(), o.schemas.end(), [&](const TableSchema& s) { return s.table == t; });
    if (!o.schemas.empty() && !described) continue;
    out.emplace_back(fmt::format("{}.{}{}", base, t, o.layout == SinkLayout::kSharded ? "_*" : ""), t);
  }
  return out;
}

Result<std::string> compile_sql(const PackSelection& selection, const SqlOptions& options) {
  std::string since, until;
  if (!options.since.empty()) {
    auto t = sql::time_bound(options.since, "--since");
    if (!t) return t.error();
    since = *t;
  }
  if (!options.until.empty()) {
    auto t = sql::time_bound(options.until, "--until");
    if (!t) return t.error();
    until = *t;
  }
  Compiler c{selection, options, {}};
  const Compiler::Pick pick = c.pick();  // first: it names the labels the table selects read
  std::vector<std::string> selects;
  for (const auto& [table, schema_name] : sql_tables(options))
    selects.push_back(c.table_select(table, schema_name, since, until));
  std::vector<std::string> job_filter;
  if (!options.job_ids.empty()) {
    std::vector<std::string> ids;
    for (const auto& id : options.job_ids) ids.push_back(quote(id));
    job_filter.push_back(fmt::format("gd_job IN ({})", fmt::join(ids, ", ")));
  }
  if (!options.job_name_glob.empty()) {
    job_filter.push_back(fmt::format("gd_job IN (SELECT gd_job FROM src WHERE REGEXP_CONTAINS(gd_job_name, {}))",
                                     sql::quote_regex(sql::glob_regex(options.job_name_glob))));
  }
  const std::string entry_columns =
      "timestamp, severity, log_name, insert_id, resource, labels, text_payload, json_payload";
  std::string out;
  out += fmt::format("-- gpudiag sql: the entries the diagnosis reads and one summary row per job (docs/sql.md)\n");
  out += fmt::format("-- source {}:{}.{}{}\n", options.source.schema == SqlSchema::kAnalytics ? "analytics" : "sink",
                     options.source.project, options.source.dataset,
                     options.source.schema == SqlSchema::kAnalytics ? "." + options.source.view : "");
  out += "WITH src AS (\n" + fmt::format("{}", fmt::join(selects, "\n  UNION ALL\n")) + "\n),\n";
  out +=
      "lines AS (\n  SELECT *, REGEXP_REPLACE(gd_message, '(?s)\\\\n.*', '') AS gd_first_line\n  "
      "FROM src";
  out += job_filter.empty() ? "\n),\n" : fmt::format("\n  WHERE {}\n),\n", fmt::join(job_filter, " AND "));
  std::string limited_columns, ranks;
  // A counted filter's entries per job (jobs), and the summary's fact_entries: each key its count.
  std::string counts;
  std::vector<std::pair<std::string, size_t>> fact_entries;
  for (size_t i = 0; i < pick.limited.size(); ++i) {
    limited_columns += fmt::format(",\n    {} AS gd_lim_{}", pick.limited[i].filter, i);
    ranks += fmt::format(
        "\n    OR (gd_lim_{0} AND ROW_NUMBER() OVER (PARTITION BY gd_job, gd_lim_{0} ORDER BY timestamp, insert_id) <= "
        "{1})",
        i, pick.limited[i].per_job);
    if (pick.limited[i].counted.empty()) continue;
    // Counted as ingest counts: an entry repeated with its insertId and timestamp (two sinks
    // writing one table) once (ingest/src/duplicate_filter.cc); an entry without an insertId each time.
    counts += fmt::format(
        ",\n    SUM(IF(gd_lim_{0} AND COALESCE(insert_id, '') = '', 1, 0)) + COUNT(DISTINCT IF(gd_lim_{0} AND "
        "COALESCE(insert_id, '') != '', CONCAT(insert_id, '|', CAST(timestamp AS STRING)), NULL)) AS gd_count_{0}",
        i);
    for (const auto& key : pick.limited[i].counted) fact_entries.emplace_back(key, i);
  }
  std::sort(fact_entries.begin(), fact_entries.end());
  std::vector<std::string> fact_fields;
  for (const auto& [key, i] : fact_entries) fact_fields.push_back(fmt::format("{}, j.gd_count_{}", quote(key), i));
  out += "e AS (\n  SELECT *,\n    " + pick.all + "\n    AS gd_pick_all" + limited_columns + "\n  FROM lines\n),\n";
  // The conditions of which a job's first N entries are all the diagnosis reads (an absence's start
  // and markers, a fact's first sightings; docs/sql.md).
  out += "ranked AS (\n  SELECT *,\n    gd_pick_all" + ranks + "\n    AS gd_pick\n  FROM e\n),\n";
  out += fmt::format(
      "picked AS (\n"
      "  SELECT * FROM ranked\n"
      "  WHERE gd_pick\n"
      "  QUALIFY ROW_NUMBER() OVER (PARTITION BY gd_job ORDER BY IF(gd_log = 'job-message', 0, 1), timestamp, "
      "insert_id) "
      "<= {}\n"
      "),\n",
      options.max_rows_per_job);
  out +=
      "jobs AS (\n"
      "  SELECT gd_job, MAX(NULLIF(gd_job_name, '')) AS job_name, MAX(NULLIF(gd_project, '')) AS project,\n"
      "    MAX(NULLIF(gd_region, '')) AS region, COUNT(*) AS entries, SUM(IF(gd_pick, 1, 0)) AS selected,\n"
      "    MIN(timestamp) AS first, MAX(timestamp) AS last, COUNT(DISTINCT NULLIF(gd_worker, '')) AS workers_total" +
      counts +
      "\n"
      "  FROM ranked GROUP BY gd_job\n"
      "),\n"
      "kept AS (SELECT gd_job, COUNT(*) AS returned FROM picked GROUP BY gd_job),\n"
      "log_counts AS (\n"
      "  SELECT gd_job, gd_log, COUNT(*) AS entries, MIN(timestamp) AS first, MAX(timestamp) AS last\n"
      "  FROM e GROUP BY gd_job, gd_log\n"
      "),\n"
      "logs AS (\n"
      "  SELECT gd_job, TO_JSON(ARRAY_AGG(JSON_OBJECT('log', gd_log, 'entries', entries, 'first', first, 'last', "
      "last)\n"
      "    ORDER BY gd_log)) AS logs\n"
      "  FROM log_counts GROUP BY gd_job\n"
      "),\n"
      "sdk_pairs AS (\n"
      "  SELECT DISTINCT gd_job, gd_worker, gd_sdk_worker FROM e WHERE gd_worker != '' AND gd_sdk_worker != ''\n"
      "),\n"
      "sdks AS (\n"
      "  SELECT gd_job, gd_worker, ARRAY_AGG(gd_sdk_worker ORDER BY gd_sdk_worker) AS sdk_workers\n"
      "  FROM (\n"
      "    SELECT * FROM sdk_pairs WHERE TRUE\n"
      "    QUALIFY ROW_NUMBER() OVER (PARTITION BY gd_job, gd_worker ORDER BY gd_sdk_worker) <= 64\n"
      "  )\n"
      "  GROUP BY gd_job, gd_worker\n"
      "),\n"
      "worker_counts AS (\n"
      "  SELECT gd_job, gd_worker, COUNT(*) AS entries FROM e WHERE gd_worker != '' GROUP BY gd_job, gd_worker\n"
      "),\n"
      "top_workers AS (\n"
      "  SELECT * FROM worker_counts WHERE TRUE\n"
      "  QUALIFY ROW_NUMBER() OVER (PARTITION BY gd_job ORDER BY entries DESC, gd_worker) <= 1000\n"
      "),\n"
      "worker_list AS (\n"
      "  SELECT w.gd_job,\n"
      "    TO_JSON(ARRAY_AGG(JSON_OBJECT('worker', w.gd_worker, 'entries', w.entries, 'sdk_workers', s.sdk_workers)\n"
      "      ORDER BY w.entries DESC, w.gd_worker)) AS workers\n"
      "  FROM top_workers AS w LEFT JOIN sdks AS s ON s.gd_job = w.gd_job AND s.gd_worker = w.gd_worker\n"
      "  GROUP BY w.gd_job\n"
      "),\n"
      // JSON_OBJECT, not TO_JSON_STRING(STRUCT(…)): sqlglot 10.6.3 writes a STRUCT's fields wrongly
      // for DuckDB (docs/sql.md); bq prints a JSON column as its JSON text.
      "summary AS (\n"
      "  SELECT j.gd_job, JSON_OBJECT('v', 1, 'job_id', j.gd_job, 'job_name', j.job_name, 'project', j.project,\n"
      "    'region', j.region, 'entries', j.entries, 'returned', COALESCE(k.returned, 0),\n"
      "    'capped', j.selected - COALESCE(k.returned, 0), 'first', j.first, 'last', j.last, 'logs', l.logs,\n"
      "    'workers', w.workers, 'workers_total', j.workers_total" +
      (fact_fields.empty() ? std::string()
                           : fmt::format(",\n    'fact_entries', JSON_OBJECT({})", fmt::join(fact_fields, ", "))) +
      ") AS gpudiag_summary\n"
      "  FROM jobs AS j\n"
      "  LEFT JOIN kept AS k ON k.gd_job = j.gd_job\n"
      "  LEFT JOIN logs AS l ON l.gd_job = j.gd_job\n"
      "  LEFT JOIN worker_list AS w ON w.gd_job = j.gd_job\n"
      "),\n";
  out += fmt::format(
      "result_rows AS (\n"
      "  SELECT gd_job, 1 AS gd_kind, {0}, CAST(NULL AS JSON) AS gpudiag_summary FROM picked\n"
      "  UNION ALL\n"
      "  SELECT gd_job, 0 AS gd_kind, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, gpudiag_summary FROM summary\n"
      ")\n"
      "SELECT {0}, gpudiag_summary\n"
      "FROM result_rows\n"
      "ORDER BY gd_job, gd_kind, timestamp, insert_id\n",
      entry_columns);
  return out;
}

}  // namespace gpudiag
