// Reads one rule file into a RuleSpec: the rule's keys, its fixes and its examples (docs/rules.md is
// the language reference). Conditions and fact tests are in rule_conditions.cc.
#include "rule_reader.h"

#include <algorithm>
#include <cctype>

#include "fact_catalog.h"
#include "gpudiag/name_suggestions.h"
#include "placeholders.h"
#include "shell_command.h"

namespace gpudiag::detail {

size_t edit_distance(std::string_view a, std::string_view b) { return gpudiag::edit_distance(a, b); }

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

void RuleReader::check_required(const Node& map, KeyPlace place, std::string code, std::string_view message,
                                std::string_view help) {
  for (const auto& key : rule_keys()) {
    if (key.place != place || key.need != KeyNeed::kRequired || map.get(key.key) != nullptr) continue;
    error(map.at.line ? map.at : Position{1, 1}, code, fmt::format(fmt::runtime(message), key.key), std::string(help));
  }
}

void RuleReader::read_id(const Node& n, RuleSpec& rule) {
  rule.info.id = text(n, "id");
  if (!is_kebab_id(rule.info.id))
    error(n.at, "rule-id", fmt::format("rule id `{}` is not kebab-case", rule.info.id),
          "lower-case words joined by single dashes, e.g. gpu-out-of-memory");
  else if (rule.info.id == kUnexplainedRuleId)
    error(n.at, "rule-id", fmt::format("rule id `{}` is reserved for errors no rule explains", rule.info.id),
          "choose another id; baselines and SARIF use this one for the errors no rule explains");
}

void RuleReader::read_aliases(const Node& n, RuleSpec& rule) {
  rule.info.aliases = string_list(n, "aliases");
  for (const auto& alias : rule.info.aliases) {
    if (!is_kebab_id(alias))
      error(n.at, "rule-id", fmt::format("alias `{}` is not kebab-case", alias),
            "lower-case words joined by single dashes, e.g. gpu-oom");
    else if (alias == rule.info.id)
      error(n.at, "rule-id", fmt::format("alias `{}` is the rule's own id", alias), "remove it");
  }
}

void RuleReader::read_description(const Node& n, RuleSpec& rule) {
  rule.info.description = text(n, "description");
  while (!rule.info.description.empty() && std::isspace(static_cast<unsigned char>(rule.info.description.back()))) {
    rule.info.description.pop_back();  // YAML's folded scalars end with a newline
  }
}

void RuleReader::read_family(const Node& n, RuleSpec& rule) {
  rule.info.family = text(n, "family");
  if (std::find(kFamilies.begin(), kFamilies.end(), rule.info.family) == kFamilies.end()) {
    error(n.at, "rule-family", fmt::format("unknown family `{}`", rule.info.family),
          suggestion(rule.info.family, kFamilies).empty()
              ? "one of capacity, flex-start, startup, gpu-software, runtime, configuration, symptom, export"
              : suggestion(rule.info.family, kFamilies));
  }
}

void RuleReader::read_severity(const Node& n, RuleSpec& rule) {
  auto s = text(n, "severity");
  auto impact = parse_impact(s);
  if (!impact)
    error(n.at, "rule-severity", fmt::format("rule severity `{}` is not info, warning, error or critical", s));
  rule.info.severity = impact.value_or(Impact::kWarning);
}

void RuleReader::read_confidence(const Node& n, RuleSpec& rule) {
  auto s = text(n, "confidence");
  char* end = nullptr;
  const double c = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !(c >= 0.0 && c <= 1.0)) {
    error(n.at, "rule-confidence", "`confidence` is a number from 0.0 to 1.0");
  } else {
    rule.info.confidence = c;
  }
}

void RuleReader::read_enabled(const Node& n, RuleSpec& rule) {
  auto s = text(n, "enabled");
  if (s != "true" && s != "false") error(n.at, "rule-type", "`enabled` is true or false");
  rule.info.enabled = s != "false";
}

void RuleReader::read_sources(const Node& n, RuleSpec& rule) {
  rule.info.sources = string_list(n, "sources");
  if (rule.info.sources.empty()) error(n.at, "rule-sources", "`sources` must say where the signature text came from");
}

void RuleReader::read_if_unknown(const Node& n, RuleSpec& rule) {
  auto s = text(n, "if_unknown");
  if (s == "skip")
    rule.if_unknown = IfUnknown::kSkip;
  else if (s == "inconclusive")
    rule.if_unknown = IfUnknown::kInconclusive;
  else if (s == "fire")
    rule.if_unknown = IfUnknown::kFire;
  else
    error(n.at, "rule-type", "`if_unknown` is skip, inconclusive or fire");
}

