// What both readers of an error build (python_traceback.h, java_stack_trace.h): a chain of
// exception blocks, oldest first, each with its frames and exception line, and the helpers that
// keep what a ParsedError holds within its bounds. Internal to the unexplained stage.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "error_text.h"

namespace gpudiag::detail {

enum class Link : uint8_t { kNone, kImplicit, kExplicit };

// One exception of a chain: its frames (outermost first, the innermost kMaxErrorFrames) and its
// exception line. A Python chain's frames point into the text's PythonFrames (python_traceback.h): copied only
// for the cause, and only when the caller keeps frames.
template <typename Frame>
struct BlockOf {
  Link link = Link::kNone;  // to the block before it
  std::vector<Frame> frames;
  std::string_view exception_line;  // empty: not seen (the text was cut)
  std::string type;
  std::string_view message;
};

// A chain keeps its innermost kMaxErrorFrames blocks (a 10 k-deep recursion of re-raises).
template <typename B>
inline void push_block(std::vector<B>& blocks, B b) {
  if (blocks.size() == kMaxErrorFrames) blocks.erase(blocks.begin());
  blocks.push_back(std::move(b));
}

inline std::string capped(std::string_view s, size_t n) { return std::string(s.substr(0, n)); }
// A string made for the result cut in place: a copy of a 4 KB body cost an allocation and a copy.
inline std::string capped(std::string&& s, size_t n) {
  if (s.size() > n) s.resize(n);
  return std::move(s);
}

}  // namespace gpudiag::detail
