#include <fmt/format.h>
#include <re2/re2.h>
#include <simdjson.h>

#include <ctime>

#include "gpudiag/diagnostic_codes.h"
#include "gpudiag/log_record.h"
#include "gpudiag/sql_query.h"
#include "sql_text.h"

namespace gpudiag {
namespace {

Diagnostic option_error(std::string message, std::string help = {}) {
  return Diagnostic{
      .code = code_name(DiagnosticCode::kSqlOption), .message = std::move(message), .help = std::move(help)};
}

// A BigQuery project id (letters, digits, '-', an optional "domain:" prefix) and dataset or table
// names (letters, digits, '_'; a view may hold '-' too): what fits between backquotes unescaped.
bool is_name(std::string_view s, bool project) {
  if (s.empty()) return false;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    (project && (c == '-' || c == ':' || c == '.'));
    if (!ok) return false;
  }
  return true;
}

// Every field's dotted path, a RECORD's fields after it.
simdjson::error_code collect_columns(simdjson::dom::array fields, const std::string& prefix,
                                     std::vector<std::string>& out) {
  for (simdjson::dom::element field : fields) {
    std::string_view name;
    if (auto err = field["name"].get_string().get(name)) return err;
    const std::string path = prefix + std::string(name);
    out.push_back(path);
    simdjson::dom::array inner;
    if (field["fields"].get_array().get(inner) == simdjson::SUCCESS) {
      if (auto err = collect_columns(inner, path + ".", out)) return err;
    }
  }
  return simdjson::SUCCESS;
}

}  // namespace

Result<SqlSource> parse_sql_source(std::string_view text) {
  const std::string help =
      "--source analytics:PROJECT.DATASET[.VIEW] (a Log Analytics linked dataset) or sink:PROJECT.DATASET";
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) return option_error(fmt::format("--source `{}` names no kind", text), help);
  const std::string_view kind = text.substr(0, colon);
  const std::string_view rest = text.substr(colon + 1);
  SqlSource s;
  if (kind == "analytics") {
    s.schema = SqlSchema::kAnalytics;
  } else if (kind == "sink") {
    s.schema = SqlSchema::kSink;
  } else {
    return option_error(fmt::format("--source kind `{}` is neither analytics nor sink", kind), help);
  }
  std::vector<std::string_view> parts;
  for (size_t from = 0;;) {
    const size_t dot = rest.find('.', from);
    parts.push_back(rest.substr(from, dot == std::string_view::npos ? std::string_view::npos : dot - from));
    if (dot == std::string_view::npos) break;
    from = dot + 1;
  }
  const size_t most = s.schema == SqlSchema::kAnalytics ? 3 : 2;
  if (parts.size() < 2 || parts.size() > most || !is_name(parts[0], true) || !is_name(parts[1], false) ||
      (parts.size() == 3 && !is_name(parts[2], false))) {
    return option_error(fmt::format("--source `{}` is not {}:PROJECT.DATASET{}", text, kind,
                                    s.schema == SqlSchema::kAnalytics ? "[.VIEW]" : ""),
                        help);
  }
  s.project = std::string(parts[0]);
  s.dataset = std::string(parts[1]);
  if (parts.size() == 3) s.view = std::string(parts[2]);
  return s;
}

Result<TableSchema> parse_table_schema(std::string_view json, std::string table, std::string file) {
  TableSchema t{std::move(table), std::move(file), {}};
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  simdjson::dom::array fields;
  simdjson::error_code err = parser.parse(json.data(), json.size()).get(doc);
  // `bq show --schema` prints the array; `bq show --format=json` the table, its schema.fields.
  if (!err) err = doc.is_object() ? doc["schema"]["fields"].get_array().get(fields) : doc.get_array().get(fields);
  if (!err) err = collect_columns(fields, "", t.columns);
  if (err) {
    return Diagnostic{.code = code_name(DiagnosticCode::kSqlSchema),
                      .message = fmt::format("not a BigQuery table schema ({})", simdjson::error_message(err)),
                      .file = t.file,
                      .help = "give what `bq show --schema --format=json PROJECT:DATASET.TABLE` prints"};
  }
  return t;
}

