// RuleReader: one rule file's tree → RuleSpec, checking every key and value and collecting every
// problem with its position. Split across rule_reader.cc (the rule, fixes, examples) and
// rule_conditions.cc (record conditions and fact tests). Internal to engine.
#pragma once

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fact_catalog.h"
#include "fact_extractor.h"
#include "pack_file.h"
#include "rule_keys.h"
#include "rule_spec.h"

namespace gpudiag::detail {

inline constexpr auto kFamilies = std::to_array<std::string_view>(
    {"capacity", "flex-start", "startup", "gpu-software", "runtime", "configuration", "symptom", "export"});
inline constexpr std::array kFieldKeys = {
    std::pair{std::string_view{"text"}, Field::kText},
    std::pair{std::string_view{"message"}, Field::kMessage},
    std::pair{std::string_view{"exception"}, Field::kException},
    std::pair{std::string_view{"log"}, Field::kLog},
    std::pair{std::string_view{"severity"}, Field::kSeverity},
    std::pair{std::string_view{"worker"}, Field::kWorker},
    std::pair{std::string_view{"logger"}, Field::kLogger},
    std::pair{std::string_view{"thread"}, Field::kThread},
    std::pair{std::string_view{"step"}, Field::kStep},
    std::pair{std::string_view{"sdk_worker"}, Field::kSdkWorker},
    std::pair{std::string_view{"job_id"}, Field::kJobId},
    std::pair{std::string_view{"job_name"}, Field::kJobName},
    std::pair{std::string_view{"region"}, Field::kRegion},
    std::pair{std::string_view{"resource_type"}, Field::kResourceType},
};

size_t edit_distance(std::string_view a, std::string_view b);
bool is_kebab_id(std::string_view id);

// "did you mean `x`?" for the closest of `names` within two edits, or "".
template <typename Names>
std::string suggestion(std::string_view word, const Names& names) {
  std::string best;
  size_t best_d = 3;
  for (const auto& n : names) {
    std::string_view name = n;
    const size_t d = edit_distance(word, name);
    if (d < best_d) {
      best_d = d;
      best = std::string(name);
    }
  }
  return best.empty() ? std::string{} : fmt::format("did you mean `{}`?", best);
}

class RuleReader {
 public:
  RuleReader(const RuleFile& file, bool builtin, const Fragments& fragments, const FactCatalog& catalog,
             Diagnostics& diags, std::vector<std::string>& used)
      : file_(file), builtin_(builtin), fragments_(fragments), catalog_(catalog), diags_(diags), used_(used) {}

  std::optional<RuleSpec> read(const Node& root);
  // A file with `extractor:` instead of `id:` (extractor_reader.cc).
  std::optional<FactExtractorSpec> read_extractor(const Node& root);
  // The `fix_states:` of a pack file (fix_state_reader.cc), each proven on its examples of facts.
  std::vector<FixState> read_fix_states(const Node& list);

  // What the rows of the key table (rule_keys.cc) call to read their values.
  void error(const Position& at, std::string code, std::string message, std::string help = {}) {
    diags_.push_back(Diagnostic{.code = std::move(code),
                                .message = std::move(message),
                                .file = file_.path,
                                .line = at.line,
                                .column = at.column,
                                .source_line = source_line(file_.text, at.line),
                                .help = std::move(help)});
    ++errors_;
  }

  std::optional<std::string> scalar(const Node& n, std::string_view what) {
    if (!n.is_scalar()) {
      error(n.at, "rule-type", fmt::format("`{}` must be a single value", what));
      return std::nullopt;
    }
    return n.scalar;
  }

  std::vector<std::string> string_list(const Node& n, std::string_view what) {
    std::vector<std::string> out;
    if (n.is_scalar()) {
      out.push_back(n.scalar);
    } else if (n.is_seq()) {
      for (const auto& item : n.items) {
        if (auto s = scalar(item, what)) out.push_back(*s);
      }
    } else if (n.kind != Node::Kind::kNull) {
      error(n.at, "rule-type", fmt::format("`{}` must be a value or a list of values", what));
    }
    return out;
  }

  std::string text(const Node& n, std::string_view what) { return scalar(n, what).value_or(""); }
  // `true` or `false` (an error otherwise, read as false).
  bool flag(const Node& n, std::string_view what) {
    const std::string s = text(n, what);
    if (s != "true" && s != "false") error(n.at, "rule-type", fmt::format("`{}` is true or false", what));
    return s == "true";
  }

  // An error unless `command` (a fix's `command`, placeholders standing for any value) is one shell
  // command (shell_command.h).
  void check_command(const Node& n, const std::string& command);

  // An error for every key of `map` that the key table does not allow at `place`.
  void check_keys(const Node& map, KeyPlace place) {
    const auto& allowed = key_names(place);
    for (const auto& [k, v] : map.entries) {
      if (std::find(allowed.begin(), allowed.end(), k.scalar) != allowed.end()) continue;
      error(k.at, "rule-unknown-key", fmt::format("unknown key `{}` in {}", k.scalar, place_name(place)),
            suggestion(k.scalar, allowed));
    }
  }

