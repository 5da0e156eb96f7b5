// Merging rule files by id and checking references (see rule_collector.h).
#include "rule_collector.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <thread>

#include "parallel_for.h"
#include "rule_reader.h"

namespace gpudiag::detail {
namespace {

void check_references(const std::map<std::string, RuleSpec>& rules, Diagnostics& diags) {
  for (const auto& entry : rules) {
    const RuleSpec& rule = entry.second;  // a plain reference: lambdas cannot capture bindings (C++20)
    const auto check = [&](const std::vector<std::string>& ids, std::string_view key) {
      for (const auto& other : ids) {
        if (rules.count(other) == 0) {
          diags.push_back(Diagnostic{.code = "rule-reference",
                                     .message = fmt::format("`{}` names `{}`, which is not a rule", key, other),
                                     .file = rule.info.file,
                                     .line = rule.info.line,
                                     .column = 1});
        }
      }
    };
    check(rule.info.explains, "explains");
    check(rule.corroborated_by, "corroborated_by");
  }
}

// A fix's `achieves:` becomes the state's tests: the fix is in place when the state holds.
void resolve_fix_states(const std::map<std::string, FixState, std::less<>>& states,
                        std::map<std::string, RuleSpec>& rules, Diagnostics& diags) {
  for (auto& entry : rules) {
    RuleSpec& rule = entry.second;
    for (size_t i = 0; i < rule.info.fixes.size() && i < rule.fix_achieves_at.size(); ++i) {
      FixInfo& fix = rule.info.fixes[i];
      if (fix.achieves.empty()) continue;
      const auto it = states.find(fix.achieves);
      if (it == states.end()) {
        std::vector<std::string_view> names;
        for (const auto& s : states) names.push_back(s.first);
        diags.push_back(
            Diagnostic{.code = "rule-reference",
                       .message = fmt::format("`achieves` names `{}`, which is not a fix state", fix.achieves),
                       .file = rule.info.file,
                       .line = rule.fix_achieves_at[i].line,
                       .column = rule.fix_achieves_at[i].column,
                       .help = suggestion(fix.achieves, names)});
        continue;
      }
      const FixState& state = it->second;
      rule.fix_demote_tests[i] = state.holds_if;
      rule.fix_state_meaning[i] = state.meaning;
      std::string text;
      for (const auto& t : state.holds_if) text += fmt::format("{}{}: {}", text.empty() ? "" : ", ", t.fact, t.text);
      fix.demote_if = text;
    }
  }
}

// An alias leads `explain` to one rule, so it may be no rule's id and no other rule's alias.
void check_aliases(const std::map<std::string, RuleSpec>& rules, Diagnostics& diags) {
  std::map<std::string, std::string> owner;  // alias → the rule that has it
  for (const auto& [id, rule] : rules) {
    for (const auto& alias : rule.info.aliases) {
      std::string clash;
      if (rules.count(alias) > 0)
        clash = fmt::format("is the id of rule `{}`", alias);
      else if (auto it = owner.find(alias); it != owner.end() && it->second != id)
        clash = fmt::format("is already an alias of `{}`", it->second);
      else
        owner.emplace(alias, id);
      if (!clash.empty()) {
        diags.push_back(Diagnostic{.code = "rule-duplicate-id",
                                   .message = fmt::format("alias `{}` of `{}` {}", alias, id, clash),
                                   .file = rule.info.file,
                                   .line = rule.info.line,
                                   .column = 1,
                                   .help = "an alias names one rule; choose another, or drop it"});
      }
    }
  }
}

}  // namespace

void RuleCollector::add(std::span<const RuleFile> files, bool builtin) {
  auto& rules = rules_.by_id;
  auto& diags = rules_.problems;
  // Files parse independently, on every core; pack files are read first (rules expand their lists
  // and macros), then the rules, and what they hold is merged in file order.
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::optional<Node>> trees(files.size());
  std::vector<Diagnostics> file_diags(files.size());
  parallel_for(files.size(), threads, [&](size_t i) {
    auto tree = parse_rule_file(files[i]);
    if (tree)
      trees[i] = std::move(*tree);
    else
      file_diags[i].push_back(tree.error());
  });
  std::vector<bool> pack_file(files.size(), false);
  std::map<std::string, int> defined_in_group;
  for (size_t i = 0; i < files.size(); ++i) {
    if (!trees[i] || !is_pack_file(*trees[i])) continue;
    pack_file[i] = true;
    read_pack_file(files[i], *trees[i], fragments_, rules_.policy, rules_.catalog, defined_in_group, file_diags[i]);
  }
  // Fix states test facts: read once the catalog holds every pack file's facts. A later one replaces
  // a state of the same id.
  for (size_t i = 0; i < files.size(); ++i) {
    if (!pack_file[i]) continue;
    for (auto& state : read_fix_states_file(files[i], *trees[i], rules_.catalog, file_diags[i]))
      rules_.fix_states[state.id] = std::move(state);
  }
  std::vector<std::optional<RuleSpec>> specs(files.size());
  std::vector<std::optional<FactExtractorSpec>> extractors(files.size());
  std::vector<std::vector<std::string>> used(files.size());
  parallel_for(files.size(), threads, [&](size_t i) {
    if (!trees[i] || pack_file[i]) return;
    if (is_extractor_file(*trees[i])) {
      extractors[i] =
          read_extractor_file(files[i], *trees[i], builtin, fragments_, rules_.catalog, file_diags[i], used[i]);
    } else {
      specs[i] = read_rule_file(files[i], *trees[i], builtin, fragments_, rules_.catalog, file_diags[i], used[i]);
    }
  });
  std::map<std::string, std::string> extractor_in_group;  // id → file
  for (size_t i = 0; i < files.size(); ++i) {
    if (!extractors[i]) continue;
    const std::string id = extractors[i]->id;
    if (auto it = extractor_in_group.find(id); it != extractor_in_group.end()) {
      file_diags[i].push_back(
          Diagnostic{.code = "rule-duplicate-id",
                     .message = fmt::format("extractor `{}` is already defined in {}", id, it->second),
                     .file = files[i].path,
                     .line = extractors[i]->line,
                     .column = 1,
                     .help = "to replace a built-in extractor, put the new one in a --rules directory"});
      continue;
    }
    extractor_in_group[id] = files[i].path;
    rules_.extractors[id] = std::move(*extractors[i]);
  }
  for (const auto& names : used) used_.insert(names.begin(), names.end());
  std::map<std::string, std::string> seen_in_group;  // id → file
  for (size_t i = 0; i < files.size(); ++i) {
    const RuleFile& file = files[i];
    diags.insert(diags.end(), file_diags[i].begin(), file_diags[i].end());
    auto& spec = specs[i];
    if (!spec) continue;
    const std::string id = spec->info.id;
    if (auto it = seen_in_group.find(id); it != seen_in_group.end()) {
      diags.push_back(
          Diagnostic{.code = "rule-duplicate-id",
                     .message = fmt::format("rule id `{}` is already defined in {}", id, it->second),
                     .file = file.path,
                     .line = spec->info.line,
                     .column = 1,
                     .help = "ids are unique; to replace a built-in rule, put the new one in a --rules directory"});
      continue;
    }
    seen_in_group[id] = file.path;
    if (spec->info.title.empty() && !spec->info.enabled) {  // a bare `id` + `enabled: false` switch
      auto it = rules.find(id);
      if (it == rules.end()) {
        diags.push_back(Diagnostic{.code = "rule-reference",
                                   .message = fmt::format("cannot disable `{}`: no such rule", id),
                                   .file = file.path,
                                   .line = spec->info.line,
                                   .column = 1});
      } else {
        it->second.info.enabled = false;
      }
      continue;
    }
    rules[id] = std::move(*spec);
  }
}

void RuleCollector::add(const RuleDirectory& dir) {
  rules_.problems.insert(rules_.problems.end(), dir.problems.begin(), dir.problems.end());
  add(dir.files, /*builtin=*/false);
}

CollectedRules RuleCollector::finish() && {
  check_references(rules_.by_id, rules_.problems);
  resolve_fix_states(rules_.fix_states, rules_.by_id, rules_.problems);
  check_aliases(rules_.by_id, rules_.problems);
  for (const auto& [name, fragment] : fragments_) {
    if (used_.count(name) > 0) continue;
    rules_.problems.push_back(Diagnostic{
        .code = "rule-reference",
        .message = fmt::format("{} `{}` is defined but no rule uses it", fragment.list ? "list" : "macro", name),
        .file = fragment.file,
        .line = fragment.at.line,
        .column = fragment.at.column,
        .help = "remove it, or write `${" + name + "}` in a rule's or an extractor's pattern"});
  }
  return std::move(rules_);
}

}  // namespace gpudiag::detail
