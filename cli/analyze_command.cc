// gpudiag analyze PATH...: the whole pipeline, rendered as text or JSON.
#include <fmt/format.h>
#include <unistd.h>

#include <iostream>

#include "commands.h"
#include "gpudiag/analyzer.h"
#include "gpudiag/report.h"

namespace gpudiag::cli {
namespace {

struct AnalyzeOptions {
  std::vector<std::string> inputs;
  std::string format = "text";
  std::string fail_on = "never";
  std::string job_file;
  unsigned threads = 0;
  bool deterministic = false;
  bool no_color = false;
  bool color = false;
  bool show_facts = false;
  RuleOptions rules;
};

std::optional<Impact> threshold(const std::string& fail_on) {
  if (fail_on == "never") return std::nullopt;
  return parse_impact(fail_on);
}

void show_progress(const Progress& p) {
  const double mb = static_cast<double>(p.bytes) / 1e6;
  std::cerr << fmt::format("\r\x1b[2K{:.0f} MB, {} entries, {:.0f} MB/s", mb, p.entries,
                           p.seconds > 0 ? mb / p.seconds : 0.0)
            << std::flush;
}

int run_analyze(const AnalyzeOptions& o) {
  auto pack = o.rules.load();
  if (!pack) return kExitError;
  AnalysisOptions options;
  options.threads = o.threads;
  options.job_file = o.job_file;
  const bool progress = isatty(STDERR_FILENO) && !o.deterministic;
  if (progress) options.progress = show_progress;
  auto diagnosis = analyze(*pack, o.inputs, options);
  if (progress) std::cerr << "\r\x1b[2K" << std::flush;
  if (!diagnosis) {
    std::cerr << render_with_source(diagnosis.error());
    return kExitError;
  }
  const RankedReport report = rank(*diagnosis);
  RenderOptions render;
  render.deterministic = o.deterministic;
  render.version = GPUDIAG_VERSION;
  render.color = !o.no_color && (o.color || (o.format == "text" && isatty(STDOUT_FILENO)));
  std::cout << (o.format == "json" ? render_json(report, render) : render_text(report, render));
  if (o.show_facts) {
    std::cerr << "Job facts:\n";
    for (const auto& f : diagnosis->facts) {
      std::cerr << fmt::format("  {} = {}  ({}{})\n", f.name, terminal_safe(f.value), f.source,
                               f.input >= 0 ? fmt::format(" at line {}", f.line) : "");
    }
  }
  for (const auto& e : diagnosis->input_errors) std::cerr << "gpudiag: " << to_string(e) << '\n';
  if (!diagnosis->input_errors.empty()) return kExitError;
  if (auto level = threshold(o.fail_on)) {
    for (const auto& f : diagnosis->findings) {
      if (f.severity >= *level) return kExitGate;
    }
  }
  return kExitOk;
}

}  // namespace

void add_analyze_command(CLI::App& app, std::function<int()>& run) {
  auto o = std::make_shared<AnalyzeOptions>();
  CLI::App* cmd = app.add_subcommand("analyze", "Diagnose a job from its exported logs");
  cmd->add_option("inputs", o->inputs, "Export files (JSON array, NDJSON, gzip), or - for stdin")->required();
  cmd->add_option("--format", o->format, "Output format")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--fail-on", o->fail_on, "Exit 1 when a finding is at least this severe")
      ->check(CLI::IsMember({"never", "info", "warning", "error", "critical"}));
  cmd->add_option("--job", o->job_file, "Job description: gcloud dataflow jobs describe JOB --full --format=json")
      ->check(CLI::ExistingFile);
  cmd->add_option("-j,--threads", o->threads, "Threads (default: the cores available)")->check(CLI::Range(0u, 256u));
  cmd->add_flag("--deterministic", o->deterministic, "No run times or absolute paths (for golden files)");
  cmd->add_flag("--no-color", o->no_color, "Never colour the text report");
  cmd->add_flag("--color", o->color, "Colour the text report even when not on a terminal");
  cmd->add_flag("--show-facts", o->show_facts, "Print the job facts gpudiag derived, and where from (stderr)");
  o->rules.add_to(*cmd);
  cmd->callback([&run, o] { run = [o] { return run_analyze(*o); }; });
}

}  // namespace gpudiag::cli
