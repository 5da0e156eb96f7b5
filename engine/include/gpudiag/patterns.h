// Log templates: groups messages that no rule explains by their shape ("Disk quota exceeded for
// <*>"), Drain-style (He et al., ICWS 2017): a fixed-depth prefix tree over the token count and the
// first tokens, then the most similar template of that leaf above a threshold; a match turns the
// tokens that differ into <*>. Variable tokens (numbers, hex, UUIDs, IPs, sizes, durations, job ids,
// worker names, paths with ids …) are masked first, so most messages land in their group at once.
//
//   gpudiag::TemplateMiner miner;
//   size_t g = miner.add("Worker 3 lost contact after 30s");  // 0
//   miner.add("Worker 17 lost contact after 2m");             // 0 again
//   miner.template_of(g);                                     // "Worker <*> lost contact after <*>"
//
// Memory is bounded (MinerLimits): past a limit no group is created, and lines that fit no group go
// to one overflow group whose template is kOverflowTemplate. Nothing here throws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace gpudiag {

struct MinerLimits {
  size_t max_clusters = 10000;   // groups, the overflow group not counted
  size_t max_bytes = 16u << 20;  // token text, templates and tree, estimated
  double similarity = 0.8;       // fraction of tokens a message must share with a template (tuned: bench/patterns.py)
  // The tree's levels under the token count: a message is compared only with the groups that share
  // its first `prefix_tokens` tokens (a token with a digit counts as <*>). Drain's depth less two.
  size_t prefix_tokens = 2;  // chosen by tools/miner-loso (bench/RESULTS-miner-loso.md)
};

// The template of the overflow group (the lines that came once a limit was reached and fit no group).
inline constexpr std::string_view kOverflowTemplate = "<*>";

// The message with its variable tokens as <*> and its whitespace runs as one space. Words, exception
// names and rule-like names stay: "ValueError", "float32", "jk2_init()", "/app/pipeline.py".
std::string mask_message(std::string_view message);

class TemplateMiner {
 public:
  explicit TemplateMiner(MinerLimits limits = {});
  ~TemplateMiner();
  TemplateMiner(TemplateMiner&&) noexcept;
  TemplateMiner& operator=(TemplateMiner&&) noexcept;

  // The group of the message: 0, 1, 2 … in the order groups were created.
  size_t add(std::string_view message);
  // The same for a message already masked by mask_message, which is not masked again: masking is
  // idempotent, so add_masked(mask_message(m)) == add(m).
  size_t add_masked(std::string_view masked);
  // The group's tokens joined by one space, variables as <*>, runs such as <*>.<*> as one <*>.
  std::string template_of(size_t group) const;
  size_t groups() const;
  uint64_t count(size_t group) const;
  // A limit was reached: later lines that fit no group went to the overflow group.
  bool capped() const;
  // The overflow group's id, or groups() when there is none yet.
  size_t overflow_group() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpudiag
