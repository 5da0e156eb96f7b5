#include "run_options.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "gpudiag/baseline_writer.h"
#include "gpudiag/diagnostic_codes.h"
#include "gpudiag/doc_language.h"
#include "gpudiag/progress_line.h"
#include "interrupts.h"
#include "job_selection_check.h"
#include "shell_word.h"
#include "stdout_guard.h"

namespace gpudiag::cli {
namespace {

// The inputs' bytes when the progress can be told against them: every input a plain file that is
// not gzip (the progress counts decompressed bytes). nullopt: stdin, a pipe, or gzip.
std::optional<uint64_t> plain_input_bytes(const std::vector<std::string>& inputs) {
  uint64_t total = 0;
  for (const auto& path : inputs) {
    std::error_code ec;
    if (path == "-" || !std::filesystem::is_regular_file(path, ec)) return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    char magic[2] = {0, 0};
    in.read(magic, 2);
    if (magic[0] == '\x1f' && magic[1] == '\x8b') return std::nullopt;
    total += std::filesystem::file_size(path, ec);
    if (ec) return std::nullopt;
  }
  return total;
}

std::vector<std::string> format_names() {
  std::vector<std::string> names;
  for (const auto& f : kOutputFormats) names.emplace_back(f.name);
  return names;
}

// Today in UTC, for baseline expiry dates.
std::string today() {
  const auto days = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
  const std::chrono::year_month_day ymd{days};
  return fmt::format("{:04}-{:02}-{:02}", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                     static_cast<unsigned>(ymd.day()));
}

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> impact_choices() {
  std::vector<std::string> choices;
  for (const auto& row : kImpactNames) choices.emplace_back(row.name);
  return choices;
}

// The width the text report fills: the terminal's (TIOCGWINSZ) when stdout is one, else $COLUMNS
// when set — in a pipe or a CI log that is how a user says how wide the reader is — else 80; at least 40.
size_t output_width(bool to_terminal) {
  size_t columns = 0;
  winsize size{};
  if (to_terminal && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    columns = size.ws_col;
  } else if (const char* env = std::getenv("COLUMNS"); env != nullptr) {
    columns = std::strtoul(env, nullptr, 10);
  }
  return columns == 0 ? 80 : std::max<size_t>(columns, 40);
}

}  // namespace

std::vector<std::string> fail_on_choices() {
  std::vector<std::string> choices{"never"};
  for (const auto& row : kImpactNames) choices.emplace_back(row.name);
  return choices;
}

void RunOptions::add_to(CLI::App& cmd, const std::string& fail_on_default) {
  fail_on = fail_on_default;
  // Required (so that a repeatable option before it, `--job-id X logs.json`, leaves it the path); with
  // none, usage_failure_message says how to get an export.
  cmd.add_option("inputs", inputs, "Export files (JSON array, NDJSON, gcloud's YAML, gzip), or - for stdin")
      ->required();
  cmd.add_option("--fail-on", fail_on, "Exit 1 when a finding is at least this severe")
      ->check(one_of(fail_on_choices()))
      ->capture_default_str();
  cmd.add_option("--job", job_files,
                 "Job description: gcloud dataflow jobs describe JOB --full --format=json, or the array gcloud "
                 "dataflow jobs list --format=json prints; repeatable")
      ->check(CLI::ExistingFile)
      ->allow_extra_args(false);
  cmd.add_option("--job-id", job_ids, "Diagnose and report only this job of the export; repeatable");
  cmd.add_option("--job-name", job_name, "Diagnose and report only the jobs whose name matches this glob");
  cmd.add_option("--max-jobs", max_jobs, "Keep full state for this many jobs; later ones are counted, not diagnosed")
      ->check(CLI::Range(size_t{1}, size_t{1'000'000}))
      ->capture_default_str();
  cmd.add_flag("--allow-empty", allow_empty,
               "With a threshold (gate, --fail-on): an export without a Dataflow job exits 0 instead of 2");
  cmd.add_option("-j,--threads", threads, "Threads (default: the cores available)")->check(CLI::Range(0u, 256u));
  cmd.add_option("--max-entry-bytes", max_entry_bytes,
                 "A larger entry is matched as it streams and kept cropped (listed in the input's problems)")
      ->check(CLI::Range(uint64_t{4096}, uint64_t{1} << 30))
      ->capture_default_str();
  cmd.add_flag("--deterministic", deterministic, "No run times or absolute paths (for golden files)");
  // A flag, so WHEN is only taken in the `--color=WHEN` form: `--color export.json` never reads the
  // path as WHEN.
  // A flag, so WHEN is only taken in the `--color=WHEN` form: `--color export.json` never reads the
  // path as WHEN. Alone it reads "true": always.
  cmd.add_flag("--color", color,
               "Colour the text report: auto (on a terminal, unless NO_COLOR is set), always, never; --color "
               "alone is always")
      ->type_name("[=WHEN]")
      ->transform(CLI::Validator(
          [](std::string& when) {
            if (when == "true") when = "always";
            return std::string();
          },
          ""))
      ->check(one_of({"auto", "always", "never"}));
  cmd.add_flag_callback(
      "--no-color", [this] { color = "never"; }, "The same as --color=never");
  cmd.add_flag("--redact", redact,
               "Mask e-mail addresses, tokens and keys, bucket and project names, and quoted data in exception "
               "messages in every output: before posting a report to a PR, a ticket or a SARIF upload");
  auto* brief_flag = cmd.add_flag("--brief", brief,
                                  "Text report: the verdict, the causes with one evidence line each and the first "
                                  "fix, in at most 15 lines");
  cmd.add_flag("-q,--quiet", quiet, "Text report: the verdict line alone (exit codes are unchanged)")
      ->excludes(brief_flag);
  cmd.add_option("--min-severity", min_severity,
                 "Text report: leave out findings and unexplained error groups below this severity (they are counted, "
                 "and the gate still sees them)")
      ->check(CLI::IsMember(impact_choices()));
  cmd.add_flag("--show-facts", show_facts, "Print the job facts gpudiag derived, and where from (stderr)");
  add_doc_language_option(cmd, lang);
  rules.add_to(cmd);
  add_record_options(cmd, history);
}

void add_doc_language_option(CLI::App& cmd, std::string& lang) {
  cmd.add_option("--lang", lang,
                 "Language of the documentation citations: en, es, es-419, ja, ko or he (default: $GPUDIAG_LANG, "
                 "else the locale: LC_ALL, LC_MESSAGES, LANG)")
      ->envname("GPUDIAG_LANG")
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            if (const auto tag = parse_doc_language(value)) {
              value = *tag;
              return "";
            }
            return fmt::format("no documentation language '{}' (one of: {})", value,
                               fmt::join(doc_language_tags(), ", "));
          },
          "LANG"));
}

