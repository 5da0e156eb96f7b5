// RulePack: the loader's stages put together — source (rule_source), reader (rule_reader),
// collector (rule_collector), prover (rule_prover), compiler (rule_compiler) — and the pack's public
// face (rule_pack.h).
#include "gpudiag/rule_pack.h"

#include "compiled_rule_pack.h"
#include "rule_collector.h"
#include "rule_compiler.h"
#include "rule_pack_dump.h"
#include "rule_prover.h"
#include "rule_source.h"

namespace gpudiag {
namespace {

detail::CollectedRules collect(const RuleSources& sources) {
  detail::RuleCollector collector;
  collector.add(sources.builtin, /*builtin=*/true);
  for (const auto& dir : detail::read_rule_dirs(sources.dirs)) collector.add(dir);
  return std::move(collector).finish();
}

}  // namespace

RulePack::RulePack(std::unique_ptr<detail::CompiledRulePack> compiled) : compiled_(std::move(compiled)) {}
RulePack::RulePack(RulePack&&) noexcept = default;
RulePack& RulePack::operator=(RulePack&&) noexcept = default;
RulePack::~RulePack() = default;

Diagnostics RulePack::lint(const RuleSources& sources) { return collect(sources).problems; }

Result<RulePack> RulePack::load(const RuleSources& sources) {
  auto rules = collect(sources);
  if (!rules.problems.empty()) return rules.problems.front();
  if (!sources.dirs.empty() && sources.check_examples) {
    if (auto failure = detail::prove_user_rules(rules)) return *std::move(failure);
  }
  auto compiled = detail::compile_rules(std::move(rules));
  if (!compiled) return compiled.error();
  return RulePack(std::move(*compiled));
}

const std::vector<RuleInfo>& RulePack::rules() const { return compiled_->infos; }

const RuleInfo* RulePack::find(std::string_view id) const {
  for (const auto& info : compiled_->infos) {
    if (info.id == id) return &info;
  }
  return nullptr;
}

const PackPolicy& RulePack::policy() const { return compiled_->policy; }

std::string RulePack::version_hash() const { return compiled_->hash; }

std::string RulePack::dump(bool patterns_only, bool observers) const {
  return detail::dump_rule_pack(*compiled_, patterns_only, observers);
}

const detail::CompiledRulePack& detail::compiled(const RulePack& pack) { return *pack.compiled_; }

}  // namespace gpudiag
