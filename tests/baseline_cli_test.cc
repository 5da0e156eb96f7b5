// baseline create / update, export-command and the .gpudiag.yaml config file, through the binary.
// The exports are bundled corpus cases (each cites where its log text comes from in its labels.yaml).
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

#include "gpudiag/baseline.h"
#include "test_support.h"

using namespace gpudiag;
using test::run_gpudiag;

namespace {

const std::string kOom = "corpus/gpu-oom-pytorch-runinference/export.json";
const std::string kQuota = "corpus/gpu-quota-exceeded-t4/export.json";
const std::string kUnexplained = "corpus/unexplained-beside-rule-finding/export.json";
const std::string kTwoJobs = "corpus/multi-job-sink-shard-two-failures/export.ndjson";

std::string absolute(const std::string& repo_path) { return test::source_dir() + "/" + repo_path; }

// Runs gpudiag from `dir` (tests otherwise run from the repository root).
test::CommandResult run_in(const std::string& dir, const std::vector<std::string>& args) {
  std::string cmd = "cd " + test::shell_quote(dir) + " && " + test::shell_quote(GPUDIAG_BINARY);
  for (const auto& a : args) cmd += " " + test::shell_quote(a);
  return test::run_shell(cmd);
}

std::vector<BaselineEntry> entries_of(const std::string& path) {
  auto parsed = parse_baseline(test::read_file(path), path);
  REQUIRE(parsed.ok());
  return parsed->entries;
}

}  // namespace

TEST_CASE("baseline create writes every finding and the gate passes with it", "[cli]") {
  const std::string dir = test::temp_dir();
  const std::string file = dir + "/gpudiag-baseline.yaml";
  REQUIRE(run_gpudiag({"gate", kOom}).exit_code == 1);
  const auto created = run_gpudiag({"baseline", "create", kOom, "-o", file, "--expires", "2099-12-31"});
  INFO(created.err);
  REQUIRE(created.exit_code == 0);
  CHECK_THAT(created.err, Catch::Contains("wrote " + file));
  const std::string text = test::read_file(file);
  CHECK_THAT(text, Catch::Contains("- rule: gpu-out-of-memory"));
  CHECK_THAT(text, Catch::Contains("reason: \"TODO: say why this finding is accepted\""));
  CHECK_THAT(text, Catch::Contains("expires: 2099-12-31"));
  for (const auto& e : entries_of(file)) CHECK(e.expires == "2099-12-31");

  const auto gated = run_gpudiag({"gate", kOom, "--baseline", file});
  CHECK(gated.exit_code == 0);
  CHECK_THAT(gated.err, Catch::Contains("is still the TODO `baseline create` wrote"));
  // Every level: nothing is left to trip even --fail-on info.
  CHECK(run_gpudiag({"gate", kOom, "--fail-on", "info", "--baseline", file}).exit_code == 0);
}

TEST_CASE("baseline create covers unexplained error groups and every job of an export", "[cli]") {
  const std::string dir = test::temp_dir();
  for (const std::string& input : {kUnexplained, kTwoJobs}) {
    INFO(input);
    const std::string file = dir + "/" + std::filesystem::path(input).parent_path().filename().string() + ".yaml";
    REQUIRE(run_gpudiag({"gate", input}).exit_code == 1);
    REQUIRE(run_gpudiag({"baseline", "create", input, "-o", file}).exit_code == 0);
    CHECK(run_gpudiag({"gate", input, "--baseline", file}).exit_code == 0);
  }
  CHECK_THAT(test::read_file(dir + "/unexplained-beside-rule-finding.yaml"),
             Catch::Contains("- rule: unexplained-error"));
}

