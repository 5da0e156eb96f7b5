// A line's own level (rules/line-formats.yaml, docs/unexplained.md "A line's own level"): stderr
// arrives at ERROR whatever a line says of itself, so a line whose own level is lower is not an error
// no rule explains, and a relayed INFO line whose own level is ERROR is one. The same reading reaches
// `gpudiag sql` as its demoting prefixes. Real texts; each row names its source.
#include <re2/re2.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "gpudiag/pack_selection.h"
#include "pack/compiled_rule_pack.h"
#include "test_support.h"
#include "unexplained/error_candidates.h"

using namespace gpudiag;

namespace {

struct Row {
  const char* message;
  bool candidate_at_error;  // an entry logged at ERROR with this text is a candidate
};

bool candidate(std::string_view message, Severity logged = Severity::kError) {
  static detail::ErrorCandidates errors(detail::compiled(test::builtin_pack()));
  LogRecord r;
  r.severity = logged;
  r.log = "worker";
  r.message = message;
  return errors.screen(r).candidate;
}

bool sql_demotes(std::string_view message) {
  static const PackSelection s = pack_selection(test::builtin_pack());
  for (const auto& p : s.candidates.demoting_prefixes) {
    if (RE2::PartialMatch(message, RE2(p))) return true;
  }
  return false;
}

// `gpudiag sql`'s screen (d): a one-line entry whose own level is ERROR or which has no level.
bool sql_reads_as_error(std::string_view message) {
  static const PackSelection s = pack_selection(test::builtin_pack());
  for (const auto& p : s.candidates.line_formats) {
    if (RE2::PartialMatch(message, RE2(p))) return true;
  }
  return false;
}

bool relayed_candidate(std::string_view message) {
  const bool engine = candidate(message, Severity::kInfo);
  CHECK(sql_reads_as_error(message) == engine);
  return engine;
}

}  // namespace

TEST_CASE("a stderr line logged at ERROR is read at its own level, by the engine and by gpudiag sql", "[unit]") {
  const Row rows[] = {
      // bmaltais/kohya_ss#3320 (2025): absl's letter form, E (a candidate: not benign by itself) and W.
      {"E0000 00:00:1751448150.986970   10148 cuda_dnn.cc:8579] Could not create cudnn handle: "
       "CUDNN_STATUS_INTERNAL_ERROR",
       true},
      {"W0000 00:00:1718708588.715000 1187 computation_placer.cc:177] computation placer already registered. Please "
       "check linkage and avoid linking the same target more than once.",
       false},
      // triton-inference-server/server#6899: Triton's glog lines.
      {"I0205 07:31:47.012817 1 server.cc:592] Waiting for in-flight requests to complete.", false},
      // NVIDIA/tensorflow#110 (2024), TensorFlow's timestamped form; TF 1.x without the date.
      {"2024-06-19 16:06:44.996032: W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load "
       "dynamic library 'libcusolver.so.11'; dlerror: libnvJitLink.so.12: cannot open shared object file",
       false},
      {"I tensorflow/core/common_runtime/gpu/gpu_device.cc:1558] Found device 0 with properties:", false},
      // Python logging's BASIC_FORMAT: Beam's launcher lines (shared/reference/dataflow-log-signatures.md, a8).
      {"WARNING:root:Make sure that locally built Python SDK docker image has Python 3.9 interpreter.", false},
      {"INFO:uvicorn.error:Application startup complete.", false},
      // uvicorn (Kludex/uvicorn#1066), ONNX Runtime (microsoft/onnxruntime#22491), TGI (#1838).
      {"INFO:     Started server process [51949]", false},
      {"\x1b[0;93m2024-10-26 20:47:00.5657450 [W:onnxruntime:, session_state.cc:1166 VerifyEachNodeIsAssignedToAnEp] "
       "Some nodes were not assigned to the preferred execution providers.\x1b[m",
       false},
      {"2024-03-06T17:53:22.336246Z  INFO shard-manager: text_generation_launcher: Waiting for shard to be ready... "
       "rank=0",
       false},
      {"[08/01/2022-15:41:44] [TRT] [W] TensorRT was linked against cuDNN 8.4.1 but loaded cuDNN 8.2.1", false},
      // NCCL's debug log (huggingface/accelerate#2183, NVIDIA/TensorRT-LLM#1670): INFO is chatter, WARN
      // is NCCL's error level; no start is fixed (the host name comes first).
      {"axon:5019:5088 [0] NCCL INFO Allocated 9637892 bytes of shared memory in /dev/shm/nccl-CmU6vI", false},
      {"VM-0-16-ubuntu:392:494 [2] enqueue.cc:43 NCCL WARN Cuda failure 'out of memory'", true},
      // googlecolab/colabtools#1868 (2021): pip's resolver, no logging prefix (its own word, not a level).
      {"tensorflow 2.16.1 requires ml-dtypes~=0.3.1, but you have ml-dtypes 0.4.0 which is incompatible.", true},
      {"E", true},
      {"2024", true},
  };
  for (const Row& row : rows) {
    INFO(row.message);
    CHECK(candidate(row.message) == row.candidate_at_error);
    CHECK(sql_demotes(row.message) == !row.candidate_at_error);
    // A multi-line entry is read by its first line.
    CHECK(candidate(std::string(row.message) + "\nSkipping registering GPU devices...") == row.candidate_at_error);
    // A traceback keeps an entry whatever its first line says.
    CHECK(candidate(std::string(row.message) + "\nTraceback (most recent call last):\n  File \"x.py\", line 1"));
  }
  // Cut anywhere (a cut copy, a prefix torn off): never read past the text, never a crash.
  for (const Row& row : rows) {
    const std::string_view text(row.message);
    for (size_t cut = 0; cut <= text.size(); ++cut) {
      (void)candidate(text.substr(0, cut));
      (void)candidate(text.substr(cut));
    }
  }
}