std::string resolve_doc_language(const std::string& lang, bool deterministic) {
  if (!lang.empty()) return lang;                   // --lang or GPUDIAG_LANG, already checked
  if (deterministic) return std::string(kEnglish);  // the locale is the environment: goldens must not see it
  // POSIX: LC_ALL overrides LC_MESSAGES, which overrides LANG; an empty variable counts as unset.
  for (const char* name : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
    const char* value = std::getenv(name);
    if (value && *value) return language_from_locale(value);
  }
  return std::string(kEnglish);
}

std::string RunOptions::doc_language() const { return resolve_doc_language(lang, deterministic); }

std::optional<Impact> RunOptions::threshold() const {
  if (fail_on == "never") return std::nullopt;
  return parse_impact(fail_on);
}

RenderOptions RunOptions::render_options(OutputFormat format, bool to_terminal) const {
  RenderOptions render;
  render.deterministic = deterministic;
  render.version = GPUDIAG_VERSION;
  render.fail_on = threshold();
  render.allow_empty = allow_empty;
  // https://no-color.org: NO_COLOR set and not empty turns colour off, an explicit --color=always wins.
  const char* no_color = std::getenv("NO_COLOR");
  const bool auto_color = to_terminal && (no_color == nullptr || *no_color == '\0');
  render.color = format == OutputFormat::kText && (color == "always" || (color == "auto" && auto_color));
  render.text_detail = quiet ? TextDetail::kVerdict : brief ? TextDetail::kBrief : TextDetail::kFull;
  if (!min_severity.empty()) render.min_severity = parse_impact(min_severity);
  render.width = output_width(to_terminal);
  std::error_code cwd_error;  // without a working directory, paths are shown as given
  render.working_directory = std::filesystem::current_path(cwd_error).string();
  render.lang = doc_language();
  return render;
}

