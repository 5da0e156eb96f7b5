// The placeholders of a rule's texts (title, description, fix texts): `{name}` is a named group of
// the rule's patterns, a catalog fact, `{count}` or `{workers}`; `{name|filter}` passes the value
// through a filter (kPlaceholderFilters). The loader checks every name and filter (rule_reader.cc);
// the evaluator fills them (evaluator.cc). docs/rules.md, "Placeholders". Internal to engine.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudiag::detail {

struct Placeholder {
  std::string_view name;
  std::string_view filter;  // "" when none
  size_t begin = 0;         // offset of `{`
  size_t end = 0;           // one past `}`
};

// The placeholders of `text`, in order. Braces around anything but a lower-case name (and an
// optional `|filter`) are text, not placeholders: `{}` and `{ a: 1 }` stay as written.
std::vector<Placeholder> placeholders_in(std::string_view text);

struct PlaceholderFilter {
  std::string_view name;
  std::string_view what;  // for docs/rules.md and the loader's help line
};
inline constexpr std::array<PlaceholderFilter, 2> kPlaceholderFilters{{
    {"highmem",
     "the machine type of the same family and vCPUs with more memory: n1-standard-4 → n1-highmem-4 "
     "(families with a highmem shape only; unknown otherwise)"},
    {"several", "a number greater than 1 as it is; unknown otherwise (for texts that only make sense with several)"},
}};

bool known_filter(std::string_view filter);
// The filtered value; nullopt when the filter has no answer for it (the placeholder is then unknown).
std::optional<std::string> apply_filter(std::string_view filter, std::string_view value);

}  // namespace gpudiag::detail
