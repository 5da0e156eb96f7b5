#include "evaluator.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <optional>
#include <set>

#include "evidence/evidence.h"
#include "finding_identity.h"
#include "pack/pack.h"

namespace gpudiag::detail {
namespace {

ValueLookup facts_lookup(const JobFacts& facts) {
  return [&facts](const std::string& name) -> std::optional<std::string> {
    const FactValue* v = facts.get(name);
    if (v == nullptr) return std::nullopt;
    return v->value;
  };
}

Tri test_all(const std::vector<FactTest>& tests, const JobFacts& facts, std::string* unknown_fact = nullptr) {
  return run_all(tests, facts_lookup(facts), unknown_fact);
}

// Any test holds on a known fact.
bool any_known_true(const std::vector<FactTest>& tests, const JobFacts& facts) {
  const ValueLookup lookup = facts_lookup(facts);
  return std::any_of(tests.begin(), tests.end(), [&](const FactTest& t) { return run_test(t, lookup) == Tri::kTrue; });
}

struct LegResult {
  bool fired = false;
  std::vector<HitRef> qualifying;
};

class RuleEvaluator {
 public:
  // Why `t` answers `answer` on this job's facts: "framework is torch (from the worker entry at
  // logs.json:12)" for each fact that decides it; of an `any`, the group that decides it.
  void explain_test(const FactTest& t, Tri answer, std::vector<std::string>& out) const {
    const ValueLookup lookup = facts_lookup(acc_.facts);
    if (t.op == FactTest::Op::kAny) {
      for (const auto& group : t.any) {
        if (run_all(group, lookup) != answer) continue;
        for (const auto& inner : group) {
          if (run_test(inner, lookup) == answer) explain_test(inner, answer, out);
        }
        if (answer == Tri::kTrue) return;  // one group that holds is the reason
      }
      return;
    }
    if (run_test(t, lookup) != answer) return;
    const FactValue* v = acc_.facts.get(t.fact);
    std::string from = v ? v->source.what : "?";
    if (v && v->source.input >= 0 && static_cast<size_t>(v->source.input) < acc_.input_paths.size()) {
      from += fmt::format(" at {}:{}", std::filesystem::path(acc_.input_paths[v->source.input]).filename().string(),
                          v->source.line);
    }
    const std::string value = v ? v->value : "?";
    // "(from the worker entry at logs.json:12)", or "(derived from …)" for a fact no entry states
    const std::string cite =
        from.rfind("derived", 0) == 0 ? fmt::format("({})", from) : fmt::format("(from the {})", from);
    out.push_back(answer == Tri::kTrue
                      ? fmt::format("{} is {} {}", t.fact, value, cite)
                      : fmt::format("it needs {} {}, and the job's is {} {}", t.fact, t.text, value, cite));
  }

  RuleEvaluator(const JobAccumulator& acc, Analysis& out)
      : acc_(acc), out_(out), frameworks_(*acc.pack.frameworks), wrappers_(acc.pack.wrappers) {}

  void run() {
    for (const auto& rule : acc_.pack.rules) evaluate(rule);
    corroborate();
    std::sort(out_.findings.begin(), out_.findings.end(),
              [](const Finding& a, const Finding& b) { return a.rule_id < b.rule_id; });
    std::sort(out_.inconclusive.begin(), out_.inconclusive.end(),
              [](const Inconclusive& a, const Inconclusive& b) { return a.rule_id < b.rule_id; });
  }

 private:
  void inconclusive(const CompiledRule& rule, std::string reason) {
    out_.inconclusive.push_back(Inconclusive{rule.spec.info.id, rule.spec.info.title, std::move(reason)});
  }

  LegResult match_leg(const CompiledRule& rule);
  std::optional<Finding> absence_leg(const CompiledRule& rule);
  void evaluate(const CompiledRule& rule);
  Finding make_finding(const CompiledRule& rule, const std::vector<HitRef>& qualifying, int evidence_signal,
                       const std::string& via);
  void corroborate();

