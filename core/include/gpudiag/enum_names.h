// A closed set's names as one table of structs, read both ways. Each enum that gpudiag writes into
// its outputs (severity, impact, verdict, export shape) has such a table next to it; the names are
// part of contracts (the JSON schemas, the history database), so tables only ever grow.
//
//   inline constexpr std::array<EnumName<Verdict>, 3> kVerdictNames{{{Verdict::kOk, "ok"}, …}};
//   std::string_view verdict_name(Verdict v) { return name_in(kVerdictNames, v); }
//   std::optional<Verdict> parse_verdict(std::string_view s) { return value_named(kVerdictNames, s); }
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace gpudiag {

template <typename Enum>
struct EnumName {
  Enum value;
  std::string_view name;
};

// The name of `value`, or the table's first name for a value the table does not hold (only a cast
// can make one).
template <typename Enum, size_t N>
constexpr std::string_view name_in(const std::array<EnumName<Enum>, N>& table, Enum value) {
  for (const auto& row : table) {
    if (row.value == value) return row.name;
  }
  return table.front().name;
}

// The value named exactly `name` (case matters), if any.
template <typename Enum, size_t N>
constexpr std::optional<Enum> value_named(const std::array<EnumName<Enum>, N>& table, std::string_view name) {
  for (const auto& row : table) {
    if (row.name == name) return row.value;
  }
  return std::nullopt;
}

// Whether the table lists distinct values under distinct names (for a static_assert beside it).
template <typename Enum, size_t N>
constexpr bool names_are_distinct(const std::array<EnumName<Enum>, N>& table) {
  for (size_t i = 0; i < N; ++i) {
    for (size_t j = i + 1; j < N; ++j) {
      if (table[i].value == table[j].value || table[i].name == table[j].name) return false;
    }
  }
  return true;
}

}  // namespace gpudiag
