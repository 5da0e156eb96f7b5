// ErrorCandidates (engine/src/unexplained/error_candidates.h): a matching thread remembers what it read of each
// short ERROR text, and a remembered answer must be the one a fresh reading gives — whether the
// entry is a candidate at all, and every field of the candidate, the entry's own step included.
// Real texts; each names its source.
#include "unexplained/error_candidates.h"

#include <catch2/catch.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "pack/compiled_rule_pack.h"
#include "test_support.h"
#include "unexplained/error_groups.h"

using namespace gpudiag;

namespace {

LogRecord error_entry(std::string_view message, std::string_view step = "", Severity severity = Severity::kError) {
  LogRecord r;
  r.severity = severity;
  r.log = "worker";
  r.message = message;
  r.step = step;
  return r;
}

// What the matcher does with an entry (its quiet shapes aside): the candidate taken, if any.
std::optional<detail::ErrorCandidate> candidate_of(detail::ErrorCandidates& errors, const LogRecord& r) {
  const detail::ErrorCandidates::Screened s = errors.screen(r);
  if (!s.candidate) return std::nullopt;
  detail::ChunkObservations out;
  errors.take(s, r, /*job=*/0, 0, {}, out);
  REQUIRE(out.errors.size() == 1);
  return std::move(out.errors.front());
}

void check_same_reading(const detail::ErrorCandidate& a, const detail::ErrorCandidate& b) {
  const detail::CandidateReading& x = *a.reading;
  const detail::CandidateReading& y = *b.reading;
  CHECK(x.fragment == y.fragment);
  CHECK(x.key == y.key);
  CHECK(x.exception_type == y.exception_type);
  CHECK(x.exception_line == y.exception_line);
  CHECK(x.message_template == y.message_template);
  CHECK(x.matched_line == y.matched_line);
  CHECK(x.step == y.step);
  CHECK(x.truncated == y.truncated);
}

}  // namespace

TEST_CASE("a remembered ERROR text gives the candidate a fresh reading gives with each entry's step", "[unit]") {
  const auto& pack = detail::compiled(test::builtin_pack());
  detail::ErrorCandidates remembering(pack);
  // TensorFlow's cuInit failure (shared/reference/dataflow-log-signatures.md, e3): an E line, a plain
  // error line, first without a step, then twice from
  // the step `Embed` (jsonPayload.step); apache/beam#26330 (shared/reference/dataflow-log-signatures.md,
  // a5): an exception line alone, which is a docker-split traceback's line (a fragment).
  const std::string text =
      "E tensorflow/compiler/xla/stream_executor/cuda/cuda_driver.cc:268] failed call to cuInit: "
      "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected";
  const std::string fragment = "AttributeError: can't set attribute";
  const std::vector<LogRecord> entries = {error_entry(text), error_entry(text, "Embed"), error_entry(text, "Embed"),
                                          error_entry(fragment), error_entry(fragment, "Embed")};
  std::vector<detail::ErrorCandidate> seen;
  for (const LogRecord& r : entries) {
    auto c = candidate_of(remembering, r);
    REQUIRE(c);
    detail::ErrorCandidates fresh(pack);  // has read nothing before
    auto again = candidate_of(fresh, r);
    REQUIRE(again);
    check_same_reading(*c, *again);
    seen.push_back(std::move(*c));
  }
  CHECK_FALSE(seen[0].reading->fragment);
  CHECK(seen[0].reading->message_template.find("failed call to cuInit") != std::string::npos);
  CHECK(seen[0].reading->step.empty());
  CHECK(seen[1].reading->step == "Embed");
  CHECK(seen[2].reading->step == "Embed");
  CHECK(seen[0].reading->message_template == seen[2].reading->message_template);
  CHECK(seen[3].reading->fragment);
  CHECK(seen[4].reading->fragment);
  CHECK(seen[4].reading->text == fragment);
}

TEST_CASE("copies of a remembered text keep their record only while each is its batch's earliest", "[unit]") {
  // Green runs repeat their chatter thousands of times: a copy no earlier than one of the same
  // batch and job whose record is kept can never be the group's exemplar, so take() leaves its
  // record out; the group still counts every copy and shows the earliest. pip's resolver conflict
  // (a real ERROR line of Dataflow's docker log, bench/generate.py's healthy exports).
  const auto& pack = detail::compiled(test::builtin_pack());
  detail::ErrorCandidates errors(pack);
  const std::string text =
      "tensorflow 2.16.1 requires ml-dtypes~=0.3.1, but you have ml-dtypes 0.4.0 which is incompatible.";
  struct Copy {
    Timestamp at;
    uint32_t job;
    bool new_batch;
    bool kept;
  };
  const std::vector<Copy> copies = {
      {30, 0, false, true},   // the first of its batch and job
      {10, 0, false, true},   // earlier than the one kept
      {20, 0, false, false},  // later than 10
      {10, 0, false, false},  // as early, and after it in the input
      {40, 1, false, true},   // another job
      {50, 0, true, true},    // another batch
      {5, 0, false, true},    // earlier than 50
  };
  detail::ErrorGroups groups;
  for (size_t i = 0; i < copies.size(); ++i) {
    if (copies[i].new_batch) errors.start_batch();
    LogRecord r = error_entry(text);
    r.timestamp = copies[i].at;
    const auto s = errors.screen(r);
    REQUIRE(s.candidate);
    REQUIRE(s.line != nullptr);  // a remembered text
    detail::ChunkObservations out;
    errors.take(s, r, copies[i].job, i, {}, out);
    REQUIRE(out.errors.size() == 1);
    INFO("copy " << i);
    CHECK((out.errors[0].record != nullptr) == copies[i].kept);
    CHECK(out.errors[0].record_left_out == !copies[i].kept);
    if (copies[i].job == 0) {
      out.errors[0].where.offset = i;  // input order (earlier() compares offsets of equal times)
      groups.add(std::move(out.errors[0]));
    }
  }
  const auto shown =
      groups.finish(detail::ReadingRules{*pack.frameworks, pack.wrappers, pack.causes}, [](int) { return false; });
  REQUIRE(shown.size() == 1);
  CHECK(shown[0].count == 6);
  CHECK(shown[0].first_seen == 5);
  REQUIRE(shown[0].exemplar.entry->timestamp == 5);
  CHECK(std::string(shown[0].exemplar.entry->message) == text);
}

TEST_CASE("a remembered ERROR text stays benign or below ERROR however often it comes", "[unit]") {
  const auto& pack = detail::compiled(test::builtin_pack());
  detail::ErrorCandidates errors(pack);
  // Dataflow's troubleshooting page lists the guest agent's line as safe to ignore
  // (rules/benign-errors.yaml); NVIDIA/DALI#1813: TensorFlow's INFO line, which stderr logs at
  // ERROR; TensorFlow's cuInit failure (shared/reference/dataflow-log-signatures.md, e3): an E line,
  // at ERROR by its own letter and no benign line. TensorFlow's duplicate plugin registration
  // (tensorflow/tensorflow#62075) is an E line too, and benign.
  const std::string registered =
      "E0000 00:00:1751448150.986970   10148 cuda_dnn.cc:8579] Unable to register cuDNN factory: Attempting to "
      "register factory for plugin cuDNN when one has already been registered";
  const std::string benign = "Error running LookupEffectiveGuestPolicies";
  const std::string info =
      "2020-03-25 09:01:02.345678: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1558] Found device 0 with "
      "properties:";
  const std::string error =
      "E tensorflow/compiler/xla/stream_executor/cuda/cuda_driver.cc:268] failed call to cuInit: "
      "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected";
  for (int round = 0; round < 3; ++round) {
    CHECK_FALSE(errors.screen(error_entry(benign)).candidate);
    CHECK_FALSE(errors.screen(error_entry(info)).candidate);
    CHECK(errors.screen(error_entry(error)).candidate);
    CHECK_FALSE(errors.screen(error_entry(registered)).candidate);
  }
  // Below ERROR, a text is a candidate only by its own level (a relayed line): the E line is, the
  // same error without its prefix is not.
  LogRecord warning = error_entry(error);
  warning.severity = Severity::kWarning;
  CHECK(errors.screen(warning).candidate);
  warning.message = "failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected";
  CHECK_FALSE(errors.screen(warning).candidate);
}