  const JobAccumulator& acc_;
  Analysis& out_;
  const FrameFilter& frameworks_;
  const Wrappers& wrappers_;
};

LegResult RuleEvaluator::match_leg(const CompiledRule& rule) {
  LegResult result;
  if (rule.match_signal < 0) return result;
  const SignalHits& hits = acc_.hits(rule.match_signal);
  if (hits.total == 0) return result;
  std::vector<HitRef> refs = hits.refs;
  const auto& spec = rule.spec;

  // `after` keeps the hits an anchor precedes, `not_after` those none does, `not_before` those
  // none follows (an entry that takes the hit back, such as a retry's "installing from the index").
  // An unknown order gives the hit the benefit every way: it counts. An anchor of the same instant
  // is in order either way: `bq` prints whole seconds, and a taking-back line follows its error
  // within milliseconds.
  // anchor_first: the anchor must come before the hit (`after`, `not_after`), else after it.
  const auto sequenced = [&](const AfterSpec& seq, int anchor_signal, const HitRef& h, bool unknown_order,
                             bool anchor_first) {
    const auto& anchors = acc_.hits(anchor_signal).refs;
    return std::any_of(anchors.begin(), anchors.end(), [&](const HitRef& a) {
      if (seq.same_worker && a.worker != h.worker) return false;
      if (a.at == kNoTime || h.at == kNoTime) return unknown_order;
      const Timestamp first = anchor_first ? a.at : h.at;
      const Timestamp then = anchor_first ? h.at : a.at;
      if (first > then) return false;
      if (seq.min && then - first < *seq.min) return false;
      return !seq.within || then - first <= *seq.within;
    });
  };
  if (spec.after) {
    std::erase_if(refs, [&](const HitRef& h) { return !sequenced(*spec.after, rule.after_signal, h, true, true); });
  }
  if (spec.not_after) {
    std::erase_if(refs,
                  [&](const HitRef& h) { return sequenced(*spec.not_after, rule.not_after_signal, h, false, true); });
  }
  if (spec.not_before) {
    std::erase_if(
        refs, [&](const HitRef& h) { return sequenced(*spec.not_before, rule.not_before_signal, h, false, false); });
  }

  if (spec.count) {
    const CountSpec& c = *spec.count;
    std::map<uint32_t, std::vector<HitRef>> groups;
    for (const auto& h : refs) groups[c.per_worker ? h.worker : 0].push_back(h);
    std::vector<HitRef> kept;
    if (c.percent > 0) {
      const double workers = static_cast<double>(acc_.workers_total());
      const auto needed = static_cast<size_t>(std::ceil(c.percent / 100.0 * workers));
      size_t with_hits = 0;
      for (const auto& [worker, g] : groups) with_hits += worker != 0 ? 1 : 0;
      if (workers > 0 && with_hits >= std::max<size_t>(needed, 1)) kept = refs;
    } else {
      // How much a run of hits counts: entries, or distinct workers / SDK processes among them.
      const auto amount = [&](const std::vector<HitRef>& g, size_t lo, size_t hi) -> size_t {
        if (c.distinct.empty()) return hi - lo;
        std::set<uint32_t> values;
        for (size_t i = lo; i < hi; ++i) values.insert(c.distinct == "worker" ? g[i].worker : g[i].sdk_worker);
        values.erase(0);
        return values.size();
      };
      for (const auto& [worker, g] : groups) {
        if (!c.within) {
          if (amount(g, 0, g.size()) >= c.at_least) kept.insert(kept.end(), g.begin(), g.end());
          continue;
        }
        // Sliding window over time-ordered hits: mark every hit inside a window that holds enough.
        std::vector<uint8_t> in(g.size(), 0);
        size_t lo = 0;
        for (size_t hi = 0; hi < g.size(); ++hi) {
          while (g[hi].at != kNoTime && g[lo].at != kNoTime && g[hi].at - g[lo].at > *c.within) ++lo;
          if (amount(g, lo, hi + 1) >= c.at_least)
            std::fill(in.begin() + static_cast<ptrdiff_t>(lo), in.begin() + static_cast<ptrdiff_t>(hi) + 1, 1);
        }
        for (size_t i = 0; i < g.size(); ++i) {
          if (in[i]) kept.push_back(g[i]);
        }
      }
    }
    std::sort(kept.begin(), kept.end(), earlier);
    refs = std::move(kept);
  }
  result.fired = !refs.empty();
  result.qualifying = std::move(refs);
  return result;
}

std::optional<Finding> RuleEvaluator::absence_leg(const CompiledRule& rule) {
  const AbsentSpec& a = *rule.spec.absent;
  std::string unknown;
  const Tri when = test_all(a.when, acc_.facts, &unknown);  // NOLINT
  if (when == Tri::kFalse || any_known_true(a.unless, acc_.facts)) return std::nullopt;
  if (when == Tri::kUnknown) {
    if (rule.spec.if_unknown == IfUnknown::kInconclusive) {
      inconclusive(rule, fmt::format("the export does not tell `{}`, which this check needs", unknown));
    }
    if (rule.spec.if_unknown != IfUnknown::kFire) return std::nullopt;
  }
  // An anchored absence starts at its anchor: without one the job never got there and the check
  // does not apply, whatever logs the export lacks (a job-message-only export is not "inconclusive"
  // about pip's resolver because it holds no worker-startup log).
  Timestamp start = acc_.earliest;
  std::vector<HitRef> start_refs;
  if (rule.absent_after_signal >= 0) {
    const auto& y = acc_.hits(rule.absent_after_signal).refs;
    if (y.empty()) return std::nullopt;
    start = y.front().at;
    start_refs.push_back(y.front());
  }
  if (!a.needs_logs.empty()) {
    const bool any = std::any_of(a.needs_logs.begin(), a.needs_logs.end(),
                                 [&](const std::string& log) { return acc_.logs.count(log) > 0; });
    if (!any) {
      inconclusive(rule, fmt::format("the export holds none of the logs that would show it ({})",
                                     fmt::join(a.needs_logs, ", ")));
      return std::nullopt;
    }
  }
  if (start == kNoTime) return std::nullopt;
  const Timestamp horizon = start + a.within;
  const auto& x = acc_.hits(rule.absent_signal).refs;
  const bool present =
      std::any_of(x.begin(), x.end(), [&](const HitRef& h) { return h.at == kNoTime || h.at <= horizon; });
  if (present) return std::nullopt;
  if (acc_.latest == kNoTime || acc_.latest < horizon) {
    inconclusive(rule, fmt::format("the export ends {} after the check starts ({}); it needs {}",
                                   format_duration(acc_.latest == kNoTime ? 0 : acc_.latest - start),
                                   format_rfc3339(start), format_duration(a.within)));
    return std::nullopt;
  }
  return make_finding(rule, start_refs, rule.absent_after_signal, "absence");
}

Finding RuleEvaluator::make_finding(const CompiledRule& rule, const std::vector<HitRef>& qualifying,
                                    int evidence_signal, const std::string& via) {
  const RuleInfo& info = rule.spec.info;
  Finding f;
  f.rule_id = info.id;
  f.family = info.family;
  f.family_role = acc_.pack.policy.role_of(info.family);
  f.generic = info.generic;
  f.severity = info.severity;
  f.confidence = info.confidence;
  f.via = via;
  f.explains = info.explains;
  std::set<uint32_t> workers;
  for (const auto& h : qualifying) {
    if (h.at != kNoTime) {
      if (f.first_seen == kNoTime || h.at < f.first_seen) f.first_seen = h.at;
      if (f.last_seen == kNoTime || h.at > f.last_seen) f.last_seen = h.at;
    }
    if (h.worker != 0) workers.insert(h.worker);
  }
  f.workers_total = workers.size();
  for (uint32_t w : workers) {
    if (!acc_.worker_name(w).empty()) f.workers.push_back(acc_.worker_name(w));
  }
  std::sort(f.workers.begin(), f.workers.end());
  if (f.workers.size() > kMaxListedWorkers) f.workers.resize(kMaxListedWorkers);
  if (evidence_signal >= 0) {
    const SignalHits& hits = acc_.hits(evidence_signal);
    const bool all = via == "match" && qualifying.size() == hits.refs.size();
    f.count = all ? hits.total : qualifying.size();
    f.logged_as_handled = all && hits.total > 0 && hits.logged_as_handled == hits.total;
    if (all && hits.distinct_workers()) f.workers_total = *hits.distinct_workers();  // past the refs kept
    std::set<std::pair<uint32_t, uint64_t>> keep;
    for (const auto& h : qualifying) keep.emplace(h.input, h.offset);
    std::vector<std::pair<HitRef, Evidence>> kept;
    for (const auto& [ref, evidence] : hits.evidence) {
      if (all || keep.count({ref.input, ref.offset})) kept.emplace_back(ref, evidence);
    }
    std::sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) { return earlier(a.first, b.first); });
    for (auto& [ref, evidence] : kept) f.evidence.push_back(std::move(evidence));
    merge_copies(f.evidence, wrappers_);
    for (auto& e : f.evidence) e.excerpt = excerpt_of(e, frameworks_);
    for (const auto& [name, values] : hits.captures) f.captures[name].assign(values.begin(), values.end());
  }
  // Weak evidence alone lowers the confidence (the pack's policy; by default it halves it).
  if (via == "match" && rule.weak_signal >= 0 && !qualifying.empty()) {
    std::set<std::pair<uint32_t, uint64_t>> weak;
    for (const auto& h : acc_.hits(rule.weak_signal).refs) weak.emplace(h.input, h.offset);
    const bool only_weak = std::all_of(qualifying.begin(), qualifying.end(), [&](const HitRef& h) {
      return weak.count({h.input, h.offset}) > 0;
    });
    if (only_weak) {
      f.confidence *= acc_.pack.policy.confidence.weak_only;
      f.confidence_note = "only weak evidence";
    }
  }
  FindingNumbers numbers{f.count, f.workers_total};
  if (f.first_seen != kNoTime && acc_.latest != kNoTime && acc_.latest >= f.first_seen)
    numbers.ran_after_ns = acc_.latest - f.first_seen;
  f.title = fill_placeholders(info.title, f.captures, acc_.facts, numbers);
  f.description = fill_placeholders(info.description, f.captures, acc_.facts, numbers);
  for (size_t i = 0; i < info.fixes.size(); ++i) {
    const FixInfo& fix = info.fixes[i];
    FindingFix ff{fix.id,
                  fill_fix_action(fix, f.captures, acc_.facts, numbers),
                  fill_placeholders(fix.why, f.captures, acc_.facts, numbers),
                  fix.weight,
                  false,
                  {},
                  fix.doc};
    ff.command = fill_fix_command(fix, f.captures, acc_.facts, numbers);
    for (const auto& t : fix.i18n) {
      ff.i18n.push_back({t.lang, fill_placeholders(t.action, f.captures, acc_.facts, numbers),
                         fill_placeholders(t.why, f.captures, acc_.facts, numbers)});
    }
    const auto& demote = rule.spec.fix_demote_tests[i];
    if (!demote.empty() && test_all(demote, acc_.facts) == Tri::kTrue) {
      ff.demoted = true;
      std::vector<std::string> why;
      for (const auto& t : demote) explain_test(t, Tri::kTrue, why);
      const std::string& state = rule.spec.fix_state_meaning[i];
      ff.demoted_because = state.empty() ? fmt::format("already in place: {}", fmt::join(why, "; "))
                                         : fmt::format("already in place: {} — {}", state, fmt::join(why, "; "));
    }
    const auto& needs = rule.spec.fix_needs_tests[i];
    if (!needs.empty() && test_all(needs, acc_.facts) == Tri::kFalse) {
      ff.not_applicable = true;
      std::vector<std::string> why;
      for (const auto& t : needs) explain_test(t, Tri::kFalse, why);
      ff.not_applicable_because = fmt::format("does not fit the job: {}", fmt::join(why, "; "));
    }
    f.fixes.push_back(std::move(ff));
  }
  // Stable across runs of the same job family: the rule and its identity captures, masked.
  FindingIdentity id = finding_identity(info.id, f.captures, info.identity);
  f.identity = std::move(id.identity);
  f.fingerprint = std::move(id.fingerprint);
  f.fingerprint_v2 = std::move(id.fingerprint_v2);
  f.legacy_fingerprint = std::move(id.fingerprint_v1);
  return f;
}

