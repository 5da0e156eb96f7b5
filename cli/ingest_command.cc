// gpudiag ingest PATH... --db FILE: store every log entry of exports, for post-mortem SQL
// (gpudiag query) and the reclassification of recorded runs (gpudiag history --reclassify).
#include <fmt/format.h>

#include <chrono>
#include <iostream>

#include "commands.h"
#include "output_files.h"

namespace gpudiag::cli {
namespace {

struct IngestCommandOptions {
  std::vector<std::string> inputs;
  HistoryOptions history;
  bool no_full_text = false;
};

int run_ingest(const IngestCommandOptions& o) {
  if (auto refused = check_outputs({o.history.db}, input_files(o.inputs))) {  // SQLite would write into it
    std::cerr << "gpudiag: --db: " << terminal_safe(*refused) << '\n';
    return kExitError;
  }
  auto store = o.history.open();
  if (!store) return kExitError;
  const auto start = std::chrono::steady_clock::now();
  auto summary = store->ingest(o.inputs, {.full_text = !o.no_full_text});
  if (!summary) {
    print_problem(summary.error());
    return kExitError;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double mb = static_cast<double>(summary->bytes) / 1e6;
  std::cout << fmt::format("stored {} entries from {} input{} in {} ({:.1f} MB read in {:.2f} s, {:.0f} MB/s)\n",
                           summary->stored, summary->inputs.size(), summary->inputs.size() == 1 ? "" : "s",
                           terminal_safe(store->path()), mb, seconds, seconds > 0 ? mb / seconds : 0.0);
  for (const auto& in : summary->inputs) {
    std::cout << fmt::format("  {} ({}{}): {} entries, {} stored, {} skipped, {} duplicates\n", terminal_safe(in.path),
                             shape_name(in.shape), in.gzip ? ", gzip" : "", in.entries, in.analysed, in.skipped,
                             in.duplicates);
    for (const auto& p : in.problems) {
      std::cout << fmt::format("    line {}: {}{}\n", p.line, p.skipped_entry ? "skipped: " : "",
                               terminal_safe(p.message));
    }
  }
  if (!summary->full_text_note.empty()) {
    std::cout << "  " << summary->full_text_note << '\n';
  } else {
    std::cout << fmt::format("  full-text index (entry_fts): {} entries added\n", summary->full_text_indexed);
  }
  for (const auto& e : summary->input_errors) print_input_error(e);
  return summary->input_errors.empty() ? kExitOk : kExitError;
}

}  // namespace

void add_ingest_command(CLI::App& app, std::function<int()>& run) {
  auto o = std::make_shared<IngestCommandOptions>();
  CLI::App* cmd =
      app.add_subcommand("ingest", "Store the log entries of exports in --db, for gpudiag query (SQL, FTS5)");
  cmd->add_option("inputs", o->inputs, "Export files (JSON array, NDJSON, gcloud's YAML, gzip), or - for stdin")
      ->required();
  o->history.add_db(*cmd, true);
  cmd->add_flag("--no-fts", o->no_full_text,
                "Leave the full-text index for later (faster); the next ingest without it catches up");
  cmd->callback([&run, o] { run = [o] { return run_ingest(*o); }; });
}

}  // namespace gpudiag::cli
