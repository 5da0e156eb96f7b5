#include <fmt/format.h>

#include <iostream>

#include "commands.h"

namespace gpudiag::cli {

std::string version_string() { return fmt::format("gpudiag {}", GPUDIAG_VERSION); }

void RuleOptions::add_to(CLI::App& app) {
  app.add_option("--rules", dirs, "Directory of extra rule files (adds, overrides by id, disables); repeatable")
      ->check(CLI::ExistingDirectory);
}

std::optional<RulePack> RuleOptions::load(bool check_examples) const {
  const RuleSources sources{builtin_rule_files(), dirs, check_examples};
  auto pack = RulePack::load(sources);
  if (pack) return std::move(*pack);
  for (const auto& d : RulePack::lint(sources)) print_problem(d);
  if (RulePack::lint(sources).empty()) print_problem(pack.error());
  std::cerr << "gpudiag: the rule pack has errors; `gpudiag rules lint` lists them\n";
  return std::nullopt;
}

}  // namespace gpudiag::cli