void RuleReader::read_count(const Node& n, RuleSpec& rule) {
  if (!n.is_map()) {
    error(n.at, "rule-count", "`count` is a mapping: at_least, within, per");
    return;
  }
  check_keys(n, KeyPlace::kCount);
  CountSpec c;
  if (const Node* a = n.get("at_least")) {
    auto s = text(*a, "at_least");
    char* end = nullptr;
    if (!s.empty() && s.back() == '%') {
      c.percent = std::strtod(s.c_str(), &end);
      if (end != s.c_str() + s.size() - 1 || !(c.percent > 0 && c.percent <= 100))
        error(a->at, "rule-count", "a relative count is 1% to 100%");
    } else {
      const long count = std::strtol(s.c_str(), &end, 10);
      if (s.empty() || *end != '\0' || count < 1)
        error(a->at, "rule-count", "`at_least` is a whole number ≥ 1 or a percentage");
      c.at_least = static_cast<uint64_t>(std::max(1L, count));
    }
  }
  if (const Node* w = n.get("within")) c.within = duration(*w, "within");
  if (const Node* p = n.get("per")) {
    auto s = text(*p, "per");
    if (s != "worker" && s != "job") error(p->at, "rule-count", "`per` is worker or job");
    c.per_worker = s == "worker";
  }
  if (const Node* d = n.get("distinct")) {
    c.distinct = text(*d, "distinct");
    if (c.distinct != "worker" && c.distinct != "sdk_worker") {
      error(d->at, "rule-count", "`distinct` counts different `worker` or `sdk_worker` values");
    }
  }
  if (c.percent > 0 && !c.per_worker) error(n.at, "rule-count", "a percentage counts workers: add `per: worker`");
  rule.count = c;
}

void RuleReader::read_after(const Node& n, std::string_view key, std::optional<AfterSpec>& into) {
  if (!n.is_map() || n.get("match") == nullptr) {
    error(n.at, "rule-after", fmt::format("`{}` needs `match` (and optionally within, min, same)", key));
    return;
  }
  check_keys(n, KeyPlace::kAfter);
  AfterSpec a;
  if (auto c = condition(*n.get("match"))) a.match = std::move(*c);
  if (const Node* w = n.get("within")) a.within = duration(*w, "within");
  if (const Node* m = n.get("min")) a.min = duration(*m, "min");
  if (const Node* s = n.get("same")) {
    auto same = text(*s, "same");
    if (same != "worker" && same != "job") error(s->at, "rule-after", "`same` is worker or job");
    a.same_worker = same == "worker";
  }
  into = std::move(a);
}

void RuleReader::read_absent(const Node& n, RuleSpec& rule) {
  if (!n.is_map() || n.get("match") == nullptr || n.get("within") == nullptr) {
    error(n.at, "rule-absent", "`absent` needs `match` and `within` (and optionally after, needs_logs, when)");
    return;
  }
  check_keys(n, KeyPlace::kAbsent);
  AbsentSpec a;
  if (auto c = condition(*n.get("match"))) a.match = std::move(*c);
  if (const Node* y = n.get("after")) a.after = condition(*y);
  a.within = duration(*n.get("within"), "within").value_or(0);
  if (const Node* logs = n.get("needs_logs")) a.needs_logs = string_list(*logs, "needs_logs");
  if (const Node* w = n.get("when")) a.when = fact_tests(*w, "when");
  if (const Node* u = n.get("unless")) a.unless = fact_tests(*u, "unless");
  rule.absent = std::move(a);
}

