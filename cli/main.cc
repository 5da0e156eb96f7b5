// gpudiag: find out why a Dataflow GPU job failed or stalled, from its exported logs.
// This file only wires the subcommands; the work is in the ingest, engine and reports libraries.
#include <fmt/format.h>
#include <malloc.h>

#include <iostream>

#include "commands.h"
#include "help_topics.h"
#include "interrupts.h"
#include "repo_config.h"
#include "stdout_guard.h"
#include "usage_hints.h"

namespace {

int run_command(int argc, char** argv) {
  using namespace gpudiag::cli;
  // Named here, so usage lines say `gpudiag`, not the path the binary was started by.
  CLI::App app{"gpudiag — troubleshoot Dataflow GPU jobs from their exported Cloud Logging logs", "gpudiag"};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_string());
  app.footer("Exit codes: 0 ok, 1 findings at or above --fail-on, 2 usage, input, rule or database error.");
  // CLI11 quotes what it could not use (a --job path that does not exist …): never raw to the terminal.
  // An unknown command or flag gets "did you mean" (usage_hints.h).
  app.failure_message(usage_failure_message);
  std::function<int()> run;
  add_analyze_command(app, run);
  add_report_command(app, run);
  add_gate_command(app, run);
  add_rules_command(app, run);
  add_explain_command(app, run);
  add_history_command(app, run);
  add_ingest_command(app, run);
  add_query_command(app, run);
  add_patterns_command(app, run);
  add_baseline_command(app, run);
  add_export_command(app, run);
  add_fetch_command(app, run);
  add_preflight_command(app, run);
  add_sql_command(app, run);
  add_mcp_command(app, run);
  add_help_command(app, run);
  add_completions_command(app, run);
  add_examples(app);
  const RepoConfig config = prepare_repo_config(app);  // .gpudiag.yaml: defaults that flags override
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitError;
  }
  if (!apply_repo_config(app, config)) return kExitError;
  try {
    return run ? run() : kExitError;
  } catch (const std::exception& e) {  // a bug: say so plainly rather than abort
    std::cerr << fmt::format("gpudiag: internal error: {}\n", gpudiag::terminal_safe(e.what()));
    return kExitError;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // glibc raises its mmap threshold each time a large block is freed, so after the first chunks the
  // chunk buffers (a little over 1 MiB) and the parsers' large buffers come from the heap, and what
  // the worker threads free there stays in their arenas. A fixed threshold keeps those blocks
  // mapped, so freeing one gives it back: 16 MiB less peak RSS at 1.5 M distinct workers, which
  // brings that input under the 64 MiB budget (bench/RESULTS-memory.md), for no measurable time on
  // usual exports.
  mallopt(M_MMAP_THRESHOLD, 1024 * 1024);
  gpudiag::cli::guard_stdout();
  int code = run_command(argc, argv);
  // Interrupted: the report of what was read was written; the exit code says it was cut short.
  if (const int interrupted = gpudiag::cli::interrupted_exit_code(); interrupted != 0) code = interrupted;
  // Whatever the command printed must have reached stdout whole: a full disk is an error, not exit 0.
  if (const std::string problem = gpudiag::cli::close_stdout(); !problem.empty()) {
    // A command that already failed has said why (a report it could not write, say).
    if (code != gpudiag::cli::kExitError) std::cerr << fmt::format("gpudiag: cannot write to stdout: {}\n", problem);
    code = gpudiag::cli::kExitError;
  }
  return code;
}
