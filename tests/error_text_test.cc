// The error-text parser over real error texts (tests/fixtures/error_text/, each file's first line
// names its source): the cause's type and message, the user frame, the step, whether it was cut.
#include "unexplained/error_text.h"

#include <re2/re2.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

#include "pack/compiled_rule_pack.h"
#include "test_support.h"
#include "unexplained/error_unwrap.h"
#include "unexplained/unexplained_key.h"

using namespace gpudiag;
using detail::ParsedError;

namespace {

// The built-in pack's frameworks and wrappers, as the analysis reads errors with them.
const detail::ReadingRules& rules() {
  static const detail::ReadingRules reading{*detail::compiled(test::builtin_pack()).frameworks,
                                            detail::compiled(test::builtin_pack()).wrappers,
                                            detail::compiled(test::builtin_pack()).causes};
  return reading;
}

// A fixture's text: the file without its first line (the source).
std::string fixture(const std::string& name) {
  const std::string text = test::read_file(test::source_dir() + "/tests/fixtures/error_text/" + name);
  REQUIRE(text.rfind("# ", 0) == 0);
  return text.substr(text.find('\n') + 1);
}

ParsedError parse(const std::string& name) { return detail::parse_error_text(fixture(name), rules()); }

struct ErrorFrameView {
  std::string_view file;
  uint64_t line;
  std::string_view function;
};

// Every field of two parses of one text, one check each.
void check_same_parse(const ParsedError& a, const ParsedError& b) {
  CHECK(a.language == b.language);
  CHECK(a.exception_type == b.exception_type);
  CHECK(a.message == b.message);
  CHECK(a.exception_line == b.exception_line);
  CHECK(a.frames == b.frames);
  CHECK(a.user_frame == b.user_frame);
  CHECK(a.step == b.step);
  CHECK(a.truncated == b.truncated);
  CHECK(a.body == b.body);
}

std::string where(const ParsedError& e) {
  if (!e.user_frame) return "";
  return e.user_frame->file + ":" + std::to_string(e.user_frame->line) + " " + e.user_frame->function;
}

}  // namespace

TEST_CASE("a chained job-message traceback cut in Beam's re-raise is the user's ValueError", "[unit][error_text]") {
  const ParsedError e = parse("py-chained-job-message-cut.txt");
  CHECK(e.language == "python");
  CHECK(e.exception_type == "ValueError");
  CHECK(e.message == "min() arg is an empty sequence");
  CHECK(e.exception_line == "ValueError: min() arg is an empty sequence");
  CHECK(where(e) ==
        "/opt/apache/beam-venv/beam-venv-worker-sdk-0-0/lib/python3.10/site-packages/core/jobs/batch_jobs/"
        "contributor_admin_stats_jobs.py:655 transform_translation_review_stats");
  CHECK(e.frames.size() == 4);
  CHECK(e.frames.front().function == "apache_beam.runners.common.DoFnRunner.process");
  CHECK(e.frames.front().framework);
  CHECK(e.step.empty());
  CHECK(e.truncated);
  CHECK(e.body.rfind("Traceback (most recent call last):", 0) == 0);
}

TEST_CASE("Beam's RuntimeError re-raise is unwrapped to the original type with its step", "[unit][error_text]") {
  const ParsedError e = parse("py-runtimeerror-reraise.txt");
  CHECK(e.language == "python");
  CHECK(e.exception_type == "FileNotFoundError");
  CHECK(e.message ==
        "[Errno 2] No such file or directory: "
        "'/opt/apache/beam-venv/beam-venv-worker-sdk-0-0/lib/python3.10/site-packages/core/domain/../../package.json'");
  CHECK(e.exception_line.rfind("RuntimeError: FileNotFoundError: [Errno 2]", 0) == 0);
  CHECK(e.step == "Index batches of models-ptransform-74");
  CHECK(where(e) ==
        "/opt/apache/beam-venv/beam-venv-worker-sdk-0-0/lib/python3.10/site-packages/core/utils.py:130 "
        "open_file");
  CHECK(e.frames.size() == 3);
  CHECK_FALSE(e.truncated);
  CHECK(e.body.find("[while running") == std::string::npos);
}

TEST_CASE("a ModuleNotFoundError while unpickling the main session has no user frame", "[unit][error_text]") {
  const ParsedError e = parse("py-module-not-found-main-session.txt");
  CHECK(e.language == "python");
  CHECK(e.exception_type == "ModuleNotFoundError");
  CHECK(e.message == "No module named 'configs'");
  CHECK_FALSE(e.user_frame);
  CHECK(e.frames.size() == 6);
  CHECK(e.frames.back().file == "/usr/local/lib/python3.8/site-packages/dill/_dill.py");
  CHECK(e.frames.back().line == 462);
  CHECK(e.frames.back().function == "find_class");
  CHECK(std::all_of(e.frames.begin(), e.frames.end(), [](const auto& f) { return f.framework; }));
  CHECK_FALSE(e.truncated);
}

