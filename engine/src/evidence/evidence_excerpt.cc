// Evidence excerpts (see evidence_excerpt.h).
#include "evidence_excerpt.h"

#include <fmt/format.h>

#include <algorithm>

#include "trace_lines.h"

namespace gpudiag::detail {
namespace {

using Kind = TraceLineKind;
using Lines = TraceLines;

bool is_frame(Kind k) { return k == Kind::kPyFrame || k == Kind::kJavaFrame || k == Kind::kJavaMore; }
bool in_trace(Kind k) { return is_frame(k) || k == Kind::kPyCode; }

std::string_view trim(std::string_view s) { return trim_blanks(s); }

Lines classify(std::string_view text) { return classify_trace_lines(text); }

ExcerptLine line_of(const Lines& l, size_t i) {
  const std::string_view t = trim(l.text[i]);
  return ExcerptLine{std::string(t)};
}

// The line `m` with the match marked: `at` is relative to the untrimmed line.
ExcerptLine matched_of(const Lines& l, size_t m, size_t at, size_t length) {
  const std::string_view raw = l.text[m];
  const std::string_view t = trim(raw);
  ExcerptLine out{std::string(t)};
  const size_t lead = static_cast<size_t>(t.data() - raw.data());
  if (at != std::string::npos && at >= lead && at - lead < t.size()) {
    out.match_at = at - lead;
    out.match_length = std::min(length, t.size() - out.match_at);
  }
  return out;
}

// The first non-blank line after `i` that is not part of a trace (an exception line), or npos.
size_t next_other(const Lines& l, size_t i) {
  for (size_t j = i + 1; j < l.kind.size(); ++j) {
    if (l.kind[j] == Kind::kOther) return j;
  }
  return std::string::npos;
}

class TraceExcerpt {
 public:
  TraceExcerpt(const Lines& l, const FrameFilter& f) : l_(l), frameworks_(f) {}

  std::vector<ExcerptLine> python(size_t m, size_t at, size_t length) {
    // The exception line: the matched line itself, unless the match is on a frame, on the
    // traceback's header or on a line that introduces it ("Original traceback is").
    size_t e = m;
    const bool introduces = l_.kind[m] == Kind::kOther && !frame_block_above(m) && leads_to_trace(m);
    if (l_.kind[m] != Kind::kOther || introduces) {
      const size_t next = next_other(l_, m);
      if (next != std::string::npos) e = next;
    }
    size_t user = std::string::npos;
    for (size_t j = e; j-- > 0 && in_trace(l_.kind[j]);) {  // the frames just above it, innermost first
      if (l_.kind[j] == Kind::kPyFrame && !frameworks_.is_framework(l_.text[j])) {
        user = j;
        break;
      }
    }
    if (user == std::string::npos) user = last_user_frame(l_.kind.size());
    std::vector<size_t> shown;
    if (m != e) shown.push_back(m);
    shown.push_back(e);
    if (user != std::string::npos) {
      shown.push_back(user);
      if (user + 1 < l_.kind.size() && l_.kind[user + 1] == Kind::kPyCode) shown.push_back(user + 1);
    }
    return lines(shown, m, at, length);
  }

  std::vector<ExcerptLine> java(size_t m, size_t at, size_t length) {
    size_t e = m;  // the exception line: the matched one, or the nearest above the matched frame
    while (e > 0 && l_.kind[e] != Kind::kOther) --e;
    size_t root = std::string::npos;  // the deepest `Caused by:` below it: the root cause
    for (size_t j = e + 1; j < l_.kind.size(); ++j) {
      if (l_.kind[j] == Kind::kOther && trim(l_.text[j]).rfind("Caused by:", 0) == 0) root = j;
    }
    // Java prints the innermost frame first: the first user frame under the root cause, else
    // under the exception line, else anywhere.
    size_t user = std::string::npos;
    for (size_t start : {root, e, size_t{0}}) {
      if (start == std::string::npos) continue;
      for (size_t j = start; j < l_.kind.size(); ++j) {
        if (j > start && start != 0 && l_.kind[j] == Kind::kOther) break;
        if (l_.kind[j] == Kind::kJavaFrame && !frameworks_.is_framework(l_.text[j])) {
          user = j;
          break;
        }
      }
      if (user != std::string::npos) break;
    }
    std::vector<size_t> shown;
    if (m != e) shown.push_back(m);
    shown.push_back(e);
    if (root != std::string::npos && root != m) shown.push_back(root);
    if (user != std::string::npos && user != m) shown.push_back(user);
    return lines(shown, m, at, length);
  }

 private:
  bool frame_block_above(size_t i) const { return i > 0 && in_trace(l_.kind[i - 1]); }

  bool leads_to_trace(size_t i) const {
    for (size_t j = i + 1; j < l_.kind.size(); ++j) {
      if (l_.kind[j] == Kind::kBlank) continue;
      return l_.kind[j] == Kind::kHead || is_frame(l_.kind[j]);
    }
    return false;
  }

