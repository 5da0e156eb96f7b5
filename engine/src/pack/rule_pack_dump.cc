// The canonical dump of a compiled pack (see rule_pack_dump.h).
#include "rule_pack_dump.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>

namespace gpudiag::detail {
namespace {

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

std::string dump_rule_pack(const CompiledRulePack& pack, bool patterns_only, bool observers) {
  std::string out;
  if (patterns_only) {
    // The rule pack's regexes over message and exception (not the fact extractors'), one
    // per line as `rg -f` reads them, for benchmarks. ripgrep joins the lines into one regex, where
    // the same group name twice is an error, so named groups become plain groups; and it refuses
    // `\n` outside multiline mode, where `[^\n]` is just `.` and a newline is a line end.
    std::set<std::string> seen;
    static const RE2 named_group(R"(\(\?P<[A-Za-z_][A-Za-z0-9_]*>)");
    static const RE2 not_newline(R"(\[\^\\n\])");
    static const RE2 newline(R"(\\n)");
    for (const auto& p : pack.patterns) {
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
      std::count_if(pack.patterns.begin(), pack.patterns.end(), [](const Pattern& p) { return p.in_set; });
  out += fmt::format("rulepack rules={} enabled={} patterns={} in_sets={} signals={}\n", pack.infos.size(),
                     pack.rules.size(), pack.patterns.size(), in_set, pack.signals.size());
  const ConfidencePolicy& c = pack.policy.confidence;
  std::vector<std::string> symptoms;
  for (const auto& [family, role] : pack.policy.family_roles) {
    if (role == FamilyRole::kSymptom) symptoms.push_back(family);
  }
  out +=
      fmt::format("policy symptoms=[{}] weak_only={:.2f} unknown_fact={:.2f} per_corroboration={:.2f} ceiling={:.2f}\n",
                  fmt::join(symptoms, ", "), c.weak_only, c.unknown_fact, c.per_corroboration, c.ceiling);
  for (const auto& q : pack.policy.quiet) {
    std::vector<std::string_view> severities;
    for (const auto s : q.severities) severities.push_back(severity_name(s));
    out += fmt::format("quiet {} severity=[{}] message={} except=[{}]\n", q.name, fmt::join(severities, ", "),
                       q.message.empty() ? "-" : q.message, fmt::join(q.except, ", "));
  }
  if (!pack.policy.wrappers.empty()) out += fmt::format("wrappers {}\n", fmt::join(pack.policy.wrappers, " | "));
  if (!pack.policy.generic_errors.empty()) {
    out += fmt::format("generic_errors {}\n", fmt::join(pack.policy.generic_errors, " | "));
  }
  if (!pack.policy.advice_lines.empty())
    out += fmt::format("advice_lines {}\n", fmt::join(pack.policy.advice_lines, " | "));
  for (const auto& f : pack.policy.line_formats) out += fmt::format("line_format {} {}\n", f.name, f.pattern);
  if (!pack.policy.framework_frames.empty()) {
    out += fmt::format("frameworks {}\n", fmt::join(pack.policy.framework_frames, " | "));
  }
  for (const auto& rule : pack.rules) {
    const auto& s = rule.spec;
    out += fmt::format("rule {}\n  family {}\n  severity {}\n  confidence {:.2f}\n", s.info.id, s.info.family,
                       impact_name(s.info.severity), s.info.confidence);
    const auto signal = [&](const char* name, int index) {
      if (index >= 0) {
        out += fmt::format("  {} {}\n", name, render_condition(pack.signals[index].condition, pack.patterns, 0));
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
    // after, not_after and not_before: one shape (rule_keys.cc, KeyPlace::kAfter)
    const auto sequence = [&](const char* name, const std::optional<AfterSpec>& seq, int index) {
      if (!seq) return;
      signal(name, index);
      out += fmt::format("  {} within={} same={}\n", name, seq->within ? format_duration(*seq->within) : "-",
                         seq->same_worker ? "worker" : "job");
    };
    sequence("after", s.after, rule.after_signal);
    sequence("not_after", s.not_after, rule.not_after_signal);
    sequence("not_before", s.not_before, rule.not_before_signal);
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
    if (s.info.identity) out += fmt::format("  identity [{}]\n", fmt::join(*s.info.identity, ", "));
    if (!s.corroborated_by.empty()) out += fmt::format("  corroborated_by [{}]\n", fmt::join(s.corroborated_by, ", "));
    for (size_t i = 0; i < s.info.fixes.size(); ++i) {
      const FixInfo& fix = s.info.fixes[i];
      const auto& demote = s.fix_demote_tests[i];
      const auto& needs = s.fix_needs_tests[i];
      out += fmt::format("  fix {} weight={}{}{}{} doc={}\n", fix.id, fix.weight,
                         fix.achieves.empty() ? "" : " achieves=" + fix.achieves,
                         demote.empty() ? "" : " demote_if=" + render_tests(demote),
                         needs.empty() ? "" : " needs=" + render_tests(needs), fix.doc.url);
    }
  }
  for (const auto& info : pack.infos) {
    if (!info.enabled) out += fmt::format("disabled {}\n", info.id);
  }
  for (const auto& state : pack.fix_states)
    out += fmt::format("fix_state {} holds_if={}\n", state.id, render_tests(state.holds_if));
  for (const auto& step : pack.policy.first_steps)
    out += fmt::format("first_step {} /{}/ doc={}\n", step.id, step.pattern, step.doc.url);
  for (const auto& f : pack.catalog.facts()) out += fmt::format("fact {} {}\n", f.name, fact_type_name(f.type));
  for (const auto& [fact, names] : pack.catalog.all_option_names()) {
    out += fmt::format("option_names {} [{}]\n", fact, fmt::join(names, ", "));
  }
  for (size_t si = 0; si < pack.signals.size(); ++si) {
    const Signal& s = pack.signals[si];
    if (s.extractor < 0) continue;
    const FactExtractorSpec& x = pack.extractors[s.extractor];
    out += fmt::format("extractor {}\n  match {}\n  priority {}\n", x.id,
                       render_condition(s.condition, pack.patterns, 0), x.priority);
    for (const auto& a : x.sets) out += fmt::format("  set {}={}\n", a.fact, a.value);
    if (x.decoder != Decoder::kNone) {
      for (const auto& [name, d] : kDecoderNames) {
        if (d == x.decoder) out += fmt::format("  decode {}={}\n", x.decode_group, name);
      }
    }
    if (!x.phase.empty()) out += fmt::format("  phase {}\n", x.phase);
    if (!x.worker_count.empty()) out += fmt::format("  worker_count {}\n", x.worker_count);
  }
  // Signals without a trigger pattern are evaluated on every entry: worth knowing when tuning.
  for (int si : pack.always_signals) {
    const Signal& s = pack.signals[si];
    if (s.rule < 0) continue;
    static constexpr std::array kRoles = {"match", "weak", "after", "absent", "absent_after", "observer"};
    out += fmt::format("every-entry {} {}\n", pack.rules[s.rule].spec.info.id, kRoles[static_cast<size_t>(s.role)]);
  }
  return out;
}

}  // namespace gpudiag::detail
