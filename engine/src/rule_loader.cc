// Reads one rule file into a RuleSpec, checking every key and value and collecting every problem
// with its position (docs/rules.md is the language reference).
#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "fact_catalog.h"
#include "rule_spec.h"

namespace gpudiag::detail {
namespace {

constexpr auto kRuleKeys = std::to_array<std::string_view>({
    "id", "title", "family", "severity", "confidence", "description", "enabled", "explains",
    "match", "count", "after", "absent", "when", "unless", "if_unknown", "corroborated_by", "weak", "fixes",
    "examples", "sources"});
constexpr auto kFamilies = std::to_array<std::string_view>({"capacity", "flex-start", "startup", "gpu-software",
                                  "runtime", "configuration", "symptom", "export"});
constexpr std::array kFieldKeys = {
    std::pair{std::string_view{"text"}, Field::kText},     std::pair{std::string_view{"message"}, Field::kMessage},
    std::pair{std::string_view{"exception"}, Field::kException}, std::pair{std::string_view{"log"}, Field::kLog},
    std::pair{std::string_view{"severity"}, Field::kSeverity}, std::pair{std::string_view{"worker"}, Field::kWorker},
    std::pair{std::string_view{"logger"}, Field::kLogger}, std::pair{std::string_view{"thread"}, Field::kThread},
    std::pair{std::string_view{"step"}, Field::kStep},     std::pair{std::string_view{"sdk_worker"}, Field::kSdkWorker},
    std::pair{std::string_view{"job_id"}, Field::kJobId},  std::pair{std::string_view{"job_name"}, Field::kJobName},
    std::pair{std::string_view{"region"}, Field::kRegion},
    std::pair{std::string_view{"resource_type"}, Field::kResourceType},
};

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

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

bool is_kebab_id(std::string_view id) {
  if (id.empty() || id.front() == '-' || id.back() == '-') return false;
  char prev = 0;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    if (!ok || (c == '-' && prev == '-')) return false;
    prev = c;
  }
  return true;
}

class RuleReader {
 public:
  RuleReader(const RuleFile& file, bool builtin, Diagnostics& diags)
      : file_(file), builtin_(builtin), diags_(diags) {}

  std::optional<RuleSpec> read(const Node& root);

