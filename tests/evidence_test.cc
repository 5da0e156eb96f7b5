// Evidence excerpts and the merge of copies: what a report shows of a matching entry.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "evidence/evidence_excerpt.h"
#include "evidence/evidence_merge.h"
#include "gpudiag/report.h"
#include "test_support.h"
#include "wording.h"

using namespace gpudiag;

namespace {

// One NDJSON LogEntry line of job 2024-01-01_00_00_00-1, at ERROR.
std::string entry(const std::string& time, const std::string& log, const std::string& message,
                  const std::string& worker = "") {
  return test::log_entry_line(time, log, message, "ERROR", worker);
}

const detail::FrameFilter& builtin_frameworks() {
  static const detail::FrameFilter filter(test::builtin_pack().policy().framework_frames);
  return filter;
}

// apache/beam#22811 (the PyTorch OOM inside RunInference), with a user DoFn's frame between the
// Beam and torch frames, as a pipeline that calls the model itself shows it.
const std::string kOomLine =
    "RuntimeError: CUDA out of memory. Tried to allocate 16.00 MiB (GPU 0; 39.59 GiB total capacity; 666.60 MiB "
    "already allocated; 13.19 MiB free; 682.00 MiB reserved in total by PyTorch) If reserved memory is >> allocated "
    "memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and "
    "PYTORCH_CUDA_ALLOC_CONF";
const std::string kTraceback =
    "Error processing instruction process_bundle-4. Original traceback is\n"
    "Traceback (most recent call last):\n"
    "  File \"apache_beam/runners/common.py\", line 1435, in apache_beam.runners.common.DoFnRunner.process\n"
    "  File \"apache_beam/runners/common.py\", line 851, in "
    "apache_beam.runners.common.PerWindowInvoker.invoke_process\n"
    "  File \"/usr/local/lib/python3.9/site-packages/apache_beam/runners/worker/sdk_worker.py\", line 289, in "
    "_execute\n"
    "    response = task()\n"
    "  File \"/opt/pipeline/embed.py\", line 57, in process\n"
    "    vectors = self._model(batch.to(self._device))\n"
    "  File \"/usr/local/lib/python3.9/site-packages/torch/nn/modules/module.py\", line 1518, in _wrapped_call_impl\n"
    "    return self._call_impl(*args, **kwargs)\n"
    "  File \"/usr/local/lib/python3.9/site-packages/torch/nn/modules/conv.py\", line 456, in _conv_forward\n"
    "    return F.conv2d(input, weight, bias, self.stride,\n" +
    kOomLine;

size_t line_containing(const std::vector<ExcerptLine>& lines, const std::string& part) {
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].text.find(part) != std::string::npos) return i;
  }
  return lines.size();
}

}  // namespace

TEST_CASE("an excerpt crops a long line around the match and keeps the captured values whole", "[unit][evidence]") {
  const size_t at = kOomLine.find("CUDA out of memory");
  const std::string shown = detail::crop_around(kOomLine, 220, at, 40, {});
  // The sizes after the match are what matters; the boilerplate advice at the end is cut.
  CHECK(shown.find("666.60 MiB already allocated; 13.19 MiB free; 682.00 MiB reserved") != std::string::npos);
  CHECK(shown.find("PYTORCH_CUDA_ALLOC_CONF") == std::string::npos);
  CHECK(shown.size() <= 220 + 8);

  // kubelet's pull error (corpus/container-image-pull-failed): the image is at the line's end.
  const std::string pull =
      R"("PullImage from image service failed" err="rpc error: code = Unknown desc = Error response from daemon: )"
      R"(manifest for gcr.io/cloud-dataflow/v1beta3/beam_python3.11_sdk:2.59.0rc1 not found: manifest unknown: )"
      R"(Failed to fetch \"2.59.0rc1\" from request \"/v2/cloud-dataflow/v1beta3/beam_python3.11_sdk/manifests/)"
      R"(2.59.0rc1\"." image="gcr.io/cloud-dataflow/v1beta3/beam_python3.11_sdk:2.59.0rc1")";
  const std::string image = "gcr.io/cloud-dataflow/v1beta3/beam_python3.11_sdk:2.59.0rc1";
  const std::string narrow = detail::crop_around(pull, 90, 1, 35, {image});
  INFO(narrow);
  CHECK(narrow.find("PullImage from image service failed") != std::string::npos);
  CHECK(narrow.find(image) != std::string::npos);  // whole, though the line is cut to ~90 bytes
  CHECK(narrow.size() < 110);
  CHECK(narrow.find(" … ") != std::string::npos);
  CHECK(detail::crop_around("short", 90, 0, 5, {image}) == "short");
}

