// The error-text parser (see error_text.h): Dataflow's wrappers off (error_unwrap.h), a flattened
// traceback back on its lines, each line told by kind (classify_trace_lines), then the reader of
// the language the first frame speaks (python_traceback.h, java_stack_trace.h).
#include "error_text.h"

#include <re2/re2.h>

#include <algorithm>

#include "error_chain.h"
#include "error_unwrap.h"
#include "evidence/evidence.h"
#include "java_stack_trace.h"
#include "pack/pack.h"
#include "python_traceback.h"

namespace gpudiag::detail {
namespace {

using Kind = TraceLineKind;

bool ends_cut(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t'))
    s.remove_suffix(1);
  const bool dots = (s.size() >= 3 && s.substr(s.size() - 3) == "...") ||
                    (s.size() >= 3 && s.substr(s.size() - 3) == "\xe2\x80\xa6");  // …
  if (!dots) return false;
  static const RE2 more(R"(\.\.\. \d+ more\s*$)");
  return !RE2::PartialMatch(s.substr(s.size() - std::min<size_t>(s.size(), 32)), more);
}

// Which language the first frame speaks, "" when there is none.
std::string language_of(const TraceLines& l) {
  for (size_t i = 0; i < l.kind.size(); ++i) {
    if (l.kind[i] == Kind::kHead || l.kind[i] == Kind::kPyFrame) return "python";
    if (l.kind[i] == Kind::kJavaFrame || l.kind[i] == Kind::kJavaMore) return "java";
    if (l.kind[i] == Kind::kOther && is_bare_java_frame(l.text[i])) return "java";
  }
  return "";
}

// A line that only names what follows ("Last error:", "Caused by:").
bool is_label(std::string_view t) { return t.size() <= 40 && t.back() == ':'; }

// The cause of an error whose own line is generic (issue 39): the first line of its chain that
// is neither generic, nor advice, nor a label. A plain error (no traceback) is its first line, and
// its chain the lines after it. The pack says which lines are generic (rules/generic-errors.yaml).
void find_cause(std::string_view lines, const CauseLines& causes, ParsedError& out) {
  if (!causes.generic) return;
  std::string_view own = out.exception_line;
  if (own.empty() && out.language.empty()) {
    size_t at = 0;
    while (at < lines.size() && own.empty()) {  // the first line with more than blanks
      const size_t end = std::min(lines.find('\n', at), lines.size());
      own = trim_blanks(lines.substr(at, end - at));
      at = end + 1;
    }
    // One line alone has no chain: whether it is generic is asked once for its group (ErrorGroups::
    // finish), not for each entry (healthy runs log thousands of such lines).
    if (lines.find_first_not_of(" \t\r\n", at) == std::string_view::npos || !causes.is_generic(own)) return;
    while (at < lines.size() && out.chain.size() < kMaxChainLines) {
      const size_t end = std::min(lines.find('\n', at), lines.size());
      const std::string_view t = trim_blanks(lines.substr(at, end - at));
      if (!t.empty()) out.chain.emplace_back(t.substr(0, kMaxChainLine));
      at = end + 1;
    }
    out.chain_below = out.chain.size();
  } else if (own.empty() || !causes.is_generic(own)) {
    return;
  }
  out.generic = true;
  for (size_t k = 0; k < out.chain_below && k < out.chain.size(); ++k) {  // not the wrappers above it
    const std::string_view t = trim_blanks(out.chain[k]);
    if (t.empty() || is_label(t) || causes.is_advice(t) || causes.is_generic(t)) continue;
    out.cause = std::string(t);
    return;
  }
}

}  // namespace

ParsedError parse_error_text(std::string_view text, const ReadingRules& rules, bool full) {
  ParsedError out;
  const std::string_view unwrapped = unwrap_error_prefixes(text, rules.wrappers);
  // A step suffix may close a line (newer Beam) or stand inside a flattened one; either way it is
  // the step, and the body is the text without it.
  std::string body = full ? without_steps(unwrapped) : first_line_without_steps(unwrapped);
  // Without a suffix to take off (the same size) there is no step either: step_of asks for the
  // first ` [while running '` and its `']` as without_steps does, and a line break besides. (The
  // first line alone cannot tell: step_of is asked.)
  const bool steps = !full || body.size() < unwrapped.size();
  out.body = capped(std::move(body), kMaxErrorBody);
  PythonFrames frames(rules.frameworks);
  std::string reflowed;
  const std::string_view lines = reflow_traceback(unwrapped, reflowed);
  const TraceLines l = classify_trace_lines(lines, &frames);
  out.language = language_of(l);
  if (out.language == "python") {
    read_python_traceback(l, frames, rules.wrappers, full, out);
  } else if (out.language == "java") {
    read_java_stack_trace(l, rules.frameworks, out);
    if (!full) out.frames.clear();
  }
  find_cause(lines, rules.causes, out);
  if (out.step.empty() && steps) out.step = std::string(step_of(unwrapped));
  out.truncated = out.truncated || ends_cut(unwrapped);
  return out;
}

}  // namespace gpudiag::detail