TEST_CASE("baseline create refuses an existing file without --force and a bad --expires", "[cli]") {
  const std::string dir = test::temp_dir();
  const std::string file = dir + "/b.yaml";
  test::write_file(file, "# mine\n");
  const auto refused = run_gpudiag({"baseline", "create", kOom, "-o", file});
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("--force"));
  CHECK(test::read_file(file) == "# mine\n");
  CHECK(run_gpudiag({"baseline", "create", kOom, "-o", file, "--force"}).exit_code == 0);
  CHECK_THAT(test::read_file(file), Catch::Contains("gpu-out-of-memory"));

  CHECK(run_gpudiag({"baseline", "create", kOom, "-o", dir + "/c.yaml", "--expires", "2020-01-01"}).exit_code == 2);
  CHECK(run_gpudiag({"baseline", "create", kOom, "-o", dir + "/c.yaml", "--expires", "2027-02-30"}).exit_code == 2);
  CHECK_FALSE(std::filesystem::exists(dir + "/c.yaml"));
  // Never over an input.
  CHECK(run_gpudiag({"baseline", "create", kOom, "-o", kOom, "--force"}).exit_code == 2);
  // Stdout, for a look first.
  const auto shown = run_gpudiag({"baseline", "create", kOom, "-o", "-"});
  CHECK(shown.exit_code == 0);
  CHECK_THAT(shown.out, Catch::StartsWith("# gpudiag baseline"));
}

TEST_CASE("baseline update drops the stale entry and keeps the user's comments and order", "[cli]") {
  const std::string dir = test::temp_dir();
  REQUIRE(run_gpudiag({"baseline", "create", kOom, "-o", dir + "/oom.yaml"}).exit_code == 0);
  REQUIRE(run_gpudiag({"baseline", "create", kQuota, "-o", dir + "/quota.yaml"}).exit_code == 0);
  const auto oom = entries_of(dir + "/oom.yaml");
  const auto quota = entries_of(dir + "/quota.yaml");
  REQUIRE(!oom.empty());
  REQUIRE(!quota.empty());
  // A file as a person keeps it: their comments, their reasons, the quota entry between two of the
  // OOM job's; then the export changes (the quota failure is gone) and update runs.
  std::string kept_head = "# Accepted on the staging pipeline (OPS-1234)\nversion: 1\nsuppress:\n";
  kept_head += fmt::format(
      "  # OPS-1234: staging runs on P4s until the T4 quota comes\n  - rule: {}\n    fingerprint: {}\n"
      "    reason: staging P4s (OPS-1234)\n\n",
      oom[0].rule_id, oom[0].fingerprint);
  std::string stale = "  # OPS-999: quota asked for\n";
  size_t stale_entries = 0;
  for (const auto& e : quota) {
    const bool also_oom = std::any_of(oom.begin(), oom.end(), [&](const BaselineEntry& o) {
      return o.rule_id == e.rule_id && o.fingerprint == e.fingerprint;
    });
    if (also_oom) continue;
    ++stale_entries;
    stale += fmt::format("  - rule: {}\n    fingerprint: {}\n    reason: quota pending\n    expires: 2099-01-01\n",
                         e.rule_id, e.fingerprint);
  }
  std::string kept_tail = "# the rest of the OOM job's findings\n";
  for (size_t i = 1; i < oom.size(); ++i) {
    kept_tail += fmt::format("  - rule: {}   # inline note\n    fingerprint: {}\n    reason: symptom of the OOM\n",
                             oom[i].rule_id, oom[i].fingerprint);
  }
  const std::string file = dir + "/gpudiag-baseline.yaml";
  test::write_file(file, kept_head + stale + kept_tail);

  const auto updated = run_gpudiag({"baseline", "update", file, kOom});
  INFO(updated.err);
  REQUIRE(updated.exit_code == 0);
  CHECK(test::read_file(file) == kept_head + kept_tail);
  CHECK_THAT(updated.err, Catch::Contains(fmt::format("dropped {}, kept {}", stale_entries, oom.size())));
  CHECK(run_gpudiag({"gate", kOom, "--baseline", file}).exit_code == 0);
  // Nothing more to drop: the file is left alone.
  const auto again = run_gpudiag({"baseline", "update", file, kOom});
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.err, Catch::Contains("nothing to drop"));
  CHECK(test::read_file(file) == kept_head + kept_tail);
}