TEST_CASE("cut job-message tracebacks are put back on lines without their wrappers and marked cut",
          "[unit][error_text]") {
  struct Cut {
    const char* fixture;
    size_t frames;
    ErrorFrameView innermost;
  };
  // A flattened copy (Beam 2.27), a console copy with a timestamp before the wrapper and frame
  // lines broken after `File `, and a generic::unknown status over Python 3.12's caret lines.
  const Cut cuts[] = {
      {"py-flattened-job-message-cut.txt",
       8,
       {"/usr/local/lib/python3.7/site-packages/apache_beam/runners/worker/bundle_processor.py", 924, "<listcomp>"}},
      {"py-console-copy-broken-lines.txt",
       1,
       {"/usr/local/lib/python3.6/site-packages/apache_beam/internal/pickler.py", 290, "loads"}},
      {"py-generic-unknown-carets.txt",
       6,
       {"/usr/local/lib/python3.12/site-packages/apache_beam/runners/worker/bundle_processor.py", 1133, "__init__"}},
  };
  for (const Cut& c : cuts) {
    INFO(c.fixture);
    const ParsedError e = parse(c.fixture);
    CHECK(e.language == "python");
    CHECK(e.body.rfind("Traceback (most recent call last):", 0) == 0);
    CHECK(e.exception_type.empty());
    CHECK(e.truncated);
    CHECK_FALSE(e.user_frame);
    REQUIRE(e.frames.size() == c.frames);
    CHECK(e.frames.back().file == c.innermost.file);
    CHECK(e.frames.back().line == c.innermost.line);
    CHECK(e.frames.back().function == c.innermost.function);
    CHECK(e.frames.front().function == (c.frames == 1 ? "loads" : "_execute"));
  }
}

TEST_CASE("a flattened traceback repeated after its exception keeps the complete one", "[unit][error_text]") {
  const ParsedError e = parse("py-flattened-repeat-cut.txt");
  CHECK(e.language == "python");
  CHECK(e.exception_type == "ImportError");
  CHECK(e.message == "No module named _dill");
  CHECK(e.exception_line == "ImportError: No module named _dill");
  CHECK(e.frames.size() == 8);
  CHECK(e.frames.back().file == "/usr/local/lib/python2.7/pickle.py");
  CHECK(e.frames.back().line == 1130);
  CHECK_FALSE(e.user_frame);  // Beam, dill and the Python 2.7 standard library
  CHECK(e.truncated);
}

TEST_CASE("the SDK harness wrapper hands over to the worker's traceback", "[unit][error_text]") {
  const ParsedError e = parse("py-sdk-harness-wrapped.txt");
  CHECK(e.language == "python");
  CHECK(e.exception_type.empty());  // the worker's traceback is cut before its exception
  CHECK(e.truncated);
  REQUIRE(e.frames.size() == 8);
  CHECK(e.frames.front().file == "apache_beam/runners/worker/sdk_worker.py");
  CHECK(e.frames.front().line == 74);
  CHECK(e.frames.back().function == "process");
  // The worker log's form (Beam's sdk_worker.py, SdkHarness._execute: 'Error processing
  // instruction %s. Original traceback is\n%s\n'), in front of a whole traceback.
  const std::string worker_log = "Error processing instruction process_bundle-4. Original traceback is\n" +
                                 fixture("py-module-not-found-main-session.txt")
                                     .substr(fixture("py-module-not-found-main-session.txt").find("Traceback"));
  const ParsedError w = detail::parse_error_text(worker_log, rules());
  CHECK(w.exception_type == "ModuleNotFoundError");
  CHECK(w.body.rfind("Traceback (most recent call last):", 0) == 0);
}

TEST_CASE("a step suffix keeps a nested step's full name and comes off the message", "[unit][error_text]") {
  // Beam's common.py appends " [while running '%s']" % self.step_name; a composite's step is its
  // full path (rules/wrappers.yaml cites 'Run inference/BeamML_RunInference').
  const std::string line =
      "ValueError: min() arg is an empty sequence [while running 'Run inference/BeamML_RunInference']";
  CHECK(detail::step_of(line) == "Run inference/BeamML_RunInference");
  CHECK(detail::without_steps(line) == "ValueError: min() arg is an empty sequence");
  CHECK(detail::step_of("ValueError: x [while running 'Run inference/Beam").empty());  // cut: no step
  const ParsedError e = detail::parse_error_text(
      fixture("py-runtimeerror-reraise.txt").substr(0, fixture("py-runtimeerror-reraise.txt").find("RuntimeError")) +
          line + "\n",
      rules());
  CHECK(e.exception_type == "ValueError");
  CHECK(e.message == "min() arg is an empty sequence");
  CHECK(e.step == "Run inference/BeamML_RunInference");
  CHECK(e.exception_line == line);
}

TEST_CASE("an explicit chain's cause is the exception it was raised from", "[unit][error_text]") {
  const ParsedError e = parse("py-direct-cause.txt");
  CHECK(e.exception_type == "OSError");
  CHECK(e.message.empty());
  CHECK(e.exception_line == "OSError");
  CHECK(where(e) == "<stdin>:2 func");
  CHECK(e.frames.size() == 2);
  CHECK_FALSE(e.truncated);
}

TEST_CASE("an implicit chain's cause is the exception raised while handling", "[unit][error_text]") {
  const ParsedError e = parse("py-during-handling.txt");
  CHECK(e.exception_type == "RuntimeError");
  CHECK(e.message == "unable to handle error");
  CHECK(where(e) == "<stdin>:4 <module>");
  CHECK_FALSE(e.truncated);
}

TEST_CASE("a message that starts on the line after its type is read from that line", "[unit][error_text]") {
  const ParsedError e = parse("py-message-on-next-line.txt");
  CHECK(e.exception_type == "ImportError");
  CHECK(e.message.rfind("LlamaForCausalLM requires the PyTorch library but it was not found", 0) == 0);
  CHECK(e.exception_line.rfind("ImportError: LlamaForCausalLM requires the PyTorch library", 0) == 0);
  REQUIRE_FALSE(e.chain.empty());  // the message's further lines stay its chain, the first is not repeated
  CHECK(e.chain.front().rfind("installation page: https://pytorch.org/get-started/locally/", 0) == 0);
  CHECK(where(e) == "/output/LWM/scripts/sample_pyt.py:8 <module>");
}

TEST_CASE("a Java job-message copy names the user's DoFn frame without at", "[unit][error_text]") {
  const ParsedError e = parse("java-job-message-user-frame.txt");
  CHECK(e.language == "java");
  CHECK(e.exception_type == "java.lang.NullPointerException");
  CHECK(e.message.empty());
  CHECK(where(e) ==
        "BigQueryStatementIssuingFn.java:70 com.google.cloud.dataflow.cdc.applier.BigQueryStatementIssuingFn.process");
  CHECK_FALSE(e.truncated);
}

TEST_CASE("a Java message that wraps its causes names the innermost one", "[unit][error_text]") {
  const ParsedError e = parse("java-job-message-wrapped-cause.txt");
  CHECK(e.language == "java");
  CHECK(e.exception_type == "java.lang.ArrayIndexOutOfBoundsException");
  CHECK(e.message == "1");
  CHECK(e.exception_line.rfind("java.lang.RuntimeException: org.apache.beam.sdk.util.UserCodeException:", 0) == 0);
  REQUIRE(e.frames.size() == 9);
  // Outermost first: Java prints the innermost frame first.
  CHECK(e.frames.front().function ==
        "org.apache.beam.runners.dataflow.worker.util.common.worker.OutputReceiver.process");
  CHECK(e.frames.back().file == "GroupAlsoByWindowsParDoFn.java");
  CHECK(e.frames.back().line == 184);
  CHECK_FALSE(e.user_frame);
}

TEST_CASE("a flattened Java job message is split into its exception and frames", "[unit][error_text]") {
  const ParsedError e = parse("java-flattened-job-message.txt");
  CHECK(e.language == "java");
  CHECK(e.exception_type == "java.nio.charset.MalformedInputException");
  CHECK(e.message == "Input length = 1");
  REQUIRE(e.frames.size() == 8);
  CHECK(e.frames.back().line == 187);
  CHECK_FALSE(e.user_frame);
}

TEST_CASE("a flattened Java fragment without its exception still finds the user frame", "[unit][error_text]") {
  const ParsedError e = parse("java-flattened-fragment.txt");
  CHECK(e.language == "java");
  CHECK(e.exception_type.empty());
  CHECK(e.truncated);
  CHECK(e.frames.size() == 10);
  CHECK(where(e) == "Functions.scala:263 com.spotify.scio.util.Functions$$anon$7.processElement");
}

TEST_CASE("a main-thread Java exception keeps the first line of a wrapped message", "[unit][error_text]") {
  const ParsedError e = parse("java-main-thread-user-frame.txt");
  CHECK(e.language == "java");
  CHECK(e.exception_type == "java.lang.IllegalArgumentException");
  CHECK(e.message == "com.google.swarm.tokenization.common.CSVContentProce");
  REQUIRE(e.frames.size() == 10);
  CHECK(e.frames[0].function == "com.google.swarm.tokenization.CSVStreamingPipeline.doT");
  CHECK(e.frames[0].line == 0);  // cut before its location
  CHECK(e.frames[4].function == "java.base/java.util.HashMap.computeIfAbsent");
  CHECK(e.frames[4].framework);
  REQUIRE(e.user_frame);
  CHECK(e.user_frame->function == "com.google.swarm.tokenization.CSVStreamingPipeline.doT");
}

TEST_CASE("a Java chain's cause is the last Caused by and ... N more takes the enclosing frames",
          "[unit][error_text]") {
  const ParsedError e = parse("java-caused-by-more.txt");
  CHECK(e.language == "java");
  CHECK(e.exception_type == "java.lang.RuntimeException");
  CHECK(e.message == "Error received from SDK harness for instruction 4: Traceback (most recent call last):");
  CHECK(e.exception_line.rfind("Caused by: java.util.concurrent.ExecutionException:", 0) == 0);
  CHECK(e.frames.empty());
  CHECK_FALSE(e.user_frame);  // Flink, Beam's vendored Guava and the JDK
  // Up to the first cause: its two frames, then the 16 it shares with the enclosing trace (the
  // six of them this excerpt holds), outermost first.
  const std::string text = fixture("java-caused-by-more.txt");
  const ParsedError first = detail::parse_error_text(text.substr(0, text.find("Caused by: java.util")), rules());
  CHECK(first.exception_type == "org.apache.flink.runtime.client.JobExecutionException");
  CHECK(first.message == "Job execution failed.");
  REQUIRE(first.frames.size() == 8);
  CHECK(first.frames.front().function == "java.lang.Thread.run");
  CHECK(first.frames[6].function == "org.apache.flink.client.program.rest.RestClusterClient.submitJob");
  CHECK(first.frames.back().function == "org.apache.flink.runtime.jobmaster.JobResult.toJobExecutionResult");
  CHECK(first.frames.back().line == 146);
}

