// AtomFinder (engine/src/pack/atom_finder.h): one pass over a text must find exactly the atoms that
// searching the text once per atom finds — FilteredRE2 runs only the patterns whose atoms were
// found, so an atom missed is a benign error taken for a cause.
#include "pack/atom_finder.h"

#include <re2/filtered_re2.h>

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "pack/compiled_rule_pack.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

std::vector<int> found_one_by_one(const std::vector<std::string>& atoms, std::string_view text) {
  std::vector<int> found;
  for (size_t i = 0; i < atoms.size(); ++i) {
    if (text.find(atoms[i]) != std::string_view::npos) found.push_back(static_cast<int>(i));
  }
  return found;
}

}  // namespace

TEST_CASE("AtomFinder finds what a search per atom finds", "[unit][error_candidates]") {
  // Overlapping atoms, one a prefix of another, two sharing their first two bytes, a repeated
  // one, one byte long, and texts over few letters, so that most positions begin some atom.
  const std::vector<std::string> atoms = {"abc", "ab", "abd", "bca", "c", "cab", "abc", "aaaa", "dd", "\xc3\xa9t"};
  const detail::AtomFinder finder(atoms);
  std::mt19937 random(7);
  const std::string letters = "abcd \xc3\xa9t";
  std::vector<int> found;
  for (int n = 0; n < 20000; ++n) {
    std::string text(random() % 24, ' ');
    for (char& c : text) c = letters[random() % letters.size()];
    finder.find(text, found);
    INFO(text);
    CHECK(found == found_one_by_one(atoms, text));
  }
  finder.find("", found);
  CHECK(found.empty());
  finder.find("c", found);
  CHECK(found == std::vector<int>{4});
}

TEST_CASE("AtomFinder finds the pack's benign atoms in the lines they come from", "[unit][error_candidates]") {
  const auto& pack = detail::compiled(test::builtin_pack());
  re2::FilteredRE2 filter(3);
  for (const auto& p : pack.policy.benign_errors) {
    int id = 0;
    REQUIRE(filter.Add(p, RE2::Quiet, &id) == RE2::NoError);
  }
  std::vector<std::string> atoms;
  filter.Compile(&atoms);
  REQUIRE(atoms.size() > 10);
  const detail::AtomFinder finder(atoms);
  std::vector<int> found;
  // Each atom inside a line, at its start, at its end, and cut by one byte (then not found).
  for (size_t i = 0; i < atoms.size(); ++i) {
    for (const std::string& text :
         {"error: " + atoms[i] + " (code 7)", atoms[i], "x" + atoms[i], atoms[i].substr(0, atoms[i].size() - 1)}) {
      INFO(text);
      finder.find(text, found);
      CHECK(found == found_one_by_one(atoms, text));
    }
  }
}
