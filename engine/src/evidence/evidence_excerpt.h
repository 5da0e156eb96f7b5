// Evidence excerpts: the few lines of an entry that say what failed. A plain message gives its
// matched line and that line's neighbours; a traceback (Python `File "…"` frames, a Java `at …`
// stack with its `Caused by:` chain) gives its exception line, the innermost frame of the user's
// own code, and a fold for the other frames ("… 14 more frames"). Which frames are a framework's
// is data: the pack's `frameworks:` (rules/frameworks.yaml). Internal to engine.
//
//   const FrameFilter frameworks(pack.policy.framework_frames);
//   e.excerpt = excerpt_of(e, frameworks);
#pragma once

#include <re2/re2.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/analysis.h"

namespace gpudiag::detail {

// Tells framework frames from the user's: one RE2 alternation of the pack's frame patterns.
class FrameFilter {
 public:
  explicit FrameFilter(const std::vector<std::string>& patterns);
  // `frame` is one frame line; with no patterns, no frame is a framework's.
  bool is_framework(std::string_view frame) const;

 private:
  std::unique_ptr<RE2> re_;
};

// The lines of `text` worth showing for a match on `matched_line` (at `match_at`, `match_length`
// within it). A matched line not found in `text` (the entry was cropped) is shown alone.
std::vector<ExcerptLine> excerpt_lines(std::string_view text, std::string_view matched_line, size_t match_at,
                                       size_t match_length, const FrameFilter& frameworks);

// The excerpt of one evidence entry: over its message, or its exception when the match is there.
std::vector<ExcerptLine> excerpt_of(const Evidence& e, const FrameFilter& frameworks);

}  // namespace gpudiag::detail
