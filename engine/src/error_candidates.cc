#include "error_candidates.h"

#include <re2/re2.h>

#include "error_text.h"
#include "gpudiag/patterns.h"
#include "unexplained_key.h"

namespace gpudiag::detail {
namespace {

// What is kept of a candidate entry (its exemplar) and of a fragment's line.
constexpr size_t kCandidateTextBytes = 16u << 10;
constexpr size_t kFragmentBytes = 2u << 10;

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string_view trim_left(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

Severity glog_letter(char c) {
  switch (c) {
    case 'I':
      return Severity::kInfo;
    case 'W':
      return Severity::kWarning;
    case 'E':
      return Severity::kError;
    default:
      return Severity::kCritical;  // 'F'
  }
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_glog_letter(char c) { return c == 'I' || c == 'W' || c == 'E' || c == 'F'; }

}  // namespace

Severity effective_severity(const LogRecord& r) {
  if (r.severity < Severity::kError) return r.severity;
  // glog/absl: "E0512 10:01:02.345678  1234 file.cc:12] …"; TensorFlow's C++ logging before absl:
  // "2024-05-12 10:01:02.345678: W tensorflow/core/…"; Python's logging.basicConfig default
  // "WARNING:absl:…" (tensorflow/core/platform/default/logging.cc; absl/log/internal/log_format.cc;
  // Python's logging BASIC_FORMAT). No capture groups: RE2 then answers from its DFA, where a
  // capture costs thousands of instructions a call, on every ERROR entry; the level is read by hand.
  static const RE2 kGlog(
      R"(^(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?: )?[IWEF](?:\d{4} \d\d:\d\d:\d\d|\s+\S+\.(?:cc|h|py):\d+\]))");
  static const RE2 kPython(R"(^(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.\-]*:)");
  const std::string_view head = r.message.substr(0, 256);
  if (head.empty()) return r.severity;
  // Most ERROR entries start with neither form: a test of the first bytes, exact (each is what the
  // pattern needs there), spares RE2 the call.
  const bool timestamped = is_digit(head[0]);
  if ((timestamped || is_glog_letter(head[0])) && RE2::PartialMatch(head, kGlog)) {
    // The letter comes first or right after the timestamp's ": " (the first in the line): a digit
    // is no letter, so a line that starts with one matched with the timestamp.
    return glog_letter(head[timestamped ? head.find(": ") + 2 : 0]);
  }
  if (std::string_view("DIWEC").find(head[0]) != std::string_view::npos && RE2::PartialMatch(head, kPython)) {
    const std::string_view level = head.substr(0, head.find(':'));
    if (level == "DEBUG") return Severity::kDebug;
    if (level == "INFO") return Severity::kInfo;
    if (level == "WARNING") return Severity::kWarning;
  }
  return r.severity;
}

bool is_traceback_fragment(std::string_view line) {
  if (starts_with(line, "Traceback (most recent call last)")) return true;
  if (starts_with(line, "During handling of the above exception") ||
      starts_with(line, "The above exception was the direct cause")) {
    return true;
  }
  if (starts_with(line, "Caused by: ") || starts_with(line, "Exception in thread ")) return true;
  const std::string_view body = trim_left(line);
  if (body.size() < line.size()) {  // indented: a frame, its source line, `at …`, `... N more`
    return !body.empty();
  }
  // An exception line: a dotted name ending in Error/Exception/… then ":" or the end.
  static const RE2 kException(R"(^[A-Za-z_][\w.$]*(?:Error|Exception|Exit|Interrupt|Fault|Warning|Failure)(?::|$))");
  return RE2::PartialMatch(line, kException);
}

ErrorCandidates::ErrorCandidates(const CompiledRulePack& pack) : frameworks_(*pack.frameworks) {
  if (pack.policy.benign_errors.empty()) return;
  std::string alternation;
  for (const auto& p : pack.policy.benign_errors) alternation += (alternation.empty() ? "(?:" : "|(?:") + p + ")";
  benign_ = std::make_unique<RE2>(alternation, RE2::Quiet);
}

bool ErrorCandidates::may_be_candidate(const LogRecord& r) {
  if (r.severity >= Severity::kError && effective_severity(r) >= Severity::kError) return true;
  return r.message.find("Traceback (most recent call last)") != std::string_view::npos ||
         r.exception.find("Traceback (most recent call last)") != std::string_view::npos ||
         r.message.find("\nCaused by: ") != std::string_view::npos ||
         r.exception.find("\nCaused by: ") != std::string_view::npos;
}

bool ErrorCandidates::is_benign(const LogRecord& r) const {
  return benign_ && RE2::PartialMatch(r.message.substr(0, r.message.find('\n')), *benign_);
}

void ErrorCandidates::take(const LogRecord& r, std::string_view job, size_t entry_index,
                           const std::vector<int>& claimed_by, ChunkObservations& out) const {
  ErrorCandidate c;
  c.entry_index = entry_index;
  c.at = r.timestamp;
  c.job = std::string(job);
  c.worker = std::string(r.worker);
  c.log = std::string(r.log);
  c.where = r.where;
  c.claimed_by = claimed_by;
  const bool one_line = r.exception.empty() && r.message.find('\n') == std::string_view::npos;
  if (one_line && is_traceback_fragment(r.message)) {
    c.fragment = true;
    c.text = crop_text(r.message, kFragmentBytes);
    c.record = std::make_unique<KeptRecord>(r, kFragmentBytes);
    out.errors.push_back(std::move(c));
    return;
  }
  std::string text(r.message);
  if (!r.exception.empty()) {
    if (!text.empty()) text += '\n';
    text += r.exception;
  }
  if (text.size() > kCandidateTextBytes) text = crop_text(text, kCandidateTextBytes);
  ParsedError parsed = parse_error_text(text, frameworks_);
  set_group_fields(parsed, text, r.step, c);
  c.record = std::make_unique<KeptRecord>(r, kCandidateTextBytes);
  out.errors.push_back(std::move(c));
}

}  // namespace gpudiag::detail
