// What a run history adds to unexplained groups and facts: the novelty names, and the facts that
// changed since the pipeline's last green run.
#include <algorithm>
#include <array>
#include <map>

#include "gpudiag/report.h"

namespace gpudiag {
namespace {

// Facts that describe one run rather than how it was set up: they differ from run to run, so
// listing them would bury the change that matters.
constexpr std::array<std::string_view, 4> kPerRunFacts{"job_id", "job_name", "outcome", "workers_seen"};

bool per_run(std::string_view fact) {
  return std::find(kPerRunFacts.begin(), kPerRunFacts.end(), fact) != kPerRunFacts.end();
}

}  // namespace

std::string_view novelty_name(Novelty novelty) {
  switch (novelty) {
    case Novelty::kNew:
      return "new";
    case Novelty::kRecurring:
      return "recurring";
    case Novelty::kNoise:
      return "noise";
    case Novelty::kNoHistory:
      break;
  }
  return "no-history";
}

std::vector<FactChange> fact_changes(const std::vector<std::pair<std::string, std::string>>& before,
                                     const std::vector<std::pair<std::string, std::string>>& after) {
  std::map<std::string, std::pair<std::string, std::string>> by_name;  // before, after
  for (const auto& [name, value] : before) by_name[name].first = value;
  for (const auto& [name, value] : after) by_name[name].second = value;
  std::vector<FactChange> out;
  for (const auto& [name, values] : by_name) {
    if (per_run(name) || values.first == values.second) continue;
    out.push_back({.fact = name, .before = values.first, .after = values.second});
  }
  return out;
}

}  // namespace gpudiag
