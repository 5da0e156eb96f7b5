// gpudiag preflight: the configuration checks on a job's launch options, before the launch. Reads
// the options (ingest's launch_options.h), evaluates them (engine's preflight.h), renders as gate
// does and exits as gate does: 0, 1 at or above --fail-on, 2 for usage or unreadable options.
#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <iostream>

#include "gpudiag/preflight.h"
#include "gpudiag/redaction.h"
#include "run_options.h"
#include "stdout_guard.h"

namespace gpudiag::cli {
namespace {

struct PreflightOptions {
  RunOptions run;  // the rendering and threshold options gate has (fail_on, deterministic, color …)
  OutputOptions out;
  std::vector<std::string> command;  // after `--`
  std::vector<std::string> options_files;
  std::vector<std::string> scripts;
  std::string image;
  std::string image_python;
  std::string image_beam;
  bool no_launch_env = false;
};

bool on_path(const char* program) {
  const std::string command = fmt::format("command -v {} >/dev/null 2>&1", program);
  return std::system(command.c_str()) == 0;
}

// The first line a command prints, or nullopt when it fails.
std::optional<std::string> first_line_of(const std::string& command) {
  FILE* pipe = popen((command + " 2>/dev/null").c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::array<char, 256> buffer{};
  std::string out;
  if (fgets(buffer.data(), buffer.size(), pipe) != nullptr) out = buffer.data();
  if (pclose(pipe) != 0 || out.empty()) return std::nullopt;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// `python3 -c …` printing "3.10 2.60.0": the Python minor version and Beam version of an environment.
constexpr std::string_view kVersionsScript =
    "import sys, apache_beam; print('%d.%d %s' % (sys.version_info[0], sys.version_info[1], apache_beam.__version__))";

void read_versions(const std::string& command, const char* python_fact, const char* beam_fact, PreflightInput& in,
                   std::string_view what) {
  const auto line = first_line_of(command);
  const size_t space = line ? line->find(' ') : std::string::npos;
  if (!line || space == std::string::npos) {
    in.notes.push_back(fmt::format("skipped: {} (apache_beam could not be imported there)", what));
    return;
  }
  in.facts.emplace_back(python_fact, line->substr(0, space));
  in.facts.emplace_back(beam_fact, line->substr(space + 1));
}

int run_preflight(const PreflightOptions& o) {
  if (o.command.empty() && o.options_files.empty() && o.scripts.empty() && o.run.job_files.empty()) {
    std::cerr << "gpudiag: preflight needs launch options: `-- python main.py --runner DataflowRunner …`, "
                 "--options FILE, --script FILE or --job FILE\n";
    return kExitError;
  }
  const auto plan = o.out.plan(OutputFormat::kText);
  if (!plan) return kExitError;
  std::vector<ProtectedFile> keep;
  for (const auto& f : o.options_files) keep.push_back({f, "an options file"});
  for (const auto& f : o.scripts) keep.push_back({f, "a launch script"});
  for (const auto& f : o.run.job_files) keep.push_back({f, "the job file"});
  if (auto refused = check_outputs(o.out.outputs, keep)) {
    std::cerr << "gpudiag: " << terminal_safe(*refused) << '\n';
    return kExitError;
  }
  auto pack = o.run.rules.load();
  if (!pack) return kExitError;
  PreflightInput in;
  if (!o.command.empty()) {
    std::vector<ShellWord> words;
    for (const auto& w : o.command) words.push_back(ShellWord{.text = w, .line = 0, .substitution = false});
    auto options = launch_options_of(words, "");
    if (!options) {
      std::cerr << "gpudiag: the command after `--` is not a launch command: give the pipeline's own (`python "
                   "main.py --runner DataflowRunner …`) or `gcloud dataflow flex-template run …`\n";
      return kExitError;
    }
    in.sources.emplace_back("");
    for (auto& opt : *options) in.options.push_back(std::move(opt));
  }
  const auto add = [&](const std::vector<std::string>& files, auto read) {
    for (const auto& path : files) {
      auto options = read(path);
      if (!options) {
        print_problem(options.error());
        return false;
      }
      in.sources.push_back(path);
      for (auto& opt : *options) in.options.push_back(std::move(opt));
    }
    return true;
  };
  if (!add(o.options_files, read_options_file) || !add(o.scripts, read_launch_script)) return kExitError;
  for (const auto& path : o.run.job_files) in.sources.push_back(path);
  in.job_files = o.run.job_files;
  if (!o.image_python.empty()) in.facts.emplace_back("python_version_worker", o.image_python);
  if (!o.image_beam.empty()) in.facts.emplace_back("beam_version_worker", o.image_beam);
  if (!o.image.empty()) {
    if (!on_path("docker")) {
      in.notes.push_back(
          fmt::format("skipped: docker not found, so the versions in {} were not read "
                      "(give --image-python and --image-beam)",
                      o.image));
    } else {
      // --pull=never: preflight never downloads an image; a missing one is skipped with a note.
      read_versions(
          fmt::format("docker run --rm --pull=never --entrypoint python3 '{}' -c \"{}\"", o.image, kVersionsScript),
          "python_version_worker", "beam_version_worker", in,
          fmt::format("the versions in {} (not pulled: docker run --pull=never)", o.image));
    }
  }
  if (!o.no_launch_env) {
    read_versions(fmt::format("python3 -c \"{}\"", kVersionsScript), "python_version_launch", "beam_version_launch", in,
                  "the launch environment's Python and Beam versions");
  }
  in.notes.push_back(fmt::format("option names: {}", beam_options_source()));
  auto analysis = preflight(*pack, in);
  if (!analysis) {
    print_problem(analysis.error());
    return kExitError;
  }
  if (o.run.redact) *analysis = redacted(*analysis);
  RankedReport report = rank(*analysis);
  OutputWriter writer;
  std::vector<std::string> wrote;
  for (const auto& [path, format] : *plan) {
    const bool terminal = path == "-" && isatty(STDOUT_FILENO);
    std::string text = render(format, report, pack->rules(), o.run.render_options(format, terminal));
    if (path != "-") wrote.push_back(wrote_line(path, text.size()));
    if (!writer.stage(path, std::move(text))) {
      std::cerr << "gpudiag: " << terminal_safe(writer.error()) << '\n';
      return kExitError;
    }
  }
  if (!writer.commit()) {
    std::cerr << "gpudiag: " << terminal_safe(writer.error()) << '\n';
    return kExitError;
  }
  for (const auto& line : wrote) std::cerr << line;
  const auto level = o.run.threshold();
  return level && trips_gate(report, *level) ? kExitGate : kExitOk;
}

}  // namespace

void add_preflight_command(CLI::App& app, std::function<int()>& run) {
  auto o = std::make_shared<PreflightOptions>();
  o->run.fail_on = "error";
  CLI::App* cmd = app.add_subcommand(
      "preflight", "Check a job's launch options against the configuration rules before it is launched");
  cmd->add_option("--options", o->options_files,
                  "An options file (JSON or YAML: a map, a Flex Template's parameters, sdkPipelineOptions); "
                  "repeatable")
      ->check(CLI::ExistingFile);
  cmd->add_option("--script", o->scripts, "A launch script (its python/java/gcloud launch commands); repeatable")
      ->check(CLI::ExistingFile);
  cmd->add_option("--job", o->run.job_files, "An earlier run's `gcloud dataflow jobs describe --full --format=json`")
      ->check(CLI::ExistingFile);
  cmd->add_option("--image", o->image, "The SDK container image, to read its Python and Beam versions (needs docker)");
  cmd->add_option("--image-python", o->image_python, "The Python minor version in the worker image (3.10)");
  cmd->add_option("--image-beam", o->image_beam, "The Beam version in the worker image (2.60.0)");
  cmd->add_flag("--no-launch-env", o->no_launch_env,
                "Do not read the launch environment's Python and Beam versions (python3 -c 'import apache_beam')");
  cmd->add_option("--fail-on", o->run.fail_on, "Exit 1 when a finding is at least this severe")
      ->check(one_of(fail_on_choices()));
  cmd->add_flag("--deterministic", o->run.deterministic, "Stable output for tests (no version, no paths' cwd)");
  cmd->add_flag(
      "--redact", o->run.redact,
      "Mask e-mail addresses, tokens and keys, bucket and project names in every output (as analyze --redact)");
  cmd->add_option("--color", o->run.color, "Colour the text report: auto, always, never")
      ->check(one_of({"auto", "always", "never"}));
  o->out.add_to(*cmd);
  o->run.rules.add_to(*cmd);
  cmd->add_option("command", o->command, "The launch command, after `--`");
  cmd->callback([&run, o] { run = [o] { return run_preflight(*o); }; });
}

}  // namespace gpudiag::cli
