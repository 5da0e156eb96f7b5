// The reader of a Java stack trace (see java_stack_trace.h).
#include "java_stack_trace.h"

#include <re2/re2.h>

#include <algorithm>

#include "error_chain.h"
#include "error_unwrap.h"

namespace gpudiag::detail {
namespace {

using Kind = TraceLineKind;
using Block = BlockOf<ErrorFrame>;

// `Exception in thread "…" `, `Caused by: ` or nothing, then a qualified class and its message.
bool java_exception(std::string_view line, std::string& type, re2::StringPiece& message) {
  static const RE2 re(
      R"re(^(?:Exception in thread "[^"]*" )?(?:Caused by: )?((?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*)(?:: ?(.*))?$)re");
  message = {};
  return RE2::FullMatch(trim_blanks(line), re, &type, &message);
}

// The innermost `Type: message` of a Java message (`UserCodeException: java.lang.X: m` is X).
void innermost_java_cause(std::string& type, re2::StringPiece& message) {
  static const RE2 re(R"(^((?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*(?:Exception|Error|Throwable)):(?: (.*)|$))");
  std::string inner;
  re2::StringPiece rest;
  for (int i = 0; i < 16 && RE2::FullMatch(message, re, &inner, &rest); ++i) {
    type = inner;
    message = rest;
  }
}

// `at pkg.Cls.m(Fn.java:12)`, the same without `at` (the job-message copy), or Error Reporting's
// `at pkg.Cls.m ( pkg/Fn.java:12 )`.
bool java_frame(std::string_view line, ErrorFrame& f) {
  static const RE2 re(R"(^\s*(?:at\s+)?((?:[\w$<>-]+[./])+[\w$<>-]+)\s*(?:\(\s*([^():]*?)(?::(\d+))?\s*\))?\s*$)");
  re2::StringPiece function, file, number;  // an absent line number is no number to RE2
  if (!RE2::FullMatch(line, re, &function, &file, &number)) return false;
  f.function = std::string(function);
  f.file = std::string(file);
  f.line = 0;
  for (char c : number) f.line = f.line * 10 + static_cast<uint64_t>(c - '0');
  return true;
}

// What the pattern of bare_java_frame needs in the parentheses that end `line` (`line[end]` is the
// `)`): `Unknown Source`, `Native Method` or a file that ends in a JVM language's extension, with
// or without `:LINE`. Its alternatives hold no `(`, so theirs is the last one. A sentence that ends
// in parentheses (`… (retrying)`) spares RE2, and its compiling.
bool may_be_bare_java_tail(std::string_view line, size_t end) {
  const size_t open = line.rfind('(', end);
  if (open == std::string_view::npos) return false;
  std::string_view inner = line.substr(open + 1, end - open - 1);
  if (inner == "Unknown Source" || inner == "Native Method") return true;
  const size_t colon = inner.rfind(':');
  if (colon != std::string_view::npos) {
    const std::string_view number = inner.substr(colon + 1);
    if (number.empty() || !std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return false;
    inner = inner.substr(0, colon);
  }
  for (std::string_view ext : {".java", ".scala", ".kt", ".groovy"}) {
    if (inner.size() > ext.size() && inner.ends_with(ext)) return true;
  }
  return false;
}

// A bare Java frame (no `at`) needs its parentheses to be told from a sentence.
bool bare_java_frame(std::string_view line, ErrorFrame& f) {
  // Such a frame ends in its `)`; most lines do not, and spare RE2.
  const size_t end = line.find_last_not_of("\t\n\f\r ");
  if (end == std::string_view::npos || line[end] != ')' || !may_be_bare_java_tail(line, end)) return false;
  static const RE2 re(
      R"(^\s*(?:[\w$<>-]+[./])+[\w$<>-]+\s*\((?:[\w$.-]+\.(?:java|scala|kt|groovy)(?::\d+)?|Unknown Source|Native Method)\)\s*$)");
  return RE2::FullMatch(line, re) && java_frame(line, f);
}

std::optional<ErrorFrame> innermost_user(const std::vector<ErrorFrame>& frames) {
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    if (!it->framework) return *it;
  }
  return std::nullopt;
}

}  // namespace

void read_java_stack_trace(const TraceLines& l, const FrameFilter& frameworks, ParsedError& out) {
  std::vector<Block> blocks;
  Block cur;
  bool open = false;
  bool suppressed = false;  // inside a `Suppressed:` block: its lines are not the chain's
  size_t suppressed_indent = 0;
  auto indent_of = [](std::string_view s) {
    size_t n = 0;
    while (n < s.size() && (s[n] == ' ' || s[n] == '\t')) ++n;
    return n;
  };
  auto add_frame = [&](std::string_view line, ErrorFrame f) {
    const std::string_view t = trim_blanks(line);
    f.framework = frameworks.is_framework(t.rfind("at ", 0) == 0 ? std::string(t) : "at " + std::string(t));
    if (cur.frames.size() < kMaxErrorFrames) cur.frames.push_back(std::move(f));  // innermost first
  };
  for (size_t i = 0; i < l.kind.size(); ++i) {
    const std::string_view line = l.text[i];
    const std::string_view t = trim_blanks(line);
    if (l.kind[i] == Kind::kBlank) continue;
    const size_t indent = indent_of(line);
    if (suppressed && indent > suppressed_indent) continue;
    suppressed = false;
    if (t.rfind("Suppressed: ", 0) == 0) {
      suppressed = true;
      suppressed_indent = indent;
      continue;
    }
    ErrorFrame f;
    if (l.kind[i] == Kind::kJavaMore) {
      // The last N frames of the enclosing trace are this one's too.
      if (open && !blocks.empty()) {
        const auto& outer = blocks.back().frames;
        const size_t n = std::min<size_t>(l.more[i], outer.size());
        for (size_t j = outer.size() - n; j < outer.size() && cur.frames.size() < kMaxErrorFrames; ++j)
          cur.frames.push_back(outer[j]);
      }
      continue;
    }
    if ((l.kind[i] == Kind::kJavaFrame && java_frame(line, f)) || bare_java_frame(line, f)) {
      open = true;  // frames before any exception line: the text starts inside the trace
      add_frame(line, std::move(f));
      continue;
    }
    std::string type;
    re2::StringPiece message;
    const bool caused = t.rfind("Caused by: ", 0) == 0;
    const bool starts =
        (caused || !open || (cur.exception_line.empty() && cur.frames.empty())) && java_exception(t, type, message);
    if (!starts && open && !cur.exception_line.empty() && cur.frames.empty()) keep_more(cur, t);  // the message goes on
    if (starts) {
      if (open) push_block(blocks, std::move(cur));
      cur = Block{};
      open = true;
      // The job-message copy puts the first frame on the exception's line: `…Exception: m pkg.C.m(F.java:1)`.
      static const RE2 trailing_frame(
          R"(^(.*?)\s((?:[\w$<>-]+\.)+[\w$<>-]+\((?:[\w$.-]+\.(?:java|scala|kt|groovy)(?::\d+)?|Unknown Source|Native Method)\))$)");
      re2::StringPiece head, frame;
      if (RE2::FullMatch(message, trailing_frame, &head, &frame)) {
        message = head;
        ErrorFrame first;
        if (java_frame(frame, first)) add_frame(frame, std::move(first));
      }
      cur.exception_line = t;
      cur.type = std::move(type);
      cur.message = message;
    }
  }
  if (open) push_block(blocks, std::move(cur));
  if (blocks.empty()) return;
  const Block& cause = blocks.back();
  keep_chain(blocks, blocks.size() - 1, out.chain, out.chain_below);
  out.frames.assign(cause.frames.rbegin(), cause.frames.rend());
  out.user_frame = innermost_user(out.frames);
  for (size_t j = blocks.size() - 1; j-- > 0 && !out.user_frame;) {
    std::vector<ErrorFrame> outer(blocks[j].frames.rbegin(), blocks[j].frames.rend());
    out.user_frame = innermost_user(outer);
  }
  std::string type = cause.type;
  re2::StringPiece message(cause.message);
  innermost_java_cause(type, message);
  out.exception_type = type;
  out.exception_line = capped(cause.exception_line, kMaxErrorLine);
  out.message = capped(without_steps(message), kMaxErrorLine);
  for (auto it = blocks.rbegin(); it != blocks.rend() && out.step.empty(); ++it)
    out.step = std::string(step_of(it->exception_line));
  out.truncated = blocks.front().exception_line.empty();  // it starts inside a trace
}

bool is_bare_java_frame(std::string_view line) {
  ErrorFrame f;
  return bare_java_frame(line, f);
}

}  // namespace gpudiag::detail