 private:
  void error(const Position& at, std::string code, std::string message, std::string help = {}) {
    diags_.push_back(Diagnostic{.code = std::move(code), .message = std::move(message), .file = file_.path,
                                .line = at.line, .column = at.column,
                                .source_line = source_line(file_.text, at.line), .help = std::move(help)});
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

  template <typename Keys>
  void check_keys(const Node& map, const Keys& allowed, std::string_view where) {
    for (const auto& [k, v] : map.entries) {
      if (std::find(allowed.begin(), allowed.end(), k.scalar) != allowed.end()) continue;
      error(k.at, "rule-unknown-key", fmt::format("unknown key `{}` in {}", k.scalar, where),
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
  std::optional<ConditionSpec> field_condition(const Node& key, const Node& value);
  void read_fixes(const Node& n, RuleSpec& rule);
  void read_examples(const Node& n, RuleSpec& rule);
  std::optional<ExampleRecord> example_record(const Node& n);

  const RuleFile& file_;
  bool builtin_;
  Diagnostics& diags_;
  size_t errors_ = 0;
};

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
      error(key.at, "rule-unknown-key", fmt::format("unknown condition key `{}`", name), suggestion(name, names));
      return std::nullopt;
    }
    c.field = it->second;
  }
  if (c.field == Field::kLog) {
    c.kind = ConditionSpec::Kind::kOneOf;
    c.names = string_list(value, "log");
    if (c.names.empty()) error(value.at, "rule-type", "`log` needs at least one log name");
    return c;
  }
  if (c.field == Field::kSeverity) {
    auto names = string_list(value, "severity");
    if (names.size() == 1 && names[0].rfind(">=", 0) == 0) {
      c.kind = ConditionSpec::Kind::kSeverityAtLeast;
      auto s = parse_severity(std::string_view(names[0]).substr(2));
      if (!s) error(value.at, "rule-severity", fmt::format("`{}` is not a log severity", names[0].substr(2)),
                    "DEFAULT, DEBUG, INFO, NOTICE, WARNING, ERROR, CRITICAL, ALERT, EMERGENCY");
      c.min_severity = s.value_or(Severity::kDefault);
      return c;
    }
    c.kind = ConditionSpec::Kind::kOneOf;
    for (auto& n : names) {
      auto s = parse_severity(n);
      if (!s) error(value.at, "rule-severity", fmt::format("`{}` is not a log severity", n));
      else c.names.emplace_back(severity_name(*s));
    }
    return c;
  }
  auto pattern = scalar(value, name);
  if (!pattern) return std::nullopt;
  if (pattern->empty()) {
    error(value.at, "rule-regex", "an empty pattern matches everything", "write the text the entry must contain");
    return std::nullopt;
  }
  c.compiled = check_regex(value, *pattern);
  if (!c.compiled) return std::nullopt;
  c.kind = ConditionSpec::Kind::kRegex;
  c.regex = *pattern;
  return c;
}

std::optional<ConditionSpec> RuleReader::condition(const Node& n, int depth) {
  if (depth > 16) {
    error(n.at, "rule-condition", "conditions nest more than 16 levels deep");
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
    error(n.at, "rule-condition", "a condition is a mapping of field tests and all/any/not",
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
      group.kind = key.scalar == "all" ? ConditionSpec::Kind::kAll
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
        error(key.at, "rule-condition", fmt::format("`{}` needs at least one condition", key.scalar));
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
    error(n.at, "rule-facts",
          fmt::format("`{}` is a mapping of {} names to tests", where, captures ? "group" : "fact"),
          captures ? "e.g. `python_launch: '!= {python_worker}'`" : "e.g. `gpu_requested: true` — see docs/rules.md, Job facts");
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
        error(key.at, "rule-facts", "`any` is a list of mappings of tests, one of which must hold");
        continue;
      }
      for (const auto& group : value.items) t.any.push_back(fact_tests(group, "any", captures));
      tests.push_back(std::move(t));
      continue;
    }
    const FactDef* def = captures ? nullptr : find_fact(key.scalar);
    if (!captures && def == nullptr) {
      std::vector<std::string_view> names{"any"};
      for (const auto& f : kFactCatalog) names.push_back(f.name);
      error(key.at, "rule-unknown-fact", fmt::format("unknown fact `{}`", key.scalar), suggestion(key.scalar, names));
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
        error(value.at, "rule-facts", fmt::format("`{}` is true, false, known or unknown", key.scalar));
        continue;
      }
    } else {
      static constexpr std::array kOps = {std::pair{std::string_view{"<="}, FactTest::Op::kLe},
                                          std::pair{std::string_view{">="}, FactTest::Op::kGe},
                                          std::pair{std::string_view{"=="}, FactTest::Op::kEq},
                                          std::pair{std::string_view{"!="}, FactTest::Op::kNe},
                                          std::pair{std::string_view{"<"}, FactTest::Op::kLt},
                                          std::pair{std::string_view{">"}, FactTest::Op::kGt}};
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
        if (!captures && find_fact(t.operand) == nullptr) {
          error(value.at, "rule-unknown-fact", fmt::format("unknown fact `{}`", t.operand));
        }
      } else if (type == FactType::kNumber) {
        char* end = nullptr;
        std::strtod(t.operand.c_str(), &end);
        if (t.operand.empty() || end == nullptr || *end != '\0') {
          error(value.at, "rule-facts", fmt::format("`{}` needs a number, e.g. '<50'", key.scalar));
          continue;
        }
      } else if (t.op == FactTest::Op::kSearch && !check_regex(value, t.operand)) {
        continue;
      } else if (!captures && t.op != FactTest::Op::kSearch && t.op != FactTest::Op::kEq && t.op != FactTest::Op::kNe) {
        error(value.at, "rule-facts", fmt::format("`{}` is text: test it with a regex, == or !=", key.scalar));
        continue;
      }
    }
    tests.push_back(std::move(t));
  }
  return tests;
}