namespace {

// Every --job description must name a job of the export (docs/upgrading.md); prints why not.
// A signal after the export was read (the analysis stopping reads only): the report still comes,
// said to be incomplete, and the run is not recorded (docs/formats.md, "Interrupts").
void mark_interrupted(const RunOptions& o, Analysis& d) {
  const int signal = interrupt_signal().load();
  if (signal == 0 || d.inputs.empty()) return;
  // The last input answers for it, unless it is already not read in full (then that says so).
  InputSummary& last = d.inputs.back();
  if (last.not_read_in_full) return;
  last.not_read_in_full = Diagnostic{.code = code_name(DiagnosticCode::kInputInterrupted),
                                     .message = fmt::format("interrupted by {} while the export was analysed",
                                                            signal == SIGINT ? "SIGINT" : "SIGTERM"),
                                     .file = o.inputs.back(),
                                     .help = "the report covers what was analysed; run it again for the whole export"};
  d.input_errors.push_back(*last.not_read_in_full);
}

bool check_job_files(const RunOptions& o, const Analysis& d) {
  std::vector<JobDescription> jobs;
  for (const auto& path : o.job_files) {
    auto described = read_job_descriptions(path);  // analyze() read them already: they parse
    if (!described) {
      print_problem(described.error());
      return false;
    }
    jobs.insert(jobs.end(), described->begin(), described->end());
  }
  auto checked = check_job_descriptions(d, jobs);
  if (!checked) {
    print_problem(checked.error());
    return false;
  }
  if (!checked->empty()) std::cerr << "gpudiag: note: " << terminal_safe(*checked) << '\n';
  return true;
}

}  // namespace

void RunOptions::add_fetch_to(CLI::App& cmd) {
  fetch.add_to(cmd);
  cmd.get_option("inputs")->required(false);
  for (CLI::Option* option : cmd.get_options()) {
    if (option->nonpositional() && option->get_items_expected_max() > 1) option->allow_extra_args(false);
  }
}

void RunOptions::check_fetch_usage() const {
  if (!fetch.project.empty() && !inputs.empty()) {
    throw CLI::ValidationError("--project",
                               "fetches the job's logs with gcloud: give --project with --job-id JOB_ID, or export "
                               "files, not both");
  }
  if (fetch.project.empty() && !fetch.region.empty()) {
    throw CLI::ValidationError("--region", "goes with --project and --job-id JOB_ID (a fetch): give --project too");
  }
  if (fetch.project.empty() && inputs.empty()) throw CLI::RequiredError("inputs");
  if (!fetch.project.empty() && job_ids.size() != 1) {
    throw CLI::ValidationError("--project", "fetches one job: name it with --job-id JOB_ID (once)");
  }
}

namespace {

// gpudiag fetch's note in a --job file says the export beside it came only in part: that input was
// not read in full (docs/formats.md, "Input problems"), and the report says so.
void mark_fetched_in_part(const RunOptions& o, Analysis& d) {
  for (const auto& path : o.job_files) {
    auto jobs = read_job_descriptions(path);
    if (!jobs) continue;
    for (const JobDescription& job : *jobs) {
      if (job.fetch_complete != false) continue;
      for (InputSummary& in : d.inputs) {
        const bool named = std::filesystem::path(in.path).filename() == job.fetch_export;
        if ((!named && d.inputs.size() != 1) || in.not_read_in_full) continue;
        in.not_read_in_full = Diagnostic{
            .code = code_name(DiagnosticCode::kFetchIncomplete),
            .message = fmt::format("gpudiag fetch got only part of the job's entries: {}", job.fetch_incomplete_reason),
            .file = in.path,
            .help = "the report covers what came; fetch again later (gpudiag fetch --force) for the rest"};
        d.input_errors.push_back(*in.not_read_in_full);
      }
    }
  }
}

}  // namespace

