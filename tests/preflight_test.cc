// gpudiag preflight: launch options from every source shape, evaluated by the pack's configuration
// rules; exit codes as gate's (0 ok, 1 at or above --fail-on, 2 usage or unreadable options).
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <regex>
#include <set>

#include "gpudiag/launch_options.h"
#include "test_support.h"

using namespace gpudiag;
using test::run_gpudiag;

namespace {

// The rule ids of a JSON report's findings (its top-level "findings" array), as a set.
std::set<std::string> rule_ids(const std::string& json) {
  std::set<std::string> ids;
  static const std::regex id(R"re("rule_id": "([a-z0-9-]+)")re");
  for (std::sregex_iterator it(json.begin(), json.end(), id), end; it != end; ++it) ids.insert((*it)[1]);
  return ids;
}

const std::string kAccelerator = "worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver";

}  // namespace

TEST_CASE("preflight reads the pipeline command line after -- as Beam's argparse does", "[cli][preflight]") {
  const auto bad = run_gpudiag({"preflight", "--deterministic", "--no-launch-env", "--", "python", "main.py",
                                "--runner", "DataflowRunner", "--dataflow_service_options", kAccelerator,
                                "--experiments=beam_fn_api,disable_runner_v2", "--streaming", "--input", "gs://in"});
  CHECK(bad.exit_code == 1);
  CHECK_THAT(bad.out, Catch::Contains("(runner-v2-missing)"));
  // `a,b` split: disable_runner_v2 was read as an experiment of its own, and the pipeline's flag is info.
  CHECK_THAT(bad.out, Catch::Contains("info: --input is not a Beam or Dataflow option"));
  const auto good =
      run_gpudiag({"preflight", "--deterministic", "--no-launch-env", "--", "python", "main.py", "--runner",
                   "DataflowRunner", "--dataflow_service_options", kAccelerator, "--experiment", "use_runner_v2"});
  CHECK(good.exit_code == 0);
  CHECK_THAT(good.out, !Catch::Contains("runner-v2-missing"));
}

TEST_CASE("preflight near misses of Beam options are warnings with the option meant", "[cli][preflight]") {
  const auto r = run_gpudiag({"preflight", "--deterministic", "--no-launch-env", "--fail-on", "warning", "--", "python",
                              "main.py", "--runner", "DataflowRunner", "--dataflow_servce_options", kAccelerator,
                              "--experiments=use_runner_v2", "--model_path", "gs://m"});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains("[WARNING]"));
  CHECK_THAT(r.out, Catch::Contains("--dataflow_servce_options (did you mean --dataflow_service_options?)"));
  CHECK_THAT(r.out, Catch::Contains("info: --model_path is not a Beam or Dataflow option"));
  // Beam's own alias is no near miss (pipeline_options.py: '--dataflow_service_option', '--dataflow_service_options').
  CHECK(check_option_name("dataflow_service_option").kind == OptionNameCheck::Kind::kKnown);
  CHECK(check_option_name("disk-size-gb").suggestion == "--disk_size_gb");
  CHECK(check_option_name("input").kind == OptionNameCheck::Kind::kUnknown);
  // A Java pipeline's typo gets the Java spelling, a Python one's the Python spelling.
  CHECK(check_option_name("workerMachinType").suggestion == "--workerMachineType");
  CHECK(check_option_name("worker_machin_type").suggestion == "--worker_machine_type");
}

TEST_CASE("preflight reads options files in JSON and YAML with each option's line", "[cli][preflight]") {
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/options.json", "{\n  \"runner\": \"DataflowRunner\",\n  \"dataflow_service_options\": [\"" +
                                              kAccelerator + "\"],\n  \"experiments\": [\"disable_runner_v2\"]\n}\n");
  test::write_file(dir + "/options.yaml", "parameters:\n  runner: DataflowRunner\n  dataflow_service_options: '" +
                                              kAccelerator + "'\n  experiments: disable_runner_v2\n");
  for (const std::string file : {"options.json", "options.yaml"}) {
    const auto r = run_gpudiag(
        {"preflight", "--deterministic", "--no-launch-env", "--format", "sarif", "--options", dir + "/" + file});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.out, Catch::Contains("\"ruleId\": \"runner-v2-missing\""));
    CHECK_THAT(r.out, Catch::Contains("\"startLine\": 4"));  // the experiments line sets runner_v2: false
  }
  test::write_file(dir + "/broken.json", "{\n  \"runner\": \"DataflowRunner\",\n  \"experiments\": [\n}\n");
  const auto broken = run_gpudiag({"preflight", "--no-launch-env", "--options", dir + "/broken.json"});
  CHECK(broken.exit_code == 2);
  CHECK_THAT(broken.err, Catch::Contains("broken.json:4"));
}

