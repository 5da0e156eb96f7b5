// `gpudiag completions bash|zsh|fish`: each script is run by its own shell (tools/setup test installs
// zsh and fish), and completes subcommands, options, an option's closed set of values and file names.
#include <catch2/catch.hpp>

#include "test_support.h"

using namespace gpudiag;

namespace {

// The script for `shell`, written to a file of the test's own.
std::string script(const std::string& shell) {
  const auto r = test::run_gpudiag({"completions", shell});
  REQUIRE(r.exit_code == 0);
  const std::string path = test::temp_dir() + "/gpudiag." + shell;
  test::write_file(path, r.out);
  return path;
}

// What bash's completion offers for `line` (the cursor at its end; a trailing space starts a word).
std::string bash_complete(const std::string& path, const std::string& line) {
  const std::string body = "source " + test::shell_quote(path) + "; read -ra COMP_WORDS <<< " +
                           test::shell_quote(line) + "; [[ " + test::shell_quote(line) +
                           " == *' ' ]] && COMP_WORDS+=('');" +
                           " COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _gpudiag; printf '%s\\n' \"${COMPREPLY[@]}\"";
  const auto r =
      test::run_shell("cd " + test::shell_quote(test::source_dir()) + " && bash -c " + test::shell_quote(body));
  REQUIRE(r.exit_code == 0);
  return r.out;
}

}  // namespace

TEST_CASE("the bash completion completes commands, options, values and files", "[cli]") {
  const std::string path = script("bash");
  CHECK(bash_complete(path, "gpudiag an") == "analyze\n");
  CHECK_THAT(bash_complete(path, "gpudiag analyze --for"), Catch::Contains("--format"));
  CHECK(bash_complete(path, "gpudiag analyze --format ") == "text\njson\n");
  CHECK_THAT(bash_complete(path, "gpudiag rules "), Catch::Contains("lint\n") && Catch::Contains("list\n"));
  CHECK_THAT(bash_complete(path, "gpudiag rules lint --r"), Catch::Contains("--rules"));
  CHECK_THAT(bash_complete(path, "gpudiag analyze corpus/gpu-oom-then"),
             Catch::Contains("corpus/gpu-oom-then-sdk-disconnected-work-item-failed"));
  CHECK_THAT(bash_complete(path, "gpudiag comp"), Catch::Contains("completions"));
}

TEST_CASE("the fish completion completes commands, options and values", "[cli]") {
  const std::string path = script("fish");
  const auto complete = [&](const std::string& line) {
    const auto r = test::run_shell("fish -c " + test::shell_quote("source " + test::shell_quote(path) +
                                                                  "; complete -C " + test::shell_quote(line)));
    REQUIRE(r.exit_code == 0);
    return r.out;
  };
  CHECK_THAT(complete("gpudiag an"), Catch::StartsWith("analyze\t"));
  CHECK_THAT(complete("gpudiag analyze --for"), Catch::Contains("--format\t"));
  CHECK_THAT(complete("gpudiag analyze --format "), Catch::Contains("text") && Catch::Contains("json"));
  CHECK_THAT(complete("gpudiag rules "), Catch::Contains("lint\t") && !Catch::Contains("analyze\t"));
}

TEST_CASE("the zsh completion loads in zsh and completes through its bash layer", "[cli]") {
  const std::string path = script("zsh");
  const auto syntax = test::run_shell("zsh -n " + test::shell_quote(path));
  CHECK(syntax.exit_code == 0);
  // bashcompinit runs the completion with KSH_ARRAYS, as below.
  const std::string body = "autoload -U compinit && compinit -u; source " + test::shell_quote(path) +
                           "; setopt ksharrays; COMP_WORDS=(gpudiag analyze --format ''); COMP_CWORD=3; _gpudiag;" +
                           " print -l -- \"${COMPREPLY[@]}\"";
  const auto r = test::run_shell("zsh -f -c " + test::shell_quote(body));
  CHECK(r.exit_code == 0);
  CHECK(r.out == "text\njson\n");
}
