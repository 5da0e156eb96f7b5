#include "beam_options_table.h"

#include "gpudiag/yaml_tree.h"

namespace gpudiag::detail {
namespace {

BeamOptionTable load() {
  BeamOptionTable table;
  auto doc = yaml::parse(beam_options_yaml(), "ingest/data/beam-options.yaml",
                         {DiagnosticCode::kLaunchOptions, "the embedded option table is damaged"});
  if (!doc) return table;
  if (const auto* s = doc->get("source"); s && s->is_scalar()) table.source = s->scalar;
  for (const std::string_view section : {"python", "java"}) {
    const yaml::Node* list = doc->get(section);
    if (list == nullptr || !list->is_seq()) continue;
    for (const auto& row : list->items) {
      const yaml::Node* name = row.get("name");
      if (name == nullptr || !name->is_scalar()) continue;
      BeamOption option{.name = name->scalar};
      if (const auto* f = row.get("flag")) option.flag = f->scalar == "true";
      if (const auto* l = row.get("list")) {
        option.list = l->scalar == "split" ? BeamOption::List::kSplit : BeamOption::List::kAppend;
      }
      std::vector<std::string> spellings{option.name};
      if (const auto* aliases = row.get("aliases"); aliases && aliases->is_seq()) {
        for (const auto& a : aliases->items) spellings.push_back(a.scalar);
      }
      for (const auto& spelling : spellings) {
        if (table.by_spelling.emplace(spelling, option).second) table.spellings.push_back(spelling);
      }
    }
  }
  if (const auto* e = doc->get("enum_values"); e && e->is_seq()) {
    for (const auto& v : e->items) table.enum_values.push_back(v.scalar);
  }
  return table;
}

}  // namespace

const BeamOptionTable& beam_option_table() {
  static const BeamOptionTable table = load();
  return table;
}

}  // namespace gpudiag::detail