TEST_CASE("preflight reads a launch script with continuations quotes and VARS", "[cli][preflight]") {
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/launch.sh",
                   "#!/bin/sh\nset -e\nexport IMAGE=us-docker.pkg.dev/p/r/img:1\n"
                   "python main.py \\\n  --runner DataflowRunner \\\n  --sdk_container_image \"$IMAGE\" \\\n"
                   "  --dataflow_service_options '" +
                       kAccelerator + "' \\\n  --experiments disable_runner_v2\n");
  const auto r = run_gpudiag(
      {"preflight", "--deterministic", "--no-launch-env", "--format", "sarif", "--script", dir + "/launch.sh"});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains("\"startLine\": 8"));
  const auto text = run_gpudiag({"preflight", "--deterministic", "--no-launch-env", "--script", dir + "/launch.sh"});
  CHECK_THAT(text.out, Catch::Contains("--sdk_container_image is `$IMAGE`, a shell substitution"));
  test::write_file(dir + "/open.sh", "python main.py \\\n  --runner 'DataflowRunner\n");
  const auto open = run_gpudiag({"preflight", "--no-launch-env", "--script", dir + "/open.sh"});
  CHECK(open.exit_code == 2);
  CHECK_THAT(open.err, Catch::Contains("open.sh:2:12"));
  test::write_file(dir + "/none.sh", "echo hello\n");
  CHECK(run_gpudiag({"preflight", "--no-launch-env", "--script", dir + "/none.sh"}).exit_code == 2);
}

TEST_CASE("preflight reads gcloud flex-template run and jobs run commands", "[cli][preflight]") {
  const auto r = run_gpudiag({"preflight", "--deterministic", "--no-launch-env", "--", "gcloud", "dataflow",
                              "flex-template", "run", "my-job", "--template-file-gcs-location=gs://t/spec.json",
                              "--region=us-central1", "--additional-experiments=disable_runner_v2",
                              "--parameters=^~^dataflow_service_options=" + kAccelerator + "~input=gs://in",
                              "--worker-machine-type=n1-standard-4"});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains("(runner-v2-missing)"));
  const auto jobs = run_gpudiag({"preflight", "--deterministic", "--no-launch-env", "--", "gcloud", "dataflow", "jobs",
                                 "run", "my-job", "--gcs-location=gs://t/tpl", "--max-workers=3"});
  CHECK(jobs.exit_code == 0);
  // A gcloud flag that takes no value and is not in the table (--async) does not swallow the next flag.
  const auto async = run_gpudiag({"preflight", "--deterministic", "--no-launch-env", "--", "gcloud", "dataflow",
                                  "flex-template", "run", "my-job", "--template-file-gcs-location=gs://t/spec.json",
                                  "--async", "--additional-experiments", "disable_runner_v2",
                                  "--parameters=^~^dataflow_service_options=" + kAccelerator});
  CHECK(async.exit_code == 1);
  CHECK_THAT(async.out, Catch::Contains("(runner-v2-missing)"));
}

TEST_CASE("preflight and analyze --job agree on the configuration findings", "[cli][preflight]") {
  const std::string dir = "corpus/runner-v2-missing-jobjson-synthetic";
  const auto analyzed =
      run_gpudiag({"analyze", "--deterministic", "--format", "json", "--job", dir + "/job.json", dir + "/export.json"});
  const auto checked = run_gpudiag(
      {"preflight", "--deterministic", "--no-launch-env", "--format", "json", "--options", dir + "/job.json"});
  const auto from_job =
      run_gpudiag({"preflight", "--deterministic", "--no-launch-env", "--format", "json", "--job", dir + "/job.json"});
  const std::set<std::string> configuration{"accelerator-option-malformed", "mps-with-multiple-gpus",
                                            "mps-with-single-sdk-container", "prime-with-worker-accelerator",
                                            "runner-v2-missing"};
  const auto only_configuration = [&](std::set<std::string> ids) {
    std::erase_if(ids, [&](const std::string& id) { return configuration.count(id) == 0; });
    return ids;
  };
  CHECK(only_configuration(rule_ids(analyzed.out)) == std::set<std::string>{"runner-v2-missing"});
  CHECK(only_configuration(rule_ids(checked.out)) == only_configuration(rule_ids(analyzed.out)));
  CHECK(only_configuration(rule_ids(from_job.out)) == only_configuration(rule_ids(analyzed.out)));
  CHECK_THAT(checked.out, Catch::Contains("\"schema\": \"gpudiag.report/v1\""));
}

