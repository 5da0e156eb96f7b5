// PackSelection: what the diagnosis reads of a log, from a loaded RulePack — every record condition
// (a rule's match, weak, after and absent conditions, each fact extractor's match) as a filter tree
// over LogRecord fields, and the screen the errors no rule explains are taken by. `gpudiag sql`
// compiles it into the WHERE clause of one query (docs/sql.md), so a user rule in --rules DIR is
// selected as a built-in one is; no pattern is written a second time.
//
//   PackSelection s = pack_selection(pack);
//   for (const SelectedCondition& c : s.conditions) … c.filter …
//
// A filter is a necessary condition: every record the condition can hold on passes it. The one
// part a filter cannot say, a test on captured groups, is left out, which keeps it a superset;
// the filter is then not `exact`.
#pragma once

#include <string>
#include <vector>

#include "gpudiag/rule_pack.h"
#include "gpudiag/severity.h"

namespace gpudiag {

// The LogRecord fields a filter reads (ingest's names: gpudiag/entry_fields.h).
enum class SelectField : uint8_t {
  kText,  // the message or the exception: either one
  kMessage,
  kException,
  kLog,
  kSeverity,
  kWorker,
  kLogger,
  kThread,
  kStep,
  kSdkWorker,
  kJobId,
  kJobName,
  kRegion,
  kResourceType,
  kLabel,  // labels[label_key]
};
std::string_view select_field_name(SelectField f);  // "message", "exception", "text", "log" …

struct SelectionFilter {
  enum class Kind : uint8_t {
    kAny,              // true: no filter (an `all` of nothing)
    kAll,              // every child
    kOneOf,            // any child
    kNone,             // no child (a `not`)
    kRegex,            // RE2 `regex` searched in `field` (kText: the message or the exception)
    kNames,            // `field` equals one of `names`
    kSeverityAtLeast,  // severity >= min_severity
  };
  Kind kind = Kind::kAny;
  SelectField field = SelectField::kText;
  std::string label_key;
  std::string regex;
  std::vector<std::string> names;
  Severity min_severity = Severity::kDefault;
  std::vector<SelectionFilter> children;
};

struct SelectedCondition {
  std::string source;  // "rule gpu-out-of-memory match", "fact extractor gpu-driver-version match"
  SelectionFilter filter;
  bool exact = true;  // the filter holds exactly where the condition does
  // 0: the diagnosis reads every entry the condition holds on; N: only the job's first N by time
  // (an absence's start and its markers: the first; a fact: its first sightings). Only for exact
  // filters: of a superset the first N might all fail the condition.
  size_t per_job = 0;
  // Non-empty: the diagnosis reads a job's first entries (per_job) but counts every entry the
  // condition holds on, so the query's summary row carries that count under this key (a fact
  // extractor's id: its facts' sources_total; docs/sql.md, "Summary rows").
  std::string counted;
};

// engine/src/unexplained/error_candidates.cc's screen(), as data: an entry can be a candidate only if
//  (a) its severity is at least `min_severity`, the first line of its message matches no
//      `benign_errors` pattern, and its message does not start with a `demoting_prefixes` pattern
//      (a glog/absl or Python logging prefix below ERROR) unless it holds a traceback; or
//  (b) it holds a traceback (its message or exception contains a `traceback_markers` string) and
//      the first line of its message matches no `benign_errors` pattern; or
//  (c) it is in one of `fragment_logs`, has no exception, its message is one line and matches
//      `fragment_pattern` (a one-line piece of a traceback the launcher logs below ERROR); or
//  (d) it has no exception, its message is one line and matches a `line_formats` pattern (another
//      program's line, such as a model server's output Beam relays at INFO, whose own level the
//      screen reads: a superset of the entries it takes).
struct CandidateScreen {
  Severity min_severity = Severity::kError;
  std::vector<std::string> benign_errors;      // RE2, over the message's first line
  std::vector<std::string> demoting_prefixes;  // RE2, anchored at the message's start
  std::vector<std::string> traceback_markers;  // literal strings
  std::vector<std::string> fragment_logs;      // short log names
  std::string fragment_pattern;                // RE2 over the whole (one-line) message
  std::vector<std::string> line_formats;       // RE2, anchored at the message's start, no named groups
};

struct PackSelection {
  std::vector<SelectedCondition> conditions;
  CandidateScreen candidates;
  // Logs whose every entry the diagnosis reads (the job messages: the job's own account).
  std::vector<std::string> whole_logs;
};

PackSelection pack_selection(const RulePack& pack);

}  // namespace gpudiag
