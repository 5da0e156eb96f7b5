// "Did you mean …?" for every name a user types: subcommands, flags, option values, rule ids (and
// their `aliases:`), pipeline names, SQL tables. Edit distance alone misses the names people
// actually type — `gpu-oom` is ten edits from `gpu-out-of-memory` — so a name is also close when
// the typed word is its prefix (`rules li` → `list`), or when each typed token (split on - _ .)
// matches, in order, a prefix of one of its tokens or the initials of a run of them (`gpu-oom` →
// gpu-out-of-memory, `zone-exhausted` → zone-resource-pool-exhausted).
//
//   std::vector<KnownName> names{{"gpu-out-of-memory"}, {"oom", "gpu-out-of-memory"}};
//   suggest_names("gpu-oom", names);   // {"gpu-out-of-memory"}
//   did_you_mean("analyse", std::vector<std::string>{"analyze", "report"});  // "did you mean `analyze`?"
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpudiag {

// A name the user may type, and what it stands for: itself, or (an alias) the name it leads to.
struct KnownName {
  std::string name;
  std::string means;  // "" = `name` itself

  KnownName(std::string n, std::string m = "") : name(std::move(n)), means(std::move(m)) {}
  const std::string& target() const { return means.empty() ? name : means; }
};

// Insertions, deletions, substitutions and transpositions of adjacent characters (optimal string
// alignment), byte-wise.
size_t edit_distance(std::string_view a, std::string_view b);

// The names `typed` may have meant, best first (an exact alias, a prefix, token matches, then the
// fewest edits), each target once, at most `limit`. Case is ignored. Empty when nothing is close.
std::vector<std::string> suggest_names(std::string_view typed, const std::vector<KnownName>& known, size_t limit = 3);
std::vector<std::string> suggest_names(std::string_view typed, const std::vector<std::string>& known, size_t limit = 3);

// "did you mean `a`?", "did you mean `a` or `b`?", "did you mean `a`, `b` or `c`?", or "" when
// nothing is close. `prefix` goes before each name (e.g. "--" for flags).
std::string did_you_mean(const std::vector<std::string>& suggestions, std::string_view prefix = "");
std::string did_you_mean(std::string_view typed, const std::vector<std::string>& known, std::string_view prefix = "");

}  // namespace gpudiag
