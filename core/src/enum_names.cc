// name() and parse() for each closed set, all through its one table (enum_names.h).
#include <cctype>

#include "gpudiag/export_shape.h"
#include "gpudiag/impact.h"
#include "gpudiag/job_outcome.h"
#include "gpudiag/severity.h"
#include "gpudiag/verdict.h"

namespace gpudiag {
namespace {

bool iequals_upper(std::string_view text, std::string_view upper) {
  if (text.size() != upper.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(text[i])) != upper[i]) return false;
  }
  return true;
}

}  // namespace

std::string_view impact_name(Impact i) { return name_in(kImpactNames, i); }
std::optional<Impact> parse_impact(std::string_view name) { return value_named(kImpactNames, name); }

std::string_view verdict_name(Verdict v) { return name_in(kVerdictNames, v); }
std::optional<Verdict> parse_verdict(std::string_view name) { return value_named(kVerdictNames, name); }

std::string_view shape_name(ExportShape s) { return name_in(kExportShapeNames, s); }
std::optional<ExportShape> parse_shape(std::string_view name) { return value_named(kExportShapeNames, name); }

std::string_view severity_name(Severity s) { return name_in(kSeverityNames, s); }

std::optional<Severity> severity_from_number(int64_t n) {
  for (const auto& row : kSeverityNames) {
    if (static_cast<int64_t>(row.value) == n) return row.value;
  }
  return std::nullopt;
}

std::optional<Severity> parse_severity(std::string_view name) {
  for (const auto& row : kSeverityNames) {
    if (iequals_upper(name, row.name)) return row.value;
  }
  for (const auto& row : kSeverityAliases) {
    if (iequals_upper(name, row.name)) return row.value;
  }
  int64_t n = 0;
  if (name.empty() || name.size() > 4) return std::nullopt;
  for (char c : name) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return severity_from_number(n);
}

}  // namespace gpudiag

namespace gpudiag {

std::optional<JobOutcome> parse_job_outcome(std::string_view text) {
  for (const auto& row : kJobOutcomes) {
    if (row.name == text || row.job_state == text) return row.outcome;
  }
  // Transitional states, as what they lead to while the job is not done.
  if (text == "JOB_STATE_CANCELLING" || text == "JOB_STATE_DRAINING") return JobOutcome::kRunning;
  if (text == "JOB_STATE_PENDING" || text == "JOB_STATE_STOPPED") return JobOutcome::kQueued;
  return std::nullopt;
}

}  // namespace gpudiag
