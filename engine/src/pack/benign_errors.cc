#include "benign_errors.h"

#include "evidence/evidence.h"

namespace gpudiag::detail {

BenignErrors::BenignErrors(const std::vector<std::string>& patterns) {
  if (patterns.empty()) return;
  auto filter = std::make_unique<re2::FilteredRE2>(/*min_atom_len=*/3);
  bool added = true;
  for (const auto& p : patterns) {
    int id = 0;
    added = added && filter->Add(p, RE2::Quiet, &id) == RE2::NoError;
  }
  if (added) {
    std::vector<std::string> atoms;
    filter->Compile(&atoms);
    atoms_ = std::make_unique<AtomFinder>(std::move(atoms));
    // The patterns FirstMatch runs whatever atoms were found (those it could take none from).
    std::vector<int> always;
    filter->AllPotentials({}, &always);
    unfiltered_ = !always.empty();
    filter_ = std::move(filter);
    return;
  }
  std::string alternation;  // a pattern RE2 takes only within the alternation: that alone
  for (const auto& p : patterns) alternation += (alternation.empty() ? "(?:" : "|(?:") + p + ")";
  alternation_ = std::make_unique<RE2>(alternation, RE2::Quiet);
}

bool BenignErrors::matches(std::string_view line, std::string& lowered, std::vector<int>& found) const {
  if (alternation_) return RE2::PartialMatch(line, *alternation_);
  if (!filter_) return false;
  // FilteredRE2's atoms are matched on the lowercased text; ASCII lowercasing is that lowering only
  // for ASCII text, so a line past ASCII asks every pattern.
  if (!is_ascii(line)) return filter_->SlowFirstMatch(line) >= 0;
  lowered.assign(line);
  for (char& c : lowered) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  atoms_->find(lowered, found);
  // Only the patterns whose literals the line holds are run, each on its own (a small DFA each).
  // A line that holds none of them (most lines) spares FirstMatch's look-up of the patterns the
  // atoms let through (about 1,000 instructions a call, 40 MB healthy bench export).
  if (found.empty() && !unfiltered_) return false;
  return filter_->FirstMatch(line, found) >= 0;
}

}  // namespace gpudiag::detail
