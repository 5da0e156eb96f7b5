// Dataflow's wrappers and flattened tracebacks (see error_unwrap.h).
#include "error_unwrap.h"

#include <re2/re2.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <utility>

namespace gpudiag::detail {
namespace {

constexpr std::string_view kHeader = "Traceback (most recent call last):";
constexpr std::string_view kStepOpen = " [while running '";
constexpr std::string_view kStepClose = "']";
constexpr std::string_view kSeparators[] = {
    "During handling of the above exception, another exception occurred:",
    "The above exception was the direct cause of the following exception:",
};

std::string_view skip_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n'))
    s.remove_prefix(1);
  return s;
}

// One wrapper off the front of `s` (the first of the pack's front wrappers that takes something
// off), or `s`. A front wrapper is written with a leading `^`; the others are removed wherever they
// stand, only when copies are compared (the step suffix).
std::string_view strip_one(std::string_view s, const Wrappers& wrappers) {
  for (const auto& wrapper : wrappers) {
    if (!std::string_view(wrapper->pattern()).starts_with('^')) continue;
    re2::StringPiece rest(s);
    // An empty match (a user's `^\s*`) takes nothing off: the wrappers after it are still asked.
    if (RE2::Consume(&rest, *wrapper) && rest.size() < s.size()) return std::string_view(rest.data(), rest.size());
  }
  return s;
}

// A line of flattened text needs reflowing when a frame, the header or a chain separator stands
// after other text on it.
bool flattened(std::string_view line) {
  const std::string_view t = skip_blanks(line);
  const size_t frame = t.find("File \"");
  if (frame != std::string_view::npos && t.find("File \"", frame + 1) != std::string_view::npos) return true;
  const size_t head = t.find(kHeader);
  if (head != std::string_view::npos && skip_blanks(t.substr(head + kHeader.size())).size() > 0) return true;
  for (std::string_view sep : kSeparators) {
    const size_t s = t.find(sep);
    if (s != std::string_view::npos && (s > 0 || t.size() > sep.size())) return true;
  }
  return false;
}

// Where the next cut of a flattened Python line is at or after `from`: a frame, the header or a
// separator; its length when it is one of the fixed phrases (0 for a frame).
struct Cut {
  size_t at = std::string_view::npos;
  size_t length = 0;
  bool frame = false;
};

// The cuts of one line in order. Each phrase's next position is remembered, so that a line of
// 10 k frames is searched once, not once a frame.
class Cuts {
 public:
  explicit Cuts(std::string_view line) : line_(line) {}