TEST_CASE("an excerpt of a long multi-line message is the matched line and its neighbours", "[unit][evidence]") {
  std::string text;
  for (int i = 0; i < 30; ++i) text += fmt::format("I0101 setup step {} done\n", i);
  text += "Error syncing pod: ImagePullBackOff\nretrying in 10s\n";
  const auto lines = detail::excerpt_lines(text, "Error syncing pod: ImagePullBackOff", 19, 16, builtin_frameworks());
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].text == "I0101 setup step 29 done");
  CHECK(lines[1].text == "Error syncing pod: ImagePullBackOff");
  CHECK(lines[1].match_at == 19);
  CHECK(lines[2].text == "retrying in 10s");
  CHECK(line_containing(lines, "setup step 0 ") == lines.size());  // not the head
}

TEST_CASE("a traceback's excerpt is its exception, the innermost user frame and a fold", "[unit][evidence]") {
  const size_t at = kOomLine.find("CUDA out of memory");
  const auto lines = detail::excerpt_lines(kTraceback, kOomLine, at, 39, builtin_frameworks());
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].text == kOomLine);
  CHECK(lines[0].match_at == at);
  CHECK(lines[1].text == R"(File "/opt/pipeline/embed.py", line 57, in process)");  // not torch's frames below it
  CHECK(lines[2].text == "vectors = self._model(batch.to(self._device))");
  CHECK(lines[3].fold);
  CHECK(lines[3].text == "… 5 more frames");  // 6 frames, 1 shown

  // With no user frame at all (Beam's own RunInference calling torch), the frames fold entirely.
  std::string framework_only = kTraceback;
  framework_only.replace(framework_only.find("/opt/pipeline/embed.py"), 22,
                         "/usr/local/lib/python3.9/site-packages/apache_beam/ml/inference/base.py");
  const auto beam = detail::excerpt_lines(framework_only, kOomLine, at, 39, builtin_frameworks());
  REQUIRE(beam.size() == 2);
  CHECK(beam[1].text == "… 6 frames");

  // A match on the line that introduces the traceback still shows the exception under it.
  const auto intro = detail::excerpt_lines(
      kTraceback, "Error processing instruction process_bundle-4. Original traceback is", 0, 28, builtin_frameworks());
  REQUIRE(intro.size() >= 2);
  CHECK(intro[0].match_at == 0);
  CHECK(intro[1].text == kOomLine);
}

TEST_CASE("a Java trace's excerpt is its exception, its root cause and the first user frame", "[unit][evidence]") {
  // Frames as apache/beam#19642 and #31914 show them (trimmed), with a root cause below.
  const std::string trace =
      "org.apache.beam.sdk.Pipeline$PipelineExecutionException: java.lang.RuntimeException: CalcFn failed\n"
      "\tat org.apache.beam.runners.direct.DirectRunner$DirectPipelineResult.waitUntilFinish(DirectRunner.java:348)\n"
      "\tat org.apache.beam.sdk.Pipeline.run(Pipeline.java:313)\n"
      "\tat dummy.MainTest.testMain(MainTest.java:18)\n"
      "\tat sun.reflect.NativeMethodAccessorImpl.invoke0(Native Method)\n"
      "Caused by: java.lang.OutOfMemoryError: Java heap space\n"
      "\tat java.util.Arrays.copyOf(Arrays.java:3332)\n"
      "\tat com.example.pipeline.ParseFn.processElement(ParseFn.java:42)\n"
      "\tat org.apache.beam.runners.dataflow.worker.SimpleParDoFn.processElement(SimpleParDoFn.java:340)\n"
      "\t... 12 more\n";
  const auto lines = detail::excerpt_lines(
      trace, "org.apache.beam.sdk.Pipeline$PipelineExecutionException: java.lang.RuntimeException: CalcFn failed", 0,
      20, builtin_frameworks());
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].match_at == 0);
  CHECK(lines[1].text == "Caused by: java.lang.OutOfMemoryError: Java heap space");
  CHECK(lines[2].text == "at com.example.pipeline.ParseFn.processElement(ParseFn.java:42)");
  CHECK(lines[3].text == "… 18 more frames");  // 7 frames + 12 in common, 1 shown
}

TEST_CASE("the framework list is data in the pack", "[unit][evidence]") {
  const auto& frameworks = test::builtin_pack().policy().framework_frames;
  CHECK(!frameworks.empty());
  const auto& filter = builtin_frameworks();
  CHECK(filter.is_framework(R"(  File "apache_beam/runners/common.py", line 1435, in process)"));
  CHECK(filter.is_framework(R"(  File "/usr/lib/python3.8/threading.py", line 932, in _bootstrap_inner)"));
  CHECK(filter.is_framework(R"(  File "/usr/local/lib/python3.9/site-packages/grpc/_channel.py", line 9, in f)"));
  CHECK(filter.is_framework("\tat java.lang.Thread.run(Thread.java:748)"));
  CHECK_FALSE(filter.is_framework(R"(  File "/opt/pipeline/judge.py", line 12, in process)"));
  CHECK_FALSE(
      filter.is_framework(R"(  File "/usr/local/lib/python3.9/site-packages/my_pipeline/fn.py", line 3, in f)"));
  CHECK_FALSE(filter.is_framework("\tat com.example.pipeline.ParseFn.processElement(ParseFn.java:42)"));
}

