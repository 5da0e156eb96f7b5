// Record conditions (field tests, all/any/not, captures) and job-fact tests of a rule file.
#include "fact_catalog.h"
#include "gpudiag/diagnostic_codes.h"
#include "rule_reader.h"

namespace gpudiag::detail {

std::optional<ConditionSpec> RuleReader::field_condition(const Node& key, const Node& value) {
  ConditionSpec c;
  c.at = value.at;
  const std::string& name = key.scalar;
  if (name.rfind("label.", 0) == 0) {
    c.field = Field::kLabel;
    c.label_key = name.substr(6);
  } else {
    auto it = std::find_if(kFieldKeys.begin(), kFieldKeys.end(), [&](const auto& p) { return p.first == name; });
    if (it == kFieldKeys.end()) {
      std::vector<std::string_view> names{"all", "any", "not", "captures", "label.KEY"};
      for (const auto& p : kFieldKeys) names.push_back(p.first);
      error(key.at, code_name(DiagnosticCode::kRuleUnknownKey), fmt::format("unknown condition key `{}`", name),
            suggestion(name, names));
      return std::nullopt;
    }
    c.field = it->second;
  }
  if (c.field == Field::kLog) {
    c.kind = ConditionSpec::Kind::kOneOf;
    c.names = string_list(value, "log");
    if (c.names.empty()) error(value.at, code_name(DiagnosticCode::kRuleType), "`log` needs at least one log name");
    return c;
  }
  if (c.field == Field::kSeverity) {
    auto names = string_list(value, "severity");
    if (names.size() == 1 && names[0].rfind(">=", 0) == 0) {
      c.kind = ConditionSpec::Kind::kSeverityAtLeast;
      auto s = parse_severity(std::string_view(names[0]).substr(2));
      if (!s)
        error(value.at, code_name(DiagnosticCode::kRuleSeverity),
              fmt::format("`{}` is not a log severity", names[0].substr(2)),
              "DEFAULT, DEBUG, INFO, NOTICE, WARNING, ERROR, CRITICAL, ALERT, EMERGENCY");
      c.min_severity = s.value_or(Severity::kDefault);
      return c;
    }
    c.kind = ConditionSpec::Kind::kOneOf;
    for (auto& n : names) {
      auto s = parse_severity(n);
      if (!s)
        error(value.at, code_name(DiagnosticCode::kRuleSeverity), fmt::format("`{}` is not a log severity", n));
      else
        c.names.emplace_back(severity_name(*s));
    }
    return c;
  }
  auto pattern = scalar(value, name);
  if (!pattern) return std::nullopt;
  pattern = expand(value, *pattern);
  if (pattern->empty()) {
    error(value.at, code_name(DiagnosticCode::kRuleRegex), "an empty pattern matches everything",
          "write the text the entry must contain");
    return std::nullopt;
  }
  // A pattern of a file proven when gpudiag was built compiles; it is compiled when first needed.
  if (file_.tree.empty()) {
    c.compiled = check_regex(value, *pattern);
    if (!c.compiled) return std::nullopt;
  }
  c.kind = ConditionSpec::Kind::kRegex;
  c.regex = *pattern;
  return c;
}

std::optional<ConditionSpec> RuleReader::condition(const Node& n, int depth) {
  if (depth > 16) {
    error(n.at, code_name(DiagnosticCode::kRuleCondition), "conditions nest more than 16 levels deep");
    return std::nullopt;
  }
  if (n.is_seq()) {  // a bare list means "all of these"
    ConditionSpec all;
    all.at = n.at;
    for (const auto& item : n.items) {
      if (auto c = condition(item, depth + 1)) all.children.push_back(std::move(*c));
    }
    return all;
  }
  if (!n.is_map() || n.entries.empty()) {
    error(n.at, code_name(DiagnosticCode::kRuleCondition), "a condition is a mapping of field tests and all/any/not",
          "e.g. `text: 'cudaErrorMemoryAllocation'` — see docs/rules.md");
    return std::nullopt;
  }
  ConditionSpec all;
  all.kind = ConditionSpec::Kind::kAll;
  all.at = n.at;
  for (const auto& [key, value] : n.entries) {
    if (key.scalar == "all" || key.scalar == "any" || key.scalar == "not") {
      ConditionSpec group;
      group.at = key.at;
      group.kind = key.scalar == "all"   ? ConditionSpec::Kind::kAll
                   : key.scalar == "any" ? ConditionSpec::Kind::kAny
                                         : ConditionSpec::Kind::kNot;
      if (value.is_seq()) {
        for (const auto& item : value.items) {
          if (auto c = condition(item, depth + 1)) group.children.push_back(std::move(*c));
        }
      } else if (auto c = condition(value, depth + 1)) {
        group.children.push_back(std::move(*c));
      }
      if (group.children.empty()) {
        error(key.at, code_name(DiagnosticCode::kRuleCondition),
              fmt::format("`{}` needs at least one condition", key.scalar));
        continue;
      }
      all.children.push_back(std::move(group));
    } else if (key.scalar == "captures") {
      ConditionSpec test;
      test.kind = ConditionSpec::Kind::kCaptureTest;
      test.at = key.at;
      test.capture_tests = fact_tests(value, "captures", /*captures=*/true);
      if (!test.capture_tests.empty()) all.children.push_back(std::move(test));
    } else if (auto c = field_condition(key, value)) {
      all.children.push_back(std::move(*c));
    }
  }
  if (all.children.size() == 1) return std::move(all.children[0]);
  return all;
}

std::vector<FactTest> RuleReader::fact_tests(const Node& n, std::string_view where, bool captures) {
  std::vector<FactTest> tests;
  if (!n.is_map()) {
    error(n.at, code_name(DiagnosticCode::kRuleFacts),
          fmt::format("`{}` is a mapping of {} names to tests", where, captures ? "group" : "fact"),
          captures ? "e.g. `python_launch: '!= {python_worker}'`"
                   : "e.g. `gpu_requested: true` — see docs/rules.md, Job facts");
    return tests;
  }
  const auto trim = [](std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
  };
  for (const auto& [key, value] : n.entries) {
    if (key.scalar == "any") {  // OR: a list of mappings, one of which must hold entirely
      FactTest t;
      t.op = FactTest::Op::kAny;
      t.at = key.at;
      t.text = "any of …";
      if (!value.is_seq() || value.items.empty()) {
        error(key.at, code_name(DiagnosticCode::kRuleFacts),
              "`any` is a list of mappings of tests, one of which must hold");
        continue;
      }
      for (const auto& group : value.items) t.any.push_back(fact_tests(group, "any", captures));
      tests.push_back(std::move(t));
      continue;
    }
    const FactDef* def = captures ? nullptr : catalog_.find(key.scalar);
    if (!captures && def == nullptr) {
      std::vector<std::string_view> names = catalog_.names();
      names.push_back("any");
      error(key.at, code_name(DiagnosticCode::kRuleUnknownFact), fmt::format("unknown fact `{}`", key.scalar),
            suggestion(key.scalar, names));
      continue;
    }
    const FactType type = def ? def->type : FactType::kString;
    auto text = scalar(value, key.scalar);
    if (!text) continue;
    FactTest t;
    t.fact = key.scalar;
    t.text = *text;
    t.at = value.at;
    std::string_view v = *text;
    if (v == "known" || v == "unknown") {
      t.op = v == "known" ? FactTest::Op::kKnown : FactTest::Op::kUnknown;
    } else if (type == FactType::kBool) {
      if (v == "true" || v == "false") {
        t.op = FactTest::Op::kIs;
        t.expect_bool = v == "true";
      } else {
        error(value.at, code_name(DiagnosticCode::kRuleFacts),
              fmt::format("`{}` is true, false, known or unknown", key.scalar));
        continue;
      }
    } else {
      static constexpr std::array kOps = {
          std::pair{std::string_view{"<="}, FactTest::Op::kLe}, std::pair{std::string_view{">="}, FactTest::Op::kGe},
          std::pair{std::string_view{"=="}, FactTest::Op::kEq}, std::pair{std::string_view{"!="}, FactTest::Op::kNe},
          std::pair{std::string_view{"<"}, FactTest::Op::kLt},  std::pair{std::string_view{">"}, FactTest::Op::kGt}};
      bool found = false;
      for (const auto& [sym, op] : kOps) {
        if (v.substr(0, sym.size()) == sym) {
          t.op = op;
          t.operand = std::string(trim(v.substr(sym.size())));
          found = true;
          break;
        }
      }
      if (!found) {
        t.op = type == FactType::kNumber ? FactTest::Op::kEq : FactTest::Op::kSearch;
        t.operand = std::string(v);
      }
      if (t.operand.size() > 2 && t.operand.front() == '{' && t.operand.back() == '}') {
        t.operand = t.operand.substr(1, t.operand.size() - 2);
        t.operand_is_fact = true;
        if (!captures && catalog_.find(t.operand) == nullptr) {
          error(value.at, code_name(DiagnosticCode::kRuleUnknownFact), fmt::format("unknown fact `{}`", t.operand));
        }
      } else if (type == FactType::kNumber) {
        char* end = nullptr;
        std::strtod(t.operand.c_str(), &end);
        if (t.operand.empty() || end == nullptr || *end != '\0') {
          error(value.at, code_name(DiagnosticCode::kRuleFacts),
                fmt::format("`{}` needs a number, e.g. '<50'", key.scalar));
          continue;
        }
      } else if (t.op == FactTest::Op::kSearch) {
        t.operand = expand(value, t.operand);
        t.regex = check_regex(value, t.operand);
        if (!t.regex) continue;
      } else if (!captures && t.op != FactTest::Op::kSearch && t.op != FactTest::Op::kEq && t.op != FactTest::Op::kNe) {
        error(value.at, code_name(DiagnosticCode::kRuleFacts),
              fmt::format("`{}` is text: test it with a regex, == or !=", key.scalar));
        continue;
      }
    }
    tests.push_back(std::move(t));
  }
  return tests;
}

std::string_view field_name(Field f) {
  if (f == Field::kLabel) return "label";
  for (const auto& [name, field] : kFieldKeys) {
    if (field == f) return name;
  }
  return "?";
}

}  // namespace gpudiag::detail