void RuleReader::read_fixes(const Node& n, RuleSpec& rule) {
  static constexpr auto kFixKeys = std::to_array<std::string_view>({"id", "action", "why", "weight", "demote_if", "doc"});
  static constexpr auto kDocKeys = std::to_array<std::string_view>({"title", "section", "url"});
  if (!n.is_seq() || n.items.empty()) {
    error(n.at, "rule-fixes", "`fixes` is a list with at least one fix");
    return;
  }
  for (const auto& item : n.items) {
    if (!item.is_map()) {
      error(item.at, "rule-fixes", "a fix is a mapping (id, action, why, weight, doc)");
      continue;
    }
    check_keys(item, kFixKeys, "a fix");
    FixInfo fix;
    std::vector<FactTest> demote;
    for (std::string_view required : {"id", "action", "why", "doc"}) {
      if (item.get(required) == nullptr) error(item.at, "rule-missing-key", fmt::format("a fix needs `{}`", required));
    }
    if (const Node* v = item.get("id")) {
      fix.id = scalar(*v, "id").value_or("");
      if (!is_kebab_id(fix.id)) error(v->at, "rule-id", fmt::format("fix id `{}` is not kebab-case", fix.id));
    }
    if (const Node* v = item.get("action")) fix.action = scalar(*v, "action").value_or("");
    if (const Node* v = item.get("why")) fix.why = scalar(*v, "why").value_or("");
    if (const Node* v = item.get("weight")) {
      auto s = scalar(*v, "weight");
      char* end = nullptr;
      const long w = s ? std::strtol(s->c_str(), &end, 10) : -1;
      if (!s || end == s->c_str() || *end != '\0' || w < 0 || w > 100) {
        error(v->at, "rule-fixes", "`weight` is a whole number from 0 to 100");
      } else {
        fix.weight = static_cast<int>(w);
      }
    }
    if (const Node* v = item.get("demote_if")) {
      demote = fact_tests(*v, "demote_if");
      std::string text;
      for (const auto& t : demote) text += fmt::format("{}{}: {}", text.empty() ? "" : ", ", t.fact, t.text);
      fix.demote_if = text;
    }
    if (const Node* v = item.get("doc")) {
      if (!v->is_map()) {
        error(v->at, "rule-doc", "`doc` is a mapping with title, section and url");
      } else {
        check_keys(*v, kDocKeys, "a doc citation");
        for (std::string_view required : {"title", "section", "url"}) {
          if (v->get(required) == nullptr) error(v->at, "rule-doc", fmt::format("a doc citation needs `{}`", required));
        }
        if (const Node* t = v->get("title")) fix.doc.title = scalar(*t, "title").value_or("");
        if (const Node* s = v->get("section")) fix.doc.section = scalar(*s, "section").value_or("");
        if (const Node* u = v->get("url")) {
          fix.doc.url = scalar(*u, "url").value_or("");
          if (fix.doc.url.rfind("https://", 0) != 0) error(u->at, "rule-doc", "the doc url must start with https://");
        }
      }
    }
    rule.info.fixes.push_back(std::move(fix));
    rule.fix_demote_tests.push_back(std::move(demote));
  }
}

std::optional<ExampleRecord> RuleReader::example_record(const Node& n) {
  static constexpr auto kRecordKeys = std::to_array<std::string_view>({"message", "exception", "log", "severity", "worker",
                                             "logger", "sdk_worker", "step", "at", "captures", "facts"});
  ExampleRecord r;
  if (n.is_scalar()) {
    r.message = n.scalar;
    return r;
  }
  if (!n.is_map()) {
    error(n.at, "rule-example", "an example entry is a line of text or a mapping of fields");
    return std::nullopt;
  }
  check_keys(n, kRecordKeys, "an example entry");
  for (const auto& [k, v] : n.entries) {
    const std::string& key = k.scalar;
    if (key == "captures" || key == "facts") continue;
    auto s = scalar(v, key);
    if (!s) continue;
    if (key == "message") r.message = *s;
    else if (key == "exception") r.exception = *s;
    else if (key == "log") r.log = *s;
    else if (key == "severity") {
      if (!parse_severity(*s)) error(v.at, "rule-severity", fmt::format("`{}` is not a log severity", *s));
      r.severity = *s;
    } else if (key == "worker") r.worker = *s;
    else if (key == "logger") r.logger = *s;
    else if (key == "sdk_worker") r.sdk_worker = *s;
    else if (key == "step") r.step = *s;
    else if (key == "at") {
      auto d = parse_duration(*s);
      if (!d) error(v.at, "rule-duration", fmt::format("`{}` is not a duration", *s), "write e.g. 0m, 90s, 2h");
      r.at = d.value_or(0);
    }
  }
  return r;
}