namespace {

const std::string kWorker = "clip-embeddings-backfill-09061408-lp8v-harness-zbca";

const Finding* oom(const Analysis& d) {
  for (const auto& f : d.findings) {
    if (f.rule_id == "gpu-out-of-memory") return &f;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("copies of one failure in several logs are one evidence item", "[unit][evidence]") {
  // The job-message copy wraps the traceback, flattens it onto one line and adds the step.
  std::string flat = kTraceback.substr(kTraceback.find("Traceback"));
  std::replace(flat.begin(), flat.end(), '\n', ' ');
  const std::string job_copy =
      "Error message from worker: generic::unknown: " + flat + " [while running 'RunInference/BeamML_RunInference']";
  const std::string three = entry("2022-09-06T21:12:19Z", "worker", kTraceback, kWorker) +
                            entry("2022-09-06T21:12:20Z", "docker", kTraceback, kWorker) +
                            entry("2022-09-06T21:12:23Z", "job-message", job_copy);
  const Analysis d = test::analyze_text(three);
  const Finding* f = oom(d);
  REQUIRE(f != nullptr);
  CHECK(f->count == 3);
  REQUIRE(f->evidence.size() == 1);
  CHECK(f->evidence[0].entry->log == "worker");  // the most complete copy
  CHECK(f->evidence[0].also_in == std::vector<std::string>{"docker", "job-message"});
  REQUIRE(f->evidence[0].also_at.size() == 2);
  CHECK(f->evidence[0].also_at[1].line == 3);  // the job-message copy
  std::string json = render_json(rank(d), {});
  json.erase(std::remove_if(json.begin(), json.end(), [](char c) { return c == ' ' || c == '\n'; }), json.end());
  CHECK(json.find(R"("also_in":["docker","job-message"])") != std::string::npos);
  CHECK(render_text(rank(d), {.deterministic = true}).find("(also in: docker, job-message)") != std::string::npos);

  SECTION("different workers are different failures") {
    const Analysis two = test::analyze_text(entry("2022-09-06T21:12:19Z", "worker", kTraceback, kWorker) +
                                            entry("2022-09-06T21:12:20Z", "docker", kTraceback, kWorker + "-2"));
    REQUIRE(oom(two) != nullptr);
    CHECK(oom(two)->evidence.size() == 2);
    CHECK(oom(two)->evidence[0].also_in.empty());
  }
  SECTION("copies more than 60 s apart are different failures") {
    const Analysis two = test::analyze_text(entry("2022-09-06T21:12:19Z", "worker", kTraceback, kWorker) +
                                            entry("2022-09-06T21:13:20Z", "job-message", job_copy));
    REQUIRE(oom(two) != nullptr);
    CHECK(oom(two)->evidence.size() == 2);
  }
  SECTION("two entries of one log are two failures, however alike") {
    const Analysis two = test::analyze_text(entry("2022-09-06T21:12:19Z", "worker", kTraceback, kWorker) +
                                            entry("2022-09-06T21:12:21Z", "worker", kTraceback, kWorker));
    REQUIRE(oom(two) != nullptr);
    CHECK(oom(two)->evidence.size() == 2);
  }
}

TEST_CASE("failure_text sets aside the job-message wrapper, the step and whitespace", "[unit][evidence]") {
  // The wrappers are the built-in pack's (rules/wrappers.yaml).
  const auto wrappers = detail::compile_wrappers(test::builtin_pack().policy().wrappers);
  REQUIRE(!wrappers.empty());
  CHECK(
      detail::failure_text("Error message from worker: generic::unknown: Traceback (most recent call last):\n"
                           "  File \"x.py\", line 1, in f\nValueError: bad [while running 'Map(f)']",
                           wrappers) ==
      detail::failure_text("Traceback (most recent call last): File \"x.py\", line 1, in f ValueError: bad", wrappers));
  CHECK(detail::failure_text("ValueError: bad ...", wrappers) == "ValueError:bad");
  // Without them, the wrapper is part of the text.
  CHECK(detail::failure_text("Error message from worker: ValueError: bad", {}) != "ValueError:bad");
}

TEST_CASE("the entries around a piece of evidence are its own job's in an export of several jobs",
          "[rules][evidence]") {
  // A healthy job's "Worker configuration: … in us-central1-f" sits between the stockouts of the
  // failed job in file order (issue 41, item 6): shown beside them, it reads as their context.
  const Analysis a = test::analyze_case("corpus/multi-job-stockout-beside-healthy");
  REQUIRE(a.jobs.size() == 2);
  size_t around = 0;
  for (const auto& job : a.jobs) {
    for (const auto& f : job.findings) {
      for (const auto& e : f.evidence) {
        const std::string_view id = e.entry.record().job_id;
        for (const auto* side : {&e.before, &e.after}) {
          for (const auto& k : *side) {
            INFO(f.rule_id << ": " << k.record().message);
            CHECK(k.record().job_id == id);
            ++around;
          }
        }
      }
    }
  }
  CHECK(around >= 4);  // the context is there, only of the right job
}
