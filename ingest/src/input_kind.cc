// Recognising inputs that are not JSON exports: gcloud's YAML, and what is saved in an export's place.
#include "input_kind.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "gpudiag/diagnostic_codes.h"
#include "gpudiag/utf8.h"

namespace gpudiag::detail {
namespace {

constexpr size_t kShown = 300;  // bytes of a message or a line a diagnostic quotes

bool starts_with_nocase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
  }
  return true;
}

size_t find_nocase(std::string_view text, std::string_view needle, size_t from = 0) {
  for (size_t i = from; i + needle.size() <= text.size(); ++i) {
    if (starts_with_nocase(text.substr(i), needle)) return i;
  }
  return std::string_view::npos;
}

// At most kShown bytes of `text`, cut on a character boundary, "…" after a cut.
std::string shown(std::string_view text) {
  while (!text.empty() && (text.back() == '\r' || text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  if (text.size() <= kShown) return std::string(text);
  size_t cut = kShown;
  while (cut > 0 && is_utf8_continuation(text[cut])) --cut;
  return std::string(text.substr(0, cut)) + "…";
}

// The complete lines of `head` (the last one too when it has no line break), without their '\n'.
std::vector<std::string_view> lines_of(std::string_view head, size_t max_lines) {
  std::vector<std::string_view> lines;
  size_t pos = 0;
  while (pos < head.size() && lines.size() < max_lines) {
    const size_t nl = head.find('\n', pos);
    lines.push_back(head.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return lines;
}

// What to do about the error gcloud printed, by its status.
std::string gcloud_error_help(std::string_view message) {
  constexpr std::string_view kExportAgain = "then export again: `gcloud logging read … --format=json > FILE`";
  if (message.find("PERMISSION_DENIED") != std::string_view::npos) {
    return fmt::format(
        "the account gcloud used may not read this project's logs: it needs the Logs Viewer role "
        "(roles/logging.viewer) on the project (roles/logging.privateLogViewer for data-access audit logs); {}",
        kExportAgain);
  }
  if (message.find("INVALID_ARGUMENT") != std::string_view::npos) {
    return fmt::format(
        "gcloud refused the filter or an option (a quote, a timestamp, --freshness with a timestamp filter): fix "
        "what the message names, {} (`gpudiag export-command JOB_ID` prints a command that works)",
        kExportAgain);
  }
  if (message.find("UNAUTHENTICATED") != std::string_view::npos ||
      message.find("active account") != std::string_view::npos ||
      message.find("auth tokens") != std::string_view::npos ||
      message.find("Reauthentication") != std::string_view::npos) {
    return fmt::format("gcloud is not signed in: `gcloud auth login`, {}", kExportAgain);
  }
  if (message.find("NOT_FOUND") != std::string_view::npos) {
    return fmt::format("the project (--project) or the log bucket does not exist or is not visible to this account; {}",
                       kExportAgain);
  }
  if (message.find("RESOURCE_EXHAUSTED") != std::string_view::npos) {
    return fmt::format("a quota on reading logs was reached: wait a minute or narrow the filter, {}", kExportAgain);
  }
  return fmt::format("gcloud did not export the logs: fix what it says, {}", kExportAgain);
}

std::optional<Diagnostic> gcloud_output(std::string_view head, const std::string& path, uint64_t line) {
  if (!head.starts_with("ERROR: ") && !head.starts_with("WARNING: ")) return std::nullopt;
  const auto lines = lines_of(head, 200);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!lines[i].starts_with("ERROR: ")) continue;
    const std::string message = shown(lines[i].substr(7));
    return Diagnostic{.code = code_name(DiagnosticCode::kInputGcloudError),
                      .message = "this is a gcloud error: " + message,
                      .file = path,
                      .line = line + i,
                      .source_line = shown(lines[i]),
                      .help = gcloud_error_help(message)};
  }
  if (starts_like_yaml_export(head)) return std::nullopt;  // warnings, then the entries: read (each noted)
  return Diagnostic{.code = code_name(DiagnosticCode::kInputGcloudError),
                    .message = "this is gcloud's output on stderr, not log entries: " + shown(lines[0]),
                    .file = path,
                    .line = line,
                    .source_line = shown(lines[0]),
                    .help =
                        "gcloud writes the entries to stdout and its warnings and errors to stderr: save stdout "
                        "alone (`gcloud logging read … --format=json > FILE`, without `2>&1`)"};
}

// "&amp;" → "&" and the like, for a title.
std::string decode_entities(std::string_view text) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kNamed{
      {{"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&nbsp;", " "}}};
  std::string out;
  for (size_t i = 0; i < text.size();) {
    bool replaced = false;
    if (text[i] == '&') {
      for (const auto& [entity, character] : kNamed) {
        if (text.substr(i).starts_with(entity)) {
          out += character;
          i += entity.size();
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += text[i++];
  }
  return out;
}

std::optional<Diagnostic> html_page(std::string_view head, const std::string& path, uint64_t line) {
  std::string_view rest = head;
  if (starts_with_nocase(rest, "<?xml")) {  // XHTML
    const size_t end = rest.find("?>");
    if (end == std::string_view::npos) return std::nullopt;
    rest.remove_prefix(end + 2);
    while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest[0]))) rest.remove_prefix(1);
  }
  if (!starts_with_nocase(rest, "<!doctype html") && !starts_with_nocase(rest, "<html")) return std::nullopt;
  Diagnostic d{.code = code_name(DiagnosticCode::kInputHtml),
               .message = "this is an HTML page, not a log export (it has no <title>)",
               .file = path,
               .line = line,
               .help =
                   "an error or sign-in page was saved in place of the export (a console or API address fetched "
                   "with curl or a browser; a 403 or a sign-in page means the account may not read the logs, "
                   "which needs roles/logging.viewer): export with `gcloud logging read … --format=json > FILE`, "
                   "or download JSON in the Logs Explorer"};
  const size_t open = find_nocase(head, "<title");
  const size_t text = open == std::string_view::npos ? open : head.find('>', open);
  const size_t close = text == std::string_view::npos ? text : find_nocase(head, "</title", text);
  if (close != std::string_view::npos) {
    std::string title;
    for (char c : decode_entities(head.substr(text + 1, close - text - 1))) {  // one line, blanks folded
      const bool blank = std::isspace(static_cast<unsigned char>(c)) != 0;
      if (blank && (title.empty() || title.back() == ' ')) continue;
      title += blank ? ' ' : c;
    }
    if (!title.empty() && title.back() == ' ') title.pop_back();
    if (!title.empty()) d.message = "this is an HTML page, not a log export: " + shown(title);
    d.line = line + static_cast<uint64_t>(std::count(head.begin(), head.begin() + static_cast<ptrdiff_t>(open), '\n'));
  }
  return d;
}

// LogEntry's fields (camelCase, gcloud's snake_case columns, Log Analytics' names, "Log name"),
// lower case without underscores, blanks or dashes, as a CSV header names its columns.
bool is_entry_field(std::string cell) {
  static constexpr std::array<std::string_view, 20> kFields{
      "insertid",    "logname",      "timestamp",    "receivetimestamp", "severity",
      "textpayload", "jsonpayload",  "protopayload", "resource",         "resourcetype",
      "labels",      "httprequest",  "trace",        "spanid",           "sourcelocation",
      "operation",   "tracesampled", "split",        "severitynumber",   "logid"};
  cell = cell.substr(0, cell.find('.'));  // jsonPayload.message, resource.labels.job_id
  std::string name;
  for (char c : cell) {
    if (c != '_' && c != ' ' && c != '-') name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return std::find(kFields.begin(), kFields.end(), name) != kFields.end();
}

std::optional<Diagnostic> csv_of_entries(std::string_view head, const std::string& path, uint64_t line) {
  const size_t nl = head.find('\n');
  if (nl == std::string_view::npos) return std::nullopt;  // a header row ends its line
  const std::string_view header = head.substr(0, nl);
  if (header.find(',') == std::string_view::npos) return std::nullopt;
  int fields = 0;
  size_t pos = 0;
  while (pos <= header.size()) {
    size_t end = header.find(',', pos);
    if (end == std::string_view::npos) end = header.size();
    std::string_view cell = header.substr(pos, end - pos);
    while (!cell.empty() && std::isspace(static_cast<unsigned char>(cell.front()))) cell.remove_prefix(1);
    while (!cell.empty() && std::isspace(static_cast<unsigned char>(cell.back()))) cell.remove_suffix(1);
    if (cell.size() >= 2 && cell.front() == '"' && cell.back() == '"') cell = cell.substr(1, cell.size() - 2);
    // A header cell is a name: a longer one, or one with other characters, is data.
    if (cell.empty() || cell.size() > 80 || !std::all_of(cell.begin(), cell.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '@' || c == '/' ||
                 c == '-' || c == ' ';
        })) {
      return std::nullopt;
    }
    if (is_entry_field(std::string(cell))) ++fields;
    pos = end + 1;
  }
  if (fields < 2) return std::nullopt;
  return Diagnostic{.code = code_name(DiagnosticCode::kInputCsv),
                    .message =
                        "this is a CSV of log entries (a Logs Explorer CSV download, or gcloud's --format=csv), which "
                        "gpudiag does not read: its columns are not whole entries",
                    .file = path,
                    .line = line,
                    .source_line = shown(header),
                    .help =
                        "download JSON instead (Logs Explorer: Download, JSON), or run "
                        "`gcloud logging read … --format=json > FILE`"};
}

// A plain mapping key at the start of `line`, then ':' and a blank or the line's end.
bool opens_with_key(std::string_view line) {
  size_t i = 0;
  if (!line.empty() && (line[0] == '\'' || line[0] == '"')) {
    const size_t close = line.find(line[0], 1);
    if (close == std::string_view::npos) return false;
    i = close + 1;
  } else {
    const auto key_char = [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '/' || c == '-' || c == '@';
    };
    if (line.empty() || !(std::isalpha(static_cast<unsigned char>(line[0])) || line[0] == '_')) return false;
    while (i < line.size() && key_char(line[i])) ++i;
  }
  while (i < line.size() && line[i] == ' ') ++i;
  return i < line.size() && line[i] == ':' &&
         (i + 1 == line.size() || line[i + 1] == ' ' || line[i + 1] == '\t' || line[i + 1] == '\r');
}

}  // namespace

