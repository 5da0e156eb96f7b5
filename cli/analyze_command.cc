// gpudiag analyze PATH...: the whole pipeline, rendered as text or JSON.
#include <unistd.h>

#include <iostream>

#include "run_options.h"
#include "stdout_guard.h"

namespace gpudiag::cli {
namespace {

struct AnalyzeOptions {
  RunOptions run;
  std::string format = "text";
};

int run_analyze(const AnalyzeOptions& o) {
  auto analysed = run_analysis(o.run);
  if (!analysed) return kExitError;
  RankedReport report = rank(analysed->analysis);
  const OutputFormat format = o.format == "json" ? OutputFormat::kJson : OutputFormat::kText;
  const auto write_report = [&]() -> std::string {
    const RenderOptions options = o.run.render_options(format, isatty(STDOUT_FILENO));
    if (write_stdout(render(format, report, analysed->pack.rules(), options))) return "";
    return "cannot write to stdout: " + flush_stdout();
  };
  if (!record_history(o.run, *analysed, report, write_report)) return kExitError;
  return exit_code(o.run, *analysed, report);
}

}  // namespace

void add_analyze_command(CLI::App& app, std::function<int()>& run) {
  auto o = std::make_shared<AnalyzeOptions>();
  CLI::App* cmd = app.add_subcommand("analyze", "Diagnose a job from its exported logs");
  o->run.add_to(*cmd, "never");
  cmd->add_option("--format", o->format, "Output format")->check(one_of({"text", "json"}));
  o->run.add_fetch_to(*cmd);
  cmd->callback([&run, o] {
    o->run.check_fetch_usage();
    run = [o] { return run_analyze(*o); };
  });
}

}  // namespace gpudiag::cli
