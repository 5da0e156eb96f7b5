#include "unexplained_key.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include "evidence/evidence.h"
#include "gpudiag/patterns.h"
#include "gpudiag/stable_hash.h"

namespace gpudiag::detail {
namespace {

constexpr size_t kMessageTokens = 8;
constexpr size_t kTemplateBytes = 512;

std::string_view basename(std::string_view path) {
  const size_t slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// Appends the first `n` words of `text`, one blank between them. Appended in place, as the
// frame part below: a key built of temporaries cost six allocations a traceback more.
void append_first_tokens(std::string& out, std::string_view text, size_t n) {
  size_t i = 0;
  bool first = true;
  while (n > 0 && i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    const size_t start = i;
    while (i < text.size() && text[i] != ' ') ++i;
    if (i == start) break;
    if (!first) out += ' ';
    out.append(text.substr(start, i - start));
    first = false;
    --n;
  }
}

void append_frame_part(std::string& out, const std::optional<ErrorFrame>& f) {
  if (!f) {
    out += '-';
    return;
  }
  out.append(basename(f->file)).append(":").append(f->function);
}

}  // namespace

bool exception_line_parts(std::string_view line, std::string& type, std::string& message) {
  // Read by hand: the pattern's RE2 cost its compiling and a match for every plain message. The
  // type is the line's exception name (no '$', no Warning), then ": ". The message is the rest of
  // the line (`.` stops only at a line break), unless it holds a byte past ASCII, which RE2's `.`
  // reads as UTF-8: then RE2 reads the line.
  const size_t end = exception_name_length(line, /*dollar=*/false, /*warning=*/false);
  if (end == 0 || line.substr(end, 2) != ": ") return false;
  const std::string_view rest = line.substr(end + 2, line.find('\n', end + 2) - (end + 2));  // npos: to the end
  if (!is_ascii(rest)) {
    static const RE2 pattern(R"(^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Fault|Failure)): (.*))");
    return RE2::PartialMatch(line, pattern, &type, &message);
  }
  type.assign(line.substr(0, end));
  message.assign(rest);
  return true;
}

std::string_view first_nonblank_line(std::string_view text) {
  while (!text.empty()) {
    const size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    if (line.find_first_not_of(" \t\r") != std::string_view::npos) return line;
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return {};
}

std::string line_group_key(std::string_view line_template) {
  return GroupKey{.kind = GroupKey::Kind::kLine, .text = std::string(line_template.substr(0, kTemplateBytes))}.str();
}

std::string group_fingerprint(std::string_view key) {
  return fmt::format("{}/{:016x}", kUnexplainedRuleId, stable_hash(key));
}

void set_group_fields(ParsedError parsed, std::string_view text, std::string_view step_field, CandidateReading& c) {
  // A message that starts with an exception line and no traceback ("TypeError: … got an unexpected
  // keyword argument", a launcher's stderr) is that exception, without frames.
  if (parsed.exception_type.empty() && parsed.language.empty()) {
    std::string line(first_nonblank_line(parsed.body));
    std::string type, message;
    if (exception_line_parts(line, type, message)) {
      ParsedError as_exception = std::move(parsed);
      as_exception.exception_type = std::move(type);
      as_exception.message = std::move(message);
      as_exception.exception_line = std::move(line);
      set_group_fields(std::move(as_exception), text, step_field, c);
      return;
    }
  }
  // `parsed` is this call's own: its strings are moved into the reading once read.
  c.step = !parsed.step.empty() ? std::move(parsed.step) : std::string(step_field);
  c.truncated = parsed.truncated;
  c.chain = std::move(parsed.chain);
  c.generic = parsed.generic;
  c.cause = std::move(parsed.cause);
  const std::optional<ErrorFrame>& f = parsed.user_frame;
  if (!parsed.exception_type.empty()) {
    const std::string masked = mask_message(parsed.message);
    // Appended in place: the temporaries of `+` and fmt's formatting cost more than the copies.
    c.message_template.reserve(parsed.exception_type.size() + 2 + masked.size());  // at most
    c.message_template = parsed.exception_type;
    if (!masked.empty()) append_first_tokens(c.message_template.append(": "), masked, 64);
    GroupKey key{.kind = GroupKey::Kind::kException, .type = parsed.exception_type};
    append_frame_part(key.frame, f);
    append_first_tokens(key.text, masked, kMessageTokens);
    // A generic exception is as many failures as its causes ("Engine core initialization failed"
    // over a KV cache too small and over a dtype the GPU lacks).
    if (!c.cause.empty()) append_first_tokens(key.text.append(" <- "), mask_message(c.cause), kMessageTokens);
    c.key = key.str();
    c.exception_type = std::move(parsed.exception_type);
    c.exception_line = parsed.exception_line;
    c.matched_line = std::move(parsed.exception_line);
  } else if (!parsed.language.empty() && parsed.truncated) {  // a traceback cut before its exception line
    GroupKey key{.kind = GroupKey::Kind::kCut};
    append_frame_part(key.frame, f);
    c.key = key.str();
  } else {
    // A plain line: the template miner groups it (error_groups.h); the key follows from its template.
    std::string_view body = first_nonblank_line(parsed.body);
    if (body.empty()) body = first_nonblank_line(text);  // all of it was a traceback's frames
    c.matched_line = std::string(body.substr(0, 4096));
    c.message_template = mask_message(body.substr(0, 4096));
    // A generic line is as many failures as its causes: the template miner sees both.
    if (!c.cause.empty()) c.message_template.append(" <- ").append(mask_message(c.cause.substr(0, 512)));
  }
  if (f) c.user_frame = UserFrame{std::move(parsed.user_frame->file), f->line, std::move(parsed.user_frame->function)};
}

}  // namespace gpudiag::detail