void RuleReader::read_fixes(const Node& n, RuleSpec& rule) {
  if (!n.is_seq() || n.items.empty()) {
    error(n.at, "rule-fixes", "`fixes` is a list with at least one fix");
    return;
  }
  for (const auto& item : n.items) {
    if (!item.is_map()) {
      error(item.at, "rule-fixes", "a fix is a mapping (id, action, why, weight, doc)");
      continue;
    }
    check_keys(item, KeyPlace::kFix);
    FixInfo fix;
    std::vector<FactTest> demote, needs;
    check_required(item, KeyPlace::kFix, "rule-missing-key", "a fix needs `{}`");
    if (const Node* v = item.get("id")) {
      fix.id = scalar(*v, "id").value_or("");
      if (!is_kebab_id(fix.id)) error(v->at, "rule-id", fmt::format("fix id `{}` is not kebab-case", fix.id));
    }
    if (const Node* v = item.get("action")) fix.action = scalar(*v, "action").value_or("");
    if (const Node* v = item.get("action_with_facts")) fix.action_with_facts = string_list(*v, "action_with_facts");
    if (const Node* v = item.get("command")) {
      fix.command = scalar(*v, "command").value_or("");
      check_command(*v, fix.command);
    }
    if (const Node* v = item.get("command_with_facts")) {
      fix.command_with_facts = string_list(*v, "command_with_facts");
      for (size_t i = 0; i < v->items.size() && i < fix.command_with_facts.size(); ++i)
        check_command(v->items[i], fix.command_with_facts[i]);
    }
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
    Position achieves_at{};
    if (const Node* v = item.get("achieves")) {
      fix.achieves = scalar(*v, "achieves").value_or("");
      achieves_at = v->at;
      // One way to say when the fix is in place: the state names every road to it.
      if (item.get("demote_if") != nullptr)
        error(v->at, "rule-fixes", "a fix says what it `achieves` or when to `demote_if`, not both",
              "a state's `holds_if` lists every setting that reaches it (docs/rules.md, \"Fixes\")");
    }
    if (const Node* v = item.get("demote_if")) {
      demote = fact_tests(*v, "demote_if");
      std::string text;
      for (const auto& t : demote) text += fmt::format("{}{}: {}", text.empty() ? "" : ", ", t.fact, t.text);
      fix.demote_if = text;
    }
    if (const Node* v = item.get("needs")) {
      needs = fact_tests(*v, "needs");
      std::string text;
      for (const auto& t : needs) text += fmt::format("{}{}: {}", text.empty() ? "" : ", ", t.fact, t.text);
      fix.needs = text;
    }
    if (const Node* v = item.get("doc")) {
      if (!v->is_map()) {
        error(v->at, "rule-doc", "`doc` is a mapping with title, section and url");
      } else {
        check_keys(*v, KeyPlace::kDoc);
        check_required(*v, KeyPlace::kDoc, "rule-doc", "a doc citation needs `{}`");
        if (const Node* t = v->get("title")) fix.doc.title = scalar(*t, "title").value_or("");
        if (const Node* s = v->get("section")) fix.doc.section = scalar(*s, "section").value_or("");
        if (const Node* u = v->get("url")) {
          fix.doc.url = scalar(*u, "url").value_or("");
          if (fix.doc.url.rfind("https://", 0) != 0) error(u->at, "rule-doc", "the doc url must start with https://");
        }
      }
    }
    if (const Node* v = item.get("i18n")) read_fix_translations(*v, fix);
    rule.info.fixes.push_back(std::move(fix));
    rule.fix_demote_tests.push_back(std::move(demote));
    rule.fix_needs_tests.push_back(std::move(needs));
    rule.fix_achieves_at.push_back(achieves_at);
    rule.fix_state_meaning.emplace_back();
  }
}

void RuleReader::check_command(const Node& n, const std::string& command) {
  if (std::string problem = shell_template_problem(command); !problem.empty()) {
    error(n.at, "rule-fixes", fmt::format("`command` is not one shell command: {}", problem),
          "a fix's command is pasted into a shell as it is printed (docs/rules.md, \"Commands\")");
  }
}

// `i18n: {es: {action: …, why: …}}`: each key a language tag, each value the action (required) and why.
void RuleReader::read_fix_translations(const Node& n, FixInfo& fix) {
  if (!n.is_map()) {
    error(n.at, "rule-fixes", "`i18n` maps language tags to `{action, why}`");
    return;
  }
  for (const auto& [k, v] : n.entries) {
    const std::string lang = k.scalar;
    const bool tag = !lang.empty() && std::all_of(lang.begin(), lang.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    });
    if (!tag || lang == "en") {
      error(k.at, "rule-fixes", fmt::format("`{}` is not a language tag other than en (es, es-419, ja, ko, he)", lang));
      continue;
    }
    if (!v.is_map() || !v.get("action")) {
      error(v.at, "rule-fixes", fmt::format("`i18n.{}` is a mapping with `action` (and `why`)", lang));
      continue;
    }
    FixTranslation t{lang, scalar(*v.get("action"), "action").value_or(""), ""};
    if (const Node* why = v.get("why")) t.why = scalar(*why, "why").value_or("");
    for (const auto& [key, value] : v.entries) {
      if (key.scalar != "action" && key.scalar != "why") {
        error(key.at, "rule-unknown-key",
              fmt::format("`i18n.{}` takes `action` and `why`, not `{}`", lang, key.scalar));
      }
    }
    fix.i18n.push_back(std::move(t));
  }
}

