// effective_severity: the level a stderr line logged at ERROR says in its own prefix (glog/absl
// letters, TensorFlow's timestamped letter, Python logging's LEVEL:name:), the entry's severity
// otherwise. Real texts; each row names its source.
#include <re2/re2.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "unexplained/error_candidates.h"

using namespace gpudiag;

namespace {

Severity effective(std::string_view message, Severity logged = Severity::kError) {
  LogRecord r;
  r.severity = logged;
  r.message = message;
  return detail::effective_severity(r);
}

// The reading as RE2 does it, the patterns effective_severity names (it reads ASCII by hand).
Severity by_regex(std::string_view message, Severity logged = Severity::kError) {
  if (logged < Severity::kError) return logged;
  static const RE2 glog(
      R"(^(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?: )?([IWEF])(?:\d{4} \d\d:\d\d:\d\d|\s+\S+\.(?:cc|h|py):\d+\]))");
  static const RE2 python(R"(^(DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.\-]*:)");
  const std::string_view head = message.substr(0, 256);
  re2::StringPiece letter, level;
  if (RE2::PartialMatch(head, glog, &letter)) {
    return letter[0] == 'I'   ? Severity::kInfo
           : letter[0] == 'W' ? Severity::kWarning
           : letter[0] == 'E' ? Severity::kError
                              : Severity::kCritical;
  }
  if (RE2::PartialMatch(head, python, &level)) {
    if (level == "DEBUG") return Severity::kDebug;
    if (level == "INFO") return Severity::kInfo;
    if (level == "WARNING") return Severity::kWarning;
  }
  return logged;
}

struct Row {
  const char* message;
  Severity want;
};

}  // namespace

TEST_CASE("effective_severity reads the level stderr lines carry in their prefix", "[unit]") {
  const Row rows[] = {
      // bmaltais/kohya_ss#3320 (2025), TensorFlow start-up on a working GPU (absl's letter form).
      {"E0000 00:00:1751448150.986970   10148 cuda_dnn.cc:8579] Unable to register cuDNN factory: Attempting to "
       "register factory for plugin cuDNN when one has already been registered",
       Severity::kError},
      {"W0000 00:00:1718708588.715000 1187 computation_placer.cc:177] computation placer already registered. Please "
       "check linkage and avoid linking the same target more than once.",
       Severity::kWarning},
      {"WARNING: All log messages before absl::InitializeLog() is called are written to STDERR", Severity::kError},
      // kr-colab/ReLERNN#63, openxla/xla#20803: TensorFlow's timestamped form.
      {"2024-06-18 11:12:30.123456: E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:607] Unable to "
       "register cuFFT factory: Attempting to register factory for plugin cuFFT when one has already been registered",
       Severity::kError},
      // NVIDIA/DALI#1813 (2020): "Found device 0 with properties" (timestamp prefix as TensorFlow prints it).
      {"2020-03-25 09:01:02.345678: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1558] Found device 0 with "
       "properties:",
       Severity::kInfo},
      {"I tensorflow/core/common_runtime/gpu/gpu_device.cc:1558] Found device 0 with properties:", Severity::kInfo},
      // googlecolab/colabtools#1868 (2021): pip's resolver at ERROR (no logging prefix: its own word).
      {"ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. "
       "This behaviour is the source of the following dependency conflicts.",
       Severity::kError},
      {"tensorflow 2.16.1 requires ml-dtypes~=0.3.1, but you have ml-dtypes 0.4.0 which is incompatible.",
       Severity::kError},
      // Python logging's BASIC_FORMAT ("%(levelname)s:%(name)s:%(message)s"): Beam's launcher lines
      // (shared/reference/dataflow-log-signatures.md, a8).
      {"WARNING:root:Make sure that locally built Python SDK docker image has Python 3.9 interpreter.",
       Severity::kWarning},
      {"INFO:root:Using provided Python SDK container image: gcr.io/cloud-dataflow/v1beta3/python39:2.42.0",
       Severity::kInfo},
      {"", Severity::kError},
      {"2024", Severity::kError},
      {"E", Severity::kError},
  };
  for (const Row& row : rows) {
    INFO(row.message);
    CHECK(effective(row.message) == row.want);
    CHECK(by_regex(row.message) == row.want);
    // Cut anywhere (a cut copy, a prefix torn off): the same answer as RE2's.
    const std::string_view text(row.message);
    for (size_t cut = 0; cut <= text.size(); ++cut) {
      CHECK(effective(text.substr(0, cut)) == by_regex(text.substr(0, cut)));
      CHECK(effective(text.substr(cut)) == by_regex(text.substr(cut)));
    }
    // A byte past ASCII anywhere in the first 80 (a UTF-8 letter in a file name or a message; RE2
    // reads UTF-8, the hand reader hands those cases to it): still RE2's answer.
    for (size_t at = 0; at < std::min<size_t>(text.size(), 80); ++at) {
      std::string varied(text);
      varied.replace(at, 1, "\xc3\xa9");  // é
      CHECK(effective(varied) == by_regex(varied));
    }
  }
  // Only entries logged at ERROR or above are read through their prefix.
  CHECK(effective("E0000 00:00:1751448150.986970   10148 cuda_dnn.cc:8579] Unable to register cuDNN factory",
                  Severity::kWarning) == Severity::kWarning);
}

