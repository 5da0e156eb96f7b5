// Configuration checks over launch options (issue 17): Dataflow's service defaults applied where the
// options are known (--job job.json) and nowhere else, the machine / GPU fit derived from the dated
// GPU table, and each configuration rule found by `analyze --job` on a job.json of its case
// (tests/fixtures/job-options/), while the docs' own run command passes, with its sample values and
// with its placeholders.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

#include "test_support.h"

using namespace gpudiag;

namespace {

const std::string kFixtures = "tests/fixtures/job-options/";

// A one-entry export of job 2024-01-01_00_00_00-1 (the fixtures' job), plus `lines`.
std::string write_export(const std::vector<std::string>& lines = {}) {
  const std::string dir = test::temp_dir();
  std::string text = test::log_entry_line("2024-01-01T00:00:01Z", "job-message", "Starting worker pool setup.");
  for (const auto& l : lines) text += l;
  test::write_file(dir + "/export.ndjson", text);
  return dir + "/export.ndjson";
}

Analysis analyze_with_job(const std::string& fixture, const std::vector<std::string>& lines = {}) {
  AnalysisOptions options;
  options.threads = 1;
  if (!fixture.empty()) options.job_files = {kFixtures + fixture + ".json"};
  auto d = analyze(test::builtin_pack(), {write_export(lines)}, options);
  REQUIRE(d);
  return std::move(*d);
}

const Analysis& the_job(const Analysis& d) { return d.jobs.size() == 1 ? d.jobs[0] : d; }

std::set<std::string> fired(const Analysis& d, std::string_view family = "") {
  std::set<std::string> out;
  for (const auto& f : the_job(d).findings) {
    if (family.empty() || f.family == family) out.insert(f.rule_id);
  }
  return out;
}

const Finding* finding(const Analysis& d, std::string_view rule) {
  for (const auto& f : the_job(d).findings) {
    if (f.rule_id == rule) return &f;
  }
  return nullptr;
}

const JobFact* fact(const Analysis& d, std::string_view name) {
  for (const auto& f : the_job(d).facts) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

// The fixes' actions and commands, a line each.
std::string actions(const Finding& f) {
  std::string out;
  for (const auto& fix : f.fixes) out += fix.action + "\n" + fix.command + "\n";
  return out;
}

}  // namespace

TEST_CASE("service defaults: a job.json without a disk size is the 25 GB batch default and says so", "[unit]") {
  const auto d = analyze_with_job("disk-default-batch");
  const JobFact* disk = fact(d, "disk_size_gb");
  REQUIRE(disk != nullptr);
  CHECK(disk->value == "25");
  CHECK_THAT(disk->source, Catch::Contains("Dataflow default") && Catch::Contains("shuffle-for-batch") &&
                               Catch::Contains("read 2026-12-02"));
  REQUIRE(finding(d, "boot-disk-too-small") != nullptr);
  CHECK_THAT(finding(d, "boot-disk-too-small")->title, Catch::Contains("25 GB"));
  CHECK_THAT(actions(*finding(d, "boot-disk-too-small")), Catch::Contains("--disk_size_gb=50"));
  // The accelerator option gives flex-start (off) itself; the L4's driver and CUDA needs come from
  // the GPU table.
  REQUIRE(fact(d, "flex_start") != nullptr);
  CHECK(fact(d, "flex_start")->value == "false");
  REQUIRE(fact(d, "gpu_min_driver") != nullptr);
  CHECK(fact(d, "gpu_min_driver")->value == "525.0");
  CHECK(fact(d, "gpu_min_cuda")->value == "12.0");
}

TEST_CASE("service defaults: Runner v2 is the default from Python SDK 2.21.0 on and not before", "[unit]") {
  const std::string dir = test::temp_dir();
  const auto job = [&](const std::string& beam) {
    const std::string path = dir + "/job-" + beam + ".json";
    test::write_file(path, fmt::format(R"({{"id": "2024-01-01_00_00_00-1", "name": "r", "type": "JOB_TYPE_BATCH",
      "environment": {{"sdkPipelineOptions": {{"options": {{"disk_size_gb": 50}}}}}},
      "jobMetadata": {{"sdkVersion": {{"version": "{}", "versionDisplayName": "Apache Beam Python 3.8 SDK"}}}}}})",
                                       beam));
    AnalysisOptions options;
    options.threads = 1;
    options.job_files = {path};
    auto d = analyze(test::builtin_pack(), {write_export()}, options);
    REQUIRE(d);
    return std::move(*d);
  };
  const auto recent = job("2.21.0");
  REQUIRE(fact(recent, "runner_v2") != nullptr);
  CHECK(fact(recent, "runner_v2")->value == "true");
  CHECK_THAT(fact(recent, "runner_v2")->source, Catch::Contains("runner-v2"));
  CHECK(fact(job("2.20.0"), "runner_v2") == nullptr);
}

