// Baseline files (docs/baseline.md): parsing with the YAML reader rule files use (gpudiag/yaml_tree.h),
// so every problem has a file:line:column, and applying one to a ranked report as a pure function.
#include "gpudiag/baseline.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>

#include "gpudiag/diagnostic_codes.h"
#include "gpudiag/report.h"
#include "gpudiag/yaml_tree.h"
#include "job_views.h"

namespace gpudiag {
namespace {

constexpr std::array<std::string_view, 2> kTopKeys = {"version", "suppress"};
constexpr std::array<std::string_view, 4> kEntryKeys = {"rule", "fingerprint", "reason", "expires"};
constexpr std::string_view kHelp = "see docs/baseline.md for the form of a baseline file";

bool is_date(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  const int year = std::stoi(std::string(s.substr(0, 4)));
  const int month = std::stoi(std::string(s.substr(5, 2)));
  const int day = std::stoi(std::string(s.substr(8, 2)));
  if (month < 1 || month > 12 || day < 1) return false;
  static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return day <= kDays[static_cast<size_t>(month - 1)] + (month == 2 && leap ? 1 : 0);
}

class BaselineReader {
 public:
  BaselineReader(std::string_view text, std::string_view file) : text_(text), file_(file) {}

  Baseline read() {
    Baseline out;
    out.file = file_;
    Result<yaml::Node> parsed = yaml::parse(text_, file_, {DiagnosticCode::kBaselineYaml, kHelp});
    if (!parsed.ok()) {
      problems_.push_back(parsed.error());
      return out;
    }
    const yaml::Node& root = *parsed;
    if (root.is_null()) return out;  // an empty file accepts nothing
    if (!root.is_map()) {
      error(root.at, code_name(DiagnosticCode::kBaselineType), "a baseline file is a mapping with a `suppress:` list");
      return out;
    }
    check_keys(root, kTopKeys, "the baseline file");
    if (const yaml::Node* v = root.get("version"); v && !(v->is_scalar() && v->scalar == "1")) {
      error(v->at, code_name(DiagnosticCode::kBaselineVersion),
            "unknown baseline version (this gpudiag reads version 1)");
    }
    const yaml::Node* list = root.get("suppress");
    if (!list || list->is_null()) return out;
    if (!list->is_seq()) {
      error(list->at, code_name(DiagnosticCode::kBaselineType), "`suppress` must be a list of entries");
      return out;
    }
    for (const yaml::Node& item : list->items) {
      if (auto entry = read_entry(item)) {
        const auto twin = std::find_if(out.entries.begin(), out.entries.end(), [&](const BaselineEntry& e) {
          return e.rule_id == entry->rule_id && e.fingerprint == entry->fingerprint;
        });
        if (twin != out.entries.end()) {
          error(item.at, code_name(DiagnosticCode::kBaselineDuplicate),
                fmt::format("the same finding is already accepted at line {}", twin->line), "keep one entry");
        } else {
          out.entries.push_back(std::move(*entry));
        }
      }
    }
    return out;
  }

  Diagnostics take_problems() { return std::move(problems_); }

 private:
  void error(yaml::Position at, std::string code, std::string message, std::string_view help = kHelp) {
    problems_.push_back(Diagnostic{.code = std::move(code),
                                   .message = std::move(message),
                                   .file = std::string(file_),
                                   .line = at.line,
                                   .column = at.column,
                                   .source_line = yaml::source_line(text_, at.line),
                                   .help = std::string(help)});
  }

  template <size_t N>
  void check_keys(const yaml::Node& map, const std::array<std::string_view, N>& allowed, std::string_view where) {
    for (const yaml::Node::Entry& entry : map.entries) {
      const std::string key = entry.first.is_scalar() ? entry.first.scalar : "";
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        error(entry.first.at, code_name(DiagnosticCode::kBaselineUnknownKey),
              fmt::format("unknown key `{}` in {}", key, where),
              fmt::format("the keys are {}", fmt::join(allowed, ", ")));
      }
    }
  }