  std::optional<int64_t> duration(const Node& n, std::string_view what) {
    auto s = scalar(n, what);
    if (!s) return std::nullopt;
    auto d = parse_duration(*s);
    if (!d) error(n.at, "rule-duration", fmt::format("`{}` is not a duration", *s), "write e.g. 30s, 10m, 1h or 7d");
    return d;
  }

  // `${name}` replaced by the list or macro it names; an error for each name not defined.
  std::string expand(const Node& n, const std::string& pattern) {
    if (pattern.find("${") == std::string::npos) return pattern;
    Expanded e = expand_fragments(pattern, fragments_);
    for (size_t offset : e.undefined) {
      const size_t end = pattern.find('}', offset);
      const std::string name = pattern.substr(offset + 2, end - offset - 2);
      std::vector<std::string_view> names;
      for (const auto& f : fragments_) names.push_back(f.first);
      const std::string hint = suggestion(name, names);
      error(Position{n.at.line, n.at.column + offset + (n.quoted ? 1 : 0)}, "rule-reference",
            fmt::format("`${{{}}}` names no list or macro", name),
            hint.empty() ? "lists and macros are defined in a pack file (docs/rules.md, Lists and macros)" : hint);
    }
    used_.insert(used_.end(), e.used.begin(), e.used.end());
    return std::move(e.text);
  }

  // Compiles the pattern (the pack reuses it); reports why when it does not compile.
  std::shared_ptr<const RE2> check_regex(const Node& n, const std::string& pattern) {
    auto re = std::make_shared<const RE2>(pattern, pattern_options());
    if (re->ok()) return re;
    std::string help = "patterns use RE2 syntax (no lookaround or backreferences)";
    if (pattern.find("(?<") != std::string::npos) help = "RE2 here names groups only as (?P<name>…)";
    if (re->error_code() == RE2::ErrorPatternTooLarge) help = "the pattern is over RE2's memory budget; simplify it";
    error(n.at, "rule-regex", fmt::format("regex does not compile: {}", re->error()), help);
    return nullptr;
  }

  std::optional<ConditionSpec> condition(const Node& n, int depth = 0);
  // Tests on job facts, or (captures) on the named groups a record condition captured.
  std::vector<FactTest> fact_tests(const Node& n, std::string_view where, bool captures = false);
  void read_id(const Node& n, RuleSpec& rule);
  void read_aliases(const Node& n, RuleSpec& rule);
  void read_family(const Node& n, RuleSpec& rule);
  void read_severity(const Node& n, RuleSpec& rule);
  void read_confidence(const Node& n, RuleSpec& rule);
  void read_description(const Node& n, RuleSpec& rule);
  void read_enabled(const Node& n, RuleSpec& rule);
  void read_if_unknown(const Node& n, RuleSpec& rule);
  void read_sources(const Node& n, RuleSpec& rule);
  void read_count(const Node& n, RuleSpec& rule);
  // `after` or `not_after` (one mapping shape), into `into`.
  void read_after(const Node& n, std::string_view key, std::optional<AfterSpec>& into);
  void read_absent(const Node& n, RuleSpec& rule);
  void read_fixes(const Node& n, RuleSpec& rule);
  void read_fix_translations(const Node& n, FixInfo& fix);
  void read_identity(const Node& n, RuleSpec& rule);
  // Checks that every `identity:` name is a named group of the rule's patterns.
  void check_identity(const Node& root, const RuleSpec& rule);
  // Every placeholder of the rule's texts names a group of its patterns, a catalog fact, `count` or
  // `workers`, and every filter is known (placeholders.h).
  void check_placeholders(const Node& root, const RuleSpec& rule);
  void read_examples(const Node& n, RuleSpec& rule);
  // `examples:` of a rule, or (`extractor`) of a fact extractor, whose examples say what they yield.
  void read_example_lists(const Node& n, std::vector<ExampleSpec>& examples, bool extractor);
  void read_extractor_id(const Node& n, FactExtractorSpec& extractor);
  void read_sets(const Node& n, FactExtractorSpec& extractor);
  void read_decode(const Node& n, FactExtractorSpec& extractor);
  void read_priority(const Node& n, FactExtractorSpec& extractor);
  // Checks what an extractor's keys refer to: `{group}`s the match defines, examples that yield.
  void check_extractor(const Node& root, FactExtractorSpec& extractor);

 private:
  // Errors for the required keys of `place` that `map` lacks; `message` names the key with `{}`.
  void check_required(const Node& map, KeyPlace place, std::string code, std::string_view message,
                      std::string_view help = {});
  std::optional<ConditionSpec> field_condition(const Node& key, const Node& value);
  std::optional<ExampleRecord> example_record(const Node& n);
  void check_example_size(const Node& n);

  const RuleFile& file_;
  bool builtin_;
  const Fragments& fragments_;
  const FactCatalog& catalog_;
  Diagnostics& diags_;
  std::vector<std::string>& used_;  // lists and macros named so far
  size_t errors_ = 0;
};

}  // namespace gpudiag::detail
