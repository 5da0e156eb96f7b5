// gpudiag analyze PATH...: the whole pipeline, rendered as text or JSON.
#include <unistd.h>

#include <iostream>

#include "follow.h"
#include "run_options.h"
#include "stdout_guard.h"

namespace gpudiag::cli {
namespace {

struct AnalyzeOptions {
  RunOptions run;
  std::string format = "text";
  FollowOptions follow;
};

// The report of an analysis on stdout, the run recorded (--db), and the exit code.
int finish_analysis(const RunOptions& run, const std::string& format_name, AnalysedRun& analysed) {
  RankedReport report = rank(analysed.analysis);
  const OutputFormat format = format_name == "json" ? OutputFormat::kJson : OutputFormat::kText;
  const auto write_report = [&]() -> std::string {
    const RenderOptions options = analysed.render_options(run, format, isatty(STDOUT_FILENO));
    if (write_stdout(render(format, report, analysed.pack.rules(), options))) return "";
    return "cannot write to stdout: " + flush_stdout();
  };
  if (!record_history(run, analysed, report, write_report)) return kExitError;
  return exit_code(run, analysed, report);
}

int run_analyze(const AnalyzeOptions& o) {
  if (o.follow.enabled) {
    return follow_job(o.run, o.follow, o.format == "json", [&](const RunOptions& run, AnalysedRun& analysed) {
      return finish_analysis(run, o.format, analysed);
    });
  }
  auto analysed = run_analysis(o.run);
  if (!analysed) return kExitError;
  return finish_analysis(o.run, o.format, *analysed);
}

}  // namespace

void add_analyze_command(CLI::App& app, std::function<int()>& run) {
  auto o = std::make_shared<AnalyzeOptions>();
  CLI::App* cmd = app.add_subcommand("analyze", "Diagnose a job from its exported logs");
  o->run.add_to(*cmd, "never");
  cmd->add_option("--format", o->format, "Output format")->check(one_of({"text", "json"}));
  o->run.add_fetch_to(*cmd);
  o->follow.add_to(*cmd);
  cmd->callback([&run, o] {
    o->run.check_fetch_usage();
    if (o->follow.enabled && o->run.fetch.project.empty()) {
      throw CLI::ValidationError("--follow", "follows a job it fetches: give --project P --job-id JOB_ID");
    }
    run = [o] { return run_analyze(*o); };
  });
}

}  // namespace gpudiag::cli