  // A required (or optional) non-empty string.
  std::optional<std::string> text(const yaml::Node& entry, std::string_view key, bool required) {
    const yaml::Node* v = entry.get(key);
    if (!v || v->is_null()) {
      if (required)
        error(entry.at, code_name(DiagnosticCode::kBaselineMissing), fmt::format("the entry has no `{}`", key));
      return std::nullopt;
    }
    if (!v->is_scalar() || v->scalar.empty()) {
      error(v->at, code_name(DiagnosticCode::kBaselineType), fmt::format("`{}` must be a non-empty text", key));
      return std::nullopt;
    }
    return v->scalar;
  }

  std::optional<BaselineEntry> read_entry(const yaml::Node& item) {
    if (!item.is_map()) {
      error(item.at, code_name(DiagnosticCode::kBaselineType),
            "each entry is a mapping: rule, fingerprint, reason, expires");
      return std::nullopt;
    }
    const size_t before = problems_.size();
    check_keys(item, kEntryKeys, "a baseline entry");
    BaselineEntry e;
    e.line = std::max<uint64_t>(item.at.line, 1);
    e.rule_id = text(item, "rule", true).value_or("");
    e.fingerprint = text(item, "fingerprint", true).value_or("");
    e.reason = text(item, "reason", true).value_or("");
    e.expires = text(item, "expires", false).value_or("");
    if (!e.rule_id.empty() && !e.fingerprint.empty() && e.fingerprint.rfind(e.rule_id + "/", 0) != 0) {
      error(item.get("fingerprint")->at, code_name(DiagnosticCode::kBaselineFingerprint),
            fmt::format("fingerprint `{}` is not one of rule `{}`", e.fingerprint, e.rule_id),
            "copy both from the report (JSON `fingerprint`, SARIF partialFingerprints)");
    }
    if (!e.expires.empty() && !is_date(e.expires)) {
      error(item.get("expires")->at, code_name(DiagnosticCode::kBaselineDate),
            fmt::format("`{}` is not a date", e.expires), "write dates as YYYY-MM-DD");
    }
    if (problems_.size() != before) return std::nullopt;
    return e;
  }

  std::string_view text_;
  std::string_view file_;
  Diagnostics problems_;
};

}  // namespace

bool is_baseline_date(std::string_view s) { return is_date(s); }

Diagnostics lint_baseline(std::string_view text, std::string_view file) {
  BaselineReader reader(text, file);
  (void)reader.read();
  return reader.take_problems();
}

Result<Baseline> parse_baseline(std::string_view text, std::string_view file) {
  BaselineReader reader(text, file);
  Baseline baseline = reader.read();
  Diagnostics problems = reader.take_problems();
  if (!problems.empty()) return problems.front();
  return baseline;
}

std::string_view baseline_state_name(BaselineState s) {
  switch (s) {
    case BaselineState::kSuppressing:
      return "suppressing";
    case BaselineState::kExpired:
      return "expired";
    case BaselineState::kUnused:
      return "unused";
  }
  return "unused";
}

size_t BaselineReview::stale() const {
  return static_cast<size_t>(std::count_if(entries.begin(), entries.end(), [](const BaselineEntryReview& e) {
    return e.state != BaselineState::kSuppressing;
  }));
}