// An example is proven every time the pack loads: a huge one costs every run.
void RuleReader::check_example_size(const Node& n) {
  constexpr size_t kMaxExampleBytes = 16u << 10;
  const auto check = [&](const Node& v) {
    if (v.is_scalar() && v.scalar.size() > kMaxExampleBytes) {
      error(v.at, "rule-limit",
            fmt::format("an example text of {} bytes; examples hold at most {} KiB", v.scalar.size(),
                        kMaxExampleBytes >> 10),
            "keep the lines that matter to the rule");
    }
  };
  if (n.is_scalar()) check(n);
  for (const auto& [k, v] : n.entries) check(v);
}

std::optional<ExampleRecord> RuleReader::example_record(const Node& n) {
  ExampleRecord r;
  if (n.is_scalar()) {
    check_example_size(n);
    r.message = n.scalar;
    return r;
  }
  if (!n.is_map()) {
    error(n.at, "rule-example", "an example entry is a line of text or a mapping of fields");
    return std::nullopt;
  }
  check_keys(n, KeyPlace::kExampleEntry);
  check_example_size(n);
  for (const auto& [k, v] : n.entries) {
    const std::string& key = k.scalar;
    if (key == "captures" || key == "facts" || key == "yields") continue;
    auto s = scalar(v, key);
    if (!s) continue;
    if (key == "message")
      r.message = *s;
    else if (key == "exception")
      r.exception = *s;
    else if (key == "log")
      r.log = *s;
    else if (key == "severity") {
      if (!parse_severity(*s)) error(v.at, "rule-severity", fmt::format("`{}` is not a log severity", *s));
      r.severity = *s;
    } else if (key == "worker")
      r.worker = *s;
    else if (key == "logger")
      r.logger = *s;
    else if (key == "sdk_worker")
      r.sdk_worker = *s;
    else if (key == "step")
      r.step = *s;
    else if (key == "at") {
      auto d = parse_duration(*s);
      if (!d) error(v.at, "rule-duration", fmt::format("`{}` is not a duration", *s), "write e.g. 0m, 90s, 2h");
      r.at = d.value_or(0);
    }
  }
  return r;
}

void RuleReader::read_examples(const Node& n, RuleSpec& rule) { read_example_lists(n, rule.examples, false); }

