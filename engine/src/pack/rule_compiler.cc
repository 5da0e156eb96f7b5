// Compiling rules into signals and the RE2::Set (see rule_compiler.h).
#include "rule_compiler.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "gpudiag/stable_hash.h"
#include "rule_pack_dump.h"
#include "set_form.h"

namespace gpudiag::detail {
namespace {

class Compiler {
 public:
  explicit Compiler(CompiledRulePack& pack) : pack_(pack) {}

  // The rule file whose patterns are added next (for a diagnostic that must name one).
  void set_file(const std::string& file) { file_ = file; }

  int add_pattern(Field field, const std::string& label_key, const std::string& regex,
                  std::shared_ptr<const RE2> compiled, Position at = {}) {
    for (size_t i = 0; i < pack_.patterns.size(); ++i) {
      const auto& p = pack_.patterns[i];
      if (p.field == field && p.label_key == label_key && p.regex == regex) return static_cast<int>(i);
    }
    Pattern p;
    p.field = field;
    p.label_key = label_key;
    p.regex = regex;
    p.re = compiled ? LazyRegex(std::move(compiled)) : LazyRegex(regex, pattern_options());
    p.has_captures = !named_groups(regex).empty();
    pack_.patterns.push_back(std::move(p));
    origins_.push_back(Origin{file_, at});
    return static_cast<int>(pack_.patterns.size() - 1);
  }

  int flatten(const ConditionSpec& c, CompiledCondition& out) {
    const int index = static_cast<int>(out.nodes.size());
    out.nodes.push_back({c.kind, c.field, c.label_key, -1, c.names, c.min_severity, {}, c.capture_tests});
    if (c.kind == ConditionSpec::Kind::kRegex) {
      out.nodes[index].pattern = add_pattern(c.field, c.label_key, c.regex, c.compiled, c.at);
    }
    for (const auto& child : c.children) {
      const int ci = flatten(child, out);
      out.nodes[index].children.push_back(ci);
    }
    return index;
  }

  // Patterns of which at least one must match for the node to hold; nullopt when it can hold
  // without any set pattern matching.
  std::optional<std::set<int>> trigger(const CompiledCondition& c, int node) {
    const auto& n = c.nodes[node];
    switch (n.kind) {
      case ConditionSpec::Kind::kRegex:
        if (is_set_field(n.field)) return std::set<int>{n.pattern};
        return std::nullopt;
      case ConditionSpec::Kind::kAll: {
        std::optional<std::set<int>> best;
        for (int child : n.children) {
          auto t = trigger(c, child);
          if (t && (!best || t->size() < best->size())) best = std::move(t);
        }
        return best;
      }
      case ConditionSpec::Kind::kAny: {
        std::set<int> all;
        for (int child : n.children) {
          auto t = trigger(c, child);
          if (!t) return std::nullopt;
          all.insert(t->begin(), t->end());
        }
        return all;
      }
      default:
        return std::nullopt;
    }
  }

  int add_signal(const ConditionSpec& c, SignalRole role, int rule) {
    Signal s;
    s.role = role;
    s.rule = rule;
    flatten(c, s.condition);
    if (rule >= 0) {
      for (const auto& n : s.condition.nodes) {
        if (n.pattern >= 0) pack_.patterns[n.pattern].from_rules = true;
      }
    }
    if (role == SignalRole::kEvidence) {
      for (const auto& n : s.condition.nodes) {
        if (n.pattern >= 0 && pack_.patterns[n.pattern].has_captures) s.capture_patterns.push_back(n.pattern);
      }
    }
    pack_.signals.push_back(std::move(s));
    return static_cast<int>(pack_.signals.size() - 1);
  }

  // A fact extractor's match: its named groups are captured wherever they matched.
  void add_extractor(int index, const FactExtractorSpec& extractor) {
    const int s = add_signal(*extractor.match, SignalRole::kObserver, -1);
    pack_.signals[s].extractor = index;
    for (const auto& n : pack_.signals[s].condition.nodes) {
      if (n.pattern >= 0 && pack_.patterns[n.pattern].has_captures)
        pack_.signals[s].capture_patterns.push_back(n.pattern);
    }
  }