TEST_CASE("suppressed exceptions are no part of the Java chain", "[unit][error_text]") {
  const ParsedError e = parse("java-suppressed-and-cause.txt");
  CHECK(e.language == "java");
  CHECK(e.exception_type == "java.lang.Exception");
  CHECK(e.message == "I did it");
  CHECK(e.exception_line == "Caused by: java.lang.Exception: I did it");
  CHECK(e.frames.size() == 1);
  CHECK(where(e) == "Foo3.java:8 Foo3.main");
  CHECK_FALSE(e.truncated);
  const std::string text = fixture("java-suppressed-and-cause.txt");
  const ParsedError outer = detail::parse_error_text(text.substr(0, text.find("Caused by:")), rules());
  CHECK(outer.message == "Main block");
  REQUIRE(outer.frames.size() == 1);  // not the suppressed ones' Resource.close and Foo3.main:5
  CHECK(outer.frames[0].line == 7);
}

TEST_CASE("Error Reporting's Java frame format is read", "[unit][error_text]") {
  const ParsedError e = parse("java-error-reporting-format.txt");
  CHECK(e.language == "java");
  CHECK(e.exception_type.empty());
  CHECK(e.truncated);  // it starts inside the trace
  REQUIRE(e.frames.size() == 3);
  CHECK(e.frames.back().function == "org.apache.beam.runners.dataflow.worker.SimpleParDoFn.processElement");
  CHECK(e.frames.back().file == "org/apache.beam.runners.dataflow.worker/SimpleParDoFn.java");
  CHECK(e.frames.back().line == 340);
  CHECK(e.frames.back().framework);
  CHECK_FALSE(e.user_frame);
}

TEST_CASE("plain lines have no exception: only the body without its wrappers", "[unit][error_text]") {
  const ParsedError a = parse("plain-sdk-disconnected.txt");
  CHECK(a.language.empty());
  CHECK(a.exception_type.empty());
  CHECK(a.body == "SDK harness sdk-0-0 disconnected.\n");
  CHECK_FALSE(a.truncated);
  const ParsedError b = parse("plain-workflow-failed.txt");
  CHECK(b.language.empty());
  CHECK(b.exception_type.empty());
  CHECK(b.frames.empty());
  CHECK(b.body.rfind("INFO[dataflow_runner.py]: 2022-02-22T18:43:20.001Z: JOB_MESSAGE_ERROR: Workflow failed.", 0) ==
        0);
}

TEST_CASE("a 10 k-frame traceback keeps its innermost 64 frames in either form", "[unit][error_text]") {
  std::string lines = "Traceback (most recent call last):\n";
  std::string flat = "Error message from worker: Traceback (most recent call last):";
  for (int i = 1; i <= 10000; ++i) {
    lines += "  File \"/app/pipeline.py\", line " + std::to_string(i) + ", in recurse\n    return recurse(n - 1)\n";
    flat += " File \"/app/pipeline.py\", line " + std::to_string(i) + ", in recurse return recurse(n - 1)";
  }
  lines += "RecursionError: maximum recursion depth exceeded\n";
  flat += " RecursionError: maximum recursion depth exceeded";
  for (const std::string& text : {lines, flat}) {
    const ParsedError e = detail::parse_error_text(text, rules());
    CHECK(e.exception_type == "RecursionError");
    CHECK(e.message == "maximum recursion depth exceeded");
    REQUIRE(e.frames.size() == detail::kMaxErrorFrames);
    CHECK(e.frames.front().line == 10000 - detail::kMaxErrorFrames + 1);
    CHECK(e.frames.back().line == 10000);
    CHECK(where(e) == "/app/pipeline.py:10000 recurse");
  }
  std::string java = "java.lang.StackOverflowError\n";
  for (int i = 1; i <= 10000; ++i) java += "\tat com.example.Fn.recurse(Fn.java:" + std::to_string(i) + ")\n";
  const ParsedError j = detail::parse_error_text(java, rules());
  CHECK(j.exception_type == "java.lang.StackOverflowError");
  REQUIRE(j.frames.size() == detail::kMaxErrorFrames);
  CHECK(j.frames.back().line == 1);  // printed first: the innermost
  CHECK(where(j) == "Fn.java:1 com.example.Fn.recurse");
}