  size_t last_user_frame(size_t before) const {
    for (size_t j = before; j-- > 0;) {
      if (l_.kind[j] == Kind::kPyFrame && !frameworks_.is_framework(l_.text[j])) return j;
    }
    return std::string::npos;
  }

  std::vector<ExcerptLine> lines(const std::vector<size_t>& shown, size_t m, size_t at, size_t length) const {
    std::vector<ExcerptLine> out;
    uint64_t frames = 0, shown_frames = 0;
    for (size_t j = 0; j < l_.kind.size(); ++j) {
      if (l_.kind[j] == Kind::kJavaMore) frames += l_.more[j];
      if (l_.kind[j] == Kind::kPyFrame || l_.kind[j] == Kind::kJavaFrame) ++frames;
    }
    for (size_t j : shown) {
      out.push_back(j == m ? matched_of(l_, j, at, length) : line_of(l_, j));
      if (l_.kind[j] == Kind::kPyFrame || l_.kind[j] == Kind::kJavaFrame) ++shown_frames;
    }
    if (frames > shown_frames) {
      const uint64_t n = frames - shown_frames;
      ExcerptLine fold{fmt::format(
          "… {} {}", n, shown_frames > 0 ? (n == 1 ? "more frame" : "more frames") : (n == 1 ? "frame" : "frames"))};
      fold.fold = true;
      out.push_back(std::move(fold));
    }
    return out;
  }

  const Lines& l_;
  const FrameFilter& frameworks_;
};

}  // namespace

FrameFilter::FrameFilter(const std::vector<std::string>& patterns) {
  if (patterns.empty()) return;
  std::string joined;
  for (const auto& p : patterns) joined += (joined.empty() ? "(?:" : "|(?:") + p + ")";
  auto re = std::make_unique<RE2>(joined, RE2::Quiet);
  if (re->ok()) re_ = std::move(re);  // each pattern was checked when the pack loaded
}

bool FrameFilter::is_framework(std::string_view frame) const {
  return re_ != nullptr && RE2::PartialMatch(frame, *re_);
}

std::vector<ExcerptLine> excerpt_lines(std::string_view text, std::string_view matched_line, size_t match_at,
                                       size_t match_length, const FrameFilter& frameworks) {
  const Lines l = classify(text);
  // The matched line, found in the text (it may be the tail of a very long line).
  size_t m = std::string::npos;
  if (!matched_line.empty()) {
    for (size_t i = 0; i < l.text.size(); ++i) {
      const size_t in = l.text[i].find(matched_line);
      if (in == std::string_view::npos) continue;
      m = i;
      if (match_at != std::string::npos) match_at += in;
      break;
    }
    if (m == std::string::npos) {
      ExcerptLine alone{std::string(trim(matched_line))};
      const size_t lead = static_cast<size_t>(trim(matched_line).data() - matched_line.data());
      if (match_at != std::string::npos && match_at >= lead && match_at - lead < alone.text.size()) {
        alone.match_at = match_at - lead;
        alone.match_length = std::min(match_length, alone.text.size() - alone.match_at);
      }
      return {std::move(alone)};
    }
  } else {
    match_at = std::string::npos;
    for (size_t i = 0; i < l.kind.size() && m == std::string::npos; ++i) {
      if (l.kind[i] != Kind::kBlank) m = i;
    }
    if (m == std::string::npos) return {};
  }
  const bool python = std::find(l.kind.begin(), l.kind.end(), Kind::kPyFrame) != l.kind.end();
  const bool java = std::find(l.kind.begin(), l.kind.end(), Kind::kJavaFrame) != l.kind.end();
  TraceExcerpt trace(l, frameworks);
  if (python) return trace.python(m, match_at, match_length);
  if (java) return trace.java(m, match_at, match_length);
  // A plain message: the matched line and the lines next to it.
  std::vector<ExcerptLine> out;
  if (m > 0 && l.kind[m - 1] != Kind::kBlank) out.push_back(line_of(l, m - 1));
  out.push_back(matched_of(l, m, match_at, match_length));
  if (m + 1 < l.kind.size() && l.kind[m + 1] != Kind::kBlank) out.push_back(line_of(l, m + 1));
  return out;
}

std::vector<ExcerptLine> excerpt_of(const Evidence& e, const FrameFilter& frameworks) {
  const LogRecord& r = e.entry.record();
  // The field the match is in: the message, unless only the exception holds the matched line.
  std::string_view text = r.message.empty() ? r.exception : r.message;
  if (!e.matched_line.empty() && text.find(e.matched_line) == std::string_view::npos &&
      r.exception.find(e.matched_line) != std::string_view::npos) {
    text = r.exception;
  }
  return excerpt_lines(text, e.matched_line, e.match_at, e.match_length, frameworks);
}

}  // namespace gpudiag::detail
