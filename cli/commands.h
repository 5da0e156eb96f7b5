// The gpudiag command line: each subcommand registers its options and runs. main.cc wires them.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "gpudiag/history.h"
#include "gpudiag/rule_pack.h"
#include "usage_hints.h"

namespace gpudiag::cli {

// Exit codes: a contract (README, "Exit codes").
inline constexpr int kExitOk = 0;
inline constexpr int kExitGate = 1;   // findings at or above --fail-on
inline constexpr int kExitError = 2;  // usage, input or rule error

// Prints an input error on stderr: "gpudiag: FILE: byte N: what went wrong", then how to fix it
// when that is known.
void print_input_error(const Diagnostic& d);
// Prints a problem on stderr as render_with_source shows it. Both are made safe for the terminal
// first: file names, source lines and SQL come from outside, and may hold escape sequences.
void print_problem(const Diagnostic& d);

// Options every command that reads rules shares.
struct RuleOptions {
  std::vector<std::string> dirs;
  void add_to(CLI::App& app);
  // Loads the built-in pack plus --rules directories; prints problems and returns nullopt on error.
  // `check_examples`: refuse user rules whose examples fail (off for `rules test`, which lists them).
  std::optional<RulePack> load(bool check_examples = true) const;
};

// --db and what goes with it, for the commands that record runs or read the run history.
struct HistoryOptions {
  std::string db;
  std::string pipeline;   // "" = the job name without its launch-specific parts (pipeline_key)
  double timeout = 30;    // seconds to wait for another writer (--db-timeout)
  bool new_only = false;  // the gate trips only on findings no earlier run had (--new-only)

  // `required`: the command cannot do without a database.
  CLI::Option* add_db(CLI::App& cmd, bool required);
  void add_pipeline(CLI::App& cmd, const std::string& what);
  // Opens the database (creating it if `create`); prints the problem and returns nullopt when it
  // cannot be used.
  std::optional<HistoryStore> open(bool read_only = false, bool create = true) const;
};

// Each returns the exit code; `run` is set to the function main calls when the subcommand was chosen.
void add_analyze_command(CLI::App& app, std::function<int()>& run);
void add_report_command(CLI::App& app, std::function<int()>& run);
void add_gate_command(CLI::App& app, std::function<int()>& run);
void add_rules_command(CLI::App& app, std::function<int()>& run);
void add_explain_command(CLI::App& app, std::function<int()>& run);
void add_history_command(CLI::App& app, std::function<int()>& run);
void add_ingest_command(CLI::App& app, std::function<int()>& run);
void add_query_command(CLI::App& app, std::function<int()>& run);
void add_patterns_command(CLI::App& app, std::function<int()>& run);
// `app` itself is walked when the script is written: it must outlive the run.
void add_completions_command(CLI::App& app, std::function<int()>& run);
void add_baseline_command(CLI::App& app, std::function<int()>& run);
void add_export_command(CLI::App& app, std::function<int()>& run);
void add_fetch_command(CLI::App& app, std::function<int()>& run);
void add_preflight_command(CLI::App& app, std::function<int()>& run);
void add_sql_command(CLI::App& app, std::function<int()>& run);
void add_mcp_command(CLI::App& app, std::function<int()>& run);

std::string version_string();

}  // namespace gpudiag::cli