TEST_CASE("a malformed GPU table or defaults table is refused with its file and line", "[cli]") {
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/gpus.yaml",
                   "gpu_platforms:\n  read: '2026-12-02'\n  source: x\n  gpus:\n"
                   "    - { type: nvidia-l4, family: g2, machines: { n1-standard-4: 1 } }\n");
  test::write_file(dir + "/defaults.yaml",
                   "service_defaults:\n  read: yesterday\n  defaults:\n"
                   "    - { fact: disk_sise_gb, value: '25', source: x }\n");
  const auto r = test::run_gpudiag({"rules", "lint", "--rules", dir});
  CHECK(r.exit_code != 0);
  const std::string all = r.out + r.err;
  CHECK_THAT(all, Catch::Contains("gpus.yaml:5") && Catch::Contains("family `g2`"));
  CHECK_THAT(all, Catch::Contains("defaults.yaml:2") && Catch::Contains("YYYY-MM-DD"));
  CHECK_THAT(all, Catch::Contains("defaults.yaml:4") && Catch::Contains("unknown fact `disk_sise_gb`") &&
                      Catch::Contains("disk_size_gb"));
}

TEST_CASE("service defaults: an explicit option wins and a plain analyze applies no default", "[unit]") {
  const auto explicit_disk = analyze_with_job("driver-not-requested");
  REQUIRE(fact(explicit_disk, "disk_size_gb") != nullptr);
  CHECK(fact(explicit_disk, "disk_size_gb")->value == "100");
  CHECK(fact(explicit_disk, "disk_size_gb")->source == "job.json");
  // The same GPU job known only from its options echo: the disk is unknown, not 25 GB, since the
  // logs not naming an option says nothing about the options.
  const auto plain = analyze_with_job(
      "", {test::log_entry_line("2024-01-01T00:00:02Z", "worker",
                                "Pipeline_options: {'runner': 'DataflowRunner', 'machine_type': 'g2-standard-8', "
                                "'experiments': ['use_runner_v2'], 'dataflow_service_options': "
                                "['worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver']}")});
  CHECK(fact(plain, "gpu_type") != nullptr);
  CHECK(fact(plain, "disk_size_gb") == nullptr);
  CHECK(fact(plain, "machine_type")->value == "g2-standard-8");
  CHECK(fired(plain, "configuration").empty());
}

TEST_CASE("service defaults: an option written as an ALL-CAPS placeholder stays unknown", "[unit]") {
  const auto d = analyze_with_job("docs-run-command-placeholders");
  CHECK(fact(d, "disk_size_gb") == nullptr);  // DISK_SIZE_GB: present, not a number, not absent
  CHECK(fact(d, "gpu_count") == nullptr);
  CHECK(fact(d, "gpu_machine_fit") == nullptr);
  CHECK(fired(d, "configuration").empty());
}

TEST_CASE("the docs' run command with the page's sample values gives no configuration finding", "[unit]") {
  for (const std::string fixture : {"docs-run-command-sample-values", "docs-flex-start-value"}) {
    INFO(fixture);
    const auto d = analyze_with_job(fixture);
    CHECK(fired(d, "configuration").empty());
    // No --machine_type: the default N1 type, which takes a T4.
    REQUIRE(fact(d, "machine_type") != nullptr);
    CHECK(fact(d, "machine_type")->value == "n1-standard-1");
    CHECK_THAT(fact(d, "machine_type")->source, Catch::Contains("Dataflow default"));
    REQUIRE(fact(d, "gpu_machine_fit") != nullptr);
    CHECK(fact(d, "gpu_machine_fit")->value == "ok");
    CHECK_THAT(fact(d, "gpu_machine_fit")->source, Catch::Contains("GPU table of 2026-12-02"));
  }
}

TEST_CASE("each configuration check fires on a job.json of its case with the exact fix", "[unit]") {
  struct Case {
    std::string fixture;
    std::string rule;
    std::string fix;  // a piece of the first fix's text or command
  };
  const std::vector<Case> cases = {
      {"driver-not-requested", "gpu-driver-not-requested",
       "worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver;use_nvidia_mps"},
      {"disk-default-batch", "boot-disk-too-small", "--disk_size_gb=50"},
      {"flex-start-streaming", "flex-start-streaming", "Remove ;provisioning_model:FLEX_START"},
      {"flex-start-autoscaling", "flex-start-autoscaling", "--num_workers=10"},
      {"flex-start-tpu", "flex-start-tpu-or-right-fitting",
       "Remove ;provisioning_model:FLEX_START from worker_accelerator=type:tpu-v5-lite-podslice;topology:1x1;"},
      {"machine-wrong-family", "gpu-machine-type-mismatch", "--machine_type=g2-standard-4"},
      {"machine-wrong-count", "gpu-machine-type-mismatch", "--machine_type=g2-standard-24"},
  };
  for (const auto& c : cases) {
    INFO(c.fixture);
    const auto d = analyze_with_job(c.fixture);
    const auto rules = fired(d, "configuration");
    CHECK(rules == std::set<std::string>{c.rule});
    const Finding* f = finding(d, c.rule);
    REQUIRE(f != nullptr);
    REQUIRE_FALSE(f->fixes.empty());
    CHECK_THAT(f->fixes.front().action + "\n" + f->fixes.front().command, Catch::Contains(c.fix));
  }
  // The wrong count names the count the machine carries too.
  const auto count = analyze_with_job("machine-wrong-count");
  CHECK(fact(count, "gpu_machine_fit")->value == "wrong-count");
  CHECK_THAT(
      actions(*finding(count, "gpu-machine-type-mismatch")),
      Catch::Contains("to 1: a g2-standard-4 carries 1 x nvidia-l4") &&
          Catch::Contains(
              R"(--dataflow_service_options="worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver")"));
  CHECK(fact(analyze_with_job("machine-wrong-family"), "gpu_machine_fit")->value == "wrong-family");
}