TEST_CASE("huge and hostile texts are parsed in linear time within the caps", "[unit][error_text]") {
  const size_t mib = size_t{1} << 20;
  std::vector<std::string> texts;
  texts.push_back(std::string(mib, 'x'));
  std::string frames_on_a_line = "Traceback (most recent call last):";
  while (frames_on_a_line.size() < mib) frames_on_a_line += " File \"a.py\", line 1, in f x = 1";
  texts.push_back(frames_on_a_line);
  std::string open_quotes;
  while (open_quotes.size() < mib) open_quotes += "File \"";
  texts.push_back(open_quotes);
  std::string steps;
  while (steps.size() < mib) steps += " [while running '";
  texts.push_back(steps);
  std::string separators;
  while (separators.size() < mib)
    separators += "During handling of the above exception, another exception occurred: ValueError: x ";
  texts.push_back(separators);
  std::string causes;
  while (causes.size() < mib) causes += "Caused by: java.lang.X: y\n\tat a.B.c(B.java:1)\n\t... 1 more\n";
  texts.push_back(causes);
  std::string long_message = "ValueError: " + std::string(mib, 'm');
  texts.push_back("Traceback (most recent call last):\n  File \"/app/p.py\", line 1, in f\n" + long_message);
  // No clock: about 0.01 s each in a Release build, while a quadratic reading of a 1 MiB text takes
  // minutes and meets the test's time limit (bench/ measures speed, as ratios).
  for (const auto& text : texts) {
    const ParsedError e = detail::parse_error_text(text, rules());
    CHECK(e.frames.size() <= detail::kMaxErrorFrames);
    CHECK(e.message.size() <= detail::kMaxErrorLine);
    CHECK(e.exception_line.size() <= detail::kMaxErrorLine);
    CHECK(e.body.size() <= detail::kMaxErrorBody);
  }
}

TEST_CASE("cut and scrambled fixtures never crash the parser", "[unit][error_text]") {
  std::mt19937 random(15);
  const char* names[] = {"py-chained-job-message-cut.txt", "py-runtimeerror-reraise.txt",
                         "py-flattened-repeat-cut.txt",    "java-caused-by-more.txt",
                         "java-flattened-job-message.txt", "java-job-message-wrapped-cause.txt"};
  size_t parsed = 0;
  for (const char* name : names) {
    const std::string text = fixture(name);
    for (size_t cut = 0; cut <= text.size(); cut += 7) {
      std::string s = text.substr(0, cut);
      const ParsedError e = detail::parse_error_text(s, rules());
      CHECK(e.frames.size() <= detail::kMaxErrorFrames);
      for (int k = 0; k < 4 && !s.empty(); ++k) s[random() % s.size()] = static_cast<char>(random() % 256);
      const ParsedError scrambled = detail::parse_error_text(s, rules());
      CHECK(scrambled.frames.size() <= detail::kMaxErrorFrames);
      parsed += 2;
    }
  }
  CHECK(parsed > 1000);
  // A cut job-message copy says so; the whole one does not.
  const std::string whole = fixture("py-runtimeerror-reraise.txt");
  CHECK_FALSE(detail::parse_error_text(whole, rules()).truncated);
  CHECK(detail::parse_error_text(whole.substr(0, whole.find("RuntimeError:")), rules()).truncated);
}

TEST_CASE("the pack's wrappers come off an error's front as Dataflow's wrappers nest", "[unit][error_text]") {
  // The built-in pack's front wrappers (rules/wrappers.yaml), taken off by unwrap_error_prefixes,
  // against a reference that knows the wrappers by hand (the job-message copy anywhere on the first
  // line, a gRPC status, the SDK harness, a Java runner), over every pair of them and of near misses
  // in front of tracebacks and lines.
  const RE2 status(R"(^[a-z_]+::[a-z_]+:\s*)");
  const RE2 harness(
      R"(^(?:RuntimeError: )?Error processing (?:instruction \S*?|request)\. Original traceback is[ \t]*\r?\n?)");
  const RE2 java_runner(R"(^Error received from SDK harness for instruction \S+: )");
  const auto skip_blanks = [](std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n'))
      s.remove_prefix(1);
    return s;
  };
  const auto reference = [&](std::string_view s) {
    s = skip_blanks(s);
    for (int i = 0; i < 16; ++i) {
      std::string_view next = s;
      if (constexpr std::string_view kFromWorker = "Error message from worker: ";
          s.substr(0, s.find('\n')).find(kFromWorker) != std::string_view::npos) {
        next = s.substr(s.find(kFromWorker) + kFromWorker.size());
      } else {
        for (const RE2* re : {&status, &harness, &java_runner}) {
          re2::StringPiece rest(s);
          if (RE2::Consume(&rest, *re)) {
            next = std::string_view(rest.data(), rest.size());
            break;
          }
        }
      }
      next = skip_blanks(next);
      if (next.size() == s.size()) break;
      s = next;
    }
    return s;
  };
  const std::vector<std::string> heads = {
      "generic::unknown: ",
      "generic::unknown:",
      "a_b::c_d:\t",
      "Generic::unknown: ",
      "generic:: unknown: ",
      "generic::unknown ",
      "generic:unknown: ",
      "::unknown: ",
      "generic::: ",
      "_::_:",
      "generic1::unknown: ",
      "RuntimeError: Error processing request. Original traceback is\n",
      "RuntimeError: Error processing instruction process_bundle-4. Original traceback is \r\n",
      "Error processing instruction 1. Original traceback is",
      "Error processing instruction. Original traceback is",
      "RuntimeError:Error processing request. Original traceback is\n",
      "runtimeError: Error processing request. ",
      "Error processing requests. Original traceback is\n",
      "Error received from SDK harness for instruction 4: ",
      "Error received from SDK harness for instruction : ",
      "Error received from SDK harness for instruction 4:",
      "Error message from worker: ",
      "2021-05-17 19:27:52.594 EDTError message from worker: ",
      "  \n",
      "",
  };
  const std::vector<std::string> tails = {"Traceback (most recent call last):\n  File \"x.py\", line 1\n",
                                          "google.api_core.exceptions.ServiceUnavailable: 503", "x", ""};
  for (const auto& a : heads) {
    for (const auto& b : heads) {
      for (const auto& tail : tails) {
        const std::string text = a + b + tail;
        INFO(text);
        CHECK(detail::unwrap_error_prefixes(text, rules().wrappers) == reference(text));
      }
    }
  }
}