void RuleReader::read_examples(const Node& n, RuleSpec& rule) {
  static constexpr auto kExampleKeys = std::to_array<std::string_view>({"match", "no_match"});
  if (!n.is_map()) {
    error(n.at, "rule-example", "`examples` is a mapping with `match` and `no_match` lists");
    return;
  }
  check_keys(n, kExampleKeys, "examples");
  for (const auto& [key, list] : n.entries) {
    if (key.scalar != "match" && key.scalar != "no_match") continue;
    if (!list.is_seq()) {
      error(list.at, "rule-example", fmt::format("`{}` is a list of examples", key.scalar));
      continue;
    }
    for (const auto& item : list.items) {
      ExampleSpec ex;
      ex.expect_match = key.scalar == "match";
      ex.at = item.at;
      const Node* records = item.is_map() ? item.get("records") : nullptr;
      if (records != nullptr) {
        static constexpr auto kMultiKeys = std::to_array<std::string_view>({"records", "facts", "captures"});
        check_keys(item, kMultiKeys, "an example");
        if (!records->is_seq()) error(records->at, "rule-example", "`records` is a list of entries");
        else {
          for (const auto& r : records->items) {
            if (auto rec = example_record(r)) ex.records.push_back(std::move(*rec));
          }
        }
      } else if (auto rec = example_record(item)) {
        ex.records.push_back(std::move(*rec));
      }
      if (item.is_map()) {
        if (const Node* facts = item.get("facts")) {
          if (!facts->is_map()) error(facts->at, "rule-example", "`facts` is a mapping of fact names to values");
          else {
            for (const auto& [fk, fv] : facts->entries) {
              if (find_fact(fk.scalar) == nullptr) error(fk.at, "rule-unknown-fact", fmt::format("unknown fact `{}`", fk.scalar));
              if (auto s = scalar(fv, fk.scalar)) ex.facts[fk.scalar] = *s;
            }
          }
        }
        if (const Node* caps = item.get("captures")) {
          if (!caps->is_map()) error(caps->at, "rule-example", "`captures` is a mapping of group names to values");
          else {
            for (const auto& [ck, cv] : caps->entries) {
              if (auto s = scalar(cv, ck.scalar)) ex.captures[ck.scalar] = *s;
            }
          }
        }
      }
      if (ex.records.empty() && ex.facts.empty()) {
        error(item.at, "rule-example", "an example needs a log line, entries or facts");
        continue;
      }
      rule.examples.push_back(std::move(ex));
    }
  }
  const bool has_match = std::any_of(rule.examples.begin(), rule.examples.end(), [](auto& e) { return e.expect_match; });
  const bool has_no_match = std::any_of(rule.examples.begin(), rule.examples.end(), [](auto& e) { return !e.expect_match; });
  if (!has_match) error(n.at, "rule-example", "a rule needs at least one `match` example");
  if (!has_no_match) error(n.at, "rule-example", "a rule needs at least one `no_match` example (a near miss)");
}

