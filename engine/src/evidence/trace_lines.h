// The lines of a traceback, each told by kind: a Python `File "…", line N, in f` frame and the
// source line under it, a Java `at …` frame or `... N more`, the `Traceback (most recent call
// last):` header, blank lines, and the rest (exception lines, messages, chain separators). Shared
// by evidence excerpts and the error-text parser. Internal to engine.
//
//   const TraceLines l = classify_trace_lines(message);
//   if (l.kind[i] == TraceLineKind::kPyFrame) …
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace gpudiag::detail {

enum class TraceLineKind : uint8_t {
  kOther,  // an exception line, a message line, a chain separator
  kBlank,
  kHead,       // "Traceback (most recent call last):" (possibly after a prefix)
  kPyFrame,    // File "/path.py", line 12, in name
  kPyCode,     // the source line (and caret line) under a Python frame
  kJavaFrame,  // at org.example.Fn.process(Fn.java:12)
  kJavaMore,   // ... 12 more   (frames in common with the enclosing trace)
};

struct TraceLines {
  std::vector<std::string_view> text;  // each line, as in the input (no '\n')
  std::vector<TraceLineKind> kind;
  std::vector<uint64_t> more;  // kJavaMore: how many frames it stands for
};

// What classify_trace_lines asks of a line that may be a Python frame line (after RE2's \s* it
// starts with `File "`), when given one: whether it is one, as is_python_frame_line says. The
// error-text parser (PythonFrames) answers once per distinct line and keeps the frame it read, so
// that a traceback's frame lines are told and read in one pass.
class PyFrameLines {
 public:
  virtual bool frame_line(std::string_view line) = 0;

 protected:
  ~PyFrameLines() = default;
};

TraceLines classify_trace_lines(std::string_view text, PyFrameLines* frames = nullptr);

// Whether `line` is a Python frame line (`\s*File "…", line N`): TraceLineKind::kPyFrame.
bool is_python_frame_line(std::string_view line);

// A Python frame line read by hand, as RE2 would read it with
// `^\s*File "([^"]*)", line (\d+)(?:, in (\S+))?` (on every frame of every candidate traceback,
// RE2's captures cost thousands of instructions a line). kAskRegex: a byte past ASCII in the path
// or the name, or a number of more than 19 digits — cases where UTF-8 or number parsing could make
// RE2 answer otherwise; the caller asks RE2 then.
enum class PyFrameRead : uint8_t { kNo, kYes, kAskRegex };
struct PyFrameParts {
  std::string_view file, number, function;  // function empty when the line has no `, in NAME`
};
PyFrameRead read_python_frame(std::string_view line, PyFrameParts& parts);

// Whether every byte of `s` is ASCII (eight bytes a step: it is asked of every frame's path and
// of every glog file word).
bool is_ascii(std::string_view s);

// The length of the exception name that starts `line`, or 0: the whole leading run of [\w.] bytes
// (and '$' with `dollar`), starting with [A-Za-z_] and ending, after that byte, in Error,
// Exception, Exit, Interrupt, Fault or Failure (or Warning with `warning`). RE2's \w is ASCII and
// ':' is in neither class, so before a ':' this is what RE2 reads of `^[A-Za-z_][\w.]*(?:Error|…)`
// (a byte past ASCII ends the run, as a character past ASCII ends RE2's). Read by hand: it is asked
// of every unindented launcher and job-message line and of every plain error message.
size_t exception_name_length(std::string_view line, bool dollar, bool warning);

// `s` without leading blanks and tabs nor trailing blanks, tabs and '\r'.
std::string_view trim_blanks(std::string_view s);

// How many bytes of RE2's \s ([\t\n\f\r ]) start `line`: what a pattern's leading \s* takes.
size_t leading_regex_blanks(std::string_view line);

}  // namespace gpudiag::detail
