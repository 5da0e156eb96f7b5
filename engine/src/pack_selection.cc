#include "gpudiag/pack_selection.h"

#include <fmt/format.h>

#include "compiled_rule_pack.h"
#include "error_candidates.h"
#include "job_facts.h"

namespace gpudiag {
namespace {

using detail::CompiledCondition;
using detail::ConditionSpec;
using detail::Field;

SelectionFilter any_record() { return {}; }

// The node as a necessary condition: what cannot be said as a filter (a `not`, a test on captured
// groups) becomes "any record", and an `all` or `any` over such parts shrinks accordingly.
SelectionFilter filter_of(const detail::CompiledRulePack& pack, const CompiledCondition& c, int node, bool& exact) {
  const auto& n = c.nodes[static_cast<size_t>(node)];
  SelectionFilter f;
  f.field = n.field;
  f.label_key = n.label_key;
  switch (n.kind) {
    case ConditionSpec::Kind::kRegex:
      f.kind = SelectionFilter::Kind::kRegex;
      f.field = pack.patterns[static_cast<size_t>(n.pattern)].field;
      f.label_key = pack.patterns[static_cast<size_t>(n.pattern)].label_key;
      f.regex = pack.patterns[static_cast<size_t>(n.pattern)].regex;
      return f;
    case ConditionSpec::Kind::kOneOf:
      f.kind = SelectionFilter::Kind::kNames;
      f.names = n.names;
      return f;
    case ConditionSpec::Kind::kSeverityAtLeast:
      f.kind = SelectionFilter::Kind::kSeverityAtLeast;
      f.field = SelectField::kSeverity;
      f.min_severity = n.min_severity;
      return f;
    case ConditionSpec::Kind::kAll: {
      f.kind = SelectionFilter::Kind::kAll;
      for (int child : n.children) {
        SelectionFilter g = filter_of(pack, c, child, exact);
        if (g.kind != SelectionFilter::Kind::kAny) f.children.push_back(std::move(g));
      }
      if (f.children.empty()) return any_record();
      if (f.children.size() == 1) return std::move(f.children.front());
      return f;
    }
    case ConditionSpec::Kind::kAny: {
      f.kind = SelectionFilter::Kind::kOneOf;
      for (int child : n.children) {
        SelectionFilter g = filter_of(pack, c, child, exact);
        if (g.kind == SelectionFilter::Kind::kAny) return any_record();
        f.children.push_back(std::move(g));
      }
      if (f.children.size() == 1) return std::move(f.children.front());
      return f;
    }
    case ConditionSpec::Kind::kNot: {
      f.kind = SelectionFilter::Kind::kNone;
      for (int child : n.children) {
        bool child_exact = true;
        SelectionFilter g = filter_of(pack, c, child, child_exact);
        // A superset negated is a subset: a `not` over what a filter cannot say is left out.
        if (!child_exact || g.kind == SelectionFilter::Kind::kAny) {
          exact = false;
          return any_record();
        }
        f.children.push_back(std::move(g));
      }
      return f;
    }
    case ConditionSpec::Kind::kCaptureTest:
      exact = false;
      return any_record();
  }
  return any_record();
}

std::string_view role_name(detail::SignalRole role) {
  switch (role) {
    case detail::SignalRole::kEvidence:
      return "match";
    case detail::SignalRole::kWeak:
      return "weak";
    case detail::SignalRole::kAfter:
      return "after";
    case detail::SignalRole::kAbsentMarker:
      return "absent";
    case detail::SignalRole::kAbsentStart:
      return "absent.after";
    case detail::SignalRole::kObserver:
      return "match";
  }
  return "?";
}

CandidateScreen candidate_screen(const detail::CompiledRulePack& pack) {
  CandidateScreen s;
  s.min_severity = Severity::kError;
  s.benign_errors = pack.policy.benign_errors;
  std::string glog_letters;
  for (const auto& row : detail::kGlogLevels) {
    if (row.value < Severity::kError) glog_letters += row.name;
  }
  s.demoting_prefixes.push_back(fmt::format("{}[{}]{}", detail::kGlogHead, glog_letters, detail::kGlogTail));
  std::string words;
  for (const auto& row : detail::kPythonLevels) {
    if (row.value < Severity::kError) words += fmt::format("{}{}", words.empty() ? "" : "|", row.name);
  }
  s.demoting_prefixes.push_back(fmt::format("^(?:{}){}", words, detail::kPythonLevelTail));
  s.traceback_markers.assign(detail::kTracebackMarkers.begin(), detail::kTracebackMarkers.end());
  s.fragment_logs.assign(detail::kFragmentLogs.begin(), detail::kFragmentLogs.end());
  // The starts as literals, an indented line, or an exception line.
  std::string starts;
  for (std::string_view start : detail::kFragmentStarts) {
    if (!starts.empty()) starts += '|';
    starts += RE2::QuoteMeta(re2::StringPiece(start.data(), start.size()));
  }
  s.fragment_pattern = fmt::format("^(?:{})|^[ \\t]+[^ \\t]|{}", starts, detail::kExceptionLine);
  return s;
}

}  // namespace

std::string_view select_field_name(SelectField f) { return detail::field_name(f); }

PackSelection pack_selection(const RulePack& pack) {
  const detail::CompiledRulePack& c = detail::compiled(pack);
  PackSelection out;
  for (const detail::Signal& s : c.signals) {
    SelectedCondition sc;
    if (s.role == detail::SignalRole::kObserver) {
      sc.source = fmt::format("fact extractor {} match", c.extractors[static_cast<size_t>(s.extractor)].id);
    } else {
      sc.source = fmt::format("rule {} {}", c.rules[static_cast<size_t>(s.rule)].spec.info.id, role_name(s.role));
    }
    bool exact = true;
    sc.filter = filter_of(c, s.condition, 0, exact);
    sc.exact = exact;
    // What the evaluator reads of these roles (evaluator.cc absence_leg, job_facts.h): an absence
    // starts at the first start hit and holds unless some marker comes before its horizon, so
    // the first of each is enough; a fact keeps its first sightings, unless it is a point on the
    // timeline (a phase, a worker count).
    if (exact && (s.role == detail::SignalRole::kAbsentStart || s.role == detail::SignalRole::kAbsentMarker)) {
      sc.per_job = 1;
    }
    if (exact && s.role == detail::SignalRole::kObserver) {
      const auto& x = c.extractors[static_cast<size_t>(s.extractor)];
      if (x.phase.empty() && x.worker_count.empty()) sc.per_job = detail::FactValue::kMaxSightings;
    }
    out.conditions.push_back(std::move(sc));
  }
  out.candidates = candidate_screen(c);
  // The job's own account (its phases, its outcome, the errors the service reports): every entry.
  out.whole_logs = {"job-message"};
  return out;
}

}  // namespace gpudiag
