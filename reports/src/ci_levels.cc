// CI levels of findings (ci_levels.h).
#include "ci_levels.h"

#include "wording.h"

namespace gpudiag::detail {

bool is_symptom(const RankedFinding& rf) {
  return rf.caused_by.has_value() || rf.caused_by_unexplained.has_value() ||
         rf.finding->family_role == FamilyRole::kSymptom;
}

std::string_view finding_ci_level(const RankedFinding& rf, std::string_view note) {
  const Impact severity = rf.finding->severity;
  if (!is_symptom(rf)) return ci_level(severity, note);
  if (rf.caused_by || rf.caused_by_unexplained) return note;
  return severity >= Impact::kWarning ? "warning" : note;
}

}  // namespace gpudiag::detail
