// The per-repository config file, .gpudiag.yaml (README, "A config file per repository"): defaults for
// --rules, --baseline, --fail-on, --db and --pipeline that every command with that option takes,
// unless the command line gives the option. It is looked for in the working directory and then in
// each parent, stopping after the first directory that holds `.git` (the repository's root) or at
// the filesystem root.
//
//   RepoConfig config = prepare_repo_config(app);   // before app.parse
//   app.parse(argc, argv);
//   if (!apply_repo_config(app, config)) return kExitError;
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpudiag/result.h"

namespace gpudiag::cli {

struct ConfigSetting {
  std::string key;                  // "rules", "baseline", "fail-on", "db", "pipeline"
  std::vector<std::string> values;  // paths resolved against the file's directory (relative to the cwd)
  uint64_t line = 0;
};

struct RepoConfig {
  std::string path;      // the file found, "" for none
  std::string searched;  // where the search went: "from DIR up to the repository root DIR (.git)"
  std::vector<ConfigSetting> settings;
  std::optional<Diagnostic> problem;  // the file could not be used: every command that reads it exits 2
  const ConfigSetting* find(const std::string& key) const;
};

// Finds and reads the config file from `start` upwards. Never fails: a file that cannot be used
// comes back with `problem` set.
RepoConfig load_repo_config(const std::string& start);

// Loads the config from the working directory and registers --show-config (on the program and on
// every command that takes one of the config's options). An option the config supplies is no longer
// required on the command line, nor does an option that needs it need it there.
RepoConfig prepare_repo_config(CLI::App& app);

// After parsing: gives each option of the chosen command that the command line left out the
// config's value, checked as the option checks its own. False (after printing why, with the file
// and line) when the config cannot be used.
bool apply_repo_config(CLI::App& app, const RepoConfig& config);

}  // namespace gpudiag::cli
