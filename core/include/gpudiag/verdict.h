// Verdict: a job's outcome in one word, as the reports (schema gpudiag.report/v1) and the history
// database (run.verdict) write it.
#pragma once

#include <cstdint>

#include "gpudiag/enum_names.h"

namespace gpudiag {

enum class Verdict { kOk, kWarning, kFailed };

inline constexpr std::array<EnumName<Verdict>, 3> kVerdictNames{{
    {Verdict::kOk, "ok"},
    {Verdict::kWarning, "warning"},
    {Verdict::kFailed, "failed"},
}};
static_assert(names_are_distinct(kVerdictNames));

std::string_view verdict_name(Verdict v);  // "ok", "warning", "failed"
std::optional<Verdict> parse_verdict(std::string_view name);

}  // namespace gpudiag
