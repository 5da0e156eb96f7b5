// LocalSelection: the WHERE clause of compile_sql, on LogRecords. It mirrors the SQL text's
// reading (sql_query.cc), not the engine's: a test compares the two on the corpus.
#include <re2/re2.h>

#include <map>

#include "gpudiag/log_record.h"
#include "gpudiag/sql_query.h"

namespace gpudiag {

struct LocalSelection::Impl {
  const PackSelection selection;
  mutable std::map<std::string, std::unique_ptr<RE2>> regexes;
  // Per job and limited condition, the entries it held on so far (the query's ROW_NUMBER()).
  mutable std::map<std::pair<std::string, size_t>, size_t> seen;

  const RE2& re(const std::string& pattern) const {
    auto& slot = regexes[pattern];
    if (!slot) {
      RE2::Options o;
      o.set_log_errors(false);
      slot = std::make_unique<RE2>(pattern, o);
    }
    return *slot;
  }

  bool search(std::string_view text, const std::string& pattern) const {
    return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), re(pattern));
  }

  static std::string_view value(const LogRecord& r, SelectField f, const std::string& label_key) {
    switch (f) {
      case SelectField::kText:
      case SelectField::kMessage:
        return r.message;
      case SelectField::kException:
        return r.exception;
      case SelectField::kLog:
        return r.log;
      case SelectField::kSeverity:
        return severity_name(r.severity);
      case SelectField::kWorker:
        return r.worker;
      case SelectField::kLogger:
        return r.logger;
      case SelectField::kThread:
        return r.thread;
      case SelectField::kStep:
        return r.step;
      case SelectField::kSdkWorker:
        return r.sdk_worker;
      case SelectField::kJobId:
        return r.job_id;
      case SelectField::kJobName:
        return r.job_name;
      case SelectField::kRegion:
        return r.region;
      case SelectField::kResourceType:
        return r.resource_type;
      case SelectField::kLabel:
        return r.label(label_key);
    }
    return {};
  }

  bool holds(const SelectionFilter& f, const LogRecord& r) const {
    switch (f.kind) {
      case SelectionFilter::Kind::kAny:
        return true;
      case SelectionFilter::Kind::kRegex:
        if (f.field == SelectField::kText) return search(r.message, f.regex) || search(r.exception, f.regex);
        return search(value(r, f.field, f.label_key), f.regex);
      case SelectionFilter::Kind::kNames:
        if (f.field == SelectField::kSeverity) {
          for (const auto& n : f.names) {
            if (parse_severity(n) == r.severity) return true;
          }
          return false;
        }
        for (const auto& n : f.names) {
          if (value(r, f.field, f.label_key) == n) return true;
        }
        return false;
      case SelectionFilter::Kind::kSeverityAtLeast:
        return r.severity >= f.min_severity;
      case SelectionFilter::Kind::kAll:
        for (const auto& c : f.children) {
          if (!holds(c, r)) return false;
        }
        return true;
      case SelectionFilter::Kind::kOneOf:
        for (const auto& c : f.children) {
          if (holds(c, r)) return true;
        }
        return false;
      case SelectionFilter::Kind::kNone:
        for (const auto& c : f.children) {
          if (holds(c, r)) return false;
        }
        return true;
    }
    return false;
  }

  bool candidate(const LogRecord& r) const {
    const CandidateScreen& s = selection.candidates;
    bool traceback = false;
    for (const auto& m : s.traceback_markers) {
      traceback =
          traceback || r.message.find(m) != std::string_view::npos || r.exception.find(m) != std::string_view::npos;
    }
    const std::string_view first = r.message.substr(0, r.message.find('\n'));
    bool benign = false;
    for (const auto& p : s.benign_errors) benign = benign || search(first, p);
    bool demoted = false;
    for (const auto& p : s.demoting_prefixes) demoted = demoted || search(r.message, p);
    if (r.severity >= s.min_severity && !benign && (!demoted || traceback)) return true;
    if (traceback && !benign) return true;
    for (const auto& l : s.fragment_logs) {
      if (r.log == l && r.exception.empty() && r.message.find('\n') == std::string_view::npos &&
          search(r.message, s.fragment_pattern)) {
        return true;
      }
    }
    if (r.exception.empty() && r.message.find('\n') == std::string_view::npos) {
      for (const auto& p : s.line_formats) {
        if (search(r.message, p)) return true;
      }
    }
    return false;
  }
};

LocalSelection::LocalSelection(const PackSelection& selection) : impl_(new Impl{selection, {}}) {}
LocalSelection::LocalSelection(LocalSelection&&) noexcept = default;
LocalSelection::~LocalSelection() = default;

bool LocalSelection::picks(const LogRecord& r) const { return reason(r) != kNotPicked; }

int LocalSelection::reason(const LogRecord& r) const {
  // In the query's order of evaluation: every limited condition counts the entry, picked or not.
  const auto& conditions = impl_->selection.conditions;
  int limited = kNotPicked;
  for (size_t i = 0; i < conditions.size(); ++i) {
    if (conditions[i].per_job == 0 || !impl_->holds(conditions[i].filter, r)) continue;
    const size_t n = ++impl_->seen[{std::string(r.job_id), i}];
    if (n <= conditions[i].per_job && limited == kNotPicked) limited = static_cast<int>(i);
  }
  for (const auto& l : impl_->selection.whole_logs) {
    if (r.log == l) return kWholeLog;
  }
  for (size_t i = 0; i < conditions.size(); ++i) {
    if (conditions[i].per_job == 0 && impl_->holds(conditions[i].filter, r)) return static_cast<int>(i);
  }
  if (impl_->candidate(r)) return kCandidate;
  return limited;
}

}  // namespace gpudiag
