// `gpudiag query` output: a table for people (escaped for the terminal, long cells cropped), CSV
// (RFC 4180) and JSON (schema gpudiag.query/v1, one row object per line) for tools.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "gpudiag/history.h"
#include "gpudiag/json_writer.h"
#include "gpudiag/utf8.h"

namespace gpudiag {
namespace {

constexpr size_t kMaxCellChars = 100;

// Characters, not bytes: UTF-8 continuation bytes do not count.
size_t width(std::string_view s) { return utf8_length(s); }

std::string table_cell(const QueryValue& v) {
  if (v.type == QueryValue::Type::kNull) return "NULL";
  std::string text = terminal_safe(v.text);
  if (width(text) <= kMaxCellChars) return text;
  size_t bytes = 0;
  for (size_t chars = 0; bytes < text.size() && chars < kMaxCellChars - 1; ++chars) {
    ++bytes;
    while (bytes < text.size() && is_utf8_continuation(text[bytes])) ++bytes;
  }
  return text.substr(0, bytes) + "…";
}

std::string csv_field(const QueryValue& v) {
  if (v.text.find_first_of(",\"\r\n") == std::string::npos) return v.text;
  std::string out = "\"";
  for (char c : v.text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_line(const std::vector<QueryValue>& values) {
  std::string line;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) line += ',';
    line += csv_field(values[i]);
  }
  return line + "\r\n";
}

std::string json_string(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

std::string json_value(const QueryValue& v) {
  switch (v.type) {
    case QueryValue::Type::kNull:
      return "null";
    case QueryValue::Type::kInteger:
      return v.text;
    case QueryValue::Type::kReal:
      return std::isfinite(std::stod(v.text)) ? v.text : "null";
    case QueryValue::Type::kText:
    case QueryValue::Type::kBlob:
      return json_string(v.text);
  }
  return "null";
}

// Row object keys: the column names, with "_2", "_3" … added to repeats.
std::vector<std::string> unique_keys(const std::vector<std::string>& columns) {
  std::vector<std::string> keys;
  std::set<std::string> used;
  for (const auto& c : columns) {
    std::string key = c;
    for (int n = 2; used.count(key) > 0; ++n) key = fmt::format("{}_{}", c, n);
    used.insert(key);
    keys.push_back(json_string(key));
  }
  return keys;
}

std::string json_head(const std::vector<std::string>& columns) {
  std::string out = fmt::format("{{\n  \"schema\": \"gpudiag.query/v1\",\n  \"columns\": [");
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) out += ", ";
    out += json_string(columns[i]);
  }
  return out + "],\n  \"rows\": [";
}

}  // namespace

QueryPrinter::QueryPrinter(Format format, std::function<void(std::string_view)> write)
    : format_(format), write_(std::move(write)) {}

void QueryPrinter::start(const std::vector<std::string>& columns) {
  if (format_ == Format::kJson) json_keys_ = unique_keys(columns);
  if (format_ == Format::kCsv) {
    std::vector<QueryValue> header;
    for (const auto& c : columns) header.push_back({QueryValue::Type::kText, c});
    write_(csv_line(header));
  } else if (format_ == Format::kJson) {
    write_(json_head(columns));
  }
}

void QueryPrinter::row(const std::vector<std::string>& columns, const std::vector<QueryValue>& values) {
  if (count_++ == 0) start(columns);
  std::string line;
  switch (format_) {
    case Format::kTable:
      rows_.push_back(values);
      return;
    case Format::kCsv:
      write_(csv_line(values));
      return;
    case Format::kJson:
      line = count_ == 1 ? "\n    {" : ",\n    {";
      for (size_t i = 0; i < values.size(); ++i) {
        line += fmt::format("{}{}: {}", i ? ", " : "", json_keys_[i], json_value(values[i]));
      }
      write_(line + "}");
      return;
  }
}

void QueryPrinter::finish(const std::vector<std::string>& columns) {
  if (format_ != Format::kTable) {
    if (count_ == 0) start(columns);  // an empty result still has its columns
    if (format_ == Format::kJson) write_(count_ == 0 ? "]\n}\n" : "\n  ]\n}\n");
    return;
  }
  std::vector<std::vector<std::string>> cells;
  std::vector<size_t> widths;
  for (const auto& c : columns) widths.push_back(width(terminal_safe(c)));
  for (const auto& r : rows_) {
    auto& line = cells.emplace_back();
    for (size_t i = 0; i < r.size(); ++i) {
      line.push_back(table_cell(r[i]));
      widths[i] = std::max(widths[i], width(line.back()));
    }
  }
  const auto pad = [&](std::string_view text, size_t i, bool right) {
    const std::string fill(widths[i] - width(text), ' ');
    return right ? fill + std::string(text) : std::string(text) + fill;
  };
  std::string out, rule;
  const std::string gap = "  ";
  for (size_t i = 0; i < columns.size(); ++i) {
    out += (i ? gap : "") + pad(terminal_safe(columns[i]), i, false);
    rule += (i ? gap : "") + std::string(widths[i], '-');
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  out += "\n" + rule + "\n";
  for (size_t r = 0; r < cells.size(); ++r) {
    std::string line;
    for (size_t i = 0; i < cells[r].size(); ++i) {
      const auto type = rows_[r][i].type;
      line +=
          (i ? gap : "") + pad(cells[r][i], i, type == QueryValue::Type::kInteger || type == QueryValue::Type::kReal);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  out += fmt::format("({} row{})\n", rows_.size(), rows_.size() == 1 ? "" : "s");
  write_(out);
}

}  // namespace gpudiag
