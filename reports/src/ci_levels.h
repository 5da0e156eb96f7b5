// The level of a finding in the CI formats (SARIF, GitHub annotations). A symptom is never an
// error: folded under its cause (a rule's, or an error no rule explains) it is a note, since the
// cause carries the level; standing alone (a rule of a `symptom`-role family with no cause in the
// export) it is at most a warning. Causes keep their severity: critical and error are errors.
#pragma once

#include <string_view>

#include "gpudiag/report.h"

namespace gpudiag::detail {

// Whether the finding is a symptom: folded under a cause, or of a family whose role is symptom.
bool is_symptom(const RankedFinding& rf);

// "error", "warning" or `note` (SARIF "note", GitHub "notice").
std::string_view finding_ci_level(const RankedFinding& rf, std::string_view note);

}  // namespace gpudiag::detail