// The Python command of "Run a pipeline with GPUs" (../shared/reference/doc-pages/
// run-pipeline-with-gpus.es.txt lines 228-236), with its placeholders and with the page's own
// sample values (lines 240-249: us-central1, 50, nvidia-tesla-t4, 1).
TEST_CASE("preflight passes the docs' GPU command and notes its placeholders only", "[cli][preflight]") {
  const std::vector<std::string> placeholders{"preflight",
                                              "--deterministic",
                                              "--no-launch-env",
                                              "--format",
                                              "json",
                                              "--",
                                              "python",
                                              "PIPELINE",
                                              "--runner",
                                              "DataflowRunner",
                                              "--project",
                                              "PROJECT",
                                              "--temp_location",
                                              "gs://BUCKET/tmp",
                                              "--region",
                                              "REGION",
                                              "--worker_harness_container_image",
                                              "IMAGE",
                                              "--disk_size_gb",
                                              "DISK_SIZE_GB",
                                              "--dataflow_service_options",
                                              "worker_accelerator=type:GPU_TYPE;count:GPU_COUNT;install-nvidia-driver",
                                              "--experiments",
                                              "use_runner_v2"};
  const auto r = run_gpudiag(placeholders);
  CHECK(r.exit_code == 0);
  CHECK(rule_ids(r.out).empty());
  for (const char* p : {"PROJECT", "BUCKET", "REGION", "IMAGE", "DISK_SIZE_GB", "GPU_TYPE", "GPU_COUNT"}) {
    CHECK_THAT(r.out, Catch::Contains(fmt::format("placeholder {} (in", p)));
  }
  const auto filled = run_gpudiag({"preflight",
                                   "--deterministic",
                                   "--no-launch-env",
                                   "--format",
                                   "json",
                                   "--",
                                   "python",
                                   "main.py",
                                   "--runner",
                                   "DataflowRunner",
                                   "--project",
                                   "my-project",
                                   "--temp_location",
                                   "gs://my-bucket/tmp",
                                   "--region",
                                   "us-central1",
                                   "--worker_harness_container_image",
                                   "us-docker.pkg.dev/my-project/r/gpu:1",
                                   "--disk_size_gb",
                                   "50",
                                   "--dataflow_service_options",
                                   kAccelerator,
                                   "--experiments",
                                   "use_runner_v2"});
  CHECK(filled.exit_code == 0);
  CHECK(rule_ids(filled.out).empty());
  CHECK_THAT(filled.out, !Catch::Contains("placeholder"));
  CHECK(placeholders_in_value("worker_accelerator=type:nvidia-tesla-t4;count:1;provisioning_model:FLEX_START").empty());
}

// Neither docker nor apache_beam exists on the project's machines: only the skipped path is tested.
TEST_CASE("preflight notes that docker and apache_beam are not here", "[cli][preflight]") {
  const auto r = run_gpudiag({"preflight", "--deterministic", "--image", "us-docker.pkg.dev/p/r/gpu:1", "--", "python",
                              "main.py", "--runner", "DataflowRunner"});
  CHECK(r.exit_code == 0);
  // "skipped: docker not found …", or with a docker client but no daemon or image (--pull=never):
  // "skipped: the versions in IMAGE (not pulled …)".
  CHECK_THAT(r.out, Catch::Contains("skipped: docker not found, so the versions in us-docker.pkg.dev/p/r/gpu:1") ||
                        Catch::Contains("skipped: the versions in us-docker.pkg.dev/p/r/gpu:1 (not pulled"));
  CHECK_THAT(r.out, Catch::Contains("skipped: the launch environment's Python and Beam versions"));
}

