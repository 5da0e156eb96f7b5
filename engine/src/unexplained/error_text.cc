// The error-text parser (see error_text.h).
#include "error_text.h"

#include <re2/re2.h>

#include <algorithm>
#include <unordered_map>

#include "error_unwrap.h"
#include "evidence/evidence.h"
#include "gpudiag/stable_hash.h"
#include "sampled_words_hash.h"

namespace gpudiag::detail {
namespace {

using Kind = TraceLineKind;

enum class Link : uint8_t { kNone, kImplicit, kExplicit };

// One exception of a chain: its frames (outermost first, the innermost kMaxErrorFrames) and its
// exception line. A Python chain's frames point into the text's PythonFrames (below): copied only
// for the cause, and only when the caller keeps frames.
template <typename Frame>
struct BlockOf {
  Link link = Link::kNone;  // to the block before it
  std::vector<Frame> frames;
  std::string_view exception_line;  // empty: not seen (the text was cut)
  std::string type;
  std::string_view message;
};
using Block = BlockOf<ErrorFrame>;
using PyBlock = BlockOf<const ErrorFrame*>;

std::string capped(std::string_view s, size_t n) { return std::string(s.substr(0, n)); }
// A string made for the result cut in place: a copy of a 4 KB body cost an allocation and a copy.
std::string capped(std::string&& s, size_t n) {
  if (s.size() > n) s.resize(n);
  return std::move(s);
}

void keep_frame(std::vector<const ErrorFrame*>& frames, const ErrorFrame* f) {
  if (frames.empty()) frames.reserve(kMaxErrorFrames);  // a block's frames: one allocation, not seven
  if (frames.size() == kMaxErrorFrames) frames.erase(frames.begin());
  frames.push_back(f);
}

bool is_word_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_word(char c) { return is_word_start(c) || (c >= '0' && c <= '9'); }  // RE2's \w

enum class Read : uint8_t { kNo, kYes, kAskRegex };

// `^((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*):(?: (.*)|$)` (with_message, below) read by hand: RE2 leaves its
// DFA for the captures, some 17 k instructions an exception line. kAskRegex: the message holds a
// byte past ASCII, which RE2's `.` reads as UTF-8.
Read read_dotted_type(std::string_view t, std::string& type, re2::StringPiece& message) {
  size_t i = 0;
  for (;;) {
    if (i >= t.size() || !is_word_start(t[i])) return Read::kNo;
    while (i < t.size() && is_word(t[i])) ++i;
    if (i < t.size() && t[i] == '.') {
      ++i;
      continue;
    }
    break;
  }
  if (i >= t.size() || t[i] != ':') return Read::kNo;
  const size_t colon = i;
  if (colon + 1 < t.size() && t[colon + 1] != ' ') return Read::kNo;
  const std::string_view rest = colon + 1 < t.size() ? t.substr(colon + 2) : std::string_view{};
  if (std::any_of(rest.begin(), rest.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; }))
    return Read::kAskRegex;
  type.assign(t.substr(0, colon));
  message = colon + 1 < t.size() ? re2::StringPiece(rest.data(), rest.size()) : re2::StringPiece();
  return Read::kYes;
}

// `TYPE: message` or a bare `TYPE`, for a Python exception line; false when the line is not one.
// (Each pattern of this file is compiled when first asked: most texts need few of them.)
bool python_exception(std::string_view line, std::string& type, re2::StringPiece& message) {
  const std::string_view t = trim_blanks(line);
  switch (read_dotted_type(t, type, message)) {
    case Read::kYes:
      return true;
    case Read::kAskRegex: {
      static const RE2 with_message(R"(^((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*):(?: (.*)|$))");
      if (RE2::FullMatch(t, with_message, &type, &message)) return true;
      break;
    }
    case Read::kNo:
      break;
  }
  message = {};
  static const RE2 bare(
      R"(^((?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Warning|Iteration)|[A-Z]\w*)))");
  return RE2::FullMatch(t, bare, &type) && t.find(' ') == std::string_view::npos;
}

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

bool python_frame(std::string_view line, ErrorFrame& f) {
  PyFrameParts parts;
  const PyFrameRead read = read_python_frame(line, parts);
  if (read == PyFrameRead::kNo) return false;
  if (read == PyFrameRead::kYes) {  // at most 19 digits: no overflow
    f.line = 0;
    for (char c : parts.number) f.line = f.line * 10 + static_cast<uint64_t>(c - '0');
    f.file = std::string(parts.file);
    f.function = std::string(parts.function);
    return true;
  }
  static const RE2 re(R"re(^\s*File "([^"]*)", line (\d+)(?:, in (\S+))?)re");
  re2::StringPiece file, function;
  if (!RE2::PartialMatch(line, re, &file, &f.line, &function)) return false;
  f.file = std::string(file);
  f.function = std::string(function);
  return true;
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

}  // namespace

namespace {

// A frame line's hash from its size and six of its words: its last 32 bytes (the end of its path,
// its number, its function) and the 16 in its middle (its path's own part); its start is the same
// `  File "/usr/local/lib/python3…` in most lines. XXH3 of all of a 100-byte line cost more than
// the look-up it serves (every frame line of every traceback asks one); the maps compare whole
// lines, so two that share those bytes only share a bucket.
size_t frame_line_hash(std::string_view s) {
  if (s.size() < 48) return stable_hash(s);
  const size_t end = s.size(), mid = s.size() / 2;
  return detail::sampled_words_hash(s, std::array<size_t, 6>{mid - 8, mid, end - 32, end - 24, end - 16, end - 8});
}

}  // namespace

size_t PythonFrameMemo::Hash::operator()(std::string_view s) const { return frame_line_hash(s); }

// Python frame lines, each distinct one read once: a traceback repeats its frames (a recursion,
// Beam's DoFnRunner.process at every fused step), and each reading costs the framework filter's RE2.
// With a memo, lines read in earlier texts are not read again. classify_trace_lines asks it of each
// line that may be a frame (PyFrameLines): a line it holds is a frame line, one it does not is told
// and read once; the chain then takes the frames in the order of the text's frame lines.
class PythonFrames final : public PyFrameLines {
 public:
  PythonFrames(const FrameFilter& frameworks, PythonFrameMemo* memo) : frameworks_(frameworks), memo_(memo) {
    if (memo_ != nullptr && memo_->bytes_ > PythonFrameMemo::kMaxBytes) {
      memo_->seen_.clear();
      memo_->bytes_ = 0;
    }
  }
  using FrameLine = PythonFrameMemo::FrameLine;
  // What `line` reads as, read and held the first time; null when it is no frame line. A line is
  // held only once told to be a frame line (its frame may still be null: a line RE2 tells but does
  // not read). Unlike frame_line, it leaves the text's frames in order (next()) as they are.
  const FrameLine* entry(std::string_view line) {
    if (memo_ == nullptr) {
      auto it = seen_.find(line);
      if (it == seen_.end()) {
        if (!is_python_frame_line(line)) return nullptr;
        it = seen_.emplace(line, read_line(line)).first;
      }
      return &it->second;
    }
    auto it = memo_->seen_.find(line);
    if (it == memo_->seen_.end()) {
      if (!is_python_frame_line(line)) return nullptr;
      it = memo_->seen_.emplace(std::string(line), read_line(line)).first;
      const auto& f = it->second.frame;
      memo_->bytes_ += line.size() + (f ? f->file.size() + f->function.size() : 0) + kNodeBytes;
    }
    return &it->second;
  }
  bool frame_line(std::string_view line) override {
    const FrameLine* e = entry(line);
    if (e == nullptr) return false;
    keep(e->frame);
    return true;
  }
  // The frame of the text's next frame line (with `framework` set); null when it reads as none.
  const ErrorFrame* next() { return next_ < in_order_.size() ? in_order_[next_++] : nullptr; }

 private:
  void keep(const std::optional<ErrorFrame>& f) {
    if (in_order_.empty()) in_order_.reserve(64);  // a retried traceback has 20-60 frames: one allocation, not six
    in_order_.push_back(f ? &*f : nullptr);
  }
  // A node's allocation, its key's and its frame's string headers: roughly.
  static constexpr size_t kNodeBytes = 160;
  FrameLine read_line(std::string_view line) const {
    const size_t lead = leading_regex_blanks(line);  // the line starts `File "` after them
    const bool plain = line.find(':') == std::string_view::npos && line.find('(') == std::string_view::npos &&
                       line.find("File ", lead + 5) == std::string_view::npos;
    return FrameLine{read_frame(line), plain};
  }
  std::optional<ErrorFrame> read_frame(std::string_view line) const {
    ErrorFrame f;
    if (!python_frame(line, f)) return std::nullopt;
    f.framework = frameworks_.is_framework(trim_blanks(line));
    return f;
  }
  const FrameFilter& frameworks_;
  PythonFrameMemo* memo_;
  struct LineHash {
    size_t operator()(std::string_view s) const { return frame_line_hash(s); }
  };
  std::unordered_map<std::string_view, FrameLine, LineHash> seen_;  // views into the parsed text
  std::vector<const ErrorFrame*> in_order_;                         // each frame line's frame, in the text's order
  size_t next_ = 0;
};

namespace {

struct Chain {
  std::vector<PyBlock> blocks;
  bool cut_frame = false;  // the text ends in the middle of a frame line
};

template <typename B>
void push_block(std::vector<B>& blocks, B b) {
  if (blocks.size() == kMaxErrorFrames) blocks.erase(blocks.begin());
  blocks.push_back(std::move(b));
}

// `frames` read the frame lines of `l` (classify_trace_lines); the chain's frames point into it.
Chain python_chain(const TraceLines& l, PythonFrames& frames) {
  static constexpr std::string_view kImplicit = "During handling of the above exception, another exception occurred:";
  static constexpr std::string_view kExplicit = "The above exception was the direct cause of the following exception:";
  Chain chain;
  PyBlock cur;
  bool open = false;  // `cur` has begun (a header or a frame)
  Link pending = Link::kNone;
  auto close = [&] {
    if (open) push_block(chain.blocks, std::move(cur));
    cur = PyBlock{};
    open = false;
  };
  for (size_t i = 0; i < l.kind.size(); ++i) {
    switch (l.kind[i]) {
      case Kind::kHead:
        close();
        cur.link = pending;
        pending = Link::kNone;
        open = true;
        break;
      case Kind::kPyFrame: {
        if (!open || !cur.exception_line.empty()) {
          close();
          cur.link = pending;
          pending = Link::kNone;
          open = true;
        }
        if (const ErrorFrame* f = frames.next()) keep_frame(cur.frames, f);
        break;
      }
      case Kind::kOther: {
        const std::string_view t = trim_blanks(l.text[i]);
        if (t == kImplicit || t == kExplicit) {
          close();
          pending = t == kImplicit ? Link::kImplicit : Link::kExplicit;
        } else if (open && !cur.frames.empty() && cur.exception_line.empty()) {
          std::string type;
          re2::StringPiece message;
          if (unwrap_error_prefixes(t).size() < t.size()) {
            // The SDK harness's `RuntimeError: Error processing request. Original traceback
            // is`: what came before is the runner reporting it; the worker's traceback follows.
            chain.blocks.clear();
            cur = PyBlock{};
            open = false;
          } else if (python_exception(t, type, message)) {
            cur.exception_line = t;
            cur.type = std::move(type);
            cur.message = message;
          } else if (t.rfind("File \"", 0) == 0) {
            chain.cut_frame = true;  // `File "apache_beam/runners/common.py", l` — cut
          }
        }
        break;
      }
      default:
        break;
    }
  }
  close();
  return chain;
}

bool starts_with_literal(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// The chain of a plain Python traceback, read in one pass over its lines: what python_chain makes
// of classify_trace_lines(reflow_traceback(text)) for a text that needs no reflowing and holds one
// exception, whose every frame line is `File "PATH", line N, in NAME` alone on its line (the
// logging module's and Beam's tracebacks). False, with `chain` unfinished, for any other text:
// the general reading takes it then (the same chain: tests/error_text_test.cc compares the two).
// On the bench's retried tracebacks (some 40 frame lines each) parse_error_text went from 27 k to
// 17.5 k instructions a traceback (bench/RESULTS-unexplained.md, "2026-12-05").
bool plain_python_chain(std::string_view text, PythonFrames& frames, Chain& chain) {
  static constexpr std::string_view kHeader = "Traceback (most recent call last):";
  PyBlock block;
  // Of its frames, fill_python reads only the innermost user frame among the kMaxErrorFrames kept:
  // that one is all the block holds.
  const ErrorFrame* user = nullptr;
  size_t frame_count = 0, user_at = 0;
  bool open = false;                 // a header or a frame began the block
  bool after_frame_or_code = false;  // the line before was a frame or its source line
  for (size_t pos = 0; pos <= text.size();) {
    const size_t nl = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    const std::string_view body = line.substr(leading_regex_blanks(line));  // as classify_trace_lines reads it
    if (starts_with_literal(body, "File \"")) {
      if (!block.exception_line.empty()) return false;  // a second traceback
      // Nothing reflow_traceback acts on: the memo knows that of a line it holds (PythonFrameMemo).
      const auto* e = frames.entry(line);
      if (e == nullptr || !e->plain || !e->frame) return false;
      const ErrorFrame* f = &*e->frame;
      ++frame_count;
      if (!f->framework) {
        user = f;
        user_at = frame_count;
      }
      open = true;
      after_frame_or_code = true;
      continue;
    }
    const std::string_view t = trim_blanks(line);
    if (t.empty()) {
      after_frame_or_code = false;
      continue;
    }
    if (starts_with_literal(body, "... ") || starts_with_literal(body, "at ")) return false;  // Java's
    if (t.size() >= kHeader.size() && t.substr(t.size() - kHeader.size()) == kHeader) {
      if (t.size() != kHeader.size() || open) return false;  // after other text, or a second one
      open = true;
      after_frame_or_code = false;
      continue;
    }
    // A source line or other text: nothing reflow_traceback would act on — no frame (`File "`, or
    // `File ` broken at the line's end), no header or separator at a ':', no flattened Java trace.
    if (line.find("File ") != std::string_view::npos) return false;
    for (size_t c = line.find(':'); c != std::string_view::npos; c = line.find(':', c + 1)) {
      if (chain_phrase_ends_at(line, c)) return false;
    }
    if (const size_t paren = line.find('('); paren != std::string_view::npos &&
                                             line.find('(', paren + 1) != std::string_view::npos &&
                                             may_be_flat_java(line))
      return false;
    if (after_frame_or_code && (line.front() == ' ' || line.front() == '\t')) continue;  // a frame's source line
    after_frame_or_code = false;
    if (!open) {
      ErrorFrame f;
      if (bare_java_frame(line, f)) return false;  // the text speaks Java (language_of)
      continue;
    }
    if (frame_count == 0 || !block.exception_line.empty()) continue;
    if (unwrap_error_prefixes(t).size() < t.size()) return false;  // the SDK harness's wrapper
    std::string type;
    re2::StringPiece message;
    if (python_exception(t, type, message)) {
      block.exception_line = t;
      block.type = std::move(type);
      block.message = message;
    }
  }
  if (block.exception_line.empty()) return false;  // cut
  if (user != nullptr && frame_count - user_at < kMaxErrorFrames) block.frames.push_back(user);
  chain.blocks.push_back(std::move(block));
  return true;
}

// Beam's re-raise of `a` as `b` (common.py, _reraise_augmented): the same type with the step
// appended, or a RuntimeError whose message is `a`'s type and message with the step.
bool reraise_of(const PyBlock& b, const PyBlock& a) {
  if (b.exception_line.empty() || a.exception_line.empty() || step_of(b.exception_line).empty()) return false;
  if (b.type == a.type) return true;
  return b.type == "RuntimeError" && b.message.substr(0, a.type.size()) == a.type;
}

bool has_user_frame(const PyBlock& b) {
  return std::any_of(b.frames.begin(), b.frames.end(), [](const ErrorFrame* f) { return !f->framework; });
}

// Which block is the cause (error_text.h); npos when it is unknown.
size_t python_cause(const std::vector<PyBlock>& blocks) {
  if (blocks.empty()) return std::string::npos;
  size_t cause = blocks.size() - 1;
  if (blocks[cause].exception_line.empty()) {  // cut: the one before, when it must be the cause
    if (cause == 0) return cause;
    const Link link = blocks[cause].link;
    if (link == Link::kImplicit && !has_user_frame(blocks[cause - 1])) return cause;
    --cause;
  }
  while (cause > 0 && (blocks[cause].link == Link::kExplicit || reraise_of(blocks[cause], blocks[cause - 1]))) --cause;
  return cause;
}

std::optional<ErrorFrame> innermost_user(const std::vector<ErrorFrame>& frames) {
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    if (!it->framework) return *it;
  }
  return std::nullopt;
}

std::optional<ErrorFrame> innermost_user(const std::vector<const ErrorFrame*>& frames) {
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    if (!(*it)->framework) return **it;
  }
  return std::nullopt;
}

void fill_python(Chain&& chain, ParsedError& out, bool keep_frames) {
  const size_t c = python_cause(chain.blocks);
  if (c == std::string::npos) return;
  PyBlock& cause = chain.blocks[c];
  out.user_frame = innermost_user(cause.frames);
  for (size_t j = c + 1; j < chain.blocks.size() && !out.user_frame; ++j)
    out.user_frame = innermost_user(chain.blocks[j].frames);
  if (keep_frames) {
    out.frames.reserve(cause.frames.size());
    for (const ErrorFrame* f : cause.frames) out.frames.push_back(*f);
  }
  out.exception_line = capped(cause.exception_line, kMaxErrorLine);
  std::string type = std::move(cause.type);  // the chain is the caller's no more
  re2::StringPiece message(cause.message);
  // Beam's RuntimeError re-raise on its own: `RuntimeError: FileNotFoundError: … [while running 'S']`.
  if (type == "RuntimeError" && !step_of(message).empty()) {
    static const RE2 wrapped(
        R"(^((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt|Warning|Iteration)):(?: (.*)|$))");
    std::string inner;
    re2::StringPiece rest;
    if (RE2::FullMatch(message, wrapped, &inner, &rest)) {
      type = inner;
      message = rest;
    }
  }
  out.exception_type = std::move(type);
  out.message = capped(without_steps(message), kMaxErrorLine);
  for (size_t j = c; j < chain.blocks.size() && out.step.empty(); ++j)
    out.step = std::string(step_of(chain.blocks[j].exception_line));
  const PyBlock& last = chain.blocks.back();
  out.truncated = chain.cut_frame || last.exception_line.empty();
}

void fill_java(const TraceLines& l, const FrameFilter& frameworks, ParsedError& out) {
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
    if ((caused || !open || (cur.exception_line.empty() && cur.frames.empty())) && java_exception(t, type, message)) {
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
    ErrorFrame f;
    if (l.kind[i] == Kind::kOther && bare_java_frame(l.text[i], f)) return "java";
  }
  return "";
}

}  // namespace

namespace {

// parse_error_text; `plain` false reads every text the general way, `took_plain` (if given) says
// whether the one-pass reading took it.
ParsedError parse(std::string_view text, const FrameFilter& frameworks, bool full, PythonFrameMemo* memo, bool plain,
                  bool* took_plain) {
  ParsedError out;
  const std::string_view unwrapped = unwrap_error_prefixes(text);
  // A step suffix may close a line (newer Beam) or stand inside a flattened one; either way it is
  // the step, and the body is the text without it.
  std::string body = full ? without_steps(unwrapped) : first_line_without_steps(unwrapped);
  // Without a suffix to take off (the same size) there is no step either: step_of asks for the
  // first ` [while running '` and its `']` as without_steps does, and a line break besides. (The
  // first line alone cannot tell: step_of is asked.)
  const bool steps = !full || body.size() < unwrapped.size();
  out.body = capped(std::move(body), kMaxErrorBody);
  PythonFrames frames(frameworks, memo);
  if (took_plain != nullptr) *took_plain = false;
  if (Chain chain; plain && !full && plain_python_chain(unwrapped, frames, chain)) {
    if (took_plain != nullptr) *took_plain = true;
    out.language = "python";
    fill_python(std::move(chain), out, full);
    if (out.step.empty() && steps) out.step = std::string(step_of(unwrapped));
    out.truncated = out.truncated || ends_cut(unwrapped);
    return out;
  }
  std::string reflowed;
  const std::string_view lines = reflow_traceback(unwrapped, reflowed);
  const TraceLines l = classify_trace_lines(lines, &frames);
  out.language = language_of(l);
  if (out.language == "python") {
    fill_python(python_chain(l, frames), out, full);
  } else if (out.language == "java") {
    fill_java(l, frameworks, out);
    if (!full) out.frames.clear();
  }
  if (out.step.empty() && steps) out.step = std::string(step_of(unwrapped));
  out.truncated = out.truncated || ends_cut(unwrapped);
  return out;
}

}  // namespace

ParsedError parse_error_text(std::string_view text, const FrameFilter& frameworks, bool full, PythonFrameMemo* memo) {
  return parse(text, frameworks, full, memo, /*plain=*/true, nullptr);
}

ParsedError parse_error_text_generally(std::string_view text, const FrameFilter& frameworks, bool full,
                                       PythonFrameMemo* memo, bool* plain_would_take) {
  if (plain_would_take != nullptr) {
    PythonFrameMemo scratch;
    parse(text, frameworks, full, &scratch, /*plain=*/true, plain_would_take);
  }
  return parse(text, frameworks, full, memo, /*plain=*/false, nullptr);
}

}  // namespace gpudiag::detail