std::optional<AnalysedRun> run_analysis(const RunOptions& o) {
  if (!o.fetch.project.empty()) {
    FetchTarget target = o.fetch;
    target.job_id = o.job_ids.front();
    const auto fetched = fetch_into_cache(target);
    if (!fetched) return std::nullopt;
    RunOptions local = o;
    local.fetch = FetchTarget{};
    local.inputs = {fetched->export_path};
    local.job_files.push_back(fetched->job_path);
    auto analysed = run_analysis(local);
    if (analysed) {
      analysed->header_notes.push_back(fmt::format("export: {} (fetched; offline: gpudiag analyze --job {} {})",
                                                   fetched->export_path, shell_word(fetched->job_path),
                                                   shell_word(fetched->export_path)));
    }
    return analysed;
  }
  auto pack = o.rules.load();
  if (!pack) return std::nullopt;
  std::optional<HistoryStore> store;
  if (!o.history.db.empty()) {
    if (auto refused = check_outputs({o.history.db}, read_files(o))) {  // SQLite would write into it
      std::cerr << "gpudiag: --db: " << terminal_safe(*refused) << '\n';
      return std::nullopt;
    }
    if (!(store = o.history.open())) return std::nullopt;
  }
  AnalysisOptions options;
  options.threads = o.threads;
  options.job_files = o.job_files;
  options.select = JobSelection{o.job_ids, o.job_name};
  options.max_jobs = o.max_jobs;
  options.limits.max_entry_bytes = o.max_entry_bytes;
  catch_interrupts();
  options.interrupt = &interrupt_signal();
  const bool progress = isatty(STDERR_FILENO) && !o.deterministic;
  if (progress) {
    options.progress = [total = plain_input_bytes(o.inputs), tick = size_t{0}](const Progress& p) mutable {
      std::cerr << "\r\x1b[2K" << progress_line(p, total, tick++) << std::flush;
    };
  }
  auto analysis = analyze(*pack, o.inputs, options);
  if (progress) std::cerr << "\r\x1b[2K" << std::flush;
  if (!analysis) {
    print_problem(analysis.error());
    return std::nullopt;
  }
  // No input could be read at all: no report, for none could tell the truth about the job.
  if (!analysis->input_errors.empty() && analysis->input_errors.size() >= o.inputs.size() && analysis->entries == 0) {
    for (const auto& e : analysis->input_errors) {
      print_input_error(e);
      // The runner reads workflow commands on stderr too: the annotation without a report.
      if (o.github_errors) {
        std::cerr << fmt::format("::error file={},title={}::{}\n", workflow_command_escape(e.file, true),
                                 workflow_command_escape("gpudiag: input not read", true),
                                 workflow_command_escape(e.message + "; no report was written"));
      }
    }
    std::cerr << "gpudiag: no input could be read; no report was written\n";
    return std::nullopt;
  }
  mark_interrupted(o, *analysis);
  mark_fetched_in_part(o, *analysis);
  if (!check_job_files(o, *analysis)) return std::nullopt;
  if (!check_job_selection(JobSelection{o.job_ids, o.job_name}, *analysis)) return std::nullopt;
  // After the analysis (the fingerprints are made from the raw text) and before ranking.
  std::optional<RedactionTerms> redaction;
  if (o.redact) {
    redaction = redaction_terms(*analysis);
    *analysis = redacted(*analysis, *redaction);
  }
  return AnalysedRun{std::move(*pack), std::move(*analysis), std::move(store), std::move(redaction)};
}

std::vector<ProtectedFile> read_files(const RunOptions& o) {
  std::vector<ProtectedFile> files = input_files(o.inputs);
  for (const auto& job : o.job_files) files.push_back({job, "the job file"});
  return files;
}

std::vector<ProtectedFile> protected_files(const RunOptions& o) {
  std::vector<ProtectedFile> keep = read_files(o);
  if (!o.history.db.empty()) {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
      keep.push_back({o.history.db + suffix, "the history database"});
    }
  }
  return keep;
}

