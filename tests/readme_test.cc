// The README's example output is the real output: its example block, run on the bundled case it
// names, must print exactly what the block shows. A change in the report that changes the example
// fails here until the README is updated with it (tools/update-goldens rewrites it).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>
#include <string_view>

#include "test_support.h"

using namespace gpudiag;

namespace {

// The case the README's example is a run of; the export is copied to `logs.json`, as the README's
// `gcloud logging read … > logs.json` names it.
constexpr const char* kExampleCase = "corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json";
constexpr const char* kCommand = "$ gpudiag analyze logs.json | head -n ";

}  // namespace

TEST_CASE("the README's example output is what gpudiag prints on the bundled case", "[cli]") {
  const std::string readme_path = test::source_dir() + "/README.md";
  std::string readme = test::read_file(readme_path);
  const size_t command = readme.find(kCommand);
  INFO("README.md needs a line `" << kCommand << "N` in its example block");
  REQUIRE(command != std::string::npos);
  const size_t lines_at = command + std::string(kCommand).size();
  const int lines = std::atoi(readme.c_str() + lines_at);
  REQUIRE(lines > 0);
  const size_t output_at = readme.find('\n', command) + 1;
  const size_t block_end = readme.find("```", output_at);
  REQUIRE(block_end != std::string::npos);

  const std::string dir = test::temp_dir();
  test::write_file(dir + "/logs.json", test::read_file(test::source_dir() + "/" + kExampleCase));
  const auto run = test::run_shell("cd " + test::shell_quote(dir) + " && " + test::shell_quote(GPUDIAG_BINARY) +
                                   " analyze logs.json | head -n " + std::to_string(lines));
  REQUIRE(!run.out.empty());
  if (std::getenv("GPUDIAG_UPDATE_GOLDENS") != nullptr) {
    readme.replace(output_at, block_end - output_at, run.out);
    test::write_file(readme_path, readme);
    return;
  }
  CHECK(readme.substr(output_at, block_end - output_at) == run.out);
}

TEST_CASE("the README's example output with --brief is what gpudiag prints on the bundled case", "[cli]") {
  constexpr std::string_view kBrief = "$ gpudiag analyze --brief logs.json\n";
  const std::string readme_path = test::source_dir() + "/README.md";
  std::string readme = test::read_file(readme_path);
  const size_t command = readme.find(kBrief);
  INFO("README.md needs a line `" << kBrief << "` in an example block");
  REQUIRE(command != std::string::npos);
  const size_t output_at = command + kBrief.size();
  const size_t block_end = readme.find("```", output_at);
  REQUIRE(block_end != std::string::npos);
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/logs.json", test::read_file(test::source_dir() + "/" + kExampleCase));
  const auto run = test::run_shell("cd " + test::shell_quote(dir) + " && " + test::shell_quote(GPUDIAG_BINARY) +
                                   " analyze --brief logs.json");
  REQUIRE(!run.out.empty());
  if (std::getenv("GPUDIAG_UPDATE_GOLDENS") != nullptr) {
    readme.replace(output_at, block_end - output_at, run.out);
    test::write_file(readme_path, readme);
    return;
  }
  CHECK(readme.substr(output_at, block_end - output_at) == run.out);
}
