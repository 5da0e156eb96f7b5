// gpudiag baseline create|update: write a baseline file from an analysis instead of by hand
// (docs/baseline.md, "Writing one"). Both take analyze's options; neither records a run.
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "gpudiag/baseline_writer.h"
#include "run_options.h"
#include "stdout_guard.h"

namespace gpudiag::cli {
namespace {

struct BaselineOptions {
  RunOptions run;
  std::string file;  // update: the baseline to edit
  std::string output;
  std::string expires;
  bool force = false;
};

std::string today_utc() { return fmt::format("{:%Y-%m-%d}", fmt::gmtime(std::time(nullptr))); }

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// The analysis, ranked; nullopt (after saying why) when it cannot stand for the job: an input not
// read, or — unless --allow-empty — an export without a Dataflow job.
std::optional<std::pair<AnalysedRun, RankedReport>> ranked_run(const RunOptions& o) {
  auto analysed = run_analysis(o);
  if (!analysed) return std::nullopt;
  for (const auto& e : analysed->analysis.input_errors) print_input_error(e);
  if (!analysed->analysis.input_errors.empty()) {
    std::cerr << "gpudiag: an input was not read whole; no baseline was written\n";
    return std::nullopt;
  }
  RankedReport report = rank(analysed->analysis);
  if (report.verdict == Verdict::kEmpty && !o.allow_empty) {
    std::cerr << "gpudiag: " << terminal_safe(report.verdict_line) << "; no baseline was written\n"
              << "  help: --allow-empty writes one that accepts nothing\n";
    return std::nullopt;
  }
  return std::make_pair(std::move(*analysed), std::move(report));
}

bool write(const std::string& path, std::string text) {
  OutputWriter writer;
  if (writer.stage(path, std::move(text)) && writer.commit()) return true;
  std::cerr << "gpudiag: " << terminal_safe(writer.error()) << '\n';
  return false;
}

std::string shown_path(const std::string& path) { return terminal_safe(path == "-" ? "stdout" : path); }

int run_create(const BaselineOptions& o) {
  if (auto refused = check_outputs({o.output}, read_files(o.run))) {
    std::cerr << "gpudiag: " << terminal_safe(*refused) << '\n';
    return kExitError;
  }
  if (o.output != "-" && exists(o.output) && !o.force) {
    std::cerr << fmt::format(
        "gpudiag: {} exists; --force replaces it, `gpudiag baseline update {} PATH…` drops its stale entries\n",
        shown_path(o.output), shown_path(o.output));
    return kExitError;
  }
  const std::string today = today_utc();
  if (!o.expires.empty() && (!is_baseline_date(o.expires) || o.expires < today)) {
    std::cerr << fmt::format("gpudiag: --expires {}: {}\n", terminal_safe(o.expires),
                             is_baseline_date(o.expires) ? "that day is past; such entries would suppress nothing"
                                                         : "not a date (write YYYY-MM-DD)");
    return kExitError;
  }
  auto run = ranked_run(o.run);
  if (!run) return kExitError;
  const std::string text = draft_baseline(run->second, {.today = today, .expires = o.expires, .inputs = o.run.inputs});
  auto parsed = parse_baseline(text, o.output);
  if (!parsed) {  // a bug: never write a file the gate would refuse
    print_problem(parsed.error());
    return kExitError;
  }
  if (!write(o.output, text)) return kExitError;
  size_t groups = 0;
  for (const auto& e : parsed->entries) groups += e.rule_id == kUnexplainedRuleId ? 1 : 0;
  std::cerr << fmt::format(
      "gpudiag: wrote {}: {} entr{} ({} finding{}, {} unexplained error group{}); write each reason before you "
      "commit it\n",
      shown_path(o.output), parsed->entries.size(), parsed->entries.size() == 1 ? "y" : "ies",
      parsed->entries.size() - groups, parsed->entries.size() - groups == 1 ? "" : "s", groups, groups == 1 ? "" : "s");
  return kExitOk;
}

int run_update(const BaselineOptions& o) {
  const std::string output = o.output.empty() ? o.file : o.output;
  std::vector<ProtectedFile> keep = read_files(o.run);
  if (output != o.file) keep.push_back({o.file, "the baseline being updated"});
  if (auto refused = check_outputs({output}, keep)) {
    std::cerr << "gpudiag: " << terminal_safe(*refused) << '\n';
    return kExitError;
  }
  std::ifstream in(o.file, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (!in) {
    std::cerr << fmt::format("gpudiag: cannot read the baseline {}\n", terminal_safe(o.file));
    return kExitError;
  }
  const std::string text = buffer.str();
  if (!parse_baseline(text, o.file)) {  // before the analysis: the file is what must be fixed
    for (const auto& p : lint_baseline(text, o.file)) print_problem(p);
    return kExitError;
  }
  auto run = ranked_run(o.run);
  if (!run) return kExitError;
  auto trimmed = drop_unseen_entries(text, o.file, run->second);
  if (!trimmed) {
    print_problem(trimmed.error());
    return kExitError;
  }
  auto reparsed = parse_baseline(trimmed->text, output);
  if (!reparsed || reparsed->entries.size() != trimmed->kept.size()) {  // a bug: keep the file as it is
    std::cerr << fmt::format(
        "gpudiag: internal error: the updated {} would not hold the kept entries; {} is unchanged\n",
        shown_path(output), terminal_safe(o.file));
    return kExitError;
  }
  for (const auto& e : trimmed->dropped) {
    std::cerr << fmt::format("  dropped line {}: {} {} (no finding matches it)\n", e.line, terminal_safe(e.rule_id),
                             terminal_safe(e.fingerprint));
  }
  if (trimmed->dropped.empty() && output == o.file) {
    std::cerr << fmt::format("gpudiag: {}: every entry still matches; nothing to drop\n", shown_path(o.file));
  } else {
    if (!write(output, trimmed->text)) return kExitError;
    std::cerr << fmt::format("gpudiag: wrote {}: dropped {}, kept {}\n", shown_path(output), trimmed->dropped.size(),
                             trimmed->kept.size());
  }
  if (trimmed->not_listed > 0) {
    std::cerr << fmt::format(
        "gpudiag: note: {} current finding{} not in the baseline (`gpudiag baseline create -o -` lists every one)\n",
        trimmed->not_listed, trimmed->not_listed == 1 ? " is" : "s are");
  }
  return kExitOk;
}

// analyze's options, without those that gate or record a run: a baseline is written, not a run.
void add_analysis_options(CLI::App& cmd, RunOptions& run) {
  run.add_to(cmd, "never");
  for (const char* name : {"--fail-on", "--db", "--db-timeout", "--pipeline", "--new-only"}) {
    if (CLI::Option* opt = cmd.get_option_no_throw(name)) cmd.remove_option(opt);
  }
}

}  // namespace

void add_baseline_command(CLI::App& app, std::function<int()>& run) {
  CLI::App* group = app.add_subcommand("baseline", "Write a baseline file (docs/baseline.md) from an analysis");
  group->require_subcommand(1);

  auto c = std::make_shared<BaselineOptions>();
  CLI::App* create =
      group->add_subcommand("create", "Write a baseline accepting every current finding and unexplained error group");
  create->add_option("-o,--output", c->output, "The baseline to write; - is stdout")
      ->default_val("gpudiag-baseline.yaml")
      ->capture_default_str();
  create->add_option("--expires", c->expires, "YYYY-MM-DD: every entry suppresses through that day (UTC)");
  create->add_flag("--force", c->force, "Replace the output if it exists");
  add_analysis_options(*create, c->run);
  create->footer(
      "Examples:\n  gpudiag baseline create logs.json -o gpudiag-baseline.yaml --expires 2027-03-31\n"
      "  gpudiag gate logs.json --baseline gpudiag-baseline.yaml");
  create->callback([&run, c] { run = [c] { return run_create(*c); }; });

  auto u = std::make_shared<BaselineOptions>();
  CLI::App* update = group->add_subcommand(
      "update", "Drop the entries of a baseline no finding matches any more, keeping its comments and order");
  update->add_option("baseline_file", u->file, "The baseline file to update")->required();
  update->add_option("-o,--output", u->output, "Write the result here instead of replacing the baseline; - is stdout");
  add_analysis_options(*update, u->run);
  update->footer("Example:\n  gpudiag baseline update gpudiag-baseline.yaml logs.json");
  update->callback([&run, u] { run = [u] { return run_update(*u); }; });
}

}  // namespace gpudiag::cli