void print_input_error(const Diagnostic& d) {
  std::cerr << "gpudiag: " << terminal_safe(to_string(d)) << '\n';
  if (!d.help.empty()) std::cerr << "  help: " << terminal_safe(d.help) << '\n';
}

void print_problem(const Diagnostic& d) { std::cerr << terminal_safe_lines(render_with_source(d)); }

int exit_code(const RunOptions& o, const AnalysedRun& analysed, const RankedReport& report) {
  const Analysis& d = analysed.analysis;
  if (o.show_facts) {
    std::cerr << "Job facts:\n";
    for (const auto& f : d.facts) {
      std::cerr << fmt::format("  {} = {}  ({}{}{})\n", f.name, terminal_safe(f.value), terminal_safe(f.source),
                               f.input >= 0 ? fmt::format(" at line {}", f.line) : "",
                               f.extractor.empty() ? "" : fmt::format(", {}", f.extractor));
      // Sources that disagree with the winning one, strongest source first (docs/rules.md, Job facts).
      for (const auto& c : f.conflicts()) {
        std::cerr << fmt::format("      but {} says {}{}{}\n", terminal_safe(c.what), terminal_safe(c.value),
                                 c.input >= 0 ? fmt::format(" at line {}", c.line) : "",
                                 c.extractor.empty() ? "" : fmt::format(" ({})", c.extractor));
      }
      if (f.sources_total > f.sources.size()) {
        std::cerr << fmt::format("      reported by {} sources in all\n", f.sources_total);
      }
    }
  }
  for (const auto& e : d.input_errors) print_input_error(e);
  if (!d.input_errors.empty()) return kExitError;
  const auto level = o.threshold();
  if (level && report.verdict == Verdict::kEmpty && !o.allow_empty) {
    std::cerr << "gpudiag: " << terminal_safe(report.verdict_line) << '\n'
              << "  help: with a threshold an empty export exits 2; --allow-empty lets it pass\n";
    return kExitError;
  }
  if (level && trips_gate(report, *level)) return kExitGate;
  return kExitOk;
}

void OutputOptions::add_to(CLI::App& cmd) {
  cmd.add_option("-o,--output", outputs,
                 "Write a report here; the format comes from the extension (.html .md .json .sarif .xml .txt), "
                 "- is stdout; repeatable");
  cmd.add_option("--format", format, "Format of stdout, and of -o paths whose extension names none")
      ->check(one_of(format_names()));
  cmd.add_option("--baseline", baseline, "Accepted findings (docs/baseline.md): suppressed, never trip the gate")
      ->check(CLI::ExistingFile);
}

std::optional<std::vector<std::pair<std::string, OutputFormat>>> OutputOptions::plan(
    std::optional<OutputFormat> default_stdout) const {
  // --format when given, else the command's own stdout format (for "-" only).
  const auto fallback = [&](bool to_stdout) -> std::optional<OutputFormat> {
    if (!format.empty()) return parse_output_format(format);
    return to_stdout ? default_stdout : std::nullopt;
  };
  std::vector<std::pair<std::string, OutputFormat>> plan;
  for (const auto& path : outputs) {
    std::optional<OutputFormat> f = path == "-" ? std::nullopt : output_format_for_path(path);
    if (!f) f = fallback(path == "-");
    if (!f) {
      std::cerr << fmt::format(
          "gpudiag: cannot tell which format to write to {}: name it .html, .md, .json, .sarif, .xml "
          "or .txt, or pass --format\n",
          path == "-" ? "stdout" : path);
      return std::nullopt;
    }
    plan.emplace_back(path, f.value());
  }
  const bool to_stdout = std::any_of(plan.begin(), plan.end(), [](const auto& p) { return p.first == "-"; });
  // gate always prints a report; report writes stdout only when no -o names a file: `report x
  // --format md` is `report x --format md -o -`.
  if (const auto f = fallback(true); f && !to_stdout && (default_stdout || outputs.empty()))
    plan.emplace_back("-", f.value());
  if (plan.empty()) {
    std::cerr << "gpudiag: nothing to write: give -o FILE (the format from its extension: .html, .md, .json, "
                 ".sarif, .xml, .txt), or --format FORMAT for stdout\n";
    return std::nullopt;
  }
  return plan;
}

