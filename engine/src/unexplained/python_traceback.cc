// The reader of a Python traceback (see python_traceback.h).
#include "python_traceback.h"

#include <re2/re2.h>

#include <algorithm>

#include "error_chain.h"
#include "error_unwrap.h"

namespace gpudiag::detail {
namespace {

using Kind = TraceLineKind;
using PyBlock = BlockOf<const ErrorFrame*>;

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

}  // namespace

std::optional<ErrorFrame> PythonFrames::read_frame(std::string_view line) const {
  ErrorFrame f;
  if (!python_frame(line, f)) return std::nullopt;
  f.framework = frameworks_.is_framework(trim_blanks(line));
  return f;
}

namespace {

struct Chain {
  std::vector<PyBlock> blocks;
  bool cut_frame = false;  // the text ends in the middle of a frame line
};

// `frames` read the frame lines of `l` (classify_trace_lines); the chain's frames point into it.
Chain python_chain(const TraceLines& l, PythonFrames& frames, const Wrappers& wrappers) {
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
          if (unwrap_error_prefixes(t, wrappers).size() < t.size()) {
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
        } else if (open && !cur.exception_line.empty()) {
          keep_more(cur, t);  // the message goes on (`Last error:`, `\tMissing key(s) in state_dict: …`)
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
  // `ImportError:` and the message on the lines after it (an exception raised with a message that
  // starts with a newline, as transformers' requires_backends does): its first line says what
  // failed, and it titles the error rather than the empty first line.
  if (cause.message.empty() && !cause.more.empty() && cause.exception_line.ends_with(':')) {
    cause.message = cause.more.front();
    cause.more.erase(cause.more.begin());
    out.exception_line = capped(std::string(cause.exception_line).append(" ").append(cause.message), kMaxErrorLine);
  }
  keep_chain(chain.blocks, c, out.chain, out.chain_below);  // before the type moves out of the block
  std::string type = std::move(cause.type);                 // the chain is the caller's no more
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

}  // namespace

void read_python_traceback(const TraceLines& l, PythonFrames& frames, const Wrappers& wrappers, bool keep_frames,
                           ParsedError& out) {
  fill_python(python_chain(l, frames, wrappers), out, keep_frames);
}

}  // namespace gpudiag::detail