RankedReport apply_baseline(RankedReport report, const Baseline& baseline, std::string_view today) {
  BaselineReview review;
  review.file = baseline.file;
  for (const BaselineEntry& entry : baseline.entries) {
    const bool expired = !entry.expires.empty() && today > std::string_view(entry.expires);
    review.entries.push_back({entry, expired ? BaselineState::kExpired : BaselineState::kUnused, {}, {}});
  }
  // Today's fingerprints first, then the v2 and the v1 aliases, so that when a file names one
  // finding several ways the entry with the newest fingerprint is the one that suppresses (the
  // others show as unused).
  for (const int version : {3, 2, 1}) {
    for (size_t i = 0; i < review.entries.size(); ++i) {
      BaselineEntryReview& r = review.entries[i];
      const BaselineEntry& entry = r.entry;
      const bool expired = r.state == BaselineState::kExpired;
      for (RankedFinding& rf : report.findings) {
        const Finding& f = *rf.finding;
        const std::string& fingerprint = version == 3   ? f.fingerprint
                                         : version == 2 ? f.fingerprint_v2
                                                        : f.legacy_fingerprint;
        if (f.rule_id != entry.rule_id || fingerprint != entry.fingerprint) continue;
        // A rule without captures has the same fingerprint in every version: the pass of today's
        // version has matched it already (an expired entry would otherwise match it twice, and be
        // told to replace its fingerprint with itself).
        if (version != 3 && (fingerprint == f.fingerprint || (version == 1 && fingerprint == f.fingerprint_v2)))
          continue;
        r.matched.push_back(f.rule_id);
        if (rf.suppressed) continue;  // an earlier entry already accepts it
        if (version != 3) r.current_fingerprint = f.fingerprint;
        rf.baseline_entry = i;
        rf.suppressed = !expired;
        if (!expired) {
          r.state = BaselineState::kSuppressing;
          ++review.suppressed;
        }
      }
    }
  }
  // Unexplained error groups: an entry `rule: unexplained-error` with the group's fingerprint.
  for (size_t i = 0; i < review.entries.size(); ++i) {
    BaselineEntryReview& r = review.entries[i];
    for (RankedUnexplained& u : report.unexplained) {
      if (r.entry.rule_id != kUnexplainedRuleId || u.group->fingerprint != r.entry.fingerprint) continue;
      r.matched.push_back(r.entry.rule_id);
      if (u.suppressed) continue;
      u.baseline_entry = i;
      u.suppressed = r.state != BaselineState::kExpired;
      if (u.suppressed) {
        r.state = BaselineState::kSuppressing;
        ++review.suppressed;
      }
    }
  }
  // Each job is reviewed too; an entry that suppresses in any job is in use.
  for (auto& job : report.jobs) {
    job = apply_baseline(std::move(job), baseline, today);
    for (size_t i = 0; i < review.entries.size(); ++i) {
      const BaselineEntryReview& theirs = job.baseline->entries[i];
      BaselineEntryReview& ours = review.entries[i];
      if (theirs.state == BaselineState::kSuppressing && ours.state == BaselineState::kUnused) {
        ours.state = BaselineState::kSuppressing;
        ours.matched = theirs.matched;
      }
    }
  }
  report.baseline = std::move(review);
  return report;
}

std::string baseline_refresh_note(const BaselineReview& review) {
  std::vector<std::string> lines;
  for (const auto& e : review.entries) {
    if (!e.current_fingerprint.empty()) {
      lines.push_back(fmt::format("  line {}: {} -> {}\n", e.entry.line, e.entry.fingerprint, e.current_fingerprint));
    }
  }
  if (lines.empty()) return "";
  return fmt::format(
      "gpudiag: note: {} uses old (v1 or v2) fingerprints, from before `identity:` and masks (v3); they still match "
      "for now, "
      "but write these instead (docs/upgrading.md):\n{}",
      review.file, fmt::join(lines, ""));
}

bool counts_for_gate(const RankedFinding& rf, Impact threshold) {
  return !rf.suppressed && !(rf.history && rf.history->gate_ignores) && rf.finding->severity >= threshold;
}

bool trips_gate(const RankedReport& report, Impact threshold) {
  // Several jobs: the gate trips when any job in scope trips (the top-level findings are the worst
  // job's, which is one of them).
  if (report.jobs.size() > 1) {
    if (detail::unlisted_jobs_trip(report, threshold)) return true;
    return std::any_of(report.jobs.begin(), report.jobs.end(),
                       [&](const RankedReport& job) { return trips_gate(job, threshold); });
  }
  return std::any_of(report.findings.begin(), report.findings.end(),
                     [&](const RankedFinding& rf) { return counts_for_gate(rf, threshold); }) ||
         std::any_of(report.unexplained.begin(), report.unexplained.end(),
                     [&](const RankedUnexplained& u) { return counts_for_gate(u, threshold); });
}

bool counts_for_gate(const RankedUnexplained& u, Impact threshold) {
  return !u.suppressed && !u.gate_ignores && u.severity() >= threshold;
}

}  // namespace gpudiag
