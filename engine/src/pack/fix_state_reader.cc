// Reads a pack file's `fix_states:` (docs/rules.md, "Fixes"): the states a fix can bring about, each
// a name for every setting that reaches it. A fix that `achieves` a state ranks last, "already in
// place", when the state holds, whichever road the job took to it.
#include <fmt/format.h>

#include "fact_test_runner.h"
#include "rule_reader.h"

namespace gpudiag::detail {

std::vector<FixState> RuleReader::read_fix_states(const Node& list) {
  std::vector<FixState> states;
  if (!list.is_seq()) {
    error(list.at, "rule-type", "`fix_states` is a list of mappings (id, meaning, holds_if, holds, does_not_hold)");
    return states;
  }
  for (const auto& item : list.items) {
    if (!item.is_map()) {
      error(item.at, "rule-type", "each of `fix_states` is a mapping (id, meaning, holds_if, holds, does_not_hold)");
      continue;
    }
    const size_t errors_before = errors_;
    check_keys(item, KeyPlace::kFixState);
    check_required(item, KeyPlace::kFixState, "rule-missing-key", "a fix state needs `{}`");
    FixState state{.file = file_.path, .line = static_cast<uint32_t>(item.at.line)};
    if (const Node* v = item.get("id")) {
      state.id = text(*v, "id");
      if (!is_kebab_id(state.id)) error(v->at, "rule-id", fmt::format("fix state id `{}` is not kebab-case", state.id));
    }
    if (const Node* v = item.get("meaning")) state.meaning = text(*v, "meaning");
    if (const Node* v = item.get("holds_if")) state.holds_if = fact_tests(*v, "holds_if");
    if (errors_ > errors_before) continue;
    // The examples are sets of facts: the state must hold on each of `holds` and, by a known fact,
    // not hold on each of `does_not_hold`. The built-in pack proved them when it was built.
    for (const bool holds : {true, false}) {
      const Node* examples = item.get(holds ? "holds" : "does_not_hold");
      if (!file_.tree.empty() || examples == nullptr) continue;
      if (!examples->is_seq() || examples->items.empty()) {
        error(examples->at, "rule-example", "a list of mappings of facts to values, at least one");
        continue;
      }
      for (const auto& example : examples->items) {
        if (!example.is_map()) {
          error(example.at, "rule-example", "an example is a mapping of facts to values");
          continue;
        }
        std::map<std::string, std::string, std::less<>> facts;
        for (const auto& [name, value] : example.entries) {
          const FactDef* def = catalog_.find(name.scalar);
          if (def == nullptr) {
            error(name.at, "rule-unknown-fact", fmt::format("unknown fact `{}`", name.scalar),
                  suggestion(name.scalar, catalog_.names()));
          } else if (!value.is_scalar() || !valid_fact_value(def->type, value.scalar)) {
            error(value.at, "rule-type",
                  fmt::format("`{}` is not a {} value", value.scalar, fact_type_name(def->type)));
          } else {
            facts[name.scalar] = value.scalar;
          }
        }
        const Tri got = run_all(state.holds_if, [&](const std::string& name) -> std::optional<std::string> {
          const auto it = facts.find(name);
          return it == facts.end() ? std::nullopt : std::optional<std::string>(it->second);
        });
        if (got != (holds ? Tri::kTrue : Tri::kFalse)) {
          error(example.at, "rule-example",
                fmt::format("this `{}` example: the state {} on these facts", holds ? "holds" : "does_not_hold",
                            got == Tri::kTrue    ? "holds"
                            : got == Tri::kFalse ? "does not hold"
                                                 : "is undecided (a fact it tests is not given)"));
        }
      }
    }
    if (errors_ == errors_before) states.push_back(std::move(state));
  }
  return states;
}

std::vector<FixState> read_fix_states_file(const RuleFile& file, const Node& tree, const FactCatalog& catalog,
                                           Diagnostics& diags) {
  const Node* list = tree.get("fix_states");
  if (list == nullptr) return {};
  const Fragments none;
  std::vector<std::string> used;
  return RuleReader(file, /*builtin=*/!file.tree.empty(), none, catalog, diags, used).read_fix_states(*list);
}

}  // namespace gpudiag::detail
