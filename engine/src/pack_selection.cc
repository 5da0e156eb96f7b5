#include "gpudiag/pack_selection.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include "facts/facts.h"
#include "pack/pack.h"
#include "unexplained/unexplained.h"

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
  for (const auto& f : pack.policy.line_formats) {
    if (auto p = detail::LineFormats::screen_of(f, /*below_error=*/true)) s.demoting_prefixes.push_back(std::move(*p));
  }
  s.traceback_markers.assign(detail::kTracebackMarkers.begin(), detail::kTracebackMarkers.end());
  s.fragment_logs.assign(detail::kFragmentLogs.begin(), detail::kFragmentLogs.end());
  // The starts as literals, an indented line, or an exception line.
  std::string starts;
  for (std::string_view start : detail::kFragmentStarts) {
    if (!starts.empty()) starts += '|';
    starts += RE2::QuoteMeta(re2::StringPiece(start.data(), start.size()));
  }
  s.fragment_pattern = fmt::format("^(?:{})|^[ \\t]+[^ \\t]|{}", starts, detail::kExceptionLine);
  // The pack's line formats as they read an error, or a line without a level (a relayed traceback's
  // piece), their named groups plain (BigQuery's REGEXP_CONTAINS names none).
  for (const auto& f : pack.policy.line_formats) {
    if (auto p = detail::LineFormats::screen_of(f, /*below_error=*/false)) s.line_formats.push_back(std::move(*p));
  }
  return s;
}

// Whether every entry the extractor's match holds on sets the same facts, so that a job's first
// entry gives each fact's value (a later one of the same priority only adds a source): no decoder
// (a decoded dict sets what it names), and each `set` template is literal, or only groups of which
// one takes part in every match (`{version}{version2}` over two branches), or literal text with
// groups that each always take part. The groups are looked for in the patterns every match passes.
bool sets_the_same_facts(const detail::FactExtractorSpec& x, const SelectionFilter& filter) {
  if (x.decoder != detail::Decoder::kNone) return false;
  std::vector<std::string_view> patterns;
  if (filter.kind == SelectionFilter::Kind::kRegex) patterns.push_back(filter.regex);
  if (filter.kind == SelectionFilter::Kind::kAll) {
    for (const auto& child : filter.children) {
      if (child.kind == SelectionFilter::Kind::kRegex) patterns.push_back(child.regex);
    }
  }
  const auto takes_part = [&](const std::set<std::string, std::less<>>& groups) {
    return std::any_of(patterns.begin(), patterns.end(),
                       [&](std::string_view p) { return detail::some_group_takes_part(p, groups); });
  };
  for (const auto& a : x.sets) {
    const std::vector<std::string> names = detail::template_groups(a.value);
    if (names.empty()) continue;
    if (detail::expand_template(a.value, {}).empty()) {
      if (!takes_part({names.begin(), names.end()})) return false;
      continue;
    }
    for (const auto& name : names) {
      if (!takes_part({name})) return false;
    }
  }
  return true;
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
    // the first of each is enough. A fact keeps its first value of the strongest priority and
    // lists its first sources: of an extractor whose every entry sets the same facts the first
    // entry is enough, of another (a decoder, an optional group) the first five; the summary row
    // counts the rest (sources_total). A phase or a worker count is a point on the timeline:
    // every entry.
    if (exact && (s.role == detail::SignalRole::kAbsentStart || s.role == detail::SignalRole::kAbsentMarker)) {
      sc.per_job = 1;
    }
    if (exact && s.role == detail::SignalRole::kObserver) {
      const auto& x = c.extractors[static_cast<size_t>(s.extractor)];
      if (x.phase.empty() && x.worker_count.empty()) {
        sc.per_job = sets_the_same_facts(x, sc.filter) ? 1 : detail::FactValue::kMaxSightings;
        sc.counted = x.id;
      }
    }
    out.conditions.push_back(std::move(sc));
  }
  out.candidates = candidate_screen(c);
  // The job's own account (its phases, its outcome, the errors the service reports): every entry.
  out.whole_logs = {"job-message"};
  return out;
}

}  // namespace gpudiag
