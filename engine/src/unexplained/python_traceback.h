// The reader of a Python traceback (error_text.h calls it): its frames, the chain of exceptions
// ("During handling of the above exception …", "The above exception was the direct cause …",
// Beam's re-raise with ` [while running 'STEP']`) and which of them is the cause, as error_text.h
// explains. Internal to the unexplained stage.
#pragma once

#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "error_text.h"
#include "evidence/evidence.h"

namespace gpudiag::detail {

// Python frame lines, each distinct one read once a text: a traceback repeats its frames (a
// recursion, Beam's DoFnRunner.process at every fused step), and each reading costs the framework
// filter's RE2. classify_trace_lines asks it of each line that may be a frame (PyFrameLines); the
// chain then takes the frames in the order of the text's frame lines. (Remembering the lines across
// texts saved 0.18 % of the instructions of `analyze` on bench's healthy export: bench/RESULTS-stages.md.)
class PythonFrames final : public PyFrameLines {
 public:
  explicit PythonFrames(const FrameFilter& frameworks) : frameworks_(frameworks) {}

  bool frame_line(std::string_view line) override {
    auto it = seen_.find(line);
    if (it == seen_.end()) {
      if (!is_python_frame_line(line)) return false;
      it = seen_.emplace(line, read_frame(line)).first;
    }
    if (in_order_.empty()) in_order_.reserve(64);  // a retried traceback has 20-60 frames: one allocation, not six
    in_order_.push_back(it->second ? &*it->second : nullptr);
    return true;
  }
  // The frame of the text's next frame line (with `framework` set); null when it reads as none (a
  // line RE2 tells to be a frame line but does not read).
  const ErrorFrame* next() { return next_ < in_order_.size() ? in_order_[next_++] : nullptr; }

 private:
  std::optional<ErrorFrame> read_frame(std::string_view line) const;
  const FrameFilter& frameworks_;
  std::unordered_map<std::string_view, std::optional<ErrorFrame>> seen_;  // views into the parsed text
  std::vector<const ErrorFrame*> in_order_;  // each frame line's frame, in the text's order
  size_t next_ = 0;
};

// The exception of `l` (classify_trace_lines, with `frames` as its PyFrameLines) that caused the
// error, into `out`: type, message, exception line, user frame, step, truncated, and its frames
// when `keep_frames`.
// `wrappers`: an exception line the SDK harness wrapped starts the worker's traceback again.
void read_python_traceback(const TraceLines& l, PythonFrames& frames, const Wrappers& wrappers, bool keep_frames,
                           ParsedError& out);

}  // namespace gpudiag::detail
