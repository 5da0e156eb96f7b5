#include "report_text.h"

#include <fmt/format.h>

#include <filesystem>

#include "gpudiag/utf8.h"

namespace gpudiag::detail {

std::string duration(int64_t secs) {
  if (secs >= 3600) return fmt::format("{}h{:02}m", secs / 3600, (secs % 3600) / 60);
  if (secs >= 60) return fmt::format("{}m{:02}s", secs / 60, secs % 60);
  return fmt::format("{}s", secs);
}

std::string time_span(Timestamp a, Timestamp b) {
  if (a == kNoTime) return "time unknown";
  if (b == kNoTime || a == b) return format_rfc3339(a);
  return fmt::format("{} … {} ({})", format_rfc3339(a), format_rfc3339(b), duration((b - a) / 1'000'000'000));
}

std::string plural(uint64_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string input_path(const Analysis& d, const LogRecord& r, bool deterministic) {
  return r.where.input < d.inputs.size() ? display_path(d.inputs[r.where.input].path, deterministic) : "?";
}

std::string source_location(const Analysis& d, const LogRecord& r, bool deterministic) {
  return fmt::format("{}:{}", input_path(d, r, deterministic), r.where.line);
}

std::string_view entry_text(const LogRecord& r) { return r.message.empty() ? r.exception : r.message; }

std::string_view first_line(std::string_view text) { return text.substr(0, text.find('\n')); }

std::string_view key_line(const Evidence& e) {
  std::string_view line =
      e.matched_line.empty() ? first_line(entry_text(e.entry.record())) : std::string_view(e.matched_line);
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
  return line;
}

std::string_view ci_level(Impact i, std::string_view note) {
  return i >= Impact::kError ? "error" : i == Impact::kWarning ? "warning" : note;
}

std::string safe_url(std::string_view url) {
  if (url.rfind("https://", 0) != 0 && url.rfind("http://", 0) != 0) return "";
  for (char c : url) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7F || c == '"' || c == '\'' || c == '<' || c == '>' || c == '(' || c == ')' || c == '`' ||
        c == '\\' || c == '[' || c == ']' || c == '|') {
      return "";
    }
  }
  return std::string(url);
}

std::string gate_line(const RankedReport& report, Impact threshold) {
  std::vector<std::string> failing;
  for (const auto& rf : report.findings) {
    if (counts_for_gate(rf, threshold)) failing.push_back(rf.finding->rule_id);
  }
  const std::string suppressed =
      report.baseline && report.baseline->suppressed > 0
          ? fmt::format("; {} suppressed by the baseline", plural(report.baseline->suppressed, "finding", "findings"))
          : "";
  size_t known = 0;
  for (const auto& rf : report.findings) known += rf.history && rf.history->gate_ignores ? 1 : 0;
  const std::string ignored =
      known > 0 ? fmt::format("; {} known to the run history (--new-only)", plural(known, "finding", "findings")) : "";
  if (failing.empty()) {
    return fmt::format("passed: no {}finding at or above {}{}{}", known > 0 ? "new " : "", impact_name(threshold),
                       suppressed, ignored);
  }
  return fmt::format(
      "tripped: {} at or above {} ({}){}{}",
      plural(failing.size(), known > 0 ? "new finding" : "finding", known > 0 ? "new findings" : "findings"),
      impact_name(threshold), fmt::join(failing, ", "), suppressed, ignored);
}

std::string stale_reason(const BaselineEntryReview& e) {
  switch (e.state) {
    case BaselineState::kSuppressing:
      return "";
    case BaselineState::kExpired:
      return e.matched.empty() ? fmt::format("expired on {} and matches no finding; remove it", e.entry.expires)
                               : fmt::format("expired on {}; the finding it matches counts again", e.entry.expires);
    case BaselineState::kUnused:
      return "matches no finding in this export; remove it once the problem is fixed";
  }
  return "";
}

}  // namespace gpudiag::detail

namespace gpudiag {
namespace {

// Moves `pos` back to the start of the UTF-8 character it falls in.
size_t char_start(std::string_view s, size_t pos) {
  while (pos > 0 && pos < s.size() && is_utf8_continuation(s[pos])) --pos;
  return pos;
}

}  // namespace

std::string crop_middle(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  const size_t half = max_bytes / 2;
  const size_t head_end = char_start(text, half);
  const size_t tail_start = char_start(text, text.size() - half);
  return fmt::format("{} … [{} bytes cut] … {}", text.substr(0, head_end), tail_start - head_end,
                     text.substr(tail_start));
}

std::string display_path(const std::string& path, bool deterministic) {
  if (!deterministic || path.empty() || path.front() != '/') return path;
  return std::filesystem::path(path).filename().string();
}

}  // namespace gpudiag