std::optional<RuleSpec> RuleReader::read(const Node& root) {
  if (!root.is_map()) {
    error(root.at.line ? root.at : Position{1, 1}, "rule-file", "a rule file holds one rule: a mapping with `id`, `title`, …",
          "see docs/rules.md");
    return std::nullopt;
  }
  // `id` + `enabled: false` alone switches a rule off (in a --rules directory).
  if (root.entries.size() == 2 && root.get("id") != nullptr && root.get("enabled") != nullptr &&
      root.get("enabled")->scalar == "false") {
    RuleSpec off;
    off.info.id = root.get("id")->scalar;
    off.info.enabled = false;
    off.info.file = file_.path;
    off.info.line = root.at.line;
    return off;
  }
  check_keys(root, kRuleKeys, "a rule");
  RuleSpec rule;
  rule.info.file = file_.path;
  rule.info.line = root.at.line;
  rule.info.builtin = builtin_;
  for (std::string_view required : {"id", "title", "family", "severity", "confidence", "description", "fixes", "examples", "sources"}) {
    if (root.get(required) == nullptr) {
      error(root.at.line ? root.at : Position{1, 1}, "rule-missing-key", fmt::format("the rule has no `{}`", required),
            "see docs/rules.md for the keys a rule needs");
    }
  }
  if (root.get("match") == nullptr && root.get("absent") == nullptr && root.get("when") == nullptr) {
    error(root.at, "rule-missing-key", "the rule needs `match`, `absent` or `when`: nothing could make it fire");
  }
  if (const Node* v = root.get("id")) {
    rule.info.id = scalar(*v, "id").value_or("");
    if (!is_kebab_id(rule.info.id)) error(v->at, "rule-id", fmt::format("rule id `{}` is not kebab-case", rule.info.id),
                                          "lower-case words joined by single dashes, e.g. gpu-out-of-memory");
  }
  if (const Node* v = root.get("title")) rule.info.title = scalar(*v, "title").value_or("");
  if (const Node* v = root.get("description")) {
    rule.info.description = scalar(*v, "description").value_or("");
    while (!rule.info.description.empty() && std::isspace(static_cast<unsigned char>(rule.info.description.back()))) {
      rule.info.description.pop_back();  // YAML's folded scalars end with a newline
    }
  }
  if (const Node* v = root.get("family")) {
    rule.info.family = scalar(*v, "family").value_or("");
    if (std::find(kFamilies.begin(), kFamilies.end(), rule.info.family) == kFamilies.end()) {
      error(v->at, "rule-family", fmt::format("unknown family `{}`", rule.info.family),
            suggestion(rule.info.family, kFamilies).empty()
                ? "one of capacity, flex-start, startup, gpu-software, runtime, configuration, symptom, export"
                : suggestion(rule.info.family, kFamilies));
    }
  }
  if (const Node* v = root.get("severity")) {
    auto s = scalar(*v, "severity").value_or("");
    auto impact = parse_impact(s);
    if (!impact) error(v->at, "rule-severity", fmt::format("rule severity `{}` is not info, warning, error or critical", s));
    rule.info.severity = impact.value_or(Impact::kWarning);
  }
  if (const Node* v = root.get("confidence")) {
    auto s = scalar(*v, "confidence").value_or("");
    char* end = nullptr;
    const double c = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !(c >= 0.0 && c <= 1.0)) {
      error(v->at, "rule-confidence", "`confidence` is a number from 0.0 to 1.0");
    } else {
      rule.info.confidence = c;
    }
  }
  if (const Node* v = root.get("enabled")) {
    auto s = scalar(*v, "enabled").value_or("");
    if (s != "true" && s != "false") error(v->at, "rule-type", "`enabled` is true or false");
    rule.info.enabled = s != "false";
  }
  if (const Node* v = root.get("explains")) rule.info.explains = string_list(*v, "explains");
  if (const Node* v = root.get("corroborated_by")) rule.corroborated_by = string_list(*v, "corroborated_by");
  if (const Node* v = root.get("sources")) {
    rule.info.sources = string_list(*v, "sources");
    if (rule.info.sources.empty()) error(v->at, "rule-sources", "`sources` must say where the signature text came from");
  }
  if (const Node* v = root.get("match")) rule.match = condition(*v);
  if (const Node* v = root.get("weak")) rule.weak = condition(*v);
  if (const Node* v = root.get("when")) rule.when = fact_tests(*v, "when");
  if (const Node* v = root.get("unless")) rule.unless = fact_tests(*v, "unless");
  if (const Node* v = root.get("if_unknown")) {
    auto s = scalar(*v, "if_unknown").value_or("");
    if (s == "skip") rule.if_unknown = IfUnknown::kSkip;
    else if (s == "inconclusive") rule.if_unknown = IfUnknown::kInconclusive;
    else if (s == "fire") rule.if_unknown = IfUnknown::kFire;
    else error(v->at, "rule-type", "`if_unknown` is skip, inconclusive or fire");
  }
  if (const Node* v = root.get("count")) {
    static constexpr auto kCountKeys = std::to_array<std::string_view>({"at_least", "within", "per", "distinct"});
    if (!v->is_map()) error(v->at, "rule-count", "`count` is a mapping: at_least, within, per");
    else {
      check_keys(*v, kCountKeys, "count");
      CountSpec c;
      if (const Node* a = v->get("at_least")) {
        auto s = scalar(*a, "at_least").value_or("");
        char* end = nullptr;
        if (!s.empty() && s.back() == '%') {
          c.percent = std::strtod(s.c_str(), &end);
          if (end != s.c_str() + s.size() - 1 || !(c.percent > 0 && c.percent <= 100)) error(a->at, "rule-count", "a relative count is 1% to 100%");
        } else {
          const long n = std::strtol(s.c_str(), &end, 10);
          if (s.empty() || *end != '\0' || n < 1) error(a->at, "rule-count", "`at_least` is a whole number ≥ 1 or a percentage");
          c.at_least = static_cast<uint64_t>(std::max(1L, n));
        }
      }
      if (const Node* w = v->get("within")) c.within = duration(*w, "within");
      if (const Node* p = v->get("per")) {
        auto s = scalar(*p, "per").value_or("");
        if (s != "worker" && s != "job") error(p->at, "rule-count", "`per` is worker or job");
        c.per_worker = s == "worker";
      }
      if (const Node* d = v->get("distinct")) {
        c.distinct = scalar(*d, "distinct").value_or("");
        if (c.distinct != "worker" && c.distinct != "sdk_worker") {
          error(d->at, "rule-count", "`distinct` counts different `worker` or `sdk_worker` values");
        }
      }
      if (c.percent > 0 && !c.per_worker) error(v->at, "rule-count", "a percentage counts workers: add `per: worker`");
      rule.count = c;
    }
  }
  if (const Node* v = root.get("after")) {
    static constexpr auto kAfterKeys = std::to_array<std::string_view>({"match", "within", "min", "same"});
    if (!v->is_map() || v->get("match") == nullptr) error(v->at, "rule-after", "`after` needs `match` (and optionally within, same)");
    else {
      check_keys(*v, kAfterKeys, "after");
      AfterSpec a;
      if (auto c = condition(*v->get("match"))) a.match = std::move(*c);
      if (const Node* w = v->get("within")) a.within = duration(*w, "within");
      if (const Node* m = v->get("min")) a.min = duration(*m, "min");
      if (const Node* s = v->get("same")) {
        auto same = scalar(*s, "same").value_or("");
        if (same != "worker" && same != "job") error(s->at, "rule-after", "`same` is worker or job");
        a.same_worker = same == "worker";
      }
      rule.after = std::move(a);
    }
  }
  if (const Node* v = root.get("absent")) {
    static constexpr auto kAbsentKeys = std::to_array<std::string_view>({"match", "after", "within", "needs_logs", "when", "unless"});
    if (!v->is_map() || v->get("match") == nullptr || v->get("within") == nullptr) {
      error(v->at, "rule-absent", "`absent` needs `match` and `within` (and optionally after, needs_logs, when)");
    } else {
      check_keys(*v, kAbsentKeys, "absent");
      AbsentSpec a;
      if (auto c = condition(*v->get("match"))) a.match = std::move(*c);
      if (const Node* y = v->get("after")) a.after = condition(*y);
      a.within = duration(*v->get("within"), "within").value_or(0);
      if (const Node* logs = v->get("needs_logs")) a.needs_logs = string_list(*logs, "needs_logs");
      if (const Node* w = v->get("when")) a.when = fact_tests(*w, "when");
      if (const Node* u = v->get("unless")) a.unless = fact_tests(*u, "unless");
      rule.absent = std::move(a);
    }
  }
  if (const Node* v = root.get("fixes")) read_fixes(*v, rule);
  if (const Node* v = root.get("examples")) read_examples(*v, rule);
  if (errors_ > 0) return std::nullopt;
  return rule;
}

}  // namespace

