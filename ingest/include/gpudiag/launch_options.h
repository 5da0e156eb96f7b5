// The launch options of a Dataflow job, read before it is launched (`gpudiag preflight`): from the
// pipeline's own command line, a launch script, a `gcloud dataflow flex-template run` / `jobs run`
// command, or an options file (JSON or YAML: a flat map, a Flex Template's `parameters`, or
// `sdkPipelineOptions`). Each becomes one ordered list of options with the file and line that set
// it, read as Beam's argparse reads a command line (data/beam-options.yaml names what it knows).
//
//   auto options = read_launch_script("launch.sh");
//   if (!options) return options.error();     // "launch.sh:7:3: the quote opened here is never closed"
//   for (const LaunchOption& o : *options) …  // {name "dataflow_service_options", value "worker_accelerator=…", line
//   4}
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/result.h"

namespace gpudiag {

struct LaunchOption {
  std::string name;     // Beam's name (`dest`): aliases resolved (`--experiment` → experiments); else as written
  std::string written;  // as written, without the dashes ("dataflow_service_option", "workerMachineType")
  std::string value;    // one value: a list option's items are one option each (`--experiments=a,b` → 2)
  bool flag = false;    // a store_true flag given without a value (`--streaming`)
  bool list = false;    // Beam accumulates the option's values (experiments, dataflow_service_options …)
  std::string file;     // "" for the command line
  uint64_t line = 0;    // 1-based; 0 for the command line
  // `$VAR` / `${VAR}` / `$(…)` in the value: a shell substitution whose value is not known here.
  std::string unknown;  // the substitution as written, "" when none
};

// A shell word of a launch script, with the line it starts on.
struct ShellWord {
  std::string text;  // quotes removed, `\` escapes applied; substitutions kept as written
  uint64_t line = 0;
  bool substitution = false;  // holds an unquoted or double-quoted `$…`
};

// One command of a launch script: its words, and the line it starts on.
struct ShellCommand {
  std::vector<ShellWord> words;
  uint64_t line = 0;
};

// The commands of a POSIX shell script: words split on blanks, `\` line continuations, '…' and "…"
// quotes, comments, `;` `&&` `||` `|` and line ends between commands. Not a shell: no expansion.
Result<std::vector<ShellCommand>> split_shell_script(std::string_view text, const std::string& path);

// The launch options of one command's words: `python main.py --flag=v --flag v …` (anything up to
// the first `--flag` is the program) or `gcloud dataflow flex-template run|jobs run …`. nullopt
// when the command is neither (a script's `export`, `cd`, `docker build` …).
std::optional<std::vector<LaunchOption>> launch_options_of(const std::vector<ShellWord>& words,
                                                           const std::string& file);
// A launch script's options: those of each launch command in it (usually one), in order. An error
// when it holds none.
Result<std::vector<LaunchOption>> parse_launch_script(std::string_view text, const std::string& path);
Result<std::vector<LaunchOption>> read_launch_script(const std::string& path);
// An options file, JSON or YAML: {"k": v, …}, {"parameters": {…}} (Flex Template), or
// {"sdkPipelineOptions": {"options": {…}}} / {"options": {…}}. Lists give one option per item.
Result<std::vector<LaunchOption>> parse_options_file(std::string_view text, const std::string& path);
Result<std::vector<LaunchOption>> read_options_file(const std::string& path);

// What Beam and Dataflow make of an option's name (data/beam-options.yaml).
struct OptionNameCheck {
  enum class Kind : uint8_t { kKnown, kNearMiss, kUnknown };
  Kind kind = Kind::kUnknown;
  std::string suggestion;  // kNearMiss: the option meant, with dashes ("--dataflow_service_options")
};
OptionNameCheck check_option_name(std::string_view written);
// Where the option table comes from, and its date, for the report's notes.
std::string_view beam_options_source();

// The ALL-CAPS placeholders of a documentation command in `value` (`GPU_TYPE`, `DISK_SIZE_GB`,
// `gs://BUCKET/tmp` → BUCKET), in order; enum values Beam and Dataflow define (FLEX_START,
// THROUGHPUT_BASED …) are not placeholders.
std::vector<std::string> placeholders_in_value(std::string_view value);

}  // namespace gpudiag
