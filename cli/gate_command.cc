// gpudiag gate PATH...: analyze as a CI gate. Exits 1 on a finding of error or worse (--fail-on)
// that the --baseline does not accept; prints --format to stdout (text by default, github for
// annotations) and writes any -o files besides.
#include "run_options.h"

namespace gpudiag::cli {

void add_gate_command(CLI::App& app, std::function<int()>& run) {
  add_output_command(
      app, run,
      {.name = "gate",
       .description = "Fail a CI step on known failures (exit 1), except findings the --baseline accepts",
       .fail_on = "error",
       .default_stdout = OutputFormat::kText,
       .output_required = false});
}

}  // namespace gpudiag::cli
