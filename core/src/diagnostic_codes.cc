#include "gpudiag/diagnostic_codes.h"

#include "gpudiag/enum_names.h"

namespace gpudiag {
namespace {

constexpr std::array<EnumName<DiagnosticStage>, 7> kStageNames{{
    {DiagnosticStage::kInput, "input"},
    {DiagnosticStage::kJob, "job"},
    {DiagnosticStage::kRules, "rules"},
    {DiagnosticStage::kBaseline, "baseline"},
    {DiagnosticStage::kHistory, "history"},
    {DiagnosticStage::kQuery, "query"},
    {DiagnosticStage::kConfig, "config"},
}};
static_assert(names_are_distinct(kStageNames));

}  // namespace

std::string_view stage_name(DiagnosticStage stage) { return name_in(kStageNames, stage); }

const DiagnosticCodeInfo* find_diagnostic_code(std::string_view name) {
  for (const auto& row : kDiagnosticCodes) {
    if (name == row.name) return &row;
  }
  return nullptr;
}

}  // namespace gpudiag
