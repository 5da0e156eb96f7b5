// Traceback lines by kind (see trace_lines.h).
#include "trace_lines.h"

#include <re2/re2.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace gpudiag::detail {
namespace {

// A literal's bytes compared in place: substr's check and a call to memcmp cost more than the few
// loads the compiler makes of it (it is asked of every line of every traceback).
template <size_t N>
bool starts_with(std::string_view s, const char (&p)[N]) {
  return s.size() >= N - 1 && std::memcmp(s.data(), p, N - 1) == 0;
}

bool is_regex_space(char c) { return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '; }  // RE2's \s

// `\s*File "([^"]*)", line (\d+)` at the start of `line`: the file, the number and what follows
// them; false when the line does not start so.
bool read_frame_head(std::string_view line, PyFrameParts& parts, std::string_view& rest) {
  size_t at = 0;
  while (at < line.size() && is_regex_space(line[at])) ++at;
  rest = line.substr(at);
  if (!starts_with(rest, "File \"")) return false;
  rest.remove_prefix(6);
  const size_t quote = rest.find('"');
  if (quote == std::string_view::npos) return false;
  parts.file = rest.substr(0, quote);
  rest.remove_prefix(quote);
  if (!starts_with(rest, "\", line ")) return false;
  rest.remove_prefix(8);
  size_t digits = 0;
  while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
  if (digits == 0) return false;
  parts.number = rest.substr(0, digits);
  rest.remove_prefix(digits);
  return true;
}

}  // namespace

PyFrameRead read_python_frame(std::string_view line, PyFrameParts& parts) {
  std::string_view rest;
  if (!read_frame_head(line, parts, rest)) return PyFrameRead::kNo;
  parts.function = {};
  if (starts_with(rest, ", in ")) {
    rest.remove_prefix(5);
    size_t end = 0;
    while (end < rest.size() && !is_regex_space(rest[end])) ++end;
    parts.function = rest.substr(0, end);  // empty: `, in ` then a blank, no name (the group is optional)
  }
  if (!is_ascii(parts.file) || !is_ascii(parts.function) || parts.number.size() > 19) return PyFrameRead::kAskRegex;
  return PyFrameRead::kYes;
}

bool is_ascii(std::string_view s) {
  size_t i = 0;
  uint64_t high = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, s.data() + i, 8);
    high |= word;
  }
  for (; i < s.size(); ++i) high |= static_cast<unsigned char>(s[i]);
  return (high & 0x8080808080808080ull) == 0;
}

size_t exception_name_length(std::string_view line, bool dollar, bool warning) {
  const auto word = [dollar](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           (dollar && c == '$');
  };
  size_t end = 0;
  while (end < line.size() && word(line[end])) ++end;
  if (end == 0 || (line[0] >= '0' && line[0] <= '9') || line[0] == '.' || line[0] == '$') return 0;
  const std::string_view name = line.substr(0, end);
  for (std::string_view suffix : {"Error", "Exception", "Exit", "Interrupt", "Fault", "Failure", "Warning"}) {
    if (suffix == "Warning" && !warning) break;
    // The first byte is [A-Za-z_] and is not part of the suffix.
    if (name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix) return end;
  }
  return 0;
}

size_t leading_regex_blanks(std::string_view line) {
  size_t lead = 0;
  while (lead < line.size() && is_regex_space(line[lead])) ++lead;
  return lead;
}

std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// RE2 reads no function name nor the number's value here: only a file past ASCII needs it. (Each
// pattern of this file is compiled when first asked: a Python traceback never needs the Java ones.)
bool is_python_frame_line(std::string_view line) {
  PyFrameParts parts;
  std::string_view rest;
  if (!read_frame_head(line, parts, rest)) return false;
  if (is_ascii(parts.file)) return true;
  static const RE2 py_frame(R"(^\s*File "[^"]*", line \d+)");
  return RE2::PartialMatch(line, py_frame);
}

namespace {

bool is_java_more(std::string_view line, uint64_t& more) {
  static const RE2 java_more(R"(^\s*\.\.\. (\d+) more\s*$)");
  return RE2::PartialMatch(line, java_more, &more);
}

bool is_java_frame(std::string_view line) {
  static const RE2 java_frame(R"(^\s*at [A-Za-z_$][\w$<>-]*(?:[./][\w$<>-]+)+\s*(?:\(.*\))?\s*$)");
  return RE2::PartialMatch(line, java_frame);
}

// The lines of `text`, found in one pass (memchr reads 32 bytes at a time). Reserved for lines of
// 64 bytes (a frame line has some 100; counting them first cost a second pass), up to 1 k lines:
// a long text of long lines reserves no more than a 64 KB one.
std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  lines.reserve(std::min<size_t>(text.size() / 64 + 8, 1024));
  for (size_t pos = 0;;) {
    const void* nl = pos < text.size() ? std::memchr(text.data() + pos, '\n', text.size() - pos) : nullptr;
    if (nl == nullptr) {
      lines.push_back(text.substr(pos));
      return lines;
    }
    const size_t end = static_cast<size_t>(static_cast<const char*>(nl) - text.data());
    lines.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
}

}  // namespace

TraceLines classify_trace_lines(std::string_view text, PyFrameLines* frames) {
  static constexpr std::string_view kHeader = "Traceback (most recent call last):";
  TraceLines out;
  out.text = lines_of(text);
  out.kind.reserve(out.text.size());
  out.more.reserve(out.text.size());
  for (const std::string_view line : out.text) {
    // The line after RE2's leading \s* ([\t\n\f\r ]): each pattern below needs its literal there,
    // a test that spares RE2 the lines it cannot match.
    const std::string_view body = line.substr(leading_regex_blanks(line));
    TraceLineKind k = TraceLineKind::kOther;
    uint64_t more = 0;
    if (starts_with(body, "File \"") && (frames != nullptr ? frames->frame_line(line) : is_python_frame_line(line))) {
      // (is_python_frame_line holds only of a line that starts so; such a line is not blank.)
      k = TraceLineKind::kPyFrame;
    } else if (const std::string_view t = trim_blanks(line); t.empty()) {
      k = TraceLineKind::kBlank;
    } else if (starts_with(body, "... ") && is_java_more(line, more)) {
      k = TraceLineKind::kJavaMore;
    } else if (starts_with(body, "at ") && is_java_frame(line)) {
      k = TraceLineKind::kJavaFrame;
    } else if (t.size() >= kHeader.size() && t.substr(t.size() - kHeader.size()) == kHeader) {
      k = TraceLineKind::kHead;
    } else if (!out.kind.empty() &&
               (out.kind.back() == TraceLineKind::kPyFrame || out.kind.back() == TraceLineKind::kPyCode) &&
               (line.front() == ' ' || line.front() == '\t')) {
      k = TraceLineKind::kPyCode;  // indented under a frame: its source line, or 3.11's ^^^^ markers
    }
    out.kind.push_back(k);
    out.more.push_back(more);
  }
  return out;
}

}  // namespace gpudiag::detail
