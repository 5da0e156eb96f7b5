// Ranking: root causes first with their symptoms folded under them, then one job-wide list of fixes
// where a fix proposed by several findings appears once with every reason.
#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "gpudiag/diagnostic_codes.h"
#include "gpudiag/report.h"
#include "wording.h"

namespace gpudiag {
namespace {

double impact_weight(Impact i) {
  switch (i) {
    case Impact::kCritical:
      return 4;
    case Impact::kError:
      return 3;
    case Impact::kWarning:
      return 2;
    case Impact::kInfo:
      return 1;
  }
  return 1;
}

// Root order: real causes before generic symptoms, then worse, surer, earlier.
bool ranks_before(const Finding& a, const Finding& b) {
  const bool as = a.family_role == FamilyRole::kSymptom, bs = b.family_role == FamilyRole::kSymptom;
  if (as != bs) return !as;
  if (a.severity != b.severity) return a.severity > b.severity;
  if (a.confidence != b.confidence) return a.confidence > b.confidence;
  if (a.first_seen != b.first_seen) {
    if (a.first_seen == kNoTime) return false;
    if (b.first_seen == kNoTime) return true;
    return a.first_seen < b.first_seen;
  }
  return a.rule_id < b.rule_id;
}

bool shares_worker(const Finding& a, const Finding& b) {
  for (const auto& w : a.workers) {
    if (std::binary_search(b.workers.begin(), b.workers.end(), w)) return true;
  }
  return false;
}

// Can `cause` explain `symptom`? It must say so, and have been seen no later than the symptom's
// last entry, or on the same worker.
bool explains(const Finding& cause, const Finding& symptom) {
  if (&cause == &symptom) return false;
  if (std::find(cause.explains.begin(), cause.explains.end(), symptom.rule_id) == cause.explains.end()) return false;
  if (cause.first_seen == kNoTime || symptom.last_seen == kNoTime) return true;
  return cause.first_seen <= symptom.last_seen || shares_worker(cause, symptom);
}

// The finding's fixes that fit the job, best first (the rest go to `not_applicable`).
std::vector<FindingFix> order_fixes(const Finding& f, std::vector<std::string>& reasons,
                                    std::vector<FindingFix>& not_applicable) {
  std::vector<FindingFix> fixes;
  for (const auto& fix : f.fixes) (fix.not_applicable ? not_applicable : fixes).push_back(fix);
  std::stable_sort(fixes.begin(), fixes.end(), [](const FindingFix& a, const FindingFix& b) {
    if (a.demoted != b.demoted) return !a.demoted;
    return a.weight > b.weight;
  });
  for (const auto& fix : fixes) {
    reasons.push_back(fix.demoted ? fix.demoted_because
                                  : fmt::format("weight {} among the fixes for {}", fix.weight, f.rule_id));
  }
  return fixes;
}

// Short names of logs only Dataflow writes (dataflow.googleapis.com/…); kubelet, docker and system
// are left out: other resources write logs of those names too.
constexpr std::array<std::string_view, 10> kDataflowLogs{
    "job-message", "worker",           "harness",   "harness-startup", "worker-startup",
    "shuffler",    "shuffler-startup", "vm-health", "vm-monitor",      "launcher"};

std::string empty_verdict_line(const Analysis& d) {
  constexpr std::string_view kWhy =
      "`gcloud logging read` looks back one day unless given --freshness (default 1d), or the filter matched "
      "nothing (a job id or resource.type typo)";
  if (d.entries == 0) {
    for (const auto& in : d.inputs) {  // a damaged input (a corrupt gzip) says so, not the filter
      if (in.problems.empty() || in.shape != ExportShape::kUnknown) continue;
      return fmt::format("EMPTY — no log entry could be read ({}); if the export step worked, {}",
                         in.problems.front().message, kWhy);
    }
    return fmt::format("EMPTY — the export holds no log entries: {}", kWhy);
  }
  if (d.analysed == 0) {
    return fmt::format("EMPTY — none of the {} entries could be analysed (see the input problems)", d.entries);
  }
  return fmt::format(
      "EMPTY — none of the {} entries belongs to a Dataflow job (no job_id label, no Dataflow log): the filter "
      "selected other resources; resource.type=\"dataflow_step\" AND resource.labels.job_id=\"JOB\" selects one job",
      d.analysed);
}

// What the verdict line says of inputs not read in full (docs/formats.md, "Input problems"): an
// input cut or stopped part way is "incomplete" with where, one never read is counted.
std::string unread_note(const Analysis& whole) {
  std::vector<std::string> parts;
  size_t never_read = whole.input_errors.size();
  std::vector<std::string> cuts;
  for (const auto& in : whole.inputs) {
    if (!in.not_read_in_full) continue;
    --never_read;
    const Diagnostic& e = *in.not_read_in_full;
    const std::string at = e.byte >= 0 ? fmt::format(" at byte {}", e.byte) : "";
    std::string what = e.code == code_name(DiagnosticCode::kGzipTruncated)      ? "gzip stream cut" + at
                       : e.code == code_name(DiagnosticCode::kGzipCorrupt)      ? "gzip stream damaged" + at
                       : e.code == code_name(DiagnosticCode::kInputTruncated)   ? "export cut" + at
                       : e.code == code_name(DiagnosticCode::kInputInterrupted) ? e.message
                                                                                : "reading stopped" + at;
    cuts.push_back(whole.inputs.size() > 1 ? fmt::format("{}: {}", in.path, what) : what);
  }
  if (!cuts.empty()) {
    parts.push_back(fmt::format("input{} incomplete: {}", cuts.size() == 1 ? "" : "s", fmt::join(cuts, "; ")));
  }
  if (never_read > 0) {
    parts.push_back(fmt::format("{} of {} input{} could not be read", never_read, whole.inputs.size(),
                                whole.inputs.size() == 1 ? "" : "s"));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

}  // namespace

bool holds_dataflow_job(const Analysis& d) {
  if (d.preflight) return true;                             // a job's launch options, before there are logs
  if (d.analysed == 0 && d.job.entries == 0) return false;  // a job's own Analysis counts its entries
  if (!d.job.id.empty() || !d.job.other_ids.empty()) return true;
  return std::any_of(d.logs_seen.begin(), d.logs_seen.end(), [](const std::string& log) {
    return std::find(kDataflowLogs.begin(), kDataflowLogs.end(), log) != kDataflowLogs.end();
  });
}

std::string gate_refusal(const RankedReport& report, bool allow_empty) {
  const Analysis& d = *report.analysis;
  if (!d.input_errors.empty()) {
    return unread_note(d);
  }
  if (report.verdict == Verdict::kEmpty && !allow_empty) {
    return "the export holds no entry of a Dataflow job (--allow-empty lets an empty export pass)";
  }
  return "";
}

namespace {

// Whether an unexplained error group at error explains a symptom or generic finding: the finding
// came later, or on a worker the group's error was on, or its text names the group's exception
// (work-item-failed's "Root cause:" line).
bool group_explains(const UnexplainedGroup& g, const Finding& f) {
  if (g.severity < Impact::kError || (f.family_role != FamilyRole::kSymptom && !f.generic)) return false;
  if (g.first_seen != kNoTime && f.first_seen != kNoTime && g.first_seen <= f.first_seen) return true;
  for (const auto& w : f.workers) {
    if (std::binary_search(g.workers.begin(), g.workers.end(), w)) return true;
  }
  if (g.exception_type.empty()) return false;
  return std::any_of(f.evidence.begin(), f.evidence.end(), [&](const Evidence& e) {
    return e.entry->message.find(g.exception_type) != std::string_view::npos;
  });
}

}  // namespace

namespace {

// At most `n` bytes of `s`, cut after a word (at a blank) with "…" when it is longer: a headline
// names the failure without ending in half a word. Without a blank in reach, cut at a UTF-8 boundary.
std::string cut_at_word(std::string_view s, size_t n) {
  if (s.size() <= n) return std::string(s);
  size_t cut = s.rfind(' ', n);
  if (cut == std::string_view::npos || cut < n / 2) {
    cut = n;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
  }
  while (cut > 0 && (s[cut - 1] == ' ' || s[cut - 1] == ',' || s[cut - 1] == ';' || s[cut - 1] == ':')) --cut;
  return std::string(s.substr(0, cut)) + "…";
}

// An exception line without Beam's step suffix (the step is said apart).
std::string_view without_step_suffix(std::string_view line) {
  const size_t at = line.find(" [while running '");
  return at == std::string_view::npos ? line : line.substr(0, at);
}

// Java's chained exception line without its "Caused by: " (the headline says what, not how it was printed).
std::string_view without_caused_by(std::string_view line) {
  return line.substr(0, 11) == "Caused by: " ? line.substr(11) : line;
}

}  // namespace

// What failed, then where (docs/unexplained.md, "Headline"): the most specific line — the cause
// found below a generic error, else the exception line, else the line — cut at a word, then the
// user's file:line, function and step in parentheses. Never empty.
std::string unexplained_headline(const UnexplainedGroup& g) {
  std::string out;
  if (!g.cause.empty()) {
    // A cause is what the reader came for: more of it is kept than of an exception line.
    out = cut_at_word(without_caused_by(without_step_suffix(g.cause)), 220);
    const std::string_view own = g.exception_type.empty() ? without_step_suffix(g.exception) : g.exception_type;
    if (!own.empty()) out += " — raised as " + cut_at_word(own, 60);
  } else if (!g.exception.empty()) {
    out = cut_at_word(without_caused_by(without_step_suffix(g.exception)), 120);
  } else if (!g.exception_type.empty()) {
    out = g.exception_type;
  } else {
    const std::string_view line = g.exemplar.matched_line.empty() ? g.template_text : g.exemplar.matched_line;
    out = cut_at_word(line, 160);
  }
  if (out.empty()) out = g.template_text.empty() ? "an error no rule knows" : cut_at_word(g.template_text, 160);
  std::string place;
  if (g.user_frame) {
    const std::string& file = g.user_frame->file;
    const size_t slash = file.find_last_of('/');
    place = fmt::format("{}:{}", slash == std::string::npos ? file : file.substr(slash + 1), g.user_frame->line);
    if (!g.user_frame->function.empty()) place += fmt::format(" in {}", g.user_frame->function);
  }
  if (!g.step.empty()) place += fmt::format("{}step '{}'", place.empty() ? "" : ", ", g.step);
  if (!place.empty()) out += fmt::format(" ({})", place);
  return out;
}

namespace {

// Symptoms and generic findings that no rule explains fold under the most likely error group: the
// first that is not noise (noise is listed last, so the first group unless all are noise).
void fold_under_unexplained(RankedReport& report) {
  for (RankedFinding& rf : report.findings) rf.caused_by_unexplained.reset();
  for (RankedUnexplained& u : report.unexplained) u.symptoms.clear();
  if (report.unexplained.empty() || report.unexplained.front().folded()) return;
  RankedUnexplained& top = report.unexplained.front();
  for (size_t i = 0; i < report.findings.size(); ++i) {
    RankedFinding& rf = report.findings[i];
    if (rf.caused_by || !group_explains(*top.group, *rf.finding)) continue;
    rf.caused_by_unexplained = 0;
    top.symptoms.push_back(i);
  }
}

void rank_unexplained_groups(const Analysis& d, RankedReport& report) {
  for (const auto& g : d.unexplained) {
    RankedUnexplained u;
    u.rank = static_cast<int>(report.unexplained.size()) + 1;
    u.group = &g;
    report.unexplained.push_back(std::move(u));
  }
  fold_under_unexplained(report);
}

// The `Causes:` clause of the job message that marked the job failed, cut at a word; "" without one.
// A cause that only names a step ("S02:Read+Embed failed.") or counts attempts says nothing a
// finding does not: such leading items are skipped for the first that says more.
namespace {

std::string job_message_causes(const Analysis& d) {
  for (const auto& p : d.phases) {
    if (p.phase != "failed") continue;
    const size_t at = p.message.find("Causes: ");
    if (at == std::string::npos) continue;
    std::string_view causes = std::string_view(p.message).substr(at + 8);
    causes = causes.substr(0, causes.find('\n'));
    static const RE2 step_failed(R"(^S\d+:[^,]*? failed\.,\s*)");
    re2::StringPiece rest(causes.data(), causes.size());
    while (RE2::Consume(&rest, step_failed)) {
    }
    if (!rest.empty()) causes = std::string_view(rest.data(), rest.size());
    while (!causes.empty() && causes.back() == ' ') causes.remove_suffix(1);
    // The phase keeps the message's first 300 bytes (record_matcher.cc): a message as long was cut
    // there, maybe inside a word, and says so.
    const bool cut = p.message.size() >= 300;
    return cut_at_word(causes, cut ? causes.size() - 1 : causes.size());
  }
  return "";
}

}  // namespace

// The verdict (verdict_of): errors fail, warnings warn, info findings are notes; a job that
// failed is failed even when no rule knows why. An input that could not be read or an export
// without a Dataflow job is never "ok" (docs/formats.md, Input problems).
// `whole` is the export's Analysis, whose inputs a job's verdict answers for too: no job of a cut
// export is "ok".
void set_verdict(RankedReport& report, const Analysis& whole) {
  const Analysis& d = *report.analysis;
  const size_t notes = d.inconclusive.size();
  const std::string inconclusive =
      notes == 0 ? "" : fmt::format(" ({} check{} inconclusive)", notes, notes == 1 ? "" : "s");
  const size_t unread = whole.input_errors.size();
  const std::string unread_text = unread == 0 ? "" : unread_note(whole);
  const std::string unread_suffix = unread == 0 ? "" : fmt::format(" ({})", unread_text);
  report.verdict = verdict_of(d);
  const RankedFinding* top = report.findings.empty() ? nullptr : &report.findings.front();
  const bool top_counts = top != nullptr && top->finding->severity > Impact::kInfo;
  // A failure no cause rule explains says so rather than naming a symptom ("The Dataflow job
  // failed") as its cause.
  const bool explained =
      top_counts && top->finding->severity >= Impact::kError && top->finding->family_role != FamilyRole::kSymptom;
  const UnexplainedGroup* likely_group =
      report.unexplained.empty() || report.unexplained.front().severity() < Impact::kError
          ? nullptr
          : report.unexplained.front().group;
  if (report.verdict == Verdict::kFailed && (!explained || top->finding->generic) && likely_group != nullptr) {
    const UnexplainedGroup& g = *likely_group;
    std::string seen = g.workers_total > 1 ? fmt::format("{} entries on {} workers", g.count, g.workers_total)
                                           : fmt::format("{} entr{}", g.count, g.count == 1 ? "y" : "ies");
    if (detail::several_processes(g)) seen += fmt::format(" ({} SDK processes)", g.sdk_processes);
    report.verdict_line = fmt::format("FAILED — most likely cause: {}, {} — no rule in the pack knows this error{}",
                                      unexplained_headline(g), seen, unread_suffix);
  } else if (report.verdict == Verdict::kFailed && !explained) {
    const std::string symptom = top_counts ? fmt::format(" (symptom: {})", top->finding->title) : "";
    // The job's own message names a cause no rule knows ("Workflow failed. Causes: Project p has
    // insufficient quota(s) …"): quoted, rather than "no rule explains it" alone.
    // Only when the top symptom is the job's failure alone: a symptom that explains another (a work
    // item that failed 4 times, under which the job's failure folds) already says what the message says.
    const bool explains_another = std::any_of(report.findings.begin(), report.findings.end(),
                                              [](const RankedFinding& rf) { return rf.caused_by == size_t{0}; });
    const std::string causes = explains_another ? "" : job_message_causes(d);
    const std::string quoted = causes.empty() ? "" : fmt::format(": \"{}\"", causes);
    report.verdict_line =
        d.job.outcome == JobOutcome::kFailed
            ? fmt::format("FAILED — the job failed ({}){} — no rule in the pack explains it{}{}",
                          d.job.outcome_source.empty() ? "its outcome" : d.job.outcome_source, quoted, symptom,
                          unread_suffix)
            : fmt::format("FAILED — no rule in the pack explains the failure{}{}{}", quoted, symptom, unread_suffix);
  } else if (report.verdict != Verdict::kOk) {
    // A succeeded job is failed only by a rule whose failure hides behind the success. A streaming
    // job never succeeds: its "succeeded" is the worker-pool teardown after a drain or a cancel
    // whose own message the export does not hold (rules/facts/phases/stopped.yaml).
    const bool failed = report.verdict == Verdict::kFailed;
    const bool stopped_stream = d.job.outcome == JobOutcome::kSucceeded && streaming_job(d);
    const char* lead = d.job.outcome != JobOutcome::kSucceeded ? "most likely cause"
                       : stopped_stream && failed              ? "the streaming job was stopped, but"
                       : stopped_stream                        ? "the streaming job stopped without failing, but"
                       : failed                                ? "the job reported success, but"
                                                               : "the job succeeded, but";
    report.verdict_line =
        fmt::format("{} — {}: {}{}", failed ? "FAILED" : "WARNING", lead, top->finding->title, unread_suffix);
  } else if (unread > 0) {
    report.verdict = Verdict::kIncomplete;
    report.verdict_line = fmt::format("INCOMPLETE — {}; what was read shows no known problem", unread_text);
  } else if (!holds_dataflow_job(d)) {
    report.verdict = Verdict::kEmpty;
    report.verdict_line = empty_verdict_line(d);
  } else {
    report.verdict = Verdict::kOk;
    report.verdict_line = fmt::format("OK — no known problem found{}", inconclusive);
  }
}

// Where a first step with no kind of its own points: the page that says a failed work item's own
// error is in the worker logs, which is what the group shows.
const DocLink kFirstStepDoc{.title = "Troubleshoot Dataflow errors",
                            .section = "A work item has failed 4 times",
                            .url = "https://cloud.google.com/dataflow/docs/guides/common-errors"};
constexpr size_t kMaxFirstSteps = 3;

// The first step of each error group the report holds as a cause (at error: the job failed after
// it and no rule at error explains the job), named by the group: what to do (rules/first-steps.yaml
// by the kind of error, else from where it was raised), then what failed and where, how often and
// since when. Its id is the group's fingerprint, its rule `unexplained-error`.
bool takes_first_step(const RankedUnexplained& u) {
  return !u.folded() && !u.suppressed && u.severity() >= Impact::kError;
}

// Whether a group that gets a first step of its own names `u` as its cause.
bool named_by_step_taker(const RankedReport& report, const RankedUnexplained& u) {
  return std::any_of(report.unexplained.begin(), report.unexplained.end(), [&](const RankedUnexplained& other) {
    return takes_first_step(other) && detail::names_as_cause(other, u);
  });
}

void add_first_steps(RankedReport& report, std::map<std::string, size_t>& by_id) {
  size_t added = 0;
  for (const RankedUnexplained& u : report.unexplained) {
    if (added == kMaxFirstSteps) break;
    if (!takes_first_step(u)) continue;
    // Its line is already the cause the wrapper's step quotes: one failure, one step.
    if (named_by_step_taker(report, u)) continue;
    const UnexplainedGroup& g = *u.group;
    const bool known_kind = !g.first_step.id.empty();
    RankedFix r;
    r.id = g.fingerprint;
    const std::string what = known_kind     ? g.first_step.action
                             : g.user_frame ? "Fix the error the pipeline's own code raised"
                                            : "Start from the first error before the failure";
    r.action = fmt::format("{}: {}", what, unexplained_headline(g));
    r.command = g.first_step.command;
    const std::string_view novelty = detail::novelty_note(u.novelty);
    r.reasons.push_back(fmt::format("U{} ({}) came before the failure, and no rule in the pack knows it{}{}", u.rank,
                                    detail::unexplained_stats(g), novelty.empty() ? "" : "; ", novelty));
    r.for_rules.push_back(std::string(kUnexplainedRuleId));
    r.doc = known_kind ? g.first_step.doc : kFirstStepDoc;
    // Ahead of every rule's fix at the same impact (their weights are at most 100), in group order.
    r.score = impact_weight(g.severity) * (101.0 - static_cast<double>(added));
    by_id[r.id] = report.fixes.size();
    report.fixes.push_back(std::move(r));
    ++added;
  }
}

// Job-wide fixes: score = how bad and how sure the finding is × the fix's weight; symptoms (of a
// finding or of an error group) count half. An error group that is the most likely cause brings
// its own first step, ahead of its symptoms' fixes: "find the failed attempts" is moot when the
// report shows their error. Run again when the groups fold anew (apply_novelty).
void rank_fixes(RankedReport& report) {
  report.fixes.clear();
  std::map<std::string, size_t> by_id;
  add_first_steps(report, by_id);
  for (const auto& rf : report.findings) {
    const Finding& f = *rf.finding;
    const double finding_score = impact_weight(f.severity) * f.confidence * (detail::is_root_cause(rf) ? 1.0 : 0.5);
    for (const auto& fix : rf.fixes) {
      const double score = fix.demoted ? 0.0 : finding_score * fix.weight;
      auto it = by_id.find(fix.id);
      if (it == by_id.end()) {
        RankedFix r;
        r.id = fix.id;
        r.action = fix.action;
        r.command = fix.command;
        r.doc = fix.doc;
        r.i18n = fix.i18n;
        r.demoted = fix.demoted;
        r.demoted_because = fix.demoted_because;
        r.score = score;
        by_id[fix.id] = report.fixes.size();
        report.fixes.push_back(std::move(r));
        it = by_id.find(fix.id);
      }
      RankedFix& r = report.fixes[it->second];
      if (score > r.score) r.score = score;
      if (!fix.demoted) r.demoted = false;
      if (std::find(r.reasons.begin(), r.reasons.end(), fix.why) == r.reasons.end()) r.reasons.push_back(fix.why);
      if (std::find(r.for_rules.begin(), r.for_rules.end(), f.rule_id) == r.for_rules.end())
        r.for_rules.push_back(f.rule_id);
    }
  }
  std::stable_sort(report.fixes.begin(), report.fixes.end(), [](const RankedFix& a, const RankedFix& b) {
    if (a.demoted != b.demoted) return !a.demoted;
    return a.score > b.score;
  });
  for (size_t i = 0; i < report.fixes.size(); ++i) {
    RankedFix& r = report.fixes[i];
    r.rank = static_cast<int>(i) + 1;
    if (r.demoted) {
      r.rank_reason = fmt::format("ranked last: {}", r.demoted_because);
    } else {
      r.rank_reason =
          fmt::format("proposed for {}{}", fmt::join(r.for_rules, ", "), r.for_rules.size() > 1 ? " (shared)" : "");
    }
  }
}

RankedReport rank_within(const Analysis& d, const Analysis& whole) {
  RankedReport report;
  report.analysis = &d;
  const size_t n = d.findings.size();
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return ranks_before(d.findings[a], d.findings[b]); });

  // Each finding's cause: the best-ranked finding that explains it, unless that would make a cycle.
  std::vector<std::optional<size_t>> cause(n);
  for (size_t s : order) {
    for (size_t c : order) {
      if (!explains(d.findings[c], d.findings[s])) continue;
      bool cycle = false;
      for (std::optional<size_t> up = c; up; up = cause[*up]) {
        if (*up == s) {
          cycle = true;
          break;
        }
      }
      if (!cycle) {
        cause[s] = c;
        break;
      }
    }
  }
  // Depth-first from the roots, in rank order.
  std::vector<size_t> position(n);
  const auto place = [&](auto&& self, size_t i, std::optional<size_t> parent, int depth) -> void {
    RankedFinding rf;
    rf.finding = &d.findings[i];
    rf.depth = depth;
    rf.fixes = order_fixes(d.findings[i], rf.fix_reasons, rf.fixes_not_applicable);
    const size_t at = report.findings.size();
    position[i] = at;
    if (parent) {
      rf.caused_by = *parent;
      report.findings[*parent].symptoms.push_back(at);
    }
    report.findings.push_back(std::move(rf));
    for (size_t j : order) {
      if (cause[j] == i) self(self, j, at, depth + 1);
    }
  };
  for (size_t i : order) {
    if (!cause[i]) place(place, i, std::nullopt, 0);
  }
  for (size_t i = 0; i < report.findings.size(); ++i) report.findings[i].rank = static_cast<int>(i) + 1;

  rank_unexplained_groups(d, report);
  rank_fixes(report);
  set_verdict(report, whole);
  for (const auto& job : d.jobs) report.jobs.push_back(rank_within(job, whole));
  return report;
}

}  // namespace

RankedReport rank(const Analysis& d) { return rank_within(d, d); }

void apply_novelty(RankedReport& report, const std::vector<Novelty>& novelty, bool new_only) {
  for (size_t i = 0; i < report.unexplained.size() && i < novelty.size(); ++i) {
    RankedUnexplained& u = report.unexplained[i];
    u.novelty = novelty[i];
    u.gate_ignores = new_only && (u.novelty == Novelty::kRecurring || u.novelty == Novelty::kNoise);
  }
  // Re-ranked after the fact because the history is only known once the run is recorded, after
  // rank(): noise goes last, the rest keeps the engine's order.
  std::stable_partition(report.unexplained.begin(), report.unexplained.end(),
                        [](const RankedUnexplained& u) { return !u.folded(); });
  for (size_t i = 0; i < report.unexplained.size(); ++i) report.unexplained[i].rank = static_cast<int>(i) + 1;
  fold_under_unexplained(report);
  rank_fixes(report);
  set_verdict(report, *report.analysis);
}

}  // namespace gpudiag
