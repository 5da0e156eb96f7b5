// Loading rule files into a RulePack: overrides by id, cross-checks, compilation into signals and
// RE2::Sets, the canonical dump and the pack hash.
#include "compiled_pack.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "gpudiag/analyzer.h"
#include "gpudiag/stable_hash.h"
#include "parallel_for.h"

namespace gpudiag {
namespace detail {
namespace {

bool is_set_field(Field f) { return f == Field::kText || f == Field::kMessage || f == Field::kException; }

// The observers' regexes, compiled once per process: every pack holds them, and loading a rule
// directory builds one pack per user rule to prove its examples.
const std::vector<std::shared_ptr<const RE2>>& compiled_observers() {
  static const auto compiled = [] {
    std::vector<std::shared_ptr<const RE2>> out;
    for (const auto& o : kObservers)
      out.push_back(std::make_shared<const RE2>(std::string(o.regex), pattern_options()));
    return out;
  }();
  return compiled;
}

class Compiler {
 public:
  explicit Compiler(RulePack::Impl& pack) : pack_(pack) {}

  int add_pattern(Field field, const std::string& label_key, const std::string& regex,
                  std::shared_ptr<const RE2> compiled) {
    for (size_t i = 0; i < pack_.patterns.size(); ++i) {
      const auto& p = pack_.patterns[i];
      if (p.field == field && p.label_key == label_key && p.regex == regex) return static_cast<int>(i);
    }
    Pattern p;
    p.field = field;
    p.label_key = label_key;
    p.regex = regex;
    p.re = compiled ? std::move(compiled) : std::make_shared<const RE2>(regex, pattern_options());
    p.has_captures = !p.re->NamedCapturingGroups().empty();
    pack_.patterns.push_back(std::move(p));
    return static_cast<int>(pack_.patterns.size() - 1);
  }

