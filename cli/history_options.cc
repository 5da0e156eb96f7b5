// --db on analyze, report and gate: open the run history before the analysis (a database that
// cannot be used fails fast), record the run after it, and mark each finding new or known.
#include <fmt/format.h>

#include <iostream>

#include "interrupts.h"
#include "run_options.h"

namespace gpudiag::cli {

CLI::Option* HistoryOptions::add_db(CLI::App& cmd, bool required) {
  CLI::Option* opt = cmd.add_option("--db", db, "Run history database (a SQLite file; docs/schema.md)");
  if (required) opt->required();
  cmd.add_option("--db-timeout", timeout, "Seconds to wait while another process writes the database")
      ->check(CLI::Range(0.0, 86400.0))
      ->capture_default_str();
  return opt;
}

void HistoryOptions::add_pipeline(CLI::App& cmd, const std::string& what) {
  cmd.add_option("--pipeline", pipeline, what);
}

std::optional<HistoryStore> HistoryOptions::open(bool read_only, bool create) const {
  auto store = HistoryStore::open(
      db, {.read_only = read_only, .create = create, .busy_timeout_ms = static_cast<int>(timeout * 1000)});
  if (store) return std::move(*store);
  print_problem(store.error());
  return std::nullopt;
}

void add_record_options(CLI::App& cmd, HistoryOptions& history) {
  CLI::Option* db = history.add_db(cmd, false);
  history.add_pipeline(cmd, "Record the run under this pipeline (default: the job name without its timestamp and id)");
  cmd.add_flag("--new-only", history.new_only,
               "With --db: only findings no earlier run of the pipeline had (nor were accepted), and new "
               "unexplained error groups, trip --fail-on")
      ->needs(db);
}

namespace {

// The last green run's facts come from the database, unredacted: mask them as the run's own were.
void redact_history_view(RankedReport& report, const RedactionTerms& terms) {
  if (report.changes_since_green) {
    for (auto& c : report.changes_since_green->changes) {
      c.before = redact_text(c.before, terms);
      c.after = redact_text(c.after, terms);
    }
  }
  for (auto& job : report.jobs) redact_history_view(job, terms);
}

}  // namespace

bool record_history(const RunOptions& o, AnalysedRun& analysed, RankedReport& report, const OutputStep& write_outputs) {
  const auto write = [&] {
    if (analysed.redaction) redact_history_view(report, *analysed.redaction);
    const std::string problem = write_outputs();
    if (!problem.empty()) std::cerr << "gpudiag: " << terminal_safe(problem) << '\n';
    return problem.empty();
  };
  if (!analysed.store) return write();
  const Analysis& d = analysed.analysis;
  if (!d.input_errors.empty()) {  // a partial run would make its missing findings look fixed
    std::cerr << fmt::format("gpudiag: the run was not recorded in {}: an input could not be read\n",
                             terminal_safe(analysed.store->path()));
    return write();  // exit_code() still says 2
  }
  if (report.verdict == Verdict::kEmpty) {  // no job to record it under, and nothing to compare later runs with
    std::cerr << fmt::format("gpudiag: the run was not recorded in {}: the export holds no entry of a Dataflow job\n",
                             terminal_safe(analysed.store->path()));
    return write();
  }
  // One run per job, each under its own pipeline: --pipeline names one, so it needs one job in scope.
  if (!o.history.pipeline.empty() && d.jobs.size() > 1) {
    std::cerr << fmt::format(
        "gpudiag: --pipeline {} names one pipeline, but the export holds {} jobs in scope: select one with "
        "--job-id (or --job-name), or leave --pipeline out to record each job under its own name\n",
        terminal_safe(o.history.pipeline), d.jobs.size());
    return false;
  }
  std::vector<std::pair<const RankedReport*, std::string>> runs;
  if (report.jobs.size() > 1) {
    for (const RankedReport& job : report.jobs) runs.emplace_back(&job, pipeline_key(job.analysis->job.name));
  } else {
    runs.emplace_back(&report, o.history.pipeline.empty() ? pipeline_key(d.job.name) : o.history.pipeline);
  }
  bool written = true;
  auto recorded = analysed.store->record_runs(runs, [&](const std::vector<RecordedRun>& done) {
    if (report.jobs.size() > 1) {
      for (size_t i = 0; i < done.size(); ++i) annotate(report.jobs[i], done[i], o.history.new_only);
      annotate(report, done.front(), o.history.new_only);  // the top level is the worst job, the first
    } else {
      annotate(report, done.front(), o.history.new_only);
      if (report.jobs.size() == 1) annotate(report.jobs.front(), done.front(), o.history.new_only);
    }
    written = write();
    // An interrupt while the outputs were written: they stand, the run is not recorded.
    return written && interrupt_signal().load() == 0;
  });
  if (!recorded && written && interrupt_signal().load() != 0) {
    std::cerr << fmt::format("gpudiag: the run was not recorded in {}: interrupted\n",
                             terminal_safe(analysed.store->path()));
    return true;  // the exit code is the signal's
  }
  if (!recorded) {
    print_problem(recorded.error());
    return false;
  }
  return written;
}

}  // namespace gpudiag::cli