TEST_CASE("benign_errors read through their literals give the answer each pattern gives", "[unit]") {
  const auto& pack = detail::compiled(test::builtin_pack());
  detail::ErrorCandidates errors(pack);
  // rules/benign-errors.yaml: the guest agent's line (anchored), kubelet's PLEG line (unanchored),
  // from Dataflow's troubleshooting page. An exception field keeps the entry out of the text memo,
  // so each is read afresh; only the message's first line is asked.
  const auto screened = [&](std::string message) {
    LogRecord r = error_entry(message);
    r.exception = "java.lang.RuntimeException: x";
    return errors.screen(r).candidate;
  };
  CHECK_FALSE(screened("Error running LookupEffectiveGuestPolicies: error calling agent"));
  CHECK_FALSE(
      screened("kubelet.go:1912] Skipping pod synchronization - [PLEG is not healthy: pleg has yet to be successful]"));
  // The literals are matched lowercased; the pattern still decides its case and its anchor.
  CHECK(screened("ERROR RUNNING LOOKUPEFFECTIVEGUESTPOLICIES"));
  CHECK(screened("agent: Error running LookupEffectiveGuestPolicies"));
  // Past ASCII: every pattern is asked.
  CHECK_FALSE(screened("kubelet » Skipping pod synchronization — PLEG is not healthy"));
  CHECK(screened("kubelet » Skipping pod synchronizätion"));
  // tqdm's progress bar (transformers loading shards, huggingface_hub downloading): its rate unit is
  // the literal; the same words without a bar are an error.
  CHECK_FALSE(screened("Loading checkpoint shards:  40%|####      | 12/30 [02:24<03:36, 12.0s/it]"));
  CHECK_FALSE(screened("model.safetensors: 100%|##########| 4.97G/4.97G [00:41<00:00, 120MB/s]"));
  CHECK(screened("Loading checkpoint shards: 40% done, then OSError: [Errno 28] No space left on device"));
  // Only the first line: a benign line under another is no benign entry.
  CHECK(screened("Unable to register cuDNN factory\nSkipping pod synchronization"));
  CHECK_FALSE(screened("Skipping pod synchronization\nUnable to register cuDNN factory"));
}

TEST_CASE("a benign_errors pattern without a literal is asked of every line", "[unit]") {
  // FilteredRE2 can take no atom from such a pattern, so a line holding no atom at all must still
  // be asked it (benign() spares FirstMatch only when every pattern has atoms). A --rules pack file
  // replaces the list: one pattern with a literal, one without.
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/pack.yaml", "benign_errors:\n  - 'Skipping pod synchronization'\n  - '^\\w+ \\d+$'\n");
  auto pack = RulePack::load(RuleSources{test::catalog_files(), {dir}});
  REQUIRE(pack);
  detail::ErrorCandidates errors(detail::compiled(*pack));
  const auto screened = [&](std::string message) {
    LogRecord r = error_entry(message);
    r.exception = "java.lang.RuntimeException: x";  // out of the text memo: read afresh
    return errors.screen(r).candidate;
  };
  CHECK_FALSE(screened("retries 42"));  // the pattern without a literal
  CHECK_FALSE(screened("kubelet.go:1912] Skipping pod synchronization"));
  CHECK(screened("retries forty-two"));
  CHECK(screened("Error running LookupEffectiveGuestPolicies"));  // the built-in list is replaced
}

TEST_CASE("an exception line read by hand is the one kExceptionLine matches", "[unit]") {
  // Every unindented INFO line of the launcher's and the job messages' logs is asked this, so it is
  // read by hand; RE2 with the pattern is the reference. Lines from Python and Java tracebacks
  // (the corpus), and the edges of the pattern: the first byte, the suffix alone, what may follow.
  const RE2 reference{std::string(detail::kExceptionLine)};
  const std::vector<std::string> lines = {
      "ValueError: invalid literal for int() with base 10: 'x'",
      "apache_beam.runtime.ServiceUnavailable: 503 (retrying)",
      "java.lang.IllegalStateException: Unable to return a default Coder",
      "org.apache.beam.sdk.util.UserCodeException: java.lang.NullPointerException",
      "KeyboardInterrupt",
      "SystemExit: 2",
      "SegmentationFault",
      "DeprecationWarning: the imp module is deprecated",
      "AssertionFailure",
      "com.example.Outer$InnerError: x",
      "_PrivateError:",
      "Error: x",
      "Exception",
      "1Error: x",
      ".Error: x",
      "$Error: x",
      "ValueError : x",
      "ValueError:",
      "ValueErrors: x",
      "ValueError.more: x",
      "ValueError\n",
      "ValueError\nnext",
      "ValueError x",
      "Ünicode Error: x",
      "NameÜError: x",
      "ValueError\xc3",
      "  File \"x.py\", line 1, in <module>",
      "",
      ":",
      "INFO:root:Job finished",
      "Traceback (most recent call last):",
  };
  for (const auto& line : lines) {
    INFO(line);
    CHECK(detail::is_exception_line(line) == RE2::PartialMatch(line, reference));
  }
}

