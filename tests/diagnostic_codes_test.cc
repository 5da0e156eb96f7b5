// The diagnostic codes are one table (core/include/gpudiag/diagnostic_codes.h): every code the
// source emits is in it, docs/diagnostics.md lists exactly its rows, and no row is unused.
#include "gpudiag/diagnostic_codes.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "test_support.h"

using namespace gpudiag;

namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The source files of the libraries and the binary (not tests, which feed codes in on purpose).
std::vector<std::filesystem::path> sources() {
  std::vector<std::filesystem::path> out;
  for (const char* dir : {"core", "ingest", "engine", "reports", "history", "sql", "fetch", "cli"}) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(test::source_dir() + "/" + dir)) {
      const auto ext = e.path().extension();
      if (e.is_regular_file() && (ext == ".cc" || ext == ".h")) out.push_back(e.path());
    }
  }
  return out;
}

// Literals shaped like codes that are something else.
const std::set<std::string> kNotCodes{"job-message"};  // a log name

}  // namespace

TEST_CASE("diagnostic codes: each is kebab-case and named once", "[unit][core]") {
  std::set<std::string_view> seen;
  const std::regex kebab("[a-z][a-z0-9]*(-[a-z0-9]+)+");
  for (const auto& row : kDiagnosticCodes) {
    INFO(row.name);
    CHECK(std::regex_match(row.name, kebab));
    CHECK(seen.insert(row.name).second);
    CHECK(find_diagnostic_code(row.name) == &row);
    CHECK_FALSE(row.meaning.empty());
  }
  CHECK(find_diagnostic_code("no-such-code") == nullptr);
  CHECK(code_name(DiagnosticCode::kInputNotJson) == std::string_view("input-not-json"));
}

TEST_CASE("diagnostic codes: every code the source emits is in the table, and every row is used", "[unit][core]") {
  // A code is written as a literal ("rule-regex", where a file has not moved to the names yet) or by
  // name (DiagnosticCode::kRuleRegex).
  const std::regex literal(R"re("((?:input|gzip|job|rule|baseline|db|history|query|sql|no-such)-[a-z0-9-]+)")re");
  const std::regex by_name(R"(DiagnosticCode::(k\w+))");
  std::set<std::string> used;
  for (const auto& path : sources()) {
    if (path.filename() == "diagnostic_codes.h") continue;
    const std::string text = read_text(path);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), literal); it != std::sregex_iterator(); ++it) {
      const std::string code = (*it)[1];
      if (kNotCodes.count(code) > 0) continue;
      INFO(path.string() << ": \"" << code << "\"");
      CHECK(find_diagnostic_code(code) != nullptr);
      used.insert(code);
    }
    for (auto it = std::sregex_iterator(text.begin(), text.end(), by_name); it != std::sregex_iterator(); ++it) {
      const std::string enumerator = (*it)[1];
      for (const auto& row : kDiagnosticCodes) {
        // kRuleRegex ↔ rule-regex
        std::string camel = "k";
        bool upper = true;
        for (char c : std::string_view(row.name)) {
          if (c == '-') {
            upper = true;
            continue;
          }
          camel += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
          upper = false;
        }
        if (camel == enumerator) used.insert(row.name);
      }
    }
  }
  for (const auto& row : kDiagnosticCodes) {
    INFO(row.name);
    CHECK(used.count(row.name) == 1);
  }
}

TEST_CASE("docs/diagnostics.md lists exactly the table", "[unit][core]") {
  const std::string page = read_text(test::source_dir() + "/docs/diagnostics.md");
  std::set<std::string> listed;
  const std::regex row(R"(\n\| `([a-z0-9-]+)` \| ([a-z]+) \| ([^\n]*) \|)");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), row); it != std::sregex_iterator(); ++it) {
    listed.insert(fmt::format("{} {} {}", (*it)[1].str(), (*it)[2].str(), (*it)[3].str()));
  }
  std::set<std::string> expected;
  for (const auto& row : kDiagnosticCodes) {
    expected.insert(fmt::format("{} {} {}", row.name, stage_name(row.stage), row.meaning));
  }
  CHECK(listed == expected);
}