void RuleReader::read_example_lists(const Node& n, std::vector<ExampleSpec>& examples, bool extractor) {
  if (!n.is_map()) {
    error(n.at, "rule-example", "`examples` is a mapping with `match` and `no_match` lists");
    return;
  }
  check_keys(n, KeyPlace::kExamples);
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
        check_keys(item, KeyPlace::kExample);
        if (!records->is_seq())
          error(records->at, "rule-example", "`records` is a list of entries");
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
          if (!facts->is_map())
            error(facts->at, "rule-example", "`facts` is a mapping of fact names to values");
          else {
            for (const auto& [fk, fv] : facts->entries) {
              if (catalog_.find(fk.scalar) == nullptr)
                error(fk.at, "rule-unknown-fact", fmt::format("unknown fact `{}`", fk.scalar),
                      suggestion(fk.scalar, catalog_.names()));
              if (auto s = scalar(fv, fk.scalar)) ex.facts[fk.scalar] = *s;
            }
          }
        }
        if (const Node* caps = item.get("captures")) {
          if (!caps->is_map())
            error(caps->at, "rule-example", "`captures` is a mapping of group names to values");
          else {
            for (const auto& [ck, cv] : caps->entries) {
              if (auto s = scalar(cv, ck.scalar)) ex.captures[ck.scalar] = *s;
            }
          }
        }
      }
      // `yields` may sit on the example or, for a one-entry example, beside the entry's fields.
      const Node* yields = item.is_map() ? item.get("yields") : nullptr;
      if (yields != nullptr && !extractor) {
        error(yields->at, "rule-example", "`yields` is for fact extractors' examples",
              "a rule's example says what it must capture with `captures`");
      } else if (yields != nullptr && !yields->is_map()) {
        error(yields->at, "rule-example", "`yields` is a mapping of fact names to values");
      } else if (yields != nullptr) {
        if (!ex.expect_match) error(yields->at, "rule-example", "a `no_match` example yields nothing");
        for (const auto& [yk, yv] : yields->entries) {
          std::vector<std::string_view> names = catalog_.names();
          names.push_back("phase");
          names.push_back("worker_count");
          if (std::find(names.begin(), names.end(), yk.scalar) == names.end()) {
            error(yk.at, "rule-unknown-fact", fmt::format("unknown fact `{}`", yk.scalar),
                  suggestion(yk.scalar, names));
          }
          if (auto v = scalar(yv, yk.scalar)) ex.yields[yk.scalar] = *v;
        }
      }
      if (extractor && ex.expect_match && ex.yields.empty()) {
        error(item.at, "rule-example", "a fact extractor's `match` example says what it `yields`",
              "e.g. `yields: { machine_type: n1-standard-4 }`");
      }
      if (ex.records.empty() && ex.facts.empty()) {
        error(item.at, "rule-example", "an example needs a log line, entries or facts");
        continue;
      }
      examples.push_back(std::move(ex));
    }
  }
  const bool has_match = std::any_of(examples.begin(), examples.end(), [](auto& e) { return e.expect_match; });
  const bool has_no_match = std::any_of(examples.begin(), examples.end(), [](auto& e) { return !e.expect_match; });
  const std::string_view what = extractor ? "a fact extractor" : "a rule";
  if (!has_match) error(n.at, "rule-example", fmt::format("{} needs at least one `match` example", what));
  if (!has_no_match) {
    error(n.at, "rule-example", fmt::format("{} needs at least one `no_match` example (a near miss)", what));
  }
}

void RuleReader::read_identity(const Node& n, RuleSpec& rule) {
  if (!n.is_seq()) {
    error(n.at, "rule-type", "`identity` is a list of named groups",
          "e.g. `identity: [zone, gpu_type]`; `identity: []` for the rule id alone");
    return;
  }
  rule.info.identity = string_list(n, "identity");
}

namespace {

void collect_groups(const ConditionSpec& c, std::vector<std::string>& groups) {
  if (c.kind == ConditionSpec::Kind::kRegex) {
    for (const auto& name : named_groups(c.regex)) {
      if (std::find(groups.begin(), groups.end(), name) == groups.end()) groups.push_back(name);
    }
  }
  for (const auto& child : c.children) collect_groups(child, groups);
}

}  // namespace

void RuleReader::check_identity(const Node& root, const RuleSpec& rule) {
  if (!rule.info.identity) return;
  std::vector<std::string> groups;
  for (const auto* c : {rule.match ? &*rule.match : nullptr, rule.weak ? &*rule.weak : nullptr,
                        rule.after ? &rule.after->match : nullptr, rule.absent ? &rule.absent->match : nullptr,
                        rule.absent && rule.absent->after ? &*rule.absent->after : nullptr}) {
    if (c != nullptr) collect_groups(*c, groups);
  }
  const Node* list = root.get("identity");
  for (size_t i = 0; i < rule.info.identity->size(); ++i) {
    const std::string& name = (*rule.info.identity)[i];
    if (std::find(groups.begin(), groups.end(), name) != groups.end()) continue;
    const Position at = list != nullptr && i < list->items.size() ? list->items[i].at : root.at;
    const std::string hint = suggestion(name, groups);
    error(at, "rule-reference",
          fmt::format("`identity` names `{}`, which is not a named group of the rule's patterns", name),
          !hint.empty()    ? hint
          : groups.empty() ? std::string("the rule's patterns capture nothing: write `identity: []`")
                           : fmt::format("its named groups: {}", fmt::join(groups, ", ")));
  }
}