TEST_CASE("launch and image versions: job.json's launch side against the image the workers run", "[unit]") {
  const auto image_line = [](const std::string& image) {
    return test::log_entry_line("2024-01-01T00:00:05Z", "worker",
                                "Default Python SDK image for environment is " + image);
  };
  const auto python = analyze_with_job("versions-launch-3.10-2.60", {image_line("apache/beam_python3.11_sdk:2.60.0")});
  CHECK(fired(python, "configuration") == std::set<std::string>{"launch-image-python-mismatch"});
  CHECK_THAT(finding(python, "launch-image-python-mismatch")->title,
             Catch::Contains("Python 3.10") && Catch::Contains("Python 3.11"));
  const auto beam = analyze_with_job("versions-launch-3.10-2.60", {image_line("apache/beam_python3.10_sdk:2.55.0")});
  CHECK(fired(beam, "configuration") == std::set<std::string>{"launch-image-beam-mismatch"});
  CHECK_THAT(actions(*finding(beam, "launch-image-beam-mismatch")), Catch::Contains("apache-beam==2.60.0"));
  const auto same = analyze_with_job("versions-launch-3.10-2.60", {image_line("apache/beam_python3.10_sdk:2.60.0")});
  CHECK(fired(same, "configuration").empty());
}

// Issue 40: the GPU's capability and memory come from the GPU table; the SDK processes that share a
// GPU come from the options (one per vCPU for Python unless no_use_multiple_sdk_containers), divided
// by the GPUs per worker; a bool option is read in Python's spelling.
TEST_CASE("GPU facts: capability, memory, vCPUs and SDK processes per GPU", "[unit]") {
  const auto options = [](const std::string& machine, const std::string& accelerator, const std::string& extra) {
    return analyze_with_job(
        "", {test::log_entry_line("2024-01-01T00:00:02Z", "worker",
                                  "Pipeline_options: {'runner': 'DataflowRunner', 'machine_type': '" + machine +
                                      "', 'experiments': ['use_runner_v2'" + extra +
                                      "], 'dataflow_service_options': ['worker_accelerator=" + accelerator +
                                      "'], 'use_public_ips': False}"),
             test::log_entry_line("2024-01-01T00:00:03Z", "worker",
                                  "  File \"/usr/local/lib/python3.11/site-packages/torch/cuda/__init__.py\", "
                                  "line 319, in _lazy_init")});
  };
  const auto value = [](const Analysis& d, std::string_view name) {
    const JobFact* f = fact(d, name);
    return f != nullptr ? f->value : std::string("(unknown)");
  };
  const auto t4 = options("n1-standard-8", "type:nvidia-tesla-t4;count:2;install-nvidia-driver", "");
  CHECK(value(t4, "gpu_compute_capability") == "7.5");
  CHECK(value(t4, "gpu_memory_gb") == "16");
  CHECK(value(t4, "machine_vcpus") == "8");
  CHECK(value(t4, "sdk_processes_per_gpu") == "4");  // 8 processes (Python, one per vCPU) on 2 GPUs
  CHECK(value(t4, "use_public_ips") == "false");
  CHECK(value(t4, "framework") == "torch");

  const auto single =
      options("g2-standard-24", "type:nvidia-l4;count:2;install-nvidia-driver", ", 'no_use_multiple_sdk_containers'");
  CHECK(value(single, "gpu_compute_capability") == "8.9");
  CHECK(value(single, "sdk_processes_per_gpu") == "1");

  // Accelerator-optimized names count GPUs, not vCPUs: the vCPUs stay unknown, and so does the
  // share of a GPU when no process was seen.
  const auto a2 = options("a2-highgpu-1g", "type:nvidia-tesla-a100;count:1;install-nvidia-driver", "");
  CHECK(value(a2, "gpu_memory_gb") == "40");
  CHECK(value(a2, "machine_vcpus") == "(unknown)");
}