  Cut next(size_t from) {
    static const RE2 frame_at(R"re(^File "[^"]*", line \d+)re");
    Cut best;
    if (frame_ != std::string_view::npos && (frame_ < from || !frame_searched_)) {
      frame_searched_ = true;
      frame_ = std::string_view::npos;
      for (size_t f = line_.find("File \"", from); f != std::string_view::npos; f = line_.find("File \"", f + 1)) {
        if (RE2::PartialMatch(line_.substr(f, std::min<size_t>(line_.size() - f, 4096)), frame_at)) {
          frame_ = f;
          break;
        }
      }
    }
    if (frame_ != std::string_view::npos) best = Cut{frame_, 0, true};
    for (size_t i = 0; i < kPhrases; ++i) {
      if (seen_[i] != std::string_view::npos && (seen_[i] < from || !searched_[i])) {
        seen_[i] = line_.find(phrase(i), from);
        searched_[i] = true;
      }
      if (seen_[i] < best.at) best = Cut{seen_[i], phrase(i).size(), false};
    }
    return best;
  }

 private:
  static constexpr size_t kPhrases = 1 + std::size(kSeparators);
  static std::string_view phrase(size_t i) { return i == 0 ? kHeader : kSeparators[i - 1]; }

  std::string_view line_;
  size_t frame_ = 0;
  bool frame_searched_ = false;
  size_t seen_[kPhrases] = {0, 0, 0};
  bool searched_[kPhrases] = {false, false, false};
};

// One flattened Python line, reflowed into `out`.
void reflow_python(std::string_view line, std::string& out) {
  static const RE2 frame_head(R"re(^(File "[^"]*", line \d+(?:, in \S+)?)\s*)re");
  size_t pos = 0;
  Cuts cuts(line);
  Cut cut = cuts.next(0);
  const std::string_view before = skip_blanks(line.substr(0, cut.at));
  if (!before.empty()) (out += before) += '\n';
  while (cut.at != std::string_view::npos) {
    pos = cut.at;
    if (!cut.frame) {
      (out += line.substr(pos, cut.length)) += '\n';
      pos += cut.length;
      cut = cuts.next(pos);
      const std::string_view between = skip_blanks(line.substr(pos, cut.at - std::min(cut.at, pos)));
      if (!between.empty()) (out += between) += '\n';
      continue;
    }
    re2::StringPiece rest(line.substr(pos));
    re2::StringPiece head;
    RE2::Consume(&rest, frame_head, &head);
    ((out += "  ") += head) += '\n';
    const size_t rest_at = static_cast<size_t>(rest.data() - line.data());
    cut = cuts.next(rest_at);
    std::string_view tail =
        line.substr(rest_at, cut.at == std::string_view::npos ? std::string_view::npos : cut.at - rest_at);
    while (!tail.empty() && (tail.back() == ' ' || tail.back() == '\t')) tail.remove_suffix(1);
    if (tail.empty()) continue;
    // The last frame of a traceback: its source line, then the exception.
    const bool last = cut.at == std::string_view::npos || !cut.frame;
    const size_t e = last ? exception_start(tail) : std::string_view::npos;
    const std::string_view code = tail.substr(0, e);
    if (!skip_blanks(code).empty()) ((out += "    ") += skip_blanks(code)) += '\n';
    if (e != std::string_view::npos) (out += tail.substr(e)) += '\n';
  }
}

// A Java frame as the job-message copy prints it, without `at`.
#define GPUDIAG_BARE_JAVA_FRAME \
  R"((?:[\w$<>-]+\.)+[\w$<>-]+\((?:[\w$.-]+\.(?:java|scala|kt|groovy):\d+|Unknown Source|Native Method)\))"

// One flattened Java line: a break before each ` at FRAME` (or a bare frame), `Caused by:` and
// `... N more`.
void reflow_java(std::string_view line, std::string& out) {
  // A frame, `Caused by:` or `... N more` after a blank; or whatever follows a frame's `)`.
  static const RE2 cut(R"(\s(at [\w$.<>/-]+\(|Caused by: |\.\.\. \d+ more\b|)" GPUDIAG_BARE_JAVA_FRAME
                       R"()|(?:\.(?:java|scala|kt|groovy):\d+|Unknown Source|Native Method)\)\s+(\S))");
  std::string_view rest = line;
  re2::StringPiece after_blank, after_frame;
  size_t from = 0;
  while (RE2::PartialMatch(rest.substr(from), cut, &after_blank, &after_frame)) {
    const char* at_ptr = after_blank.data() != nullptr ? after_blank.data() : after_frame.data();
    const size_t at = static_cast<size_t>(at_ptr - rest.data());
    out += rest.substr(0, at);
    while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
    out += "\n\t";
    rest = rest.substr(at);
    from = 1;
  }
  out += rest;
  out += '\n';
}

// The line of `text` that holds byte `at`.
std::string_view line_at(std::string_view text, size_t at) {
  const size_t start = text.rfind('\n', at);
  const size_t begin = start == std::string_view::npos ? 0 : start + 1;
  return text.substr(begin, text.find('\n', at) - begin);  // npos - begin: to the end
}

bool is_regex_space(char c) { return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '; }  // RE2's \s

// A flattened Java trace on one line: two frames with only blanks or text between them. Compiled
// when first asked (most texts never need it).
const RE2& java_flat() {
  static const RE2 re(R"((?:\sat [\w$.<>/-]+\([^()]*\).*\sat [\w$.<>/-]+\()|(?:)" GPUDIAG_BARE_JAVA_FRAME
                      R"(\s+)" GPUDIAG_BARE_JAVA_FRAME ")");
  return re;
}

// What one pass over a text's 'F's tells of its frames: whether one is broken after `File ` (a
// console copy, joined before reading) and whether two stand on one line (a flattened traceback).
// Both searches for their phrase found the same 'F's, each its own.
struct FrameScan {
  bool broken = false;
  bool shared_line = false;
};

// Whether a line break stands in text[from, to): most frames start their line after a few blanks,
// which a step back over them tells without a search.
bool line_break_between(std::string_view text, size_t from, size_t to) {
  size_t i = to;
  while (i > from && (text[i - 1] == ' ' || text[i - 1] == '\t')) --i;
  if (i > from && text[i - 1] == '\n') return true;
  return std::memchr(text.data() + from, '\n', i - from) != nullptr;
}

FrameScan scan_frames(std::string_view text) {
  FrameScan scan;
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  const char* last = nullptr;
  // memchr over the rest of the text for each 'F' (a `DoFnRunner` is one too): `File ` is tested
  // once, then the byte after it tells a frame from a broken one.
  for (const void* hit = text.empty() ? nullptr : std::memchr(begin, 'F', text.size()); hit != nullptr;) {
    const char* f = static_cast<const char*>(hit);
    hit = f + 1 < end ? std::memchr(f + 1, 'F', static_cast<size_t>(end - f - 1)) : nullptr;
    if (end - f < 6 || std::memcmp(f, "File ", 5) != 0) continue;
    if (f[5] == '\n') {
      if (end - f >= 7 && f[6] == '"') scan.broken = true;
      continue;
    }
    if (f[5] != '"') continue;
    if (!scan.shared_line && last != nullptr &&
        !line_break_between(text, static_cast<size_t>(last - begin), static_cast<size_t>(f - begin)))
      scan.shared_line = true;  // two frames on one line
    if (scan.broken && scan.shared_line) break;
    last = f;
  }
  return scan;
}

// Whether the header stands before other text on a line, a chain separator beside other text, or a
// line holds a flattened Java trace (`java_flat`). Each of the phrases ends in the only ':' it
// holds, so one pass over the text's ':'s (a traceback has few: its header, its exception lines)
// finds them all, rather than a search for each phrase's first byte ('T', 'D': many).
bool phrases_need_reflow(std::string_view text) {
  for (size_t p = text.find(':'); p != std::string_view::npos; p = text.find(':', p + 1)) {
    const std::string_view upto = text.substr(0, p + 1);
    if (upto.ends_with(kHeader)) {
      const std::string_view after = text.substr(p + 1, text.find('\n', p + 1) - (p + 1));  // npos: to the end
      if (after.find_first_not_of(" \t\r") != std::string_view::npos) return true;
    }
    for (std::string_view sep : kSeparators) {
      if (upto.ends_with(sep) && skip_blanks(line_at(text, p + 1 - sep.size())) != sep) return true;
    }
  }
  for (size_t p = text.find('('), from = 0; p != std::string_view::npos;) {
    // The line holding `p` starts at or after `from` (a line start): memrchr finds its start.
    const void* nl = memrchr(text.data() + from, '\n', p - from);
    const size_t begin = nl == nullptr ? from : static_cast<size_t>(static_cast<const char*>(nl) - text.data()) + 1;
    const std::string_view line = text.substr(begin, text.find('\n', p) - begin);  // npos - begin: to the end
    // Both forms of java_flat hold two frames' `(`: a line with one (the header, `… (retrying)`) is
    // none, and spares the counting of may_be_flat_java.
    const size_t after = p + 1 - begin;
    const bool two = std::memchr(line.data() + after, '(', line.size() - after) != nullptr;
    if (two && may_be_flat_java(line) && RE2::PartialMatch(line, java_flat())) return true;
    const size_t next_line = static_cast<size_t>(line.data() - text.data()) + line.size();
    from = next_line;
    p = next_line < text.size() ? text.find('(', next_line) : std::string_view::npos;
  }
  return false;
}

// Whether some line of `text` is flattened or holds a flattened Java trace, i.e. whether
// reflow_traceback changes anything. Most tracebacks are printed a frame a line, so this asks the
// whole text for a few bytes (scan_frames, phrases_need_reflow) rather than each line for all of
// its phrases.
bool needs_reflow(std::string_view text, const FrameScan& frames) {
  return frames.shared_line || phrases_need_reflow(text);
}

// s.find(kStepOpen, from), searched for from its second byte: a text has a blank every few bytes,
// a '[' seldom.
size_t find_step_open(std::string_view s, size_t from) {
  const std::string_view tail = kStepOpen.substr(1);
  for (size_t at = s.find(tail, from + 1); at != std::string_view::npos; at = s.find(tail, at + 1)) {
    if (s[at - 1] == ' ') return at - 1;
  }
  return std::string_view::npos;
}

// Hands `keep` the pieces of `s` between its ` [while running '…']` suffixes, in order, until it
// returns false (without_steps keeps them all, first_line_without_steps only its first line).
template <typename Keep>
void for_each_piece_without_steps(std::string_view s, Keep keep) {
  size_t pos = 0;
  while (pos < s.size()) {
    const size_t open = find_step_open(s, pos);
    const size_t close = open == std::string_view::npos ? open : s.find(kStepClose, open + kStepOpen.size());
    if (close == std::string_view::npos) break;
    if (!keep(s.substr(pos, open - pos))) return;
    pos = close + kStepClose.size();
  }
  keep(s.substr(pos));
}

}  // namespace

// Whether `line` holds what every match of java_flat (below) needs: two frames, i.e. a blank and
// `at ` twice (its first form) or twice a bare frame's file, `Unknown Source` or `Native Method`
// (its second). A line with one `at ` (English) spares RE2.
bool may_be_flat_java(std::string_view line) {
  size_t ats = 0;
  for (size_t at = line.find("at "); at != std::string_view::npos && ats < 2; at = line.find("at ", at + 1)) {
    if (at > 0 && is_regex_space(line[at - 1])) ++ats;
  }
  if (ats >= 2) return true;
  // `.java:`, `.scala:`, `.kt:` and `.groovy:` each end in a ':' no other of them ends in: counted
  // at the line's ':'s (one memchr; a Python line has few), not by four searches for their '.'.
  size_t files = 0;
  for (const char *c = line.data(), *end = line.data() + line.size(); files < 2;) {
    const void* colon = std::memchr(c, ':', static_cast<size_t>(end - c));
    if (colon == nullptr) break;
    const std::string_view before = line.substr(0, static_cast<size_t>(static_cast<const char*>(colon) - line.data()));
    for (std::string_view ext : {".java", ".scala", ".kt", ".groovy"}) {
      if (before.ends_with(ext)) {
        ++files;
        break;
      }
    }
    c = static_cast<const char*>(colon) + 1;
  }
  for (std::string_view literal : {"Unknown Source", "Native Method"}) {
    for (size_t at = line.find(literal); at != std::string_view::npos && files < 2; at = line.find(literal, at + 1))
      ++files;
  }
  return files >= 2;
}

bool chain_phrase_ends_at(std::string_view line, size_t colon) {
  const std::string_view upto = line.substr(0, colon + 1);
  if (upto.ends_with(kHeader)) return true;
  for (std::string_view sep : kSeparators) {
    if (upto.ends_with(sep)) return true;
  }
  return false;
}

std::string_view unwrap_error_prefixes(std::string_view text, const Wrappers& wrappers) {
  std::string_view s = skip_blanks(text);
  for (int i = 0; i < 16; ++i) {
    const std::string_view next = skip_blanks(strip_one(s, wrappers));
    if (next.size() == s.size()) break;
    s = next;
  }
  return s;
}

std::string_view step_of(std::string_view s) {
  const size_t open = find_step_open(s, 0);
  if (open == std::string_view::npos) return {};
  const size_t start = open + kStepOpen.size();
  const size_t close = s.find(kStepClose, start);
  if (close == std::string_view::npos || s.substr(start, close - start).find('\n') != std::string_view::npos) return {};
  return s.substr(start, close - start);
}

std::string without_steps(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for_each_piece_without_steps(s, [&](std::string_view piece) {
    out += piece;
    return true;
  });
  return out;
}

std::string first_line_without_steps(std::string_view s) {
  // Stopped after the first kept line that holds more than blanks (the first line an error's body
  // is read for; blank lines before it are kept, as they were).
  std::string out;
  size_t line_start = 0;  // in `out`
  for_each_piece_without_steps(s, [&](std::string_view piece) {
    for (size_t nl = piece.find('\n'); nl != std::string_view::npos; nl = piece.find('\n')) {
      out += piece.substr(0, nl);
      if (out.find_first_not_of(" \t\r", line_start) != std::string::npos) return false;
      out += '\n';
      line_start = out.size();
      piece.remove_prefix(nl + 1);
    }
    out += piece;
    return true;
  });
  return out;
}

size_t exception_start(std::string_view rest) {
  static const RE2 type(
      R"((?:^|\s)((?:[A-Za-z_]\w*\.)*(?:[A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt|Warning|Iteration|Failure|Fault|Rendezvous)|[a-z_]\w*\.(?:error|timeout|herror|gaierror)))(?::\s|:$|\s*$))");
  re2::StringPiece found;
  if (!RE2::PartialMatch(rest, type, &found)) return std::string_view::npos;
  return static_cast<size_t>(found.data() - rest.data());
}

std::string_view reflow_traceback(std::string_view text, std::string& storage) {
  // A console copy may break a frame after `File ` (tensorflow/tfx#3772); put it back first.
  std::string joined;
  const std::string_view given = text;
  FrameScan frames = scan_frames(text);
  if (frames.broken) {
    joined.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n' && i >= 5 && text.substr(i - 5, 5) == "File " && i + 1 < text.size() && text[i + 1] == '"')
        continue;
      joined += text[i];
    }
    text = joined;
    frames = scan_frames(text);
  }
  if (!needs_reflow(text, frames)) {
    if (text.data() == given.data()) return given;
    storage.assign(text);
    return storage;
  }
  std::string& out = storage;
  out.clear();
  out.reserve(text.size() + text.size() / 8);
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    if (flattened(line)) {
      reflow_python(line, out);
    } else if (line.find('(') != std::string_view::npos && may_be_flat_java(line) &&
               RE2::PartialMatch(line, java_flat())) {
      // Both forms of java_flat hold a `(` and two frames: other lines (most Python frames) spare RE2.
      reflow_java(line, out);
    } else {
      (out += line) += '\n';
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  if (!out.empty() && (text.empty() || text.back() != '\n')) out.pop_back();
  return out;
}

}  // namespace gpudiag::detail