TEST_CASE("tracebacks that differ only in their frames' order read alike, each as a fresh reading reads it", "[unit]") {
  // A worker's retried call logs the same exception again and again, its frames in another order
  // each time (bench/generate.py's healthy exports): those read alike, one group. A text that
  // differs in what the reading shows (the user's frame, the type, the step) reads otherwise.
  const auto& pack = detail::compiled(test::builtin_pack());
  detail::ErrorCandidates errors(pack);
  const std::string head = "Logging handler created.\nTraceback (most recent call last):\n";
  const std::string beam =
      "  File \"/usr/local/lib/python3.10/site-packages/apache_beam/runners/worker/sdk_worker.py\", line 300, in "
      "_execute\n";
  const std::string retry =
      "  File \"/usr/local/lib/python3.10/site-packages/google/api_core/retry.py\", line 349, in retry_wrapped_func\n";
  const std::string user = "  File \"/app/pipeline.py\", line 88, in process\n";
  const std::string unavailable =
      "google.api_core.exceptions.ServiceUnavailable: 503 The service is currently unavailable. (retrying)";
  const auto traceback_entry = [](const std::string& text, std::string_view step = "") {
    return error_entry(text, step, Severity::kInfo);  // the SDK harness logs its retries at INFO
  };
  const std::vector<std::string> texts = {
      head + beam + retry + unavailable,         // 0
      head + retry + beam + unavailable,         // 1: the frames in the other order: the same reading
      head + beam + user + retry + unavailable,  // 2: a user frame
      head + beam + retry + "ValueError: 503 The service is currently unavailable. (retrying)",  // 3: another type
      head + beam + retry + unavailable + " [while running 'Embed']",                            // 4: a step
  };
  std::vector<detail::ErrorCandidate> seen;
  for (const std::string& text : texts) {
    INFO(text);
    const LogRecord r = traceback_entry(text);
    auto c = candidate_of(errors, r);
    REQUIRE(c);
    detail::ErrorCandidates fresh(pack);
    auto again = candidate_of(fresh, r);
    REQUIRE(again);
    check_same_reading(*c, *again);
    CHECK((c->reading->user_frame.has_value()) == (again->reading->user_frame.has_value()));
    seen.push_back(std::move(*c));
  }
  check_same_reading(seen[0], seen[1]);
  const auto shown = [](const detail::ErrorCandidate& c) {
    return std::make_tuple(c.reading->key, c.reading->step, c.reading->user_frame.has_value());
  };
  for (size_t i = 2; i < seen.size(); ++i) {
    INFO(i);
    CHECK(shown(seen[i]) != shown(seen[0]));
  }
  REQUIRE(seen[2].reading->user_frame);
  CHECK(seen[2].reading->user_frame->file == "/app/pipeline.py");
  CHECK(seen[4].reading->step == "Embed");
  // The entry's own step counts when the text names none: the same text from another step.
  auto stepped = candidate_of(errors, traceback_entry(texts[0], "Decode"));
  REQUIRE(stepped);
  CHECK(stepped->reading->step == "Decode");
}

TEST_CASE("a traceback's entry is screened by its first line as benign_errors say", "[unit]") {
  // A traceback's entry (not a remembered short text) is screened by its first line: the answer
  // must be what a fresh screen gives, for benign and other lines alike, round after round.
  const auto& pack = detail::compiled(test::builtin_pack());
  detail::ErrorCandidates remembering(pack);
  const std::vector<std::string> firsts = {
      "Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already "
      "been registered",
      "Logging handler created.", "Error initializing dynamic plugin prober",
      "SDK Harness waiting for in-flight requests to complete"};
  for (int round = 0; round < 3; ++round) {
    for (size_t i = 0; i < 200; ++i) {
      const std::string first = i < firsts.size() ? firsts[i] : firsts[i % firsts.size()] + " " + std::to_string(i);
      const std::string text = first +
                               "\nTraceback (most recent call last):\n  File \"/app/a.py\", line 1, in f\n"
                               "ValueError: x";
      const LogRecord r = error_entry(text, "", Severity::kInfo);
      detail::ErrorCandidates fresh(pack);
      INFO(first);
      CHECK(remembering.screen(r).candidate == fresh.screen(r).candidate);
    }
  }
  const std::string text = firsts[0] + "\nTraceback (most recent call last):\n  File \"/app/a.py\", line 1, in f\nX: y";
  CHECK_FALSE(remembering.screen(error_entry(text, "", Severity::kInfo)).candidate);
}