void RuleEvaluator::evaluate(const CompiledRule& rule) {
  const RuleSpec& spec = rule.spec;
  std::string unknown;
  const Tri when = test_all(spec.when, acc_.facts, &unknown);
  if (when == Tri::kFalse || any_known_true(spec.unless, acc_.facts)) return;
  bool penalize_unknown = false;
  if (when == Tri::kUnknown) {
    // Only worth saying when something in the logs pointed at the rule.
    const bool any_signal = rule.match_signal >= 0 && acc_.hits(rule.match_signal).total > 0;
    if (spec.if_unknown == IfUnknown::kInconclusive && (any_signal || (!spec.match && !spec.absent))) {
      inconclusive(rule, fmt::format("the export does not tell `{}`, which this rule needs", unknown));
    }
    if (spec.if_unknown != IfUnknown::kFire) return;
    penalize_unknown = true;
  }
  std::optional<Finding> finding;
  if (spec.match) {
    LegResult leg = match_leg(rule);
    if (leg.fired) finding = make_finding(rule, leg.qualifying, rule.match_signal, "match");
  }
  if (!finding && spec.absent) finding = absence_leg(rule);
  if (!finding && !spec.match && !spec.absent && when == Tri::kTrue) {
    finding = make_finding(rule, {}, -1, "facts");  // a configuration rule: the facts are the evidence
  }
  if (!finding) return;
  if (penalize_unknown) {
    finding->confidence *= acc_.pack.policy.confidence.unknown_fact;
    finding->confidence_note = fmt::format("`{}` is unknown", unknown);
  }
  out_.findings.push_back(std::move(*finding));
}

