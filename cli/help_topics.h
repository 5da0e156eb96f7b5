// `gpudiag help [TOPIC]` and the EXAMPLES section of every subcommand's --help. A topic is a
// subcommand (`help report`, `help rules lint`) or one of the reference pages below (`exit-codes`,
// `formats`); an unknown one is a usage error with suggestions.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace gpudiag::cli {

// Registers `help` on `app`. Call after every other subcommand is registered.
void add_help_command(CLI::App& app, std::function<int()>& run);
// Sets each subcommand's footer to its examples (and the exit codes).
void add_examples(CLI::App& app);

}  // namespace gpudiag::cli
