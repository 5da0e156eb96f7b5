// What analyze, report and gate share: the options that run an analysis (inputs, rules, job file,
// threads, the gate threshold …), running it, writing the rendered outputs (-o, --format,
// --baseline), and turning the outcome into an exit code.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "fetch_options.h"
#include "gpudiag/analyzer.h"
#include "gpudiag/formats.h"
#include "gpudiag/redaction.h"
#include "output_files.h"

namespace gpudiag::cli {

// --lang (and GPUDIAG_LANG), checked and made canonical: what every command that cites the
// documentation takes.
void add_doc_language_option(CLI::App& cmd, std::string& lang);
// The language of documentation citations: `lang` (--lang or GPUDIAG_LANG), else the locale (English
// when it names no language gpudiag has, and when `deterministic`).
std::string resolve_doc_language(const std::string& lang, bool deterministic);

struct RunOptions {
  std::vector<std::string> inputs;
  std::string fail_on = "never";
  std::vector<std::string> job_files;  // --job, repeatable
  std::vector<std::string> job_ids;    // --job-id, repeatable: the jobs in scope (default: all)
  std::string job_name;                // --job-name GLOB
  size_t max_jobs = kDefaultMaxJobs;
  bool allow_empty = false;    // with a threshold: an export without a Dataflow job exits 0, not 2
  bool github_errors = false;  // stdout is --format github: an input no report covers is also an ::error
  unsigned threads = 0;
  uint64_t max_entry_bytes = ReadLimits{}.max_entry_bytes;
  bool deterministic = false;
  std::string color = "auto";  // --color=WHEN: auto (a terminal, and NO_COLOR unset or empty), always, never
  bool show_facts = false;
  bool redact = false;       // --redact: mask secrets and names in every output (reports' redaction.h)
  bool brief = false;        // --brief: the text report's short form
  bool quiet = false;        // -q: the text report's verdict line alone
  std::string min_severity;  // --min-severity: the text report leaves out what is below it
  std::string lang;          // --lang or GPUDIAG_LANG, canonical ("" = from the locale)
  RuleOptions rules;
  HistoryOptions history;  // --db, --pipeline, --new-only
  FetchTarget fetch;       // --project (and --region): fetch the --job-id job instead of reading inputs

  // analyze, report and gate: --project and --region, and the inputs no longer required (each
  // repeatable option then takes one value, so `--job-id X logs.json` leaves logs.json the input).
  // Call after every option is added.
  void add_fetch_to(CLI::App& cmd);
  // In the command's callback: an export or --project, not both, not neither (CLI11 errors).
  void check_fetch_usage() const;

  // Registers the options; `fail_on` is the command's default threshold ("never", "error" …).
  void add_to(CLI::App& cmd, const std::string& fail_on_default);
  std::optional<Impact> threshold() const;
  // The language of documentation citations: --lang, GPUDIAG_LANG, else the locale (English when it
  // names no language gpudiag has, and with --deterministic).
  std::string doc_language() const;
  // Render options for one output; colour only for text, on a terminal unless NO_COLOR is set, or
  // with --color=always.
  RenderOptions render_options(OutputFormat format, bool to_terminal) const;
};

struct AnalysedRun {
  RulePack pack;
  Analysis analysis;
  std::optional<HistoryStore> store;  // --db, opened before the analysis
  // --redact: what was masked in `analysis` (the export's project ids), to mask what the run
  // history adds to the report too (the last green run's facts).
  std::optional<RedactionTerms> redaction;
  // The export gpudiag fetched (--project --job-id): named in the text report's header.
  std::vector<std::string> header_notes;
  RenderOptions render_options(const RunOptions& o, OutputFormat format, bool to_terminal) const {
    RenderOptions render = o.render_options(format, to_terminal);
    render.header_notes = header_notes;
    return render;
  }
};

// Loads the rules and analyses the inputs. Problems are printed; nullopt means exit code 2 and no
// report: when no input could be read at all, or a --job file describes a job the export does not hold.
std::optional<AnalysedRun> run_analysis(const RunOptions& o);

// --db, --db-timeout, --pipeline and --new-only (history_options.cc).
void add_record_options(CLI::App& cmd, HistoryOptions& history);
// Renders and writes the run's outputs; the reason they could not be written, or "".
using OutputStep = std::function<std::string()>;
// Marks each finding of the report new or known from --db, if given, writes the outputs, and then
// records the run — all or nothing: a run whose outputs failed is not recorded. False (after
// printing why) when the outputs or the database could not be written: exit code 2.
bool record_history(const RunOptions& o, AnalysedRun& analysed, RankedReport& report, const OutputStep& write_outputs);

// The files the run reads (the inputs, the job file), and those plus the history database: the
// files an output must never replace.
std::vector<ProtectedFile> read_files(const RunOptions& o);
std::vector<ProtectedFile> protected_files(const RunOptions& o);

// After the outputs are written: prints unreadable inputs (and --show-facts), and returns the exit
// code: 2 for an unreadable input or, with a threshold and without --allow-empty, an export without
// a Dataflow job; 1 when the gate trips; 0 otherwise.
int exit_code(const RunOptions& o, const AnalysedRun& analysed, const RankedReport& report);

// Outputs of report and gate. An -o path's format comes from its extension; --format names the
// format of stdout (`-o -`, or gate's default output) and of paths whose extension names none.
struct OutputOptions {
  std::vector<std::string> outputs;
  std::string format;
  std::string baseline;

  void add_to(CLI::App& cmd);
  // Each output (path, or "-" for stdout) with its format; prints why and returns nullopt when a
  // format cannot be told. `default_stdout`: gate's own output when no -o is "-".
  std::optional<std::vector<std::pair<std::string, OutputFormat>>> plan(
      std::optional<OutputFormat> default_stdout) const;
};

// What report and gate print on stderr for each file they wrote: "wrote post-mortem.html (84 KB)\n".
std::string wrote_line(const std::string& path, size_t bytes);

// report and gate differ only in their defaults.
struct OutputCommand {
  std::string name;
  std::string description;
  std::string fail_on;                         // the default --fail-on
  std::optional<OutputFormat> default_stdout;  // gate prints a report unless -o - says otherwise
  bool output_required = false;                // report writes files, so -o is required
};

// --fail-on's values: "never", then the impacts from core's table (gate, report, preflight).
std::vector<std::string> fail_on_choices();

// Registers the command: analyse, apply the baseline, write every output, exit code.
void add_output_command(CLI::App& app, std::function<int()>& run, const OutputCommand& command);

}  // namespace gpudiag::cli