  Status build_sets() {
    // The triggers: a record evaluates only the signals whose triggers the set found in it.
    pack_.signals_by_pattern.assign(pack_.patterns.size(), {});
    for (size_t s = 0; s < pack_.signals.size(); ++s) {
      auto t = trigger(pack_.signals[s].condition, 0);
      if (!t) {
        // Evaluated on every entry.
        pack_.always_signals.push_back(static_cast<int>(s));
        for (const auto& n : pack_.signals[s].condition.nodes) {
          if (n.pattern >= 0 && is_set_field(n.field)) pack_.patterns[n.pattern].in_set = true;
        }
        continue;
      }
      for (int p : *t) {
        pack_.signals_by_pattern[p].push_back(static_cast<int>(s));
        pack_.patterns[p].in_set = true;  // triggers are message, exception or text patterns
      }
    }
    // Refiners too (see Pattern::in_set), unless they match an empty text: the set itself tells
    // which do (asking each pattern would compile every one of them at every start).
    std::vector<bool> trigger_pattern(pack_.patterns.size());
    for (size_t i = 0; i < pack_.patterns.size(); ++i) {
      trigger_pattern[i] = pack_.patterns[i].in_set;
      if (is_set_field(pack_.patterns[i].field)) pack_.patterns[i].in_set = true;
    }
    if (auto status = compile_set(); !status) return status;
    std::vector<int> empty_matches;
    pack_.text_set->Match("", &empty_matches);
    bool refiner_left_out = false;
    for (int s : empty_matches) {
      const int i = pack_.set_patterns[s];
      if (trigger_pattern[i]) continue;
      pack_.patterns[i].in_set = false;
      refiner_left_out = true;
    }
    if (refiner_left_out) return compile_set();
    return Ok{};
  }

  // The RE2::Set of the patterns marked in_set, each in its set form.
  Status compile_set() {
    RE2::Options options = pattern_options();
    options.set_max_mem(64 << 20);
    pack_.text_set = std::make_unique<RE2::Set>(options, RE2::UNANCHORED);
    pack_.set_patterns.clear();
    for (size_t i = 0; i < pack_.patterns.size(); ++i) {
      const auto& p = pack_.patterns[i];
      if (!p.in_set) continue;
      std::string error;
      // The set answers only whether; its form of the pattern leaves out what only captures.
      std::string form = set_form(p.regex);
      if (form.empty()) form = p.regex;
      if (pack_.text_set->Add(form, &error) < 0) {
        return Diagnostic{.code = "rule-regex",
                          .message = error,
                          .file = origins_[i].file,
                          .line = origins_[i].at.line,
                          .column = origins_[i].at.column};
      }
      pack_.set_patterns.push_back(static_cast<int>(i));
    }
    if (!pack_.text_set->Compile()) return over_budget();
    return Ok{};
  }

 private:
  struct Origin {
    std::string file;  // "" for patterns no rule file wrote (the policy's quiet shapes)
    Position at;
  };

  // The set does not compile within its budget though each pattern did within its own: names the
  // largest pattern of the set, the likeliest to remove or simplify, so the error has a file:line.
  Diagnostic over_budget() const {
    int largest = -1;
    for (int i : pack_.set_patterns) {
      if (origins_[i].file.empty()) continue;
      if (largest < 0 || pack_.patterns[i].re->ProgramSize() > pack_.patterns[largest].re->ProgramSize()) largest = i;
    }
    Diagnostic d{.code = "rule-regex",
                 .message = fmt::format("the rule pack's {} patterns are over RE2's memory budget together",
                                        pack_.set_patterns.size()),
                 .help = "simplify or remove some patterns"};
    if (largest >= 0) {
      d.message +=
          fmt::format("; the largest is this one ({} instructions)", pack_.patterns[largest].re->ProgramSize());
      d.file = origins_[largest].file;
      d.line = origins_[largest].at.line;
      d.column = origins_[largest].at.column;
      d.help =
          "simplify this pattern (a counted repetition of a large class, like \\pL{400}, is the usual cause), or "
          "remove some rules";
    }
    return d;
  }