TEST_CASE("baseline update refuses what it cannot edit safely", "[cli]") {
  const std::string dir = test::temp_dir();
  const std::string json = dir + "/b.json";
  const std::string text =
      R"({"version": 1, "suppress": [{"rule": "gpu-out-of-memory", "fingerprint": "gpu-out-of-memory/00", "reason": "x"}]})";
  test::write_file(json, text);
  const auto flow = run_gpudiag({"baseline", "update", json, kOom});
  CHECK(flow.exit_code == 2);
  CHECK_THAT(flow.err, Catch::Contains("flow style"));
  CHECK(test::read_file(json) == text);
  // The baseline given as an input too, a baseline that does not parse, one that does not exist.
  CHECK(run_gpudiag({"baseline", "update", json, json}).exit_code == 2);
  test::write_file(dir + "/bad.yaml", "suppress:\n  - rule: x\n");
  const auto bad = run_gpudiag({"baseline", "update", dir + "/bad.yaml", kOom});
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("bad.yaml:2"));
  CHECK(run_gpudiag({"baseline", "update", dir + "/none.yaml", kOom}).exit_code == 2);
}

TEST_CASE("export-command prints a gcloud command whose filter survives the shell", "[cli]") {
  // The job id of a bundled real case: created 14:05:40 Pacific (PST), its first entry 22:05:41Z.
  const auto r = run_gpudiag({"export-command", "2022-11-28_14_05_40-8583720370029902118", "--project",
                              "example.com:traffic-cams", "--region", "us-central1", "-o", "my logs.json"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("--order=asc --format=json"));
  CHECK_THAT(r.out, Catch::Contains("dataflow/jobs/us-central1/2022-11-28_14_05_40-8583720370029902118"));
  CHECK_THAT(r.out, Catch::Contains("gs://BUCKET/dataflow.googleapis.com/*/2022/11/28/"));
  // Run the printed lines with gcloud and gpudiag standing in: each prints its arguments.
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/script.sh", "gcloud() { printf '[%s]\\n' \"$@\"; }\ngpudiag() { :; }\n" + r.out);
  const auto ran = test::run_shell("cd " + test::shell_quote(dir) + " && sh script.sh");
  REQUIRE(ran.exit_code == 0);
  CHECK(test::read_file(dir + "/my logs.json") ==
        "[logging]\n[read]\n"
        "[resource.type=\"dataflow_step\" AND resource.labels.job_id=\"2022-11-28_14_05_40-8583720370029902118\" AND "
        "timestamp>=\"2022-11-28T21:05:40Z\"]\n"
        "[--project=example.com:traffic-cams]\n[--order=asc]\n[--format=json]\n");
}

TEST_CASE("export-command: daylight time, startup windows and --since", "[cli]") {
  // 07:58:56 on 10 June is PDT (UTC-7): the window opens an hour before 14:58:56Z.
  const auto summer = run_gpudiag({"export-command", "2024-06-10_07_58_56-1", "--startup"});
  REQUIRE(summer.exit_code == 0);
  CHECK_THAT(summer.out,
             Catch::Contains(R"('timestamp>="2024-06-10T13:58:56Z" AND timestamp<="2024-06-10T16:58:56Z"')"));
  CHECK_THAT(summer.out, Catch::Contains("gpudiag analyze --job-id 2024-06-10_07_58_56-1 logs.json"));
  CHECK_THAT(summer.out, Catch::Contains("gs://BUCKET/**/2024/06/10/"));
  const auto since =
      run_gpudiag({"export-command", "job1", "--since", "2024-05-01", "--until", "2024-05-02T06:00:00Z"});
  REQUIRE(since.exit_code == 0);
  CHECK_THAT(since.out, Catch::Contains(R"(timestamp>="2024-05-01T00:00:00Z" AND timestamp<="2024-05-02T06:00:00Z")"));
  CHECK(run_gpudiag({"export-command", "job1", "--freshness", "7d"}).exit_code == 0);
  // No time in the id and no --since; a --since that is not a time.
  CHECK(run_gpudiag({"export-command", "job1"}).exit_code == 2);
  CHECK(run_gpudiag({"export-command", "job1", "--since", "yesterday"}).exit_code == 2);
}

TEST_CASE("export-command rejects names that are not names before printing anything", "[cli]") {
  for (const std::vector<std::string> args : {
           std::vector<std::string>{"export-command", "2024-01-01_00_00_00-1\" OR \"", "--project", "p-roject"},
           {"export-command", "2024-01-01_00_00_00-1'; rm -rf ~; '"},
           {"export-command", "2024-01-01_00_00_00-1", "--project", "my'proj"},
           {"export-command", "2024-01-01_00_00_00-1", "--project", "$(id)"},
           {"export-command", "2024-01-01_00_00_00-1", "--region", "us central1"},
           {"export-command", "2024-01-01_00_00_00-1", "--bucket", "b/../x"},
       }) {
    const auto r = run_gpudiag(args);
    INFO(args[1]);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
  }
}

TEST_CASE("a .gpudiag.yaml above the working directory sets defaults that flags override", "[cli]") {
  const std::string repo = test::temp_dir();
  std::filesystem::create_directories(repo + "/.git");
  std::filesystem::create_directories(repo + "/ci");
  std::filesystem::create_directories(repo + "/src/deep");
  REQUIRE(run_gpudiag({"baseline", "create", kOom, "-o", repo + "/ci/accepted.yaml"}).exit_code == 0);
  test::write_file(repo + "/.gpudiag.yaml", "fail-on: error\nbaseline: ci/accepted.yaml\n");
  const std::string deep = repo + "/src/deep";
  // analyze takes fail-on from the file; the baseline is not analyze's option.
  CHECK(run_in(deep, {"analyze", absolute(kOom)}).exit_code == 1);
  CHECK(run_in(deep, {"analyze", "--fail-on", "never", absolute(kOom)}).exit_code == 0);
  // gate takes the baseline, found relative to the file's directory, not the working directory.
  const auto gated = run_in(deep, {"gate", absolute(kOom)});
  INFO(gated.err);
  CHECK(gated.exit_code == 0);
  CHECK_THAT(gated.err, Catch::Contains("accepted.yaml"));

  const auto shown = run_in(deep, {"gate", "--show-config", "--fail-on", "warning"});
  INFO(shown.err);
  CHECK(shown.exit_code == 0);
  CHECK_THAT(shown.out, Catch::Contains("flag --fail-on"));
  CHECK_THAT(shown.out, Catch::Contains(".gpudiag.yaml:2"));
  CHECK_THAT(shown.out, Catch::Contains("../../ci/accepted.yaml"));
  CHECK_THAT(shown.out, Catch::Contains("default"));
  const auto top = run_in(deep, {"--show-config"});
  CHECK(top.exit_code == 0);
  CHECK_THAT(top.out, Catch::Contains(".gpudiag.yaml:1"));
}

TEST_CASE("the config search stops at the repository root and refuses unknown keys", "[cli]") {
  const std::string outer = test::temp_dir();
  test::write_file(outer + "/.gpudiag.yaml", "fail_on: error\n");
  const auto typo = run_in(outer, {"analyze", absolute(kOom)});
  CHECK(typo.exit_code == 2);
  CHECK_THAT(typo.err, Catch::Contains(".gpudiag.yaml:1:1"));
  CHECK_THAT(typo.err, Catch::Contains("unknown key `fail_on`"));
  CHECK_THAT(typo.err, Catch::Contains("did you mean `fail-on`?"));
  // A repository inside it: its root (.git) ends the search, so the file above is not read.
  std::filesystem::create_directories(outer + "/repo/.git");
  const auto inside = run_in(outer + "/repo", {"analyze", absolute(kOom)});
  CHECK(inside.exit_code == 0);
  CHECK_THAT(run_in(outer + "/repo", {"--show-config"}).out, Catch::Contains("up to the repository root"));
  // A value the option refuses names the file and line; commands without these options ignore it.
  test::write_file(outer + "/.gpudiag.yaml", "# ours\nfail-on: sometimes\n");
  const auto bad = run_in(outer, {"gate", absolute(kOom)});
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains(".gpudiag.yaml:2"));
  CHECK(run_in(outer, {"export-command", "2024-01-01_00_00_00-1"}).exit_code == 0);
}
