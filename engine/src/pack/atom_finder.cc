#include "atom_finder.h"

#include <algorithm>

namespace gpudiag::detail {

AtomFinder::AtomFinder(std::vector<std::string> atoms) : atoms_(std::move(atoms)) {
  for (size_t i = 0; i < atoms_.size(); ++i) {
    const std::string_view atom = atoms_[i];
    if (atom.size() < 2) {
      short_atoms_.push_back(static_cast<int>(i));
      continue;
    }
    const uint16_t pair = pair_at(atom, 0);
    first_pairs_[pair >> 6] |= uint64_t{1} << (pair & 63);
    by_pair_.emplace_back(pair, static_cast<int>(i));
  }
  std::sort(by_pair_.begin(), by_pair_.end());
}

void AtomFinder::find(std::string_view text, std::vector<int>& found) const {
  found.clear();
  for (const int i : short_atoms_) {
    if (text.find(atoms_[i]) != std::string_view::npos) found.push_back(i);
  }
  for (size_t at = 0; at + 1 < text.size(); ++at) {
    const uint16_t pair = pair_at(text, at);
    if ((first_pairs_[pair >> 6] >> (pair & 63) & 1) == 0) continue;
    const std::string_view rest = text.substr(at);
    for (auto it = std::lower_bound(by_pair_.begin(), by_pair_.end(), std::pair<uint16_t, int>{pair, -1});
         it != by_pair_.end() && it->first == pair; ++it) {
      if (rest.starts_with(atoms_[it->second])) found.push_back(it->second);
    }
  }
  if (found.size() > 1) {
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
  }
}

}  // namespace gpudiag::detail
