// RulePack: the loader's stages put together — source (rule_source), reader (rule_reader),
// collector (rule_collector), prover (rule_prover), compiler (rule_compiler) — and the pack's public
// face (rule_pack.h).
#include "gpudiag/rule_pack.h"

#include <re2/re2.h>

#include "gpudiag/diagnostic_codes.h"
#include "pack/pack.h"
#include "rule_prover.h"

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

Diagnostics RulePack::lint_warnings(const RuleSources& sources) {
  // A YAML value (after `key:` or a list's `- `, quoted or not) that starts with TODO.
  static const RE2 kTodo(R"(^(\s*(?:-\s+)?(?:[\w-]+:\s+)?['"]?)TODO\b)");
  Diagnostics warnings;
  for (const auto& dir : detail::read_rule_dirs(sources.dirs)) {
    for (const auto& file : dir.files) {
      uint64_t line_no = 0;
      size_t at = 0;
      while (at <= file.text.size()) {
        const size_t end = std::min(file.text.find('\n', at), file.text.size());
        const std::string_view line(file.text.data() + at, end - at);
        ++line_no;
        re2::StringPiece lead;
        if (RE2::PartialMatch(line, kTodo, &lead)) {
          warnings.push_back(Diagnostic{.code = code_name(DiagnosticCode::kRuleTodo),
                                        .message = "this value still says TODO",
                                        .file = file.path,
                                        .line = line_no,
                                        .column = lead.size() + 1,
                                        .source_line = std::string(line),
                                        .help = "write it, then run `gpudiag rules test` again"});
        }
        at = end + 1;
      }
    }
  }
  return warnings;
}

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
