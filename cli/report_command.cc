// gpudiag report PATH... -o FILE...: one analysis written in several formats at once (post-mortem
// HTML, Markdown, JSON, SARIF, JUnit), the format of each file taken from its extension; with
// --format and no -o, the report goes to stdout. Each file written is named on stderr.
#include "run_options.h"

namespace gpudiag::cli {

void add_report_command(CLI::App& app, std::function<int()>& run) {
  add_output_command(app, run,
                     {.name = "report",
                      .description = "Write reports (HTML post-mortem, Markdown, JSON, SARIF, JUnit) to files",
                      .fail_on = "never",
                      .default_stdout = std::nullopt,
                      .output_required = false});
}

}  // namespace gpudiag::cli
