#include "unexplained_key.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>

#include "gpudiag/patterns.h"
#include "gpudiag/stable_hash.h"

namespace gpudiag::detail {
namespace {

constexpr size_t kMessageTokens = 8;
constexpr size_t kTemplateBytes = 512;

std::string basename(std::string_view path) {
  const size_t slash = path.find_last_of("/\\");
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string first_tokens(std::string_view text, size_t n) {
  std::string out;
  out.reserve(text.size());  // at most the text: one allocation, not one a doubling
  size_t i = 0;
  while (n > 0 && i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    const size_t start = i;
    while (i < text.size() && text[i] != ' ') ++i;
    if (i == start) break;
    if (!out.empty()) out += ' ';
    out.append(text.substr(start, i - start));
    --n;
  }
  return out;
}

// The first line that holds more than blanks.
std::string_view first_line(std::string_view text) {
  while (!text.empty()) {
    const size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    if (line.find_first_not_of(" \t\r") != std::string_view::npos) return line;
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return {};
}

std::string frame_part(const std::optional<ErrorFrame>& f) {
  return f ? basename(f->file) + ":" + f->function : std::string("-");
}

}  // namespace

bool exception_line_parts(std::string_view line, std::string& type, std::string& message) {
  // Read by hand: the pattern's RE2 cost its compiling and a match for every plain message. RE2's
  // \w is ASCII and ':' is not in [\w.], so the type can only be the whole leading run of [\w.]
  // bytes: it must start with [A-Za-z_], end with a suffix, and be followed by ": ". The message is
  // the rest of the line (`.` stops only at a line break), unless it holds a byte past ASCII,
  // which RE2's `.` reads as UTF-8: then RE2 reads the line.
  const auto word = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
  };
  size_t end = 0;
  while (end < line.size() && word(line[end])) ++end;
  if (end == 0 || (line[0] >= '0' && line[0] <= '9') || line[0] == '.') return false;
  if (line.substr(end, 2) != ": ") return false;
  const std::string_view name = line.substr(0, end);
  const auto ends_in = [&](std::string_view suffix) {
    return name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix;  // after the first byte
  };
  if (!ends_in("Error") && !ends_in("Exception") && !ends_in("Exit") && !ends_in("Interrupt") && !ends_in("Fault") &&
      !ends_in("Failure"))
    return false;
  const std::string_view rest = line.substr(end + 2, line.find('\n', end + 2) - (end + 2));  // npos: to the end
  if (std::any_of(rest.begin(), rest.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) {
    static const RE2 pattern(R"(^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Fault|Failure)): (.*))");
    return RE2::PartialMatch(line, pattern, &type, &message);
  }
  type.assign(name);
  message.assign(rest);
  return true;
}

std::string line_group_key(std::string_view line_template) {
  return fmt::format("g1|line|{}", line_template.substr(0, kTemplateBytes));
}

std::string group_fingerprint(std::string_view key) {
  return fmt::format("{}/{:016x}", kUnexplainedRuleId, stable_hash(key));
}

void set_group_fields(const ParsedError& parsed, std::string_view text, std::string_view step_field,
                      CandidateReading& c) {
  // A message that starts with an exception line and no traceback ("TypeError: … got an unexpected
  // keyword argument", a launcher's stderr) is that exception, without frames.
  if (parsed.exception_type.empty() && parsed.language.empty()) {
    const std::string_view first = first_line(parsed.body);
    std::string type, message;
    if (exception_line_parts(first, type, message)) {
      ParsedError as_exception = parsed;
      as_exception.exception_type = type;
      as_exception.message = message;
      as_exception.exception_line = std::string(first);
      set_group_fields(as_exception, text, step_field, c);
      return;
    }
  }
  c.step = !parsed.step.empty() ? parsed.step : std::string(step_field);
  c.truncated = parsed.truncated;
  if (parsed.user_frame)
    c.user_frame = UserFrame{parsed.user_frame->file, parsed.user_frame->line, parsed.user_frame->function};
  if (!parsed.exception_type.empty()) {
    c.exception_type = parsed.exception_type;
    c.exception_line = parsed.exception_line;
    const std::string masked = mask_message(parsed.message);
    // Appended in place: the temporaries of `+` and fmt's formatting cost more than the copies.
    c.message_template = parsed.exception_type;
    if (!masked.empty()) (c.message_template += ": ") += first_tokens(masked, 64);
    const std::string frame = frame_part(parsed.user_frame), tokens = first_tokens(masked, kMessageTokens);
    std::string& key = c.key;
    key.clear();
    key.reserve(7 + parsed.exception_type.size() + 1 + frame.size() + 1 + tokens.size());
    ((((key += "g1|exc|") += parsed.exception_type) += '|') += frame) += '|';
    key += tokens;
    c.matched_line = parsed.exception_line;
    return;
  }
  if (!parsed.language.empty() && parsed.truncated) {  // a traceback cut before its exception line
    c.key = fmt::format("g1|cut|{}", frame_part(parsed.user_frame));
    return;
  }
  // A plain line: the template miner groups it (error_groups.h); the key follows from its template.
  std::string_view body = first_line(parsed.body);
  if (body.empty()) body = first_line(text);  // all of it was a traceback's frames
  c.matched_line = std::string(body.substr(0, 4096));
  c.message_template = mask_message(body.substr(0, 4096));
}

}  // namespace gpudiag::detail
