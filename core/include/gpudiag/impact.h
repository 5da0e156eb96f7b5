// Impact: how bad a finding is if it is true. Rules declare it (`severity:` in rules/*.yaml); the
// reports, the gate (--fail-on) and the history database write it by the names below.
#pragma once

#include <cstdint>

#include "gpudiag/enum_names.h"

namespace gpudiag {

// Ordered: a higher value is worse.
enum class Impact : uint8_t { kInfo, kWarning, kError, kCritical };

inline constexpr std::array<EnumName<Impact>, 4> kImpactNames{{
    {Impact::kInfo, "info"},
    {Impact::kWarning, "warning"},
    {Impact::kError, "error"},
    {Impact::kCritical, "critical"},
}};
static_assert(names_are_distinct(kImpactNames));

std::string_view impact_name(Impact i);  // "info" … "critical"
std::optional<Impact> parse_impact(std::string_view name);

}  // namespace gpudiag
