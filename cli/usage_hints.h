// Usage errors that say what was meant: an unknown subcommand or flag, or an option value outside
// its choices, gets "did you mean …?" (gpudiag/name_suggestions.h). Every one exits 2.
//
//   cmd->add_option("--format", format)->check(one_of({"text", "json"}));  // jsn → did you mean `json`?
//   app.failure_message(usage_failure_message);
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace gpudiag::cli {

// The value must be one of `choices`: "jsn not in {text,json}; did you mean `json`?".
CLI::Validator one_of(std::vector<std::string> choices);

// CLI11's failure message, with an unknown subcommand or flag named and the names it may have meant;
// made safe for the terminal.
std::string usage_failure_message(const CLI::App* app, const CLI::Error& e);

// "gpudiag rules": the command line of `app` up to itself.
std::string command_path(const CLI::App& app);

}  // namespace gpudiag::cli