  int flatten(const ConditionSpec& c, CompiledCondition& out) {
    const int index = static_cast<int>(out.nodes.size());
    out.nodes.push_back({c.kind, c.field, c.label_key, -1, c.names, c.min_severity, {}, c.capture_tests});
    if (c.kind == ConditionSpec::Kind::kRegex) {
      out.nodes[index].pattern = add_pattern(c.field, c.label_key, c.regex, c.compiled);
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

  // `index` into kObservers.
  void add_observer(size_t index) {
    const ObserverDef& def = kObservers[index];
    ConditionSpec c;
    c.kind = ConditionSpec::Kind::kRegex;
    c.field = def.field == "text" ? Field::kText : Field::kMessage;
    c.regex = std::string(def.regex);
    c.compiled = compiled_observers()[index];
    const int s = add_signal(c, SignalRole::kObserver, -1);
    pack_.signals[s].observer = def.kind;
    for (const auto& n : pack_.signals[s].condition.nodes) {
      if (n.pattern >= 0) pack_.signals[s].capture_patterns.push_back(n.pattern);
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
    // Refiners too (see Pattern::in_set).
    for (auto& p : pack_.patterns) {
      if (is_set_field(p.field) && !RE2::PartialMatch("", *p.re)) p.in_set = true;
    }
    RE2::Options options = pattern_options();
    options.set_max_mem(64 << 20);
    pack_.text_set = std::make_unique<RE2::Set>(options, RE2::UNANCHORED);
    for (size_t i = 0; i < pack_.patterns.size(); ++i) {
      const auto& p = pack_.patterns[i];
      if (!p.in_set) continue;
      std::string error;
      if (pack_.text_set->Add(p.regex, &error) < 0) return Diagnostic{.code = "rule-regex", .message = error};
      pack_.set_patterns.push_back(static_cast<int>(i));
    }
    if (!pack_.text_set->Compile()) {
      return Diagnostic{.code = "rule-regex",
                        .message = "the rule pack's patterns are over RE2's memory budget together",
                        .help = "simplify or remove some patterns"};
    }
    return Ok{};
  }

 private:
  RulePack::Impl& pack_;
};

// What a --rules directory may hold (docs/rules.md, "Limits"): every rule costs memory on every run
// (its regexes, its examples proven at load), so a pack has bounds that lint checks.
constexpr size_t kMaxUserRules = 500;
constexpr uint64_t kMaxRuleFileBytes = 256u << 10;

void read_rule_dir(const std::string& dir, std::vector<RuleFile>& files, Diagnostics& diags) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    diags.push_back(Diagnostic{.code = "rule-dir",
                               .message = "is not a directory of rule files",
                               .file = dir,
                               .help = "--rules takes a directory holding *.yaml rule files"});
    return;
  }
  std::vector<std::string> paths;
  for (auto it = fs::recursive_directory_iterator(dir, ec); it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (ec) break;
    const auto ext = it->path().extension();
    if (it->is_regular_file(ec) && (ext == ".yaml" || ext == ".yml")) paths.push_back(it->path().string());
  }
  std::sort(paths.begin(), paths.end());
  for (const auto& path : paths) {
    if (const auto size = fs::file_size(path, ec); !ec && size > kMaxRuleFileBytes) {
      diags.push_back(Diagnostic{
          .code = "rule-limit",
          .message = fmt::format("is {} bytes; a rule file holds at most {} KiB", size, kMaxRuleFileBytes >> 10),
          .file = path,
          .help = "keep examples to the lines that matter (each at most 16 KiB)"});
      continue;
    }
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
      diags.push_back(Diagnostic{.code = "rule-file", .message = "cannot be read", .file = path});
      continue;
    }
    files.push_back(RuleFile{path, text.str()});
  }
}

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

// Loads every file; returns the rules by id with overrides applied. Problems go to `diags`.
std::map<std::string, RuleSpec> load_all(const RuleSources& sources, Diagnostics& diags) {
  std::map<std::string, RuleSpec> rules;
  const auto load_group = [&](const std::vector<RuleFile>& files, bool builtin) {
    // Files parse independently, on every core; what they hold is merged in file order.
    std::vector<std::optional<RuleSpec>> specs(files.size());
    std::vector<Diagnostics> file_diags(files.size());
    parallel_for(files.size(), std::max(1u, std::thread::hardware_concurrency()),
                 [&](size_t i) { specs[i] = load_rule_file(files[i], builtin, file_diags[i]); });
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
  };
  load_group(sources.builtin, true);
  size_t user_files = 0;
  for (const auto& dir : sources.dirs) {
    std::vector<RuleFile> files;
    read_rule_dir(dir, files, diags);
    if (user_files + files.size() > kMaxUserRules) {
      diags.push_back(Diagnostic{
          .code = "rule-limit",
          .message = fmt::format("more than {} user rule files; a pack takes at most {}", kMaxUserRules, kMaxUserRules),
          .file = dir,
          .help = "merge rules that look for the same thing, or split the directories between runs"});
      files.resize(kMaxUserRules - std::min(user_files, kMaxUserRules));
    }
    user_files += files.size();
    load_group(files, false);
  }
  check_references(rules, diags);
  return rules;
}

std::string render_tests(const std::vector<FactTest>& tests) {
  std::vector<std::string> parts;
  for (const auto& t : tests) parts.push_back(fmt::format("{}: {}", t.fact, t.text));
  return fmt::format("{{{}}}", fmt::join(parts, ", "));
}

std::string render_condition(const CompiledCondition& c, const std::vector<Pattern>& patterns, int node) {
  const auto& n = c.nodes[node];
  const auto field = [&] {
    return n.field == Field::kLabel ? "label." + n.label_key : std::string(field_name(n.field));
  };
  switch (n.kind) {
    case ConditionSpec::Kind::kRegex:
      return fmt::format("{} =~ /{}/", field(), patterns[n.pattern].regex);
    case ConditionSpec::Kind::kOneOf:
      return fmt::format("{} in [{}]", field(), fmt::join(n.names, ", "));
    case ConditionSpec::Kind::kSeverityAtLeast:
      return fmt::format("severity >= {}", severity_name(n.min_severity));
    case ConditionSpec::Kind::kCaptureTest:
      return fmt::format("captures{}", render_tests(n.capture_tests));
    default:
      break;
  }
  std::vector<std::string> parts;
  for (int child : n.children) parts.push_back(render_condition(c, patterns, child));
  const char* op = n.kind == ConditionSpec::Kind::kAll ? "all" : n.kind == ConditionSpec::Kind::kAny ? "any" : "not";
  return fmt::format("{}({})", op, fmt::join(parts, ", "));
}

}  // namespace
}  // namespace detail

using namespace detail;

int RulePack::Impl::rule_index(std::string_view id) const {
  for (size_t i = 0; i < rules.size(); ++i) {
    if (rules[i].spec.info.id == id) return static_cast<int>(i);
  }
  return -1;
}

RulePack::RulePack(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RulePack::RulePack(RulePack&&) noexcept = default;
RulePack& RulePack::operator=(RulePack&&) noexcept = default;
RulePack::~RulePack() = default;

Diagnostics RulePack::lint(const RuleSources& sources) {
  Diagnostics diags;
  load_all(sources, diags);
  return diags;
}

Result<RulePack> RulePack::compile(std::map<std::string, detail::RuleSpec> specs) {
  auto impl = std::make_unique<Impl>();
  Compiler compiler(*impl);
  for (auto& [id, spec] : specs) {
    impl->infos.push_back(spec.info);
    if (!spec.info.enabled) continue;
    CompiledRule rule;
    rule.spec = std::move(spec);
    impl->rules.push_back(std::move(rule));
  }
  for (size_t r = 0; r < impl->rules.size(); ++r) {
    auto& rule = impl->rules[r];
    const int ri = static_cast<int>(r);
    if (rule.spec.match) rule.match_signal = compiler.add_signal(*rule.spec.match, SignalRole::kEvidence, ri);
    if (rule.spec.weak) rule.weak_signal = compiler.add_signal(*rule.spec.weak, SignalRole::kWeak, ri);
    if (rule.spec.after) rule.after_signal = compiler.add_signal(rule.spec.after->match, SignalRole::kAfter, ri);
    if (rule.spec.absent) {
      rule.absent_signal = compiler.add_signal(rule.spec.absent->match, SignalRole::kAbsentMarker, ri);
      if (rule.spec.absent->after) {
        rule.absent_after_signal = compiler.add_signal(*rule.spec.absent->after, SignalRole::kAbsentStart, ri);
      }
    }
  }
  for (size_t i = 0; i < kObservers.size(); ++i) compiler.add_observer(i);
  if (auto status = compiler.build_sets(); !status) return status.error();
  RulePack pack(std::move(impl));
  pack.impl_->hash = fmt::format("{:016x}", stable_hash(pack.dump()));  // XXH3-64 of the canonical dump
  return pack;
}

// A user rule's examples, run in a pack of the rule alone; the first failure as a diagnostic.
std::optional<Diagnostic> RulePack::prove(const RuleSpec& spec) {
  RuleSpec alone = spec;
  alone.info.explains.clear();  // other rules are not in this pack
  alone.corroborated_by.clear();
  auto pack = compile({{spec.info.id, std::move(alone)}});
  if (!pack) return pack.error();
  const ExampleReport report = test_rule_examples(*pack);
  if (report.failures.empty()) return std::nullopt;
  const auto& f = report.failures.front();
  return Diagnostic{
      .code = "rule-example",
      .message = fmt::format(
          "rule `{}`: {}{}", f.rule_id, f.message,
          report.failures.size() > 1 ? fmt::format(" (and {} more failing examples)", report.failures.size() - 1) : ""),
      .file = f.file,
      .line = f.line,
      .help = "fix the rule or its example; `gpudiag rules test --rules DIR` lists every failure"};
}

Result<RulePack> RulePack::load(const RuleSources& sources) {
  Diagnostics diags;
  auto specs = load_all(sources, diags);
  if (!diags.empty()) return diags.front();
  // Rules from directories prove themselves before they are used: a rule whose examples do not
  // hold does not load. Each is tried in a pack of its own (with the built-in fact observers), which
  // is what its examples describe and keeps a large rule directory quick to load; the proofs are
  // independent and run on every core. (The built-in pack was checked when gpudiag was built.)
  if (!sources.dirs.empty() && sources.check_examples) {
    std::vector<const RuleSpec*> to_prove;
    for (const auto& [id, spec] : specs) {
      if (!spec.info.builtin && spec.info.enabled) to_prove.push_back(&spec);
    }
    std::vector<std::optional<Diagnostic>> verdicts(to_prove.size());
    parallel_for(to_prove.size(), std::max(1u, std::thread::hardware_concurrency()),
                 [&](size_t i) { verdicts[i] = prove(*to_prove[i]); });
    for (auto& verdict : verdicts) {
      if (verdict) return *std::move(verdict);  // the first failing rule in id order
    }
  }
  return compile(std::move(specs));
}

const std::vector<RuleInfo>& RulePack::rules() const { return impl_->infos; }

const RuleInfo* RulePack::find(std::string_view id) const {
  for (const auto& info : impl_->infos) {
    if (info.id == id) return &info;
  }
  return nullptr;
}

std::string RulePack::version_hash() const { return impl_->hash; }

std::string RulePack::dump(bool patterns_only, bool observers) const {
  std::string out;
  if (patterns_only) {
    // The rule pack's regexes over message and exception (not the built-in fact observers'), one
    // per line as `rg -f` reads them, for benchmarks. ripgrep joins the lines into one regex, where
    // the same group name twice is an error, so named groups become plain groups; and it refuses
    // `\n` outside multiline mode, where `[^\n]` is just `.` and a newline is a line end.
    std::set<std::string> seen;
    static const RE2 named_group(R"(\(\?P<[A-Za-z_][A-Za-z0-9_]*>)");
    static const RE2 not_newline(R"(\[\^\\n\])");
    static const RE2 newline(R"(\\n)");
    for (const auto& p : impl_->patterns) {
      if ((p.from_rules || (observers && p.in_set)) && is_set_field(p.field)) {
        std::string regex = p.regex;
        RE2::GlobalReplace(&regex, named_group, "(");
        RE2::GlobalReplace(&regex, not_newline, ".");
        RE2::GlobalReplace(&regex, newline, "$$");
        if (seen.insert(regex).second) out += regex + "\n";
      }
    }
    return out;
  }
  const auto in_set =
      std::count_if(impl_->patterns.begin(), impl_->patterns.end(), [](const Pattern& p) { return p.in_set; });
  out += fmt::format("rulepack rules={} enabled={} patterns={} in_sets={} signals={}\n", impl_->infos.size(),
                     impl_->rules.size(), impl_->patterns.size(), in_set, impl_->signals.size());
  for (const auto& rule : impl_->rules) {
    const auto& s = rule.spec;
    out += fmt::format("rule {}\n  family {}\n  severity {}\n  confidence {:.2f}\n", s.info.id, s.info.family,
                       impact_name(s.info.severity), s.info.confidence);
    const auto signal = [&](const char* name, int index) {
      if (index >= 0) {
        out += fmt::format("  {} {}\n", name, render_condition(impl_->signals[index].condition, impl_->patterns, 0));
      }
    };
    signal("match", rule.match_signal);
    signal("weak", rule.weak_signal);
    if (s.count) {
      out += fmt::format(
          "  count at_least={}{} within={} per={}\n",
          s.count->percent > 0 ? fmt::format("{}%", s.count->percent) : std::to_string(s.count->at_least), "",
          s.count->within ? format_duration(*s.count->within) : "-", s.count->per_worker ? "worker" : "job");
    }
    if (s.after) {
      signal("after", rule.after_signal);
      out += fmt::format("  after within={} same={}\n", s.after->within ? format_duration(*s.after->within) : "-",
                         s.after->same_worker ? "worker" : "job");
    }
    if (s.absent) {
      signal("absent", rule.absent_signal);
      signal("absent_after", rule.absent_after_signal);
      out += fmt::format("  absent within={} needs_logs=[{}] when={} unless={}\n", format_duration(s.absent->within),
                         fmt::join(s.absent->needs_logs, ", "), render_tests(s.absent->when),
                         render_tests(s.absent->unless));
    }
    if (!s.when.empty()) out += fmt::format("  when {}\n", render_tests(s.when));
    if (!s.unless.empty()) out += fmt::format("  unless {}\n", render_tests(s.unless));
    if (!s.info.explains.empty()) out += fmt::format("  explains [{}]\n", fmt::join(s.info.explains, ", "));
    if (!s.corroborated_by.empty()) out += fmt::format("  corroborated_by [{}]\n", fmt::join(s.corroborated_by, ", "));
    for (const auto& fix : s.info.fixes) {
      out += fmt::format("  fix {} weight={}{} doc={}\n", fix.id, fix.weight,
                         fix.demote_if.empty() ? "" : " demote_if={" + fix.demote_if + "}", fix.doc.url);
    }
  }
  for (const auto& info : impl_->infos) {
    if (!info.enabled) out += fmt::format("disabled {}\n", info.id);
  }
  // Signals without a trigger pattern are evaluated on every entry: worth knowing when tuning.
  for (int si : impl_->always_signals) {
    const Signal& s = impl_->signals[si];
    if (s.rule < 0) continue;
    static constexpr std::array kRoles = {"match", "weak", "after", "absent", "absent_after", "observer"};
    out += fmt::format("every-entry {} {}\n", impl_->rules[s.rule].spec.info.id, kRoles[static_cast<size_t>(s.role)]);
  }
  return out;
}

}  // namespace gpudiag