void RuleEvaluator::corroborate() {
  std::set<std::string> fired;
  for (const auto& f : out_.findings) fired.insert(f.rule_id);
  for (auto& f : out_.findings) {
    const int ri = acc_.pack.rule_index(f.rule_id);
    if (ri < 0) continue;
    std::vector<std::string> with;
    for (const auto& other : acc_.pack.rules[ri].spec.corroborated_by) {
      if (fired.count(other)) with.push_back(other);
    }
    if (with.empty()) continue;
    const ConfidencePolicy& policy = acc_.pack.policy.confidence;
    f.confidence = std::min(policy.ceiling, f.confidence + policy.per_corroboration * static_cast<double>(with.size()));
    const std::string note = fmt::format("corroborated by {}", fmt::join(with, ", "));
    f.confidence_note = f.confidence_note.empty() ? note : f.confidence_note + "; " + note;
  }
}

}  // namespace

namespace {

// One placeholder's value, nullopt when unknown (no capture, no fact, or the filter has no answer).
std::optional<std::string> placeholder_value(const Placeholder& p,
                                             const std::map<std::string, std::vector<std::string>>& captures,
                                             const JobFacts& facts, const FindingNumbers& numbers) {
  std::optional<std::string> value;
  if (p.name == "count") {
    value = std::to_string(numbers.count);
  } else if (p.name == "workers") {
    value = std::to_string(numbers.workers);
  } else if (p.name == "ran_after") {
    if (numbers.ran_after_ns >= 0) value = format_duration(numbers.ran_after_ns);
  } else if (auto it = captures.find(std::string(p.name)); it != captures.end() && !it->second.empty()) {
    const size_t shown = std::min<size_t>(it->second.size(), 5);
    std::vector<std::string> values(it->second.begin(), it->second.begin() + static_cast<ptrdiff_t>(shown));
    value = fmt::format("{}", fmt::join(values, ", "));
    if (it->second.size() > shown) *value += ", …";
  } else if (const FactValue* v = facts.get(p.name); v != nullptr && !v->value.empty()) {
    value = v->value;
  }
  if (!value || p.filter.empty()) return value;
  return apply_filter(p.filter, *value);
}

// `text` filled; nullopt when `all_known` and a placeholder is unknown, else unknown ones are `?`.
std::optional<std::string> fill(std::string_view text, const std::map<std::string, std::vector<std::string>>& captures,
                                const JobFacts& facts, const FindingNumbers& numbers, bool all_known) {
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  for (const Placeholder& p : placeholders_in(text)) {
    out.append(text.substr(pos, p.begin - pos));
    const auto value = placeholder_value(p, captures, facts, numbers);
    if (!value && all_known) return std::nullopt;
    out += value ? *value : "?";
    pos = p.end;
  }
  out.append(text.substr(pos));
  return out;
}

// `command` with each placeholder made literal shell text; nullopt when `all_known` and one is unknown.
std::optional<std::string> fill_command(std::string_view command,
                                        const std::map<std::string, std::vector<std::string>>& captures,
                                        const JobFacts& facts, const FindingNumbers& numbers, bool all_known) {
  // A command acts on one thing: a capture gives its first value, not the list prose shows.
  std::map<std::string, std::vector<std::string>> first;
  for (const auto& [name, values] : captures) {
    if (!values.empty()) first[name] = {values.front()};
  }
  ShellFiller out;
  size_t pos = 0;
  for (const Placeholder& p : placeholders_in(command)) {
    out.text(command.substr(pos, p.begin - pos));
    const auto value = placeholder_value(p, first, facts, numbers);
    if (!value && all_known) return std::nullopt;
    if (value) {
      out.value(*value);
    } else {
      std::string name(p.name);
      for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      out.text(name);
    }
    pos = p.end;
  }
  out.text(command.substr(pos));
  return out.result();
}

}  // namespace

