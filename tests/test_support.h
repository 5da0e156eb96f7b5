// Helpers shared by the test files: where the repository is, reading files, running the CLI.
#pragma once

#include <string>
#include <vector>

#include "gpudiag/analyzer.h"
#include "gpudiag/rule_pack.h"

namespace gpudiag::test {

// Whether this is the sanitizer build (tools/sanitize): peak RSS there includes ASan's shadow memory,
// and the tests that repeat one code path over many inputs sample them (the Release build runs all).
// The build says so (GPUDIAG_SANITIZED_BUILD): the test TUs themselves are compiled uninstrumented
// there, so the compiler's own __SANITIZE_ADDRESS__ is not defined in them.
#if defined(GPUDIAG_SANITIZED_BUILD)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

// The repository root (tests run from there, so reports show repo-relative paths).
std::string source_dir();
// The team's shared folder (reference pages, Loghub sets): $GPUDIAG_SHARED, else ../shared beside
// the repository, else /work/shared (a clone elsewhere on the project's machines); "" when none is.
std::string shared_dir();
std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& text);

// The built-in pack, loaded once.
const RulePack& builtin_pack();
// The built-in fact catalog alone (rules/facts/catalog.yaml), for packs of test rules: the facts a
// rule may test are the catalog's.
std::vector<RuleFile> catalog_files();
// A valid user rule (capacity, one fix, examples and sources), for tests that change one part of it.
extern const char* const kTestRule;
// `text` with the first `from` replaced by `to`; throws when `from` is not in it.
std::string replaced(std::string text, const std::string& from, const std::string& to);
// What `gpudiag rules lint` finds in the catalog and `rule_text` as a user rule file.
Diagnostics lint_rule(const std::string& rule_text);

// The corpus cases ("corpus/<name>", every folder with a labels.yaml), sorted.
std::vector<std::string> corpus_cases();
// Analyses a corpus case as the golden tests do: its export* files, and --job from its labels' args.
Analysis analyze_case(const std::string& dir, unsigned threads = 1);

// Analyses an export given as text (written to a temporary file named `name`).
Analysis analyze_text(const std::string& text, const std::string& name = "export.json", unsigned threads = 1);

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};
// Runs the gpudiag binary with `args` (shell-quoted here), from the repository root.
CommandResult run_gpudiag(const std::vector<std::string>& args, const std::string& stdin_file = "");
// Runs a shell command from the repository root.
CommandResult run_shell(const std::string& command);
std::string shell_quote(const std::string& s);

// One NDJSON LogEntry line of job 2024-01-01_00_00_00-1 in us-central1: the message in
// `textPayload` for the job-message log, else in `jsonPayload.message`; `worker` and `insert_id`
// only when given.
std::string log_entry_line(const std::string& time, const std::string& log, const std::string& message,
                           const std::string& severity = "INFO", const std::string& worker = "",
                           const std::string& insert_id = "");

// `text` gzip-compressed (one member, as gzip(1) writes it).
std::string gzip(const std::string& text);

// A fresh temporary directory for one test, removed with the others when the test process ends
// (GPUDIAG_KEEP_TEST_FILES=1 keeps them).
std::string temp_dir();

}  // namespace gpudiag::test
