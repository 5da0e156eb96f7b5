// Reads a fact extractor file (`extractor:` instead of `id:`) into a FactExtractorSpec, with the same
// conditions, examples and diagnostics as rules (docs/rules.md, "Fact extractors").
#include <fmt/format.h>

#include "rule_reader.h"

namespace gpudiag::detail {

std::string expand_template(std::string_view text, const std::vector<std::pair<std::string, std::string>>& captures) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t open = text.find('{', pos);
    const size_t close = open == std::string_view::npos ? open : text.find('}', open);
    if (close == std::string_view::npos) break;
    out.append(text.substr(pos, open - pos));
    const std::string_view name = text.substr(open + 1, close - open - 1);
    for (const auto& [group, value] : captures) {
      if (group == name) {
        out += value;
        break;
      }
    }
    pos = close + 1;
  }
  if (pos < text.size()) out.append(text.substr(pos));
  return out;
}

std::vector<std::string> template_groups(std::string_view text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while ((pos = text.find('{', pos)) != std::string_view::npos) {
    const size_t close = text.find('}', pos);
    if (close == std::string_view::npos) break;
    out.emplace_back(text.substr(pos + 1, close - pos - 1));
    pos = close + 1;
  }
  return out;
}

bool is_extractor_file(const Node& root) { return root.is_map() && root.get("extractor") != nullptr; }

void RuleReader::read_extractor_id(const Node& n, FactExtractorSpec& extractor) {
  extractor.id = text(n, "extractor");
  if (!is_kebab_id(extractor.id)) {
    error(n.at, "rule-id", fmt::format("extractor id `{}` is not kebab-case", extractor.id),
          "lower-case words joined by single dashes, e.g. worker-configuration");
  }
}

void RuleReader::read_sets(const Node& n, FactExtractorSpec& extractor) {
  if (!n.is_map()) {
    error(n.at, "rule-type", "`set` is a mapping of fact names to values", "e.g. `set: { zone: '{zone}' }`");
    return;
  }
  for (const auto& [k, v] : n.entries) {
    const FactDef* def = catalog_.find(k.scalar);
    if (def == nullptr) {
      error(k.at, "rule-unknown-fact", fmt::format("unknown fact `{}`", k.scalar),
            suggestion(k.scalar, catalog_.names()));
      continue;
    }
    auto value = scalar(v, k.scalar);
    if (!value) continue;
    // A literal value (no `{group}`) must be one the fact can take; a template is checked when it fills.
    if (value->find('{') == std::string::npos && !valid_fact_value(def->type, *value)) {
      error(
          v.at, "rule-facts",
          fmt::format("`{}` is a {} fact: `{}` is not a value it takes", k.scalar, fact_type_name(def->type), *value));
    }
    extractor.sets.push_back(FactAssignment{k.scalar, *value, v.at});
  }
}

void RuleReader::read_decode(const Node& n, FactExtractorSpec& extractor) {
  if (!n.is_map() || n.entries.size() != 1) {
    error(n.at, "rule-type", "`decode` is one `group: decoder` pair", "e.g. `decode: { options: python-dict }`");
    return;
  }
  const auto& [group, decoder] = n.entries.front();
  extractor.decode_group = group.scalar;
  const std::string name = text(decoder, "decode");
  for (const auto& [decoder_name, d] : kDecoderNames) {
    if (decoder_name == name) extractor.decoder = d;
  }
  if (extractor.decoder == Decoder::kNone) {
    std::vector<std::string_view> names;
    for (const auto& entry : kDecoderNames) names.push_back(entry.first);
    const std::string hint = suggestion(name, names);
    error(decoder.at, "rule-type", fmt::format("unknown decoder `{}`", name),
          hint.empty() ? fmt::format("the decoders are {}", fmt::join(names, ", ")) : hint);
  }
}

void RuleReader::read_priority(const Node& n, FactExtractorSpec& extractor) {
  const std::string s = text(n, "priority");
  char* end = nullptr;
  const long p = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || p < kMinExtractorPriority || p > kMaxExtractorPriority) {
    error(n.at, "rule-type",
          fmt::format("`priority` is a whole number from {} to {}", kMinExtractorPriority, kMaxExtractorPriority),
          "10 is a log line's (the default), 20 the options echo's; --job is 30 and always wins");
    return;
  }
  extractor.priority = static_cast<int>(p);
}

void RuleReader::check_extractor(const Node& root, FactExtractorSpec& extractor) {
  if (extractor.sets.empty() && extractor.decoder == Decoder::kNone && extractor.phase.empty() &&
      extractor.worker_count.empty()) {
    error(root.at, "rule-missing-key",
          "the extractor gives nothing: it needs `set`, `decode`, `phase` or `worker_count`");
  }
  // Every `{group}` must be a named group of the match.
  std::vector<std::string> groups;
  std::vector<const ConditionSpec*> stack;
  if (extractor.match) stack.push_back(&*extractor.match);
  while (!stack.empty()) {
    const ConditionSpec* c = stack.back();
    stack.pop_back();
    if (c->kind == ConditionSpec::Kind::kRegex) {
      for (auto& name : named_groups(c->regex)) groups.push_back(std::move(name));
    }
    for (const auto& child : c->children) stack.push_back(&child);
  }
  const auto check_groups = [&](std::string_view tmpl, const Position& at) {
    for (const auto& g : template_groups(tmpl)) {
      if (std::find(groups.begin(), groups.end(), g) == groups.end()) {
        error(at, "rule-reference", fmt::format("`{{{}}}` is not a named group of `match`", g), suggestion(g, groups));
      }
    }
  };
  for (const auto& s : extractor.sets) check_groups(s.value, s.at);
  if (const Node* wc = root.get("worker_count")) check_groups(extractor.worker_count, wc->at);
  if (!extractor.decode_group.empty()) check_groups("{" + extractor.decode_group + "}", root.get("decode")->at);
}

std::optional<FactExtractorSpec> RuleReader::read_extractor(const Node& root) {
  check_keys(root, KeyPlace::kExtractor);
  FactExtractorSpec extractor;
  extractor.file = file_.path;
  extractor.line = root.at.line;
  extractor.builtin = builtin_;
  check_required(root, KeyPlace::kExtractor, "rule-missing-key", "the fact extractor has no `{}`",
                 "see docs/rules.md, Fact extractors");
  for (const auto& key : rule_keys()) {
    if (key.place != KeyPlace::kExtractor) continue;
    if (const Node* v = root.get(key.key)) key.read_extractor(*this, *v, extractor);
  }
  if (errors_ == 0) check_extractor(root, extractor);
  if (errors_ > 0) return std::nullopt;
  return extractor;
}

std::optional<FactExtractorSpec> read_extractor_file(const RuleFile& file, const Node& tree, bool builtin,
                                                     const Fragments& fragments, const FactCatalog& catalog,
                                                     Diagnostics& diags, std::vector<std::string>& used) {
  return RuleReader(file, builtin, fragments, catalog, diags, used).read_extractor(tree);
}

}  // namespace gpudiag::detail
