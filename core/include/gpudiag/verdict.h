// Verdict: a job's outcome in one word, as the reports (schema gpudiag.report/v1) and the history
// database (run.verdict) write it. `empty` and `incomplete` are v1 additions (docs/json-schema.md);
// runs with either are never recorded in the history database.
#pragma once

#include <cstdint>

#include "gpudiag/enum_names.h"

namespace gpudiag {

enum class Verdict {
  kOk,          // no finding above info
  kWarning,     // the worst finding is a warning
  kFailed,      // an error or critical finding
  kEmpty,       // no entry of a Dataflow job was read: nothing to judge
  kIncomplete,  // an input could not be read, and what was read shows no known problem
};

inline constexpr std::array<EnumName<Verdict>, 5> kVerdictNames{{
    {Verdict::kOk, "ok"},
    {Verdict::kWarning, "warning"},
    {Verdict::kFailed, "failed"},
    {Verdict::kEmpty, "empty"},
    {Verdict::kIncomplete, "incomplete"},
}};
static_assert(names_are_distinct(kVerdictNames));

std::string_view verdict_name(Verdict v);  // "ok", "warning", "failed", "empty", "incomplete"
std::optional<Verdict> parse_verdict(std::string_view name);

}  // namespace gpudiag
