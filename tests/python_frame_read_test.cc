// read_python_frame reads a Python frame line as RE2 does with the frame pattern it stands in for:
// on every line of the real tracebacks in tests/fixtures/error_text/ (each file's first line names
// its source), and on every cut of their frame lines (job-message copies are cut anywhere).
#include <re2/re2.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "evidence/trace_lines.h"
#include "test_support.h"

using namespace gpudiag;
using detail::PyFrameParts;
using detail::PyFrameRead;

namespace {

// What RE2 reads; "-" when it does not match.
std::string by_regex(std::string_view line) {
  static const RE2 re(R"re(^\s*File "([^"]*)", line (\d+)(?:, in (\S+))?)re");
  re2::StringPiece file, number, function;
  if (!RE2::PartialMatch(line, re, &file, &number, &function)) return "-";
  return std::string(file) + "|" + std::string(number) + "|" + std::string(function);
}

std::string by_hand(std::string_view line) {
  PyFrameParts parts;
  switch (detail::read_python_frame(line, parts)) {
    case PyFrameRead::kNo:
      return "-";
    case PyFrameRead::kAskRegex:
      return by_regex(line);  // what the callers do
    case PyFrameRead::kYes:
      break;
  }
  return std::string(parts.file) + "|" + std::string(parts.number) + "|" + std::string(parts.function);
}

}  // namespace

TEST_CASE("read_python_frame reads every fixture line and every cut of a frame line as RE2 does", "[unit]") {
  size_t frames = 0, compared = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::source_dir() + "/tests/fixtures/error_text")) {
    if (entry.path().extension() != ".txt") continue;
    const std::string text = test::read_file(entry.path().string());
    size_t pos = 0;
    while (pos < text.size()) {
      const size_t nl = std::min(text.find('\n', pos), text.size());
      const std::string_view line(text.data() + pos, nl - pos);
      pos = nl + 1;
      INFO(entry.path().filename().string() << ": " << line);
      CHECK(by_hand(line) == by_regex(line));
      ++compared;
      if (by_regex(line) == "-") continue;
      ++frames;
      for (size_t cut = 0; cut < line.size(); ++cut) {
        CHECK(by_hand(line.substr(0, cut)) == by_regex(line.substr(0, cut)));
        // A byte past ASCII there instead (a UTF-8 letter in a path or a name): still RE2's reading.
        std::string varied(line);
        varied.replace(cut, 1, "\xc3\xa9");  // é
        CHECK(by_hand(varied) == by_regex(varied));
        compared += 2;
      }
    }
  }
  CHECK(frames >= 20);  // the fixtures hold Python frames: the comparison is not vacuous
  CHECK(compared > 1000);
}
