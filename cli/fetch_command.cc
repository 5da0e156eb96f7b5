// gpudiag fetch JOB_ID: the job's export and description through the user's own gcloud (fetch.h).
#include <fmt/format.h>

#include <iostream>

#include "commands.h"
#include "fetch_options.h"
#include "gpudiag/diagnostic_codes.h"
#include "gpudiag/fetch.h"

namespace gpudiag::cli {

namespace {

struct FetchCommandOptions {
  FetchTarget target;
  std::string output;
  bool force = false;
};

int run_fetch(const FetchCommandOptions& o) {
  auto request = fetch_request(o.target);
  if (!request) return kExitError;
  request->output = o.output.empty() ? o.target.job_id + ".json" : o.output;
  request->force = o.force;
  auto fetched = fetch_with_progress(*request);
  if (!fetched) {
    print_problem(fetched.error());
    return kExitError;
  }
  std::cerr << fmt::format("gpudiag: wrote {} ({} entries, {} gcloud logging read run{}) and {} ({})\n",
                           terminal_safe(fetched->export_path), fetched->entries, fetched->gcloud_runs,
                           fetched->gcloud_runs == 1 ? "" : "s", terminal_safe(fetched->job_path),
                           fetched->state.empty() ? "state not given" : terminal_safe(fetched->state));
  if (!fetched->complete) {
    print_problem(Diagnostic{
        .code = code_name(DiagnosticCode::kFetchIncomplete),
        .message = fmt::format("the export holds only part of the job's entries: {}", fetched->incomplete_why),
        .file = fetched->export_path,
        .help = "its job file says so, and `gpudiag analyze --job` reports it as an input not read in full; run "
                "gpudiag fetch --force again later for the rest"});
    return kExitError;
  }
  std::cerr << fmt::format("next: gpudiag analyze --job {} {}\n", terminal_safe(fetched->job_path),
                           terminal_safe(fetched->export_path));
  return kExitOk;
}

}  // namespace

void add_fetch_command(CLI::App& app, std::function<int()>& run) {
  auto o = std::make_shared<FetchCommandOptions>();
  CLI::App* cmd =
      app.add_subcommand("fetch", "Fetch a job's logs and description with your gcloud: an export and its --job file");
  cmd->add_option("job_id", o->target.job_id, "The Dataflow job id")->required();
  o->target.add_to(*cmd);
  cmd->add_option("-o,--output", o->output,
                  "The export to write (default: JOB_ID.json; .gz: gzip); the description goes beside it, its stem "
                  "+ .job.json");
  cmd->add_flag("--force", o->force, "Replace the export and its job file when they exist");
  cmd->add_option_group(
      "How it fetches",
      "gcloud dataflow jobs describe JOB_ID --full, then gcloud logging read over the job's window (create time - 15 "
      "min to its end + 15 min), oldest first, with your gcloud configuration as it is. A read gcloud cuts short (429: "
      "60 reads a minute per project) resumes from its last timestamp after a backoff; still cut short after 6 "
      "retries, it is written, marked in the job file, and exits 2. Needs roles/dataflow.viewer and "
      "roles/logging.viewer.");
  cmd->callback([&run, o] { run = [o] { return run_fetch(*o); }; });
}

}  // namespace gpudiag::cli
