// Every input a fuzzer ever crashed on (tests/fixtures/fuzz-regressions/TARGET-*), replayed through
// the same target body under the normal build — and under the sanitizer build in CI.
#include <catch2/catch.hpp>
#include <filesystem>

#include "targets.h"
#include "test_support.h"

using namespace gpudiag;

TEST_CASE("saved fuzz crashers stay fixed", "[unit][fuzz]") {
  const std::filesystem::path dir = test::source_dir() + "/tests/fixtures/fuzz-regressions";
  size_t replayed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name == "README.md") continue;
    const std::string data = test::read_file(entry.path().string());
    const auto* bytes = reinterpret_cast<const uint8_t*>(data.data());
    INFO(name);
    if (name.rfind("export_reader-", 0) == 0)
      fuzz::export_reader(bytes, data.size());
    else if (name.rfind("timestamp-", 0) == 0)
      fuzz::timestamp(bytes, data.size());
    else if (name.rfind("pipeline_options-", 0) == 0)
      fuzz::pipeline_options(bytes, data.size());
    else if (name.rfind("rule_loader-", 0) == 0)
      fuzz::rule_loader(bytes, data.size());
    else if (name.rfind("shape_detector-", 0) == 0)
      fuzz::shape_detector(bytes, data.size());
    else if (name.rfind("terminal_safe-", 0) == 0)
      fuzz::terminal_safe(bytes, data.size());
    else if (name.rfind("json_string-", 0) == 0)
      fuzz::json_string(bytes, data.size());
    else
      FAIL("a crasher's name starts with its target: " << name);
    ++replayed;
  }
  CHECK(replayed >= 1);
}