std::string fill_fix_command(const FixInfo& fix, const std::map<std::string, std::vector<std::string>>& captures,
                             const JobFacts& facts, const FindingNumbers& numbers) {
  for (const auto& specific : fix.command_with_facts) {
    if (auto filled = fill_command(specific, captures, facts, numbers, true)) return *filled;
  }
  if (fix.command.empty()) return {};
  return *fill_command(fix.command, captures, facts, numbers, false);
}

std::string fill_placeholders(std::string_view text, const std::map<std::string, std::vector<std::string>>& captures,
                              const JobFacts& facts, const FindingNumbers& numbers) {
  return *fill(text, captures, facts, numbers, false);
}

std::string fill_fix_action(const FixInfo& fix, const std::map<std::string, std::vector<std::string>>& captures,
                            const JobFacts& facts, const FindingNumbers& numbers) {
  for (const auto& specific : fix.action_with_facts) {
    if (auto filled = fill(specific, captures, facts, numbers, true)) return *filled;
  }
  return fill_placeholders(fix.action, captures, facts, numbers);
}

void evaluate_rules(const JobAccumulator& acc, Analysis& out) {
  out.start = acc.earliest;
  out.end = acc.latest;
  for (const auto& [log, first] : acc.logs) out.logs_seen.push_back(log);
  const auto fact = [&](std::string_view name) {
    const FactValue* v = acc.facts.get(name);
    return v != nullptr ? v->value : std::string{};
  };
  out.job.id = fact("job_id");
  out.job.name = fact("job_name");
  out.job.project = fact("project");
  out.job.region = fact("region");
  out.job.entries = acc.entries;
  out.job.source = acc.source;
  if (const FactValue* v = acc.facts.get("outcome")) {
    if (auto o = parse_job_outcome(v->value)) {
      out.job.outcome = *o;
      out.job.outcome_source = v->source.what;
      if (v->source.input >= 0 && static_cast<size_t>(v->source.input) < acc.input_paths.size()) {
        out.job.outcome_source += fmt::format(
            " at {}:{}", std::filesystem::path(acc.input_paths[v->source.input]).filename().string(), v->source.line);
      }
    }
  }
  RuleEvaluator(acc, out).run();
  out.facts = acc.facts.list();
  out.phases = acc.observed.phases;
  out.worker_counts = acc.observed.worker_counts;
  out.rule_pack_hash = acc.pack.hash;
}

}  // namespace gpudiag::detail
