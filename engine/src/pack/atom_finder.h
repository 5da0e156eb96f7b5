// Which of a fixed set of literal atoms a text holds, in one pass over the text: the prefilter that
// RE2's FilteredRE2 leaves to its caller (FilteredRE2::Compile hands out the atoms, FirstMatch takes
// the indices of those found). Internal to engine.
//
//   AtomFinder finder(atoms);              // FilteredRE2::Compile's atoms (lowercase)
//   finder.find(lowered_line, found);      // found: the indices, ascending
//   filter.FirstMatch(line, found);
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpudiag::detail {

class AtomFinder {
 public:
  explicit AtomFinder(std::vector<std::string> atoms);

  // The indices of the atoms `text` holds, ascending and each once, into `found` (cleared first).
  void find(std::string_view text, std::vector<int>& found) const;

 private:
  // A text position is looked at further only when its two bytes begin some atom: one bit each of
  // the 65,536 byte pairs. Searching the text once per atom (one memchr and compare each) cost
  // ~90 instructions an atom, ~5,000 a line with the pack's 56.
  static uint16_t pair_at(std::string_view s, size_t at) {
    return static_cast<uint16_t>(static_cast<uint8_t>(s[at]) | static_cast<uint8_t>(s[at + 1]) << 8);
  }
  std::vector<std::string> atoms_;
  std::array<uint64_t, 1024> first_pairs_{};
  std::vector<std::pair<uint16_t, int>> by_pair_;  // (first two bytes, atom index), sorted
  std::vector<int> short_atoms_;                   // atoms under two bytes: searched for one by one
};

}  // namespace gpudiag::detail
