// The command line: exit codes are a contract (0 ok, 1 gate tripped, 2 usage/input/rule error).
#include <catch2/catch.hpp>

#include "test_support.h"

using namespace gpudiag;
using test::run_gpudiag;

TEST_CASE("analyze on a healthy export exits 0 even with --fail-on", "[cli]") {
  const auto r = run_gpudiag({"analyze", "--fail-on", "warning", "corpus/healthy-gpu-t4-tensorflow/export.json"});
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("verdict: OK"));
}

TEST_CASE("the fail-on gate trips with exit 1; without it findings exit 0", "[cli]") {
  const std::string input = "corpus/gpu-oom-pytorch-runinference/export.json";
  CHECK(run_gpudiag({"analyze", input}).exit_code == 0);
  CHECK(run_gpudiag({"analyze", "--fail-on", "error", input}).exit_code == 1);
  CHECK(run_gpudiag({"analyze", "--fail-on", "critical", input}).exit_code == 0);
  CHECK(run_gpudiag({"analyze", "--format", "json", "--fail-on", "error", input}).exit_code == 1);
}

TEST_CASE("input errors exit 2 and name the file", "[cli]") {
  const auto missing = run_gpudiag({"analyze", "no/such/file.json"});
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Catch::Contains("no/such/file.json"));

  const std::string dir = test::temp_dir();
  test::write_file(dir + "/notes.txt", "these are not logs\n");
  const auto not_json = run_gpudiag({"analyze", dir + "/notes.txt"});
  CHECK(not_json.exit_code == 2);
  CHECK_THAT(not_json.err, Catch::Contains("notes.txt:1"));
}

TEST_CASE("usage errors exit 2", "[cli]") {
  CHECK(run_gpudiag({}).exit_code == 2);
  CHECK(run_gpudiag({"analyze"}).exit_code == 2);
  CHECK(run_gpudiag({"analyze", "--format", "yaml", "x.json"}).exit_code == 2);
  CHECK(run_gpudiag({"frobnicate"}).exit_code == 2);
}

TEST_CASE("stdin is read with -", "[cli]") {
  const auto r = run_gpudiag({"analyze", "--deterministic", "--format", "json", "-"},
                             test::source_dir() + "/corpus/gpu-oom-pytorch-runinference/export.json");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("\"rule_id\": \"gpu-out-of-memory\""));
}

TEST_CASE("the CLI prints what the golden files hold", "[cli]") {
  const std::string dir = "corpus/zone-pool-exhausted-t4-retrying";
  const auto r = run_gpudiag({"analyze", "--deterministic", "--format", "json", dir + "/export.json"});
  CHECK(r.exit_code == 0);
  CHECK(r.out == test::read_file(test::source_dir() + "/" + dir + "/expected.json"));
}

TEST_CASE("rules test and lint pass; a broken rules directory exits 2", "[cli]") {
  CHECK(run_gpudiag({"rules", "test"}).exit_code == 0);
  CHECK(run_gpudiag({"rules", "lint"}).exit_code == 0);
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/bad.yaml", "id: Bad Id\n");
  const auto bad = run_gpudiag({"rules", "lint", "--rules", dir});
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.out, Catch::Contains("bad.yaml:1"));
  CHECK(run_gpudiag({"analyze", "--rules", dir, "corpus/empty-export/export.json"}).exit_code == 2);
}

TEST_CASE("version and explain print and exit 0", "[cli]") {
  const auto v = run_gpudiag({"--version"});
  CHECK(v.exit_code == 0);
  CHECK_THAT(v.out, Catch::StartsWith("gpudiag "));
  const auto e = run_gpudiag({"explain", "gpu-out-of-memory"});
  CHECK(e.exit_code == 0);
  CHECK_THAT(e.out, Catch::Contains("https://cloud.google.com/dataflow/docs/"));
  CHECK(run_gpudiag({"explain", "no-such-rule"}).exit_code == 2);
}
