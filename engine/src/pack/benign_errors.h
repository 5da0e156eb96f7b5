// The pack's benign_errors (rules/benign-errors.yaml), compiled once per pack: error-level lines
// healthy runs print too, which are never reported as errors no rule explains. Every example of a
// rule runs an analysis with the pack, and compiling these ~60 patterns for each (450 M
// instructions) was three quarters of proving a user rule. Internal to engine.
#pragma once

#include <re2/filtered_re2.h>
#include <re2/re2.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "atom_finder.h"

namespace gpudiag::detail {

class BenignErrors {
 public:
  explicit BenignErrors(const std::vector<std::string>& patterns);

  // Whether some pattern finds `line` (one line). `lowered` and `found` are the caller's scratch
  // space, reused from line to line.
  bool matches(std::string_view line, std::string& lowered, std::vector<int>& found) const;

 private:
  // Each pattern on its own in RE2's FilteredRE2, run only on a line holding the (lowercased)
  // literals it needs: the first lines read do not repeat, and one unanchored alternation built most
  // of its DFA anew for them. Null: no patterns.
  std::unique_ptr<re2::FilteredRE2> filter_;
  std::unique_ptr<RE2> alternation_;   // only if a pattern compiles within the alternation alone
  std::unique_ptr<AtomFinder> atoms_;  // the literals filter_ needs, found in one pass
  bool unfiltered_ = false;            // some pattern has no atom: FirstMatch runs it on every line
};

}  // namespace gpudiag::detail