TEST_CASE("a relayed line logged at INFO is a candidate when its own level is ERROR", "[unit]") {
  // Beam's vLLM handler re-logs the server's output at INFO (vllm-project/vllm#18730); uvicorn and
  // Python logging through a subprocess the same way.
  // `gpudiag sql` picks the same lines (its screen may pick more, never fewer).
  CHECK(relayed_candidate("ERROR 05-23 09:31:47 [core.py:396] EngineCore failed to start."));
  CHECK(relayed_candidate("ERROR:root:Internal Python error in the inspect module."));
  CHECK(relayed_candidate("2024-03-06T17:53:31.149443Z ERROR text_generation_launcher: Shard 0 failed to start"));
  CHECK(relayed_candidate("[TensorRT-LLM][ERROR] Assertion failed: Failed to initialize cutlass TMA WS grouped gemm."));
  CHECK_FALSE(relayed_candidate("INFO:     Started server process [51949]"));
  CHECK_FALSE(
      relayed_candidate("WARNING:absl:Compiled the loaded model, but the compiled metrics have yet to be built."));
  CHECK_FALSE(relayed_candidate("I0205 07:31:47.012817 1 server.cc:592] Waiting for in-flight requests to complete."));
  // A benign line stays benign through its prefix (rules/benign-errors.yaml reads the line's own text).
  CHECK_FALSE(
      candidate("E0000 00:00:1759573879.528330   74721 cuda_dnn.cc:8579] Unable to register cuDNN factory: "
                "Attempting to register factory for plugin cuDNN when one has already been registered"));
}

TEST_CASE("a line format is read as its whole pattern reads it, whatever shortcut the reader takes", "[unit]") {
  // The reader matches only the part before a trailing `(?P<text>.*)` and takes the rest of the line
  // as the text; where the suffix binds to one branch of a top-level alternation, that is not the
  // same reading, and the whole pattern is matched.
  const detail::LineFormats alternation(
      std::vector<LineFormat>{LineFormat{.name = "x", .starts = {"E", "W"}, .pattern = "EE|W(?P<text>.*)"}});
  const auto ee = alternation.read("EExyz");
  REQUIRE(ee);
  CHECK(ee->text.empty());
  const auto w = alternation.read("Wxyz");
  REQUIRE(w);
  CHECK(w->text == "xyz");
  // A class that holds `]` or `)` does not end the level group early: gpudiag sql's narrowing keeps
  // the rest of the pattern.
  const LineFormat bracket{.name = "y", .starts = {"["}, .pattern = R"(\[(?P<level>[^])]+)\] (?P<text>.*))"};
  const auto screen = detail::LineFormats::screen_of(bracket, /*below_error=*/true);
  REQUIRE(screen);
  CHECK(RE2::PartialMatch("[INFO] fine", RE2(*screen)));
  CHECK_FALSE(RE2::PartialMatch("[ERROR] bad", RE2(*screen)));
}