TEST_CASE("effective_severity reads a glog file word as RE2 does, whatever its bytes", "[unit]") {
  // The word after the letter is read backwards from each ']': words with several dots, colons
  // and brackets, a blank inside, a UTF-8 letter, cut anywhere (the hand-written corner cases,
  // then every word of up to 7 bytes drawn from the pieces that make or break the shape).
  const std::string_view pieces[] = {".", "c", "h", "p", "y", ":", "1", "]", "a", " ", "\t", "\xc3\xa9"};
  std::vector<std::string> words = {"a]b.cc:12]", "x.cc:]a.cc:1]", ".cc:1]",   "a.cc:12x]", "a.h:1]",   "a.py:]",
                                    "a.cc:1 ]",   "a..cc:1]",      "ab.hh:1]", "é.cc:1]",   "a.cc:é1]", "a.c.py:3]"};
  std::vector<std::string> grown = {""};
  for (int length = 0; length < 7; ++length) {
    std::vector<std::string> next;
    for (const std::string& w : grown) {
      for (std::string_view p : pieces) next.push_back(w + std::string(p));
    }
    // Every word of up to 4 pieces, then a sample of the longer ones (every 97th) to stay fast.
    grown.clear();
    for (size_t k = 0; k < next.size(); k += length < 4 ? 1 : 97) grown.push_back(next[k]);
    words.insert(words.end(), grown.begin(), grown.end());
  }
  size_t read = 0;
  for (const std::string& word : words) {
    // Past eight bytes too: the word is read eight bytes a step, then byte by byte.
    for (const std::string& line : {"E " + word + " x", "W  " + word, "2024-06-18 11:12:30.1: I " + word,
                                    "F tensorflow/core/" + word, "I \x01\x7f/x/" + word + "]"}) {
      INFO(line);
      CHECK(effective(line) == by_regex(line));
      ++read;
    }
  }
  CHECK(read > 10000);
}

TEST_CASE("effective_severity reads a timestamp as RE2 does, with any one byte of it changed", "[unit]") {
  // The timestamps are read eight bytes a step: every byte of them, and of what follows, replaced
  // by bytes that make or break the shape (digits at the edges of 0-9, the separators, a letter,
  // a byte past ASCII). TensorFlow's C++ logging (tensorflow/core/platform/default/logging.cc) and
  // absl's (absl/log/internal/log_format.cc) prefixes.
  const std::string lines[] = {"2024-06-18 11:12:30.123456: W tensorflow/core/common_runtime/bfc_allocator.cc:275] m",
                               "E0512 10:01:02.345678    1187 cuda_dnn.cc:8579] Unable to register cuDNN factory",
                               "I0512 10:01:02"};
  const char bytes[] = {'0', '9', '/', ':', '-', ' ', '.', 'a', '\x80', '\xff', '\t'};
  size_t read = 0;
  for (const std::string& line : lines) {
    CHECK(effective(line) == by_regex(line));
    for (size_t at = 0; at < std::min<size_t>(line.size(), 32); ++at) {
      for (char b : bytes) {
        std::string changed = line;
        changed[at] = b;
        INFO(changed);
        CHECK(effective(changed) == by_regex(changed));
        ++read;
        CHECK(effective(changed.substr(0, at + 1)) == by_regex(changed.substr(0, at + 1)));  // cut there
      }
    }
  }
  CHECK(read > 600);
}

TEST_CASE("an ERROR line that may_demote rules out stays at ERROR or above", "[unit]") {
  // screen() reads the prefix only of lines may_demote lets through: every other line, whatever
  // its first byte and what follows, must read as ERROR or above. Every first byte, before the
  // rest of each prefix form and of lines of real chatter.
  const std::string rests[] = {"0000 00:00:1718708588.715000 1187 computation_placer.cc:177] m",
                               "0512 10:01:02.345678    1187 cuda_dnn.cc:8579] m",
                               " tensorflow/core/common_runtime/gpu/gpu_device.cc:1558] Found device 0",
                               "024-06-18 11:12:30.123456: I tensorflow/core/x.cc:1] m",
                               "NFO:root:m",
                               "ARNING:root:m",
                               "EBUG:root:m",
                               "RROR:root:m",
                               "RITICAL:root:m",
                               ":root:m",
                               "rror running LookupEffectiveGuestPolicies",
                               ""};
  size_t ruled_out = 0;
  for (int first = 0; first < 256; ++first) {
    for (const std::string& rest : rests) {
      const std::string line = std::string(1, static_cast<char>(first)) + rest;
      if (detail::may_demote(line)) continue;
      INFO(line);
      CHECK(effective(line) >= Severity::kError);
      ++ruled_out;
    }
  }
  CHECK(ruled_out > 2000);
  CHECK_FALSE(detail::may_demote(""));
  for (const char* demoted : {"I0512 10:01:02 x", "W tensorflow/x.cc:1] m", "DEBUG:root:m", "INFO:root:m",
                              "WARNING:absl:m", "2024-06-18 11:12:30.1: I x.cc:1] m"}) {
    INFO(demoted);
    CHECK(detail::may_demote(demoted));
    CHECK(effective(demoted) < Severity::kError);
  }
}
