#include "job_analyses.h"

#include <fnmatch.h>

#include <algorithm>
#include <tuple>

#include "evaluator.h"
#include "unexplained/unexplained.h"

namespace gpudiag::detail {
namespace {

bool selected(const JobSelection& select, const JobAccumulator& job) {
  if (!select.any()) return true;
  if (!select.ids.empty() && std::find(select.ids.begin(), select.ids.end(), job.job_id) == select.ids.end()) {
    return false;
  }
  return select.name_glob.empty() || fnmatch(select.name_glob.c_str(), job.job_name.c_str(), 0) == 0;
}

// A succeeded job did not fail: what its findings name are risks, at most warnings, unless the
// rule says its failure hides behind a success (`hides_failure: true`). An error the program caught
// and logged as a warning (a batch-size probe's out-of-memory, a retried download) in a job that then
// succeeded is not even a risk: information.
// A streaming job never succeeds: a "succeeded" read from its teardown was a cancel or a drain whose
// own message the export does not hold (heldout-stacks-12's hs12-09 failed every bundle for 50
// minutes, then its pool stopped). There only what the program logged as handled is information.
void apply_outcome(const CompiledRulePack& pack, Analysis& job) {
  if (job.job.outcome != JobOutcome::kSucceeded) return;
  const bool streaming = streaming_job(job);
  for (auto& f : job.findings) {
    const int ri = pack.rule_index(f.rule_id);
    if (ri >= 0 && pack.rules[ri].spec.info.hides_failure) continue;
    if (streaming && !f.logged_as_handled) continue;
    const Impact capped = f.logged_as_handled ? Impact::kInfo : Impact::kWarning;
    if (f.severity <= capped) continue;
    f.severity_before_outcome = f.severity;
    f.severity = capped;
  }
}

// A job's most severe finding, the earliest at that severity (one without a time after those with
// one); null when it has none. What orders the jobs (badness) and names an unlisted one (count_unlisted).
const Finding* worst_finding(const Analysis& job) {
  const auto when = [](const Finding& f) { return f.first_seen == kNoTime ? INT64_MAX : f.first_seen; };
  const Finding* worst = nullptr;
  for (const auto& f : job.findings) {
    if (worst == nullptr || f.severity > worst->severity || (f.severity == worst->severity && when(f) < when(*worst)))
      worst = &f;
  }
  return worst;
}

// Worst first: by verdict (errors, then warnings, then none), then the top severity, then the
// earliest finding at that severity, then the id (for a stable order).
auto badness(const Analysis& job) {
  const Finding* worst = worst_finding(job);
  const Impact top = worst != nullptr ? worst->severity : Impact::kInfo;
  const Timestamp first = worst != nullptr && worst->first_seen != kNoTime ? worst->first_seen : INT64_MAX;
  const int verdict = static_cast<int>(verdict_of(job));  // kOk < kWarning < kFailed
  return std::make_tuple(-verdict, -static_cast<int>(top), first, job.job.id);
}

bool worse(const Analysis& a, const Analysis& b) { return badness(a) < badness(b); }

// A job past the list: what the jobs table and the gate need of it.
void count_unlisted(const Analysis& a, UnlistedJobs& unlisted) {
  ++unlisted.jobs;
  unlisted.entries += a.job.entries;
  const Verdict verdict = verdict_of(a);
  ++(verdict == Verdict::kFailed ? unlisted.failed : verdict == Verdict::kWarning ? unlisted.warning : unlisted.ok);
  const Finding* top = worst_finding(a);
  if (top != nullptr) unlisted.top_severity = std::max(unlisted.top_severity, top->severity);
  for (const auto& g : a.unexplained) unlisted.top_severity = std::max(unlisted.top_severity, g.severity);
  if (verdict != Verdict::kOk)
    ++unlisted.top_rules[top != nullptr && top->severity > Impact::kInfo ? top->rule_id : ""];
}

// What is kept of one job among many: its identity, outcome and findings by name, count and time —
// what a jobs table and a fleet view show — without evidence, descriptions, fixes or facts.
void summarise(Analysis& a) {
  // Swapped with empty ones, not cleared: a cleared vector keeps its memory.
  const auto drop = [](auto& v) { std::remove_reference_t<decltype(v)>().swap(v); };
  a.job.summarised = true;
  drop(a.facts);
  drop(a.phases);
  drop(a.worker_counts);
  drop(a.inconclusive);
  drop(a.logs_seen);
  for (auto& g : a.unexplained) g.exemplar = Evidence{};  // the group's fields stay
  for (auto& f : a.findings) {
    drop(f.evidence);
    drop(f.description);
    drop(f.fixes);
    drop(f.captures);
    drop(f.workers);  // workers_total stays
  }
  a.findings.shrink_to_fit();
}

}  // namespace

void JobAnalyses::add(JobAccumulator& job, bool many_jobs) {
  if (!selected(select_, job)) {  // listed up to the cap of the other job lists, then summed
    if (not_selected_.size() < ExportAccumulator::kMaxListedUndiagnosed) {
      not_selected_.push_back(JobCount{job.job_id, job.job_name, job.entries});
    } else {
      not_selected_unlisted_ += job.entries;
    }
    return;
  }
  Analysis a;
  a.entries = a.analysed = job.entries;  // the job's own totals (duplicates are told apart export-wide only)
  evaluate_rules(job, a);
  apply_outcome(pack_, a);
  // The finding of the pack's rule of that index in this job, if it fired.
  const auto finding_of = [&](int rule) -> const Finding* {
    const std::string& id = pack_.rules[rule].spec.info.id;
    const auto it =
        std::find_if(a.findings.begin(), a.findings.end(), [&](const Finding& f) { return f.rule_id == id; });
    return it == a.findings.end() ? nullptr : &*it;
  };
  const auto fired = [&](int rule) { return finding_of(rule) != nullptr; };
  const auto symptom = [&](int rule) {
    const Finding* f = finding_of(rule);
    return f != nullptr && f->family_role == FamilyRole::kSymptom;
  };
  a.unexplained = job.errors.finish(ReadingRules{frameworks_, pack_.wrappers, pack_.causes}, fired, symptom);
  rank_unexplained(pack_, frameworks_, a);
  assign_first_steps(pack_, a.unexplained);
  // Kept for the rest of the run: no room left over past the groups reported (up to 200 grouped,
  // 50 kept, 1.25 KiB each before their text), so a job's result costs what it reports.
  a.unexplained.shrink_to_fit();
  // With many jobs, results are bounded too: a healthy job is a summary (no facts, phases or
  // inconclusive checks), and past kMaxFullResults jobs that are not ok their findings keep no
  // evidence either (--job-id gives one job's full report).
  const bool healthy = verdict_of(a) == Verdict::kOk;
  if (many_jobs && (healthy || full_results_ >= kMaxFullResults)) {
    summarise(a);
  } else if (!healthy) {
    ++full_results_;
  }
  keep(std::move(a));
}

void JobAnalyses::keep(Analysis a) {
  // jobs_ is a heap whose front is the least bad job held: past the cap, the better of that one and
  // the new one is counted instead of listed, so the list ends as the worst kMaxListedJobs whatever
  // order the jobs finished in.
  if (jobs_.size() < kMaxListedJobs) {
    jobs_.push_back(std::move(a));
    std::push_heap(jobs_.begin(), jobs_.end(), worse);
    return;
  }
  if (!worse(a, jobs_.front())) {
    count_unlisted(a, unlisted_);
    return;
  }
  std::pop_heap(jobs_.begin(), jobs_.end(), worse);
  count_unlisted(jobs_.back(), unlisted_);
  jobs_.back() = std::move(a);
  std::push_heap(jobs_.begin(), jobs_.end(), worse);
}

void JobAnalyses::finish(ExportAccumulator& acc, Analysis& out) {
  // One job at a time, its state freed before the next: the accumulators and the results are not
  // all in memory at once.
  for (auto it = acc.jobs.begin(); it != acc.jobs.end(); it = acc.jobs.erase(it)) add(*it->second, acc.many_jobs);
  out.jobs = std::move(jobs_);
  out.not_selected = std::move(not_selected_);
  out.not_selected_unlisted = not_selected_unlisted_;
  for (auto& a : out.jobs) {
    for (const auto& in : out.inputs) {  // where evidence is shown from; problems are the export's
      a.inputs.push_back(InputSummary{.path = in.path, .shape = in.shape, .gzip = in.gzip});
    }
  }
  std::stable_sort(out.jobs.begin(), out.jobs.end(), worse);
  out.unlisted_jobs = std::move(unlisted_);
  for (const auto& [id, c] : acc.over_cap) out.not_diagnosed.push_back(c);
  for (const auto& [id, c] : acc.resumed) out.not_diagnosed.push_back(c);
  out.not_diagnosed_unlisted = acc.over_cap_unlisted;
  out.rule_pack_hash = acc.pack.hash;
  if (out.jobs.empty()) return;
  const Analysis& worst = out.jobs.front();
  out.job = worst.job;
  for (const auto& other : out.jobs) {
    if (&other != &worst) out.job.other_ids.push_back(other.job.id);
  }
  out.start = worst.start;
  out.end = worst.end;
  out.logs_seen = worst.logs_seen;
  out.findings = worst.findings;
  out.inconclusive = worst.inconclusive;
  out.facts = worst.facts;
  out.phases = worst.phases;
  out.worker_counts = worst.worker_counts;
  out.unexplained = worst.unexplained;
  out.unexplained_groups_total = worst.unexplained_groups_total;
}

}  // namespace gpudiag::detail