void RuleReader::check_placeholders(const Node& root, const RuleSpec& rule) {
  std::vector<std::string> groups;
  for (const auto* c : {rule.match ? &*rule.match : nullptr, rule.weak ? &*rule.weak : nullptr,
                        rule.after ? &rule.after->match : nullptr, rule.absent ? &rule.absent->match : nullptr,
                        rule.absent && rule.absent->after ? &*rule.absent->after : nullptr}) {
    if (c != nullptr) collect_groups(*c, groups);
  }
  // Views, not copies: every rule of every start-up runs this (3,861 strings a start-up before).
  std::vector<std::string_view> names(groups.begin(), groups.end());
  for (const auto name : catalog_.names()) names.emplace_back(name);
  names.emplace_back("count");
  names.emplace_back("workers");
  names.emplace_back("ran_after");
  const auto check = [&](const Node& n) {
    if (!n.is_scalar()) return;
    for (const Placeholder& p : placeholders_in(n.scalar)) {
      if (std::find(names.begin(), names.end(), p.name) == names.end()) {
        const std::string hint = suggestion(p.name, names);
        error(n.at, "rule-reference",
              fmt::format("placeholder `{{{}}}` is neither a named group of the rule's patterns nor a catalog fact",
                          p.name),
              !hint.empty() ? hint
              : groups.empty()
                  ? std::string("the rule's patterns capture nothing; facts: see docs/facts.md")
                  : fmt::format("its named groups: {}; facts: see docs/facts.md", fmt::join(groups, ", ")));
      }
      if (!p.filter.empty() && !known_filter(p.filter)) {
        std::vector<std::string_view> filters;
        for (const auto& f : kPlaceholderFilters) filters.emplace_back(f.name);
        error(n.at, "rule-reference",
              fmt::format("unknown placeholder filter `{}` in `{{{}|{}}}`", p.filter, p.name, p.filter),
              fmt::format("filters: {}", fmt::join(filters, ", ")));
      }
    }
  };
  for (const char* key : {"title", "description"}) {
    if (const Node* v = root.get(key)) check(*v);
  }
  const Node* fixes = root.get("fixes");
  if (fixes == nullptr || !fixes->is_seq()) return;
  for (const auto& item : fixes->items) {
    if (!item.is_map()) continue;
    for (const char* key : {"action", "why"}) {
      if (const Node* v = item.get(key)) check(*v);
    }
    for (const char* key : {"action_with_facts", "command", "command_with_facts"}) {
      if (const Node* v = item.get(key)) {
        check(*v);
        for (const auto& alt : v->items) check(alt);
      }
    }
  }
}

std::optional<RuleSpec> RuleReader::read(const Node& root) {
  if (!root.is_map()) {
    error(root.at.line ? root.at : Position{1, 1}, "rule-file",
          "a rule file holds one rule: a mapping with `id`, `title`, …", "see docs/rules.md");
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
  check_keys(root, KeyPlace::kRule);
  RuleSpec rule;
  rule.info.file = file_.path;
  rule.info.line = root.at.line;
  rule.info.builtin = builtin_;
  check_required(root, KeyPlace::kRule, "rule-missing-key", "the rule has no `{}`",
                 "see docs/rules.md for the keys a rule needs");
  std::vector<std::string> triggers;
  bool triggered = false;
  for (const auto& key : rule_keys()) {
    if (key.place != KeyPlace::kRule || key.need != KeyNeed::kTrigger) continue;
    triggers.push_back(fmt::format("`{}`", key.key));
    triggered = triggered || root.get(key.key) != nullptr;
  }
  if (!triggered) {
    const std::string last = triggers.back();
    triggers.pop_back();
    error(root.at, "rule-missing-key",
          fmt::format("the rule needs {} or {}: nothing could make it fire", fmt::join(triggers, ", "), last));
  }
  for (const auto& key : rule_keys()) {
    if (key.place != KeyPlace::kRule) continue;
    if (const Node* v = root.get(key.key)) key.read(*this, *v, rule);
  }
  check_identity(root, rule);
  check_placeholders(root, rule);
  if (errors_ > 0) return std::nullopt;
  return rule;
}

RE2::Options pattern_options() {
  RE2::Options o;
  o.set_log_errors(false);
  o.set_max_mem(8 << 20);
  return o;
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
      case 's':
        unit = 1;
        break;
      case 'm':
        unit = 60;
        break;
      case 'h':
        unit = 3600;
        break;
      case 'd':
        unit = 86400;
        break;
      default:
        return std::nullopt;
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

Result<Node> parse_rule_file(const RuleFile& file) {
  return file.tree.empty() ? parse_rule_yaml(file.text, file.path) : tree_from_json(file.tree, file.path);
}

std::optional<RuleSpec> read_rule_file(const RuleFile& file, const Node& tree, bool builtin, const Fragments& fragments,
                                       const FactCatalog& catalog, Diagnostics& diags, std::vector<std::string>& used) {
  return RuleReader(file, builtin, fragments, catalog, diags, used).read(tree);
}

}  // namespace gpudiag::detail