namespace sql {

std::string quote(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\'':
        out += "\\'";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out += c;
    }
  }
  return out + "'";
}

Result<std::string> time_bound(std::string_view text, std::string_view option) {
  static const RE2 kRelative(R"((\d{1,6})([smhd]))");
  static const RE2 kDate(R"(\d{4}-\d\d-\d\d)");
  std::string number, unit;
  // Interval arithmetic and TIMESTAMP literals: what sqlglot transpiles (TIMESTAMP_SUB and
  // TIMESTAMP_MICROS it does not, docs/sql.md).
  if (RE2::FullMatch(text, kRelative, &number, &unit)) {
    const char* units[] = {"SECOND", "MINUTE", "HOUR", "DAY"};
    const size_t u = std::string_view("smhd").find(unit[0]);
    return fmt::format("CURRENT_TIMESTAMP() - INTERVAL {} {}", number, units[u]);
  }
  if (RE2::FullMatch(text, kDate)) return fmt::format("TIMESTAMP {}", quote(fmt::format("{} 00:00:00+00", text)));
  if (auto t = parse_rfc3339(text)) {
    const int64_t seconds = *t / 1'000'000'000;
    const int64_t micros = (*t % 1'000'000'000) / 1000;
    const std::time_t tt = static_cast<std::time_t>(seconds);
    std::tm tm{};
    gmtime_r(&tt, &tm);
    return fmt::format("TIMESTAMP '{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:06}+00'", tm.tm_year + 1900, tm.tm_mon + 1,
                       tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, micros);
  }
  return option_error(
      fmt::format("{} `{}` is not a duration before now (24h, 7d, 30m), a date (2024-05-01) or an "
                  "RFC 3339 time",
                  option, text));
}

std::string quote_regex(std::string_view regex) {
  // A pattern's escaped backslash `\\` is written `\x5c`, the same RE2 pattern: sqlglot 10.6.3 reads
  // the literal '\\\\' as one backslash, not two (docs/sql.md).
  std::string out;
  for (size_t i = 0; i < regex.size(); ++i) {
    if (regex[i] == '\\' && i + 1 < regex.size()) {
      if (regex[i + 1] == '\\') {
        out += "\\x5c";
      } else {
        out += regex[i];
        out += regex[i + 1];
      }
      ++i;
      continue;
    }
    out += regex[i];
  }
  return quote(out);
}

std::string suffix_of(const std::string& timestamp_expr) {
  return fmt::format("FORMAT_DATE('%Y%m%d', DATE({}))", timestamp_expr);
}

std::string glob_regex(std::string_view glob) {
  // fnmatch(3) without flags, as analyze's --job-name reads it: '*', '?', "[…]" (with '!' or '^'
  // to negate), a backslash makes the next character literal; an unclosed '[' is a literal.
  std::string out = "(?s)^";
  for (size_t i = 0; i < glob.size(); ++i) {
    const char c = glob[i];
    if (c == '*') {
      out += ".*";
    } else if (c == '?') {
      out += ".";
    } else if (c == '\\' && i + 1 < glob.size()) {
      out += RE2::QuoteMeta(std::string(1, glob[++i]));
    } else if (c == '[') {
      size_t end = i + 1;
      if (end < glob.size() && (glob[end] == '!' || glob[end] == '^')) ++end;
      if (end < glob.size() && glob[end] == ']') ++end;
      while (end < glob.size() && glob[end] != ']') ++end;
      if (end >= glob.size()) {
        out += "\\[";
        continue;
      }
      std::string body(glob.substr(i + 1, end - i - 1));
      const bool negate = !body.empty() && (body[0] == '!' || body[0] == '^');
      if (negate) body.erase(0, 1);
      std::string cls;
      for (char b : body)
        cls += (b == '\\' || b == '[' || b == ']' || b == '^') ? std::string("\\") + b : std::string(1, b);
      out += (negate ? "[^" : "[") + cls + "]";
      i = end;
    } else {
      out += RE2::QuoteMeta(std::string(1, c));
    }
  }
  return out + "$";
}

}  // namespace sql
}  // namespace gpudiag