std::optional<Diagnostic> saved_in_place_of_export(std::string_view head, const std::string& path, uint64_t line,
                                                   int64_t offset) {
  std::optional<Diagnostic> d;
  if (head.starts_with("<")) {
    d = html_page(head, path, line);
  } else if (!(d = gcloud_output(head, path, line))) {
    d = csv_of_entries(head, path, line);
  }
  if (d && d->line == line) d->byte = offset;
  return d;
}

std::optional<Diagnostic> gcloud_error_inside(std::string_view text, uint64_t line, uint64_t offset) {
  size_t at = text.starts_with("ERROR: ") ? 0 : text.find("\nERROR: ");
  if (at == std::string_view::npos) return std::nullopt;
  if (text[at] == '\n') ++at;
  const size_t end = text.find('\n', at);
  const std::string message = shown(text.substr(at + 7, end == std::string_view::npos ? end : end - at - 7));
  return Diagnostic{
      .code = code_name(DiagnosticCode::kInputGcloudError),
      .message = fmt::format("gcloud stopped part way with an error, so the entries after it are missing: {}", message),
      .line = line + static_cast<uint64_t>(std::count(text.begin(), text.begin() + static_cast<ptrdiff_t>(at), '\n')),
      .byte = static_cast<int64_t>(offset + at),
      .source_line = shown(text.substr(at, end == std::string_view::npos ? end : end - at)),
      .help = gcloud_error_help(message)};
}

bool starts_like_yaml_export(std::string_view head) {
  for (std::string_view line : lines_of(head, 1000)) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#' || line.starts_with("%") ||
        line.starts_with("WARNING: ")) {
      continue;  // blank, a comment, a directive, gcloud's warning (on stderr, saved with 2>&1)
    }
    if (line.starts_with("---") && (line.size() == 3 || line[3] == ' ' || line[3] == '\t')) return true;
    return opens_with_key(line.substr(first));
  }
  return false;
}

}  // namespace gpudiag::detail