  CompiledRulePack& pack_;
  std::string file_;
  std::vector<Origin> origins_;  // of pack_.patterns, by index
};

}  // namespace

int CompiledRulePack::rule_index(std::string_view id) const {
  for (size_t i = 0; i < rules.size(); ++i) {
    if (rules[i].spec.info.id == id) return static_cast<int>(i);
  }
  return -1;
}

Result<std::unique_ptr<CompiledRulePack>> compile_rules(CollectedRules collected) {
  auto pack = std::make_unique<CompiledRulePack>();
  pack->policy = std::move(collected.policy);
  pack->catalog = std::move(collected.catalog);
  for (auto& [id, state] : collected.fix_states) pack->fix_states.push_back(std::move(state));
  Compiler compiler(*pack);
  for (auto& [id, spec] : collected.by_id) {
    pack->infos.push_back(spec.info);
    if (!spec.info.enabled) continue;
    CompiledRule rule;
    rule.spec = std::move(spec);
    pack->rules.push_back(std::move(rule));
  }
  for (size_t r = 0; r < pack->rules.size(); ++r) {
    auto& rule = pack->rules[r];
    const int ri = static_cast<int>(r);
    compiler.set_file(rule.spec.info.file);
    if (rule.spec.match) rule.match_signal = compiler.add_signal(*rule.spec.match, SignalRole::kEvidence, ri);
    if (rule.spec.weak) rule.weak_signal = compiler.add_signal(*rule.spec.weak, SignalRole::kWeak, ri);
    if (rule.spec.after) rule.after_signal = compiler.add_signal(rule.spec.after->match, SignalRole::kAfter, ri);
    if (rule.spec.not_after) {
      rule.not_after_signal = compiler.add_signal(rule.spec.not_after->match, SignalRole::kAfter, ri);
    }
    if (rule.spec.not_before) {
      rule.not_before_signal = compiler.add_signal(rule.spec.not_before->match, SignalRole::kAfter, ri);
    }
    if (rule.spec.absent) {
      rule.absent_signal = compiler.add_signal(rule.spec.absent->match, SignalRole::kAbsentMarker, ri);
      if (rule.spec.absent->after) {
        rule.absent_after_signal = compiler.add_signal(*rule.spec.absent->after, SignalRole::kAbsentStart, ri);
      }
    }
  }
  for (auto& [id, extractor] : collected.extractors) pack->extractors.push_back(std::move(extractor));
  compiler.set_file("");
  for (size_t i = 0; i < pack->extractors.size(); ++i) {
    compiler.add_extractor(static_cast<int>(i), pack->extractors[i]);
  }
  pack->quiet_exempt.assign(pack->rules.size(), 0);
  for (size_t q = 0; q < pack->policy.quiet.size(); ++q) {
    const QuietShape& shape = pack->policy.quiet[q];
    // A message pattern like any rule's: in the set (build_sets), so that a candidate's quiet shapes
    // cost no scan of their own (an unanchored one read each 4 KB traceback again, ~12 k
    // instructions). The built-in shapes are already there, as an extractor's `not`.
    pack->quiet_patterns.push_back(
        shape.message.empty() ? -1 : compiler.add_pattern(Field::kMessage, "", shape.message, nullptr));
    // An id not in this pack is no error: a rule directory's examples are proven in a pack of its
    // own rules, without the built-in rule the policy names.
    for (const auto& id : shape.except) {
      const int r = pack->rule_index(id);
      if (r >= 0) pack->quiet_exempt[r] |= uint32_t{1} << q;
    }
  }
  pack->frameworks = std::make_unique<const FrameFilter>(pack->policy.framework_frames);
  pack->wrappers = compile_wrappers(pack->policy.wrappers);
  pack->causes.generic = CauseLines::compile(pack->policy.generic_errors);
  pack->causes.advice = CauseLines::compile(pack->policy.advice_lines);
  pack->benign = std::make_unique<const BenignErrors>(pack->policy.benign_errors);
  pack->line_formats = LineFormats(pack->policy.line_formats);
  for (const auto& step : pack->policy.first_steps)
    pack->first_step_patterns.push_back(std::make_unique<const RE2>(step.pattern, RE2::Quiet));
  // Each pattern compiled alone when read; together they may not (a named group twice, RE2's memory).
  for (const auto& [re, key] : {std::pair{pack->causes.generic.get(), "generic_errors"},
                                std::pair{pack->causes.advice.get(), "advice_lines"}}) {
    if (re != nullptr && !re->ok())
      return Diagnostic{
          .code = "rule-regex",
          .message = fmt::format("the pack's `{}` do not compile as one alternation: {}", key, re->error())};
  }
  if (auto status = compiler.build_sets(); !status) return status.error();
  pack->hash = fmt::format("{:016x}", stable_hash(dump_rule_pack(*pack)));  // XXH3-64 of the canonical dump
  return pack;
}

}  // namespace gpudiag::detail