TEST_CASE("a front wrapper that matches nothing leaves the next ones to take theirs", "[unit][error_text]") {
  // A user pack's `^\s*` matches every text with nothing; the wrappers after it are still asked.
  // A pattern without a leading `^` is only for comparing copies, never taken off the front.
  const detail::Wrappers wrappers = detail::compile_wrappers({R"(^\s*)", "status: ", R"(^x: )"});
  CHECK(detail::unwrap_error_prefixes("x: x: y", wrappers) == "y");
  CHECK(detail::unwrap_error_prefixes("status: y", wrappers) == "status: y");
  CHECK(detail::unwrap_error_prefixes("  x: y", wrappers) == "y");
}

TEST_CASE("a bare Java frame is told as its pattern tells it, whatever ends its parentheses", "[unit][error_text]") {
  // bare_java_frame asks RE2 only of a line whose last parentheses hold what the pattern needs
  // there; the reference asks the patterns of every line. A text of one such line is Java or none.
  const RE2 bare(
      R"(^\s*(?:[\w$<>-]+[./])+[\w$<>-]+\s*\((?:[\w$.-]+\.(?:java|scala|kt|groovy)(?::\d+)?|Unknown Source|Native Method)\)\s*$)");
  const RE2 frame(R"(^\s*(?:at\s+)?((?:[\w$<>-]+[./])+[\w$<>-]+)\s*(?:\(\s*([^():]*?)(?::(\d+))?\s*\))?\s*$)");
  const std::vector<std::string> inners = {"Fn.java:12",
                                           "Fn.java",
                                           "Fn.scala:3",
                                           "Fn.kt:1",
                                           "Fn.groovy:40",
                                           "Unknown Source",
                                           "Native Method",
                                           ".java",
                                           "Fn.java:",
                                           "Fn.java:1x",
                                           "Fn.java:12:3",
                                           "Fn.jav",
                                           "Fn.JAVA",
                                           "a-b$c.d.java:7",
                                           "Fn java:1",
                                           "retrying",
                                           "Unknown Source:1",
                                           "Native  Method",
                                           "",
                                           "(Fn.java:1",
                                           "Fn.java:1)",
                                           "x(Fn.java:1"};
  const std::vector<std::string> heads = {"org.example.Fn.process", "  org.example.Fn.process ", "process",
                                          "com.x.Outer$Inner.<init>", "The service is unavailable."};
  for (const auto& head : heads) {
    for (const auto& inner : inners) {
      for (const std::string end : {")", ") ", ")\t", ")x"}) {
        const std::string line = head + "(" + inner + end;
        INFO(line);
        const bool java = RE2::FullMatch(line, bare) && RE2::FullMatch(line, frame);
        CHECK(detail::parse_error_text(line, rules()).language == (java ? "java" : ""));
      }
    }
  }
}

namespace {

// Every text of up to six of `parts` (over 40,000 of them), for the step suffix's edge cases.
std::vector<std::string> texts_of(const std::vector<std::string>& parts) {
  std::vector<std::string> texts = {""};
  for (int len = 0; len < 5; ++len) {
    std::vector<std::string> longer;
    for (const auto& t : texts)
      for (const auto& p : parts) longer.push_back(t + p);
    texts.insert(texts.end(), longer.begin(), longer.end());
    if (texts.size() > 40000) break;
  }
  return texts;
}

}  // namespace

TEST_CASE("a text without_steps leaves whole holds no step", "[unit][error_text]") {
  // parse_error_text asks step_of only of a text that without_steps shortened.
  for (const auto& t : texts_of({" [while running '", "']", "S", "\n", " ", "[while running '", "'", "x]"})) {
    INFO(t);
    if (detail::without_steps(t).size() == t.size()) CHECK(detail::step_of(t).empty());
  }
}

TEST_CASE("first_line_without_steps is the first line of without_steps that holds more than blanks",
          "[unit][error_text]") {
  // An error candidate's body is that line only (parse_error_text, `full` false).
  for (const auto& t : texts_of({" [while running '", "']", "S", "\n", " ", "\t", "[while running '", "x]"})) {
    INFO(t);
    const std::string line = detail::first_line_without_steps(t);
    CHECK(detail::first_nonblank_line(line) == detail::first_nonblank_line(detail::without_steps(t)));
    CHECK(detail::without_steps(t).rfind(line, 0) == 0);  // a prefix of it
  }
}