TEST_CASE("preflight without launch options is a usage error", "[cli][preflight]") {
  CHECK(run_gpudiag({"preflight"}).exit_code == 2);
  CHECK(run_gpudiag({"preflight", "--", "echo", "hello"}).exit_code == 2);
}

// The rendered goldens of a launch script (tests/fixtures/preflight/): the text report and SARIF,
// whose results point at the script's lines. tools/update-goldens rewrites them.
TEST_CASE("preflight prints what its text and SARIF goldens hold", "[cli][preflight]") {
  const std::string dir = "tests/fixtures/preflight";
  for (const auto& [format, golden] : {std::pair{"text", "expected.txt"}, std::pair{"sarif", "expected.sarif"}}) {
    const auto r = run_gpudiag({"preflight", "--deterministic", "--no-launch-env", "--color", "never", "--format",
                                format, "--script", dir + "/launch.sh"});
    CHECK(r.exit_code == 1);
    const std::string path = test::source_dir() + "/" + dir + "/" + golden;
    if (std::getenv("GPUDIAG_UPDATE_GOLDENS") != nullptr) test::write_file(path, r.out);
    CHECK(r.out == test::read_file(path));
  }
}

TEST_CASE("preflight reads Java camelCase flags and splits list options as Beam does", "[cli][preflight]") {
  const std::vector<ShellWord> words{{"java", 1, false},
                                     {"-jar", 1, false},
                                     {"pipeline.jar", 1, false},
                                     {"--runner=DataflowRunner", 2, false},
                                     {"--workerMachineType=n1-standard-4", 3, false},
                                     {"--experiments=a,b,master_key=k1=v1,k2=v2", 4, false},
                                     {"--streaming", 5, false},
                                     {"--sdk_container_image", 6, false},
                                     {"$IMAGE", 6, true}};
  const auto options = launch_options_of(words, "run.sh");
  REQUIRE(options);
  std::vector<std::string> seen;
  for (const auto& o : *options)
    seen.push_back(o.name + "=" + (o.flag ? "<flag>" : o.value) + "@" + std::to_string(o.line) +
                   (o.unknown.empty() ? "" : "?"));
  // _CommaSeparatedListAction._smart_split keeps `master_key=k1=v1,k2=v2` whole.
  CHECK(seen == std::vector<std::string>{"runner=DataflowRunner@2", "workerMachineType=n1-standard-4@3",
                                         "experiments=a@4", "experiments=b@4", "experiments=master_key=k1=v1,k2=v2@4",
                                         "streaming=<flag>@5", "sdk_container_image=$IMAGE@6?"});
  const auto r = run_gpudiag({"preflight", "--deterministic", "--no-launch-env", "--format", "json", "--", "java",
                              "-jar", "p.jar", "--runner=DataflowRunner",
                              "--dataflowServiceOptions=worker_accelerator=type:nvidia-tesla-t4;count:2;"
                              "install-nvidia-driver;use_nvidia_mps"});
  CHECK(r.exit_code == 0);  // a warning only
  CHECK(rule_ids(r.out).count("mps-with-multiple-gpus") == 1);
}

TEST_CASE("preflight's JSON report says it is a preflight and an analysis of logs does not", "[cli][preflight]") {
  const auto pre = run_gpudiag({"preflight", "--deterministic", "--no-launch-env", "--format", "json", "--", "python",
                                "main.py", "--runner", "DataflowRunner", "--dataflow_service_options", kAccelerator,
                                "--experiments=use_runner_v2", "--disk_size_gb", "50"});
  CHECK(pre.exit_code == 0);
  CHECK_THAT(pre.out, Catch::Contains("\"schema\": \"gpudiag.report/v1\""));
  CHECK_THAT(pre.out, Catch::Contains("\"preflight\": {"));
  CHECK_THAT(pre.out, Catch::Contains("\"launch_options\": 4"));
  CHECK_THAT(pre.out, Catch::Contains("\"sources\": 1"));
  const auto logs = run_gpudiag({"analyze", "--deterministic", "--format", "json",
                                 "corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json"});
  CHECK(logs.exit_code == 0);
  CHECK_THAT(logs.out, !Catch::Contains("\"preflight\""));
}
