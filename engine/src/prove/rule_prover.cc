// Proving user rules by their examples (see rule_prover.h).
#include "rule_prover.h"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

#include "gpudiag/analyzer.h"
#include "pack/pack.h"

namespace gpudiag::detail {
namespace {

// A user rule's examples, run in a pack of the rule alone with the pack's fact extractors (or a user
// extractor's, in a pack of the extractor alone); the first failure as a diagnostic.
std::optional<Diagnostic> prove(const RuleSpec* spec, const FactExtractorSpec* extractor, const CollectedRules& all) {
  CollectedRules one{.catalog = all.catalog, .policy = all.policy};
  if (spec != nullptr) {
    RuleSpec alone = *spec;
    alone.info.explains.clear();  // other rules are not in this pack
    alone.corroborated_by.clear();
    one.by_id.emplace(spec->info.id, std::move(alone));
    one.extractors = all.extractors;
  } else {
    one.extractors.emplace(extractor->id, *extractor);
  }
  auto compiled = compile_rules(std::move(one));
  if (!compiled) return compiled.error();
  const RulePack pack(std::move(*compiled));
  // The rule's or the extractor's own examples: the built-in extractors beside it were proven when
  // the pack was built (testing them again compiled a pack for each, 25 per user rule).
  const ExampleReport report = test_rule_examples(pack, /*user_rules_only=*/true);
  if (report.failures.empty()) return std::nullopt;
  const auto& f = report.failures.front();
  return Diagnostic{
      .code = "rule-example",
      .message = fmt::format(
          "{} `{}`: {}{}", spec != nullptr ? "rule" : "extractor", f.rule_id, f.message,
          report.failures.size() > 1 ? fmt::format(" (and {} more failing examples)", report.failures.size() - 1) : ""),
      .file = f.file,
      .line = f.line,
      .help = "fix the rule or its example; `gpudiag rules test --rules DIR` lists every failure"};
}

}  // namespace

std::optional<Diagnostic> prove_user_rules(const CollectedRules& rules) {
  std::vector<std::pair<const RuleSpec*, const FactExtractorSpec*>> to_prove;
  for (const auto& [id, spec] : rules.by_id) {
    if (!spec.info.builtin && spec.info.enabled) to_prove.emplace_back(&spec, nullptr);
  }
  for (const auto& [id, extractor] : rules.extractors) {
    if (!extractor.builtin) to_prove.emplace_back(nullptr, &extractor);
  }
  std::vector<std::optional<Diagnostic>> verdicts(to_prove.size());
  parallel_for(to_prove.size(), std::max(1u, std::thread::hardware_concurrency()),
               [&](size_t i) { verdicts[i] = prove(to_prove[i].first, to_prove[i].second, rules); });
  for (auto& verdict : verdicts) {
    if (verdict) return *std::move(verdict);
  }
  return std::nullopt;
}

}  // namespace gpudiag::detail