TEST_CASE("reflow_traceback leaves a text alone exactly when no line needs reflowing", "[unit][error_text]") {
  // needs_reflow reads a text's 'F's, ':'s and '('s once; the reference asks each line for each
  // phrase and java_flat's RE2 of every line. A text left alone is returned itself.
  static constexpr std::string_view kHeader = "Traceback (most recent call last):";
  const std::vector<std::string_view> separators = {
      "During handling of the above exception, another exception occurred:",
      "The above exception was the direct cause of the following exception:"};
  const RE2 java_flat(
      R"((?:\sat [\w$.<>/-]+\([^()]*\).*\sat [\w$.<>/-]+\()|(?:(?:[\w$<>-]+\.)+[\w$<>-]+\((?:[\w$.-]+\.(?:java|scala|kt|groovy):\d+|Unknown Source|Native Method)\)\s+(?:[\w$<>-]+\.)+[\w$<>-]+\((?:[\w$.-]+\.(?:java|scala|kt|groovy):\d+|Unknown Source|Native Method)\)))");
  const auto skip_blanks = [](std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n'))
      s.remove_prefix(1);
    return s;
  };
  const auto line_needs = [&](std::string_view line) {
    const size_t frame = line.find("File \"");
    if (frame != std::string_view::npos && line.find("File \"", frame + 1) != std::string_view::npos) return true;
    for (size_t h = line.find(kHeader); h != std::string_view::npos; h = line.find(kHeader, h + 1)) {
      if (line.substr(h + kHeader.size()).find_first_not_of(" \t\r") != std::string_view::npos) return true;
    }
    for (std::string_view sep : separators) {
      if (line.find(sep) != std::string_view::npos && skip_blanks(line) != sep) return true;
    }
    return RE2::PartialMatch(line, java_flat);
  };
  const auto left_alone = [&](std::string_view text) {
    if (text.find("File \n\"") != std::string_view::npos) return false;
    for (size_t pos = 0;;) {
      const size_t nl = text.find('\n', pos);
      if (line_needs(text.substr(pos, nl == std::string_view::npos ? nl : nl - pos))) return false;
      if (nl == std::string_view::npos) return true;
      pos = nl + 1;
    }
  };
  const std::vector<std::string> pieces = {"  File \"a.py\", line 1, in f",
                                           "File \"",
                                           "File ",
                                           "\"",
                                           std::string(kHeader),
                                           std::string(separators[0]),
                                           std::string(separators[1]),
                                           "ValueError: x (retrying)",
                                           " at org.A.b(A.java:1)",
                                           "org.A.b(A.java:1)",
                                           "org.A.b(Native Method)",
                                           "x",
                                           " ",
                                           "\t",
                                           "\r",
                                           ":",
                                           "(",
                                           "\n",
                                           "\n",
                                           "\n"};
  std::mt19937 rng(15);
  size_t alone = 0, reflowed = 0;
  for (int n = 0; n < 20000; ++n) {
    std::string text;
    const size_t parts = 1 + rng() % 8;
    for (size_t i = 0; i < parts; ++i) text += pieces[rng() % pieces.size()];
    INFO(text);
    std::string storage;
    const bool same = detail::reflow_traceback(text, storage).data() == text.data();
    CHECK(same == left_alone(text));
    ++(same ? alone : reflowed);
  }
  CHECK(alone > 1000);
  CHECK(reflowed > 1000);
}