RE2::Options pattern_options() {
  RE2::Options o;
  o.set_log_errors(false);
  o.set_max_mem(8 << 20);
  return o;
}

std::string_view field_name(Field f) {
  if (f == Field::kLabel) return "label";
  for (const auto& [name, field] : kFieldKeys) {
    if (field == f) return name;
  }
  return "?";
}

std::optional<int64_t> parse_duration(std::string_view text) {
  if (text.empty()) return std::nullopt;
  int64_t total = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    int64_t n = 0;
    size_t digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      n = n * 10 + (text[pos++] - '0');
      if (++digits > 9) return std::nullopt;
    }
    if (digits == 0 || pos >= text.size()) return std::nullopt;
    int64_t unit = 0;
    switch (text[pos++]) {
      case 's': unit = 1; break;
      case 'm': unit = 60; break;
      case 'h': unit = 3600; break;
      case 'd': unit = 86400; break;
      default: return std::nullopt;
    }
    total += n * unit;
  }
  return total * 1'000'000'000;
}

std::string format_duration(int64_t ns) {
  int64_t s = ns / 1'000'000'000;
  if (s == 0) return "0s";
  std::string out;
  for (auto [unit, suffix] : {std::pair{86400L, 'd'}, std::pair{3600L, 'h'}, std::pair{60L, 'm'}, std::pair{1L, 's'}}) {
    if (s >= unit) {
      out += fmt::format("{}{}", s / unit, suffix);
      s %= unit;
    }
  }
  return out;
}

std::optional<RuleSpec> load_rule_file(const RuleFile& file, bool builtin, Diagnostics& diags) {
  auto tree = file.tree.empty() ? parse_yaml(file.text, file.path) : tree_from_json(file.tree, file.path);
  if (!tree) {
    diags.push_back(tree.error());
    return std::nullopt;
  }
  return RuleReader(file, builtin, diags).read(*tree);
}

}  // namespace gpudiag::detail
