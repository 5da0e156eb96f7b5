// What both readers of an error build (python_traceback.h, java_stack_trace.h): a chain of
// exception blocks, oldest first, each with its frames and exception line, and the helpers that
// keep what a ParsedError holds within its bounds. Internal to the unexplained stage.
#pragma once

#include <algorithm>
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
  std::vector<std::string_view> more;  // the message's further lines (at most kMaxChainLines)
};

// Keeps a further line of a block's message.
template <typename B>
inline void keep_more(B& b, std::string_view line) {
  // A line without a letter or digit (gRPC's closing `>`, a rule of dashes) says nothing.
  const bool says = std::any_of(line.begin(), line.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  });
  if (b.more.size() < kMaxChainLines && says) b.more.push_back(line);
}

// The chain around the block `cause` of `blocks` into `out`: its further lines, then the exception
// lines of the blocks before it (what it was raised while handling), the nearest first — `below` is
// how many lines these are, the ones its cause may be found in — then those of the blocks after it
// (the wrappers that re-raised it), the nearest first.
template <typename B>
inline void keep_chain(const std::vector<B>& blocks, size_t cause, std::vector<std::string>& out, size_t& below) {
  const B& c = blocks[cause];
  // Beam's re-raise of the cause names its type and message again: not another link.
  const auto repeats_cause = [&](const B& b) {
    return c.message.empty() ? b.type == c.type : b.exception_line.find(c.message) != std::string_view::npos;
  };
  const auto keep = [&](const B& b) {
    if (out.size() < kMaxChainLines && !b.exception_line.empty() && !repeats_cause(b))
      out.emplace_back(b.exception_line.substr(0, kMaxChainLine));
  };
  for (std::string_view l : c.more) {
    if (out.size() < kMaxChainLines) out.emplace_back(l.substr(0, kMaxChainLine));
  }
  for (size_t j = cause; j-- > 0;) keep(blocks[j]);
  below = out.size();
  for (size_t j = cause + 1; j < blocks.size(); ++j) keep(blocks[j]);
}

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