TEST_CASE("the candidate's short reading of generated Python tracebacks gives the full reading's fields",
          "[unit][error_text]") {
  // An error candidate is read with `full` false (no frames kept, the body its first line): every
  // other field must be what the full reading gives. Over generated texts of traceback lines, common
  // and odd (frames, source lines, headers, separators, flattened and cut ones).
  const std::vector<std::string> lines = {
      "Traceback (most recent call last):",
      "  Traceback (most recent call last):",
      "ERROR:root:Traceback (most recent call last):",
      "Traceback (most recent call last): x",
      "  File \"/app/pipeline.py\", line 88, in process",
      "  File \"/usr/local/lib/python3.10/site-packages/apache_beam/runners/common.py\", line 1435, in process",
      "  File \"apache_beam/runners/common.py\", line 1494, in apache_beam.runners.common.DoFnRunner.process",
      "  File \"/usr/local/lib/python3.10/site-packages/google/api_core/retry.py\", line 349, in retry_wrapped_func",
      "File \"/app/main.py\", line 3, in <module>",
      "\tFile \"/app/tab.py\", line 4, in run",
      "  File \"/app/a.py\", line 1, in f x",
      "  File \"/app/a.py\", line 1, in f  ",
      "  File \"/app/(a).py\", line 2, in g",
      "  File \"C:\\app\\a.py\", line 2, in g",
      "  File \"/app/File \", line 2, in g",
      "  File \"/x/During handling of the above exception, another exception occurred:/a.py\", line 1, in f",
      "  File \"/app/a.py\", line 1, in f The above exception was the direct cause of the following exception:",
      "  File \"/app/a.py\", line 2",
      "  File \"/app/a.py\", l",
      "  File ",
      "\"/app/a.py\", line 1, in f",
      "  File \"/app/\xc3\xa9.py\", line 1, in f",
      "  File \"/app/a.py\", line 1, in f\r",
      "  File \"/app/a.py\", line 1, in f  File \"/app/b.py\", line 2, in g",
      "    x = model(inputs)",
      "    return f(g(x))",
      "    ^^^^^^^^^^^^",
      "    raise ValueError(\"bad: x\")",
      "    at org.A.b(A.java:1)",
      "    ... 3 more",
      "\tcode()",
      "ValueError: Input contains NaN, infinity or a value too large for dtype('float32').",
      "google.api_core.exceptions.ServiceUnavailable: 503 The service is currently unavailable. (retrying)",
      "RuntimeError: ValueError: x [while running 'Embed']",
      "ValueError: x [while running 'Embed/Map(<lambda>)']",
      "KeyError: 'a'",
      "StopIteration",
      "ModuleNotFoundError: No module named 'torch'",
      "generic::unknown: ValueError: x",
      "RuntimeError: Error processing instruction 1. Original traceback is",
      "During handling of the above exception, another exception occurred:",
      "The above exception was the direct cause of the following exception:",
      "x During handling of the above exception, another exception occurred:",
      "",
      "  ",
      "\r",
      "SDK Harness waiting for in-flight requests to complete",
      "Error message from worker: Traceback (most recent call last):",
      "at org.A.b(A.java:1)",
      "org.A.b(A.java:1)",
      "\tat org.A.c(A.java:2)",
      "Caused by: java.lang.IllegalStateException: y",
      "x (retrying)",
      "see File \"x\" here",
      "a: b: c",
      "x at a.B(C.java:1) y at d.E(F.java:2)",
  };
  const auto lines_from = [&](std::string_view first, size_t n) {
    const auto at = std::find(lines.begin(), lines.end(), first);
    REQUIRE(lines.end() - at >= static_cast<std::ptrdiff_t>(n));
    return std::vector<std::string>(at, at + static_cast<std::ptrdiff_t>(n));
  };
  const std::vector<std::string> frames = lines_from("  File \"/app/pipeline.py\", line 88, in process", 6);
  const std::vector<std::string> code = lines_from("    x = model(inputs)", 4);
  const std::vector<std::string> endings =
      lines_from("ValueError: Input contains NaN, infinity or a value too large for dtype('float32').", 8);
  const std::string message = "SDK Harness waiting for in-flight requests to complete";
  const std::string header = "Traceback (most recent call last):";
  std::vector<std::string> texts;
  for (const char* name : {"py-chained-job-message-cut.txt", "py-console-copy-broken-lines.txt", "py-direct-cause.txt",
                           "py-during-handling.txt", "py-flattened-job-message-cut.txt", "py-flattened-repeat-cut.txt",
                           "py-generic-unknown-carets.txt", "py-module-not-found-main-session.txt",
                           "py-runtimeerror-reraise.txt", "py-sdk-harness-wrapped.txt", "java-caused-by-more.txt",
                           "java-job-message-user-frame.txt", "plain-sdk-disconnected.txt"}) {
    texts.push_back(fixture(name));
  }
  // A user frame followed by about kMaxErrorFrames framework frames: kept, or gone with the frames
  // past the innermost 64.
  for (size_t after = detail::kMaxErrorFrames - 2; after <= detail::kMaxErrorFrames + 1; ++after) {
    std::string text = header + "\n" + frames[0];
    for (size_t k = 0; k < after; ++k) text += "\n" + frames[1];
    texts.push_back(text + "\n" + endings[0]);
  }
  std::mt19937 rng(42);
  const auto pick = [&](const std::vector<std::string>& from) { return from[rng() % from.size()]; };
  for (int n = 0; n < 30000; ++n) {
    std::vector<std::string> text;
    if (rng() % 2 == 0) {  // a plain traceback, then a change or two
      if (rng() % 2 == 0) text.push_back(message);
      text.push_back(header);
      for (size_t k = 1 + rng() % 6; k > 0; --k) {
        text.push_back(pick(frames));
        if (rng() % 3 == 0) text.push_back(pick(code));
      }
      text.push_back(pick(endings));
      for (size_t k = rng() % 3; k > 0; --k) {
        const size_t at = rng() % (text.size() + 1);
        if (rng() % 2 == 0) {
          text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), pick(lines));
        } else if (at < text.size()) {
          text.erase(text.begin() + static_cast<std::ptrdiff_t>(at));
        }
      }
    } else {  // any lines
      for (size_t k = 1 + rng() % 10; k > 0; --k) text.push_back(pick(lines));
    }
    std::string joined;
    for (size_t i = 0; i < text.size(); ++i) joined += (i > 0 ? "\n" : "") + text[i];
    texts.push_back(joined);
  }
  size_t python = 0;
  for (const std::string& text : texts) {
    INFO(text);
    const ParsedError brief = detail::parse_error_text(text, rules(), /*full=*/false);
    ParsedError full = detail::parse_error_text(text, rules(), /*full=*/true);
    CHECK(brief.frames.empty());
    CHECK(full.body.substr(0, brief.body.size()) == brief.body);
    full.frames.clear();
    full.body = brief.body;
    check_same_parse(brief, full);
    python += brief.language == "python" ? 1 : 0;
  }
  CHECK(python > texts.size() / 5);
}
