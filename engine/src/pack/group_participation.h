// Whether a regex's named groups take part in every match: what lets `gpudiag sql` return only a
// job's first entry of a fact extractor (every entry it matches sets the same facts), read from the
// pattern's text. Conservative: a construct it does not follow counts as "maybe not". Internal to
// engine.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace gpudiag::detail {

// True when every match of `pattern` (RE2 syntax) has at least one of `groups` (named groups,
// (?P<name>…) or (?<name>…)) taking part: a group outside any `?`, `*`, `{0,…}` or alternation
// branch that could match without it.
bool some_group_takes_part(std::string_view pattern, const std::set<std::string, std::less<>>& groups);

}  // namespace gpudiag::detail