// "wrote post-mortem.html (84 KB)\n" (1 KB = 1024 bytes).
std::string wrote_line(const std::string& path, size_t bytes) {
  const std::string size = bytes < 1024          ? fmt::format("{} byte{}", bytes, bytes == 1 ? "" : "s")
                           : bytes < 1024 * 1024 ? fmt::format("{} KB", (bytes + 512) / 1024)
                                                 : fmt::format("{:.1f} MB", static_cast<double>(bytes) / (1024 * 1024));
  return terminal_safe_lines(fmt::format("wrote {} ({})\n", path, size));
}

namespace {

int run_outputs(const RunOptions& run, const OutputOptions& out, std::optional<OutputFormat> default_stdout) {
  const auto plan = out.plan(default_stdout);
  if (!plan) return kExitError;
  std::vector<ProtectedFile> keep = protected_files(run);
  keep.push_back({out.baseline, "the baseline"});
  if (auto refused = check_outputs(out.outputs, keep)) {  // before anything is read
    std::cerr << "gpudiag: " << terminal_safe(*refused) << '\n';
    return kExitError;
  }
  std::optional<Baseline> baseline;
  if (!out.baseline.empty()) {
    const auto text = read_text(out.baseline);
    if (!text) {
      std::cerr << fmt::format("gpudiag: cannot read the baseline {}\n", terminal_safe(out.baseline));
      return kExitError;
    }
    auto parsed = parse_baseline(*text, out.baseline);
    if (!parsed) {
      for (const auto& p : lint_baseline(*text, out.baseline)) print_problem(p);
      return kExitError;
    }
    std::cerr << baseline_placeholder_note(*parsed);  // entries `baseline create` wrote, reasons not filled in
    baseline = std::move(*parsed);
  }
  RunOptions with_plan = run;
  with_plan.github_errors = std::any_of(
      plan->begin(), plan->end(), [](const auto& p) { return p.first == "-" && p.second == OutputFormat::kGithub; });
  auto analysed = run_analysis(with_plan);
  if (!analysed) return kExitError;
  RankedReport report = rank(analysed->analysis);
  if (baseline) {
    report = apply_baseline(std::move(report), *baseline, today());
    std::cerr << baseline_refresh_note(*report.baseline);  // entries with v1 fingerprints (a note, not an error)
  }
  const auto write_outputs = [&]() -> std::string {
    OutputWriter writer;  // every output staged first: none is replaced unless all can be
    std::vector<std::string> wrote;
    for (const auto& [path, format] : *plan) {
      const bool terminal = path == "-" && isatty(STDOUT_FILENO);
      std::string text =
          render(format, report, analysed->pack.rules(), analysed->render_options(run, format, terminal));
      if (path != "-") wrote.push_back(wrote_line(path, text.size()));
      if (!writer.stage(path, std::move(text))) return writer.error();
    }
    if (!writer.commit()) return writer.error();
    for (const auto& line : wrote) std::cerr << line;  // after the commit: only what is in place
    return "";
  };
  if (!record_history(run, *analysed, report, write_outputs)) return kExitError;
  return exit_code(run, *analysed, report);
}

}  // namespace

void add_output_command(CLI::App& app, std::function<int()>& run, const OutputCommand& command) {
  struct Options {
    RunOptions run;
    OutputOptions out;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(command.name, command.description);
  o->run.add_to(*cmd, command.fail_on);
  o->out.add_to(*cmd);
  o->run.add_fetch_to(*cmd);
  if (command.output_required) cmd->get_option("--output")->required();
  const auto default_stdout = command.default_stdout;
  cmd->callback([&run, o, default_stdout] {
    o->run.check_fetch_usage();
    run = [o, default_stdout] { return run_outputs(o->run, o->out, default_stdout); };
  });
}

}  // namespace gpudiag::cli
