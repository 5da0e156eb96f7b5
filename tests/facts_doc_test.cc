// docs/facts.md lists every wording of the lines each fact extractor reads, with where it is printed
// and one example; each example must be a `match` example of that extractor (so the prover shows the
// extractor reads it), and every extractor of the pack has a section.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "pack/compiled_rule_pack.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

struct DocForm {
  std::string extractor;
  std::string example;
  size_t line = 0;
};

// The cells of a Markdown table row, `\|` unescaped.
std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::string cell;
  for (size_t i = 1; i < row.size(); ++i) {
    if (row[i] == '\\' && i + 1 < row.size() && row[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (row[i] == '|') {
      out.push_back(cell);
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  return out;
}

std::string trim(std::string s) {
  while (!s.empty() && s.front() == ' ') s.erase(s.begin());
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::vector<DocForm> doc_forms(const std::string& doc, std::set<std::string>& sections) {
  std::vector<DocForm> out;
  std::string section;
  size_t line_no = 0, pos = 0;
  while (pos < doc.size()) {
    size_t end = doc.find('\n', pos);
    if (end == std::string::npos) end = doc.size();
    const std::string line = doc.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (line.rfind("## ", 0) == 0) {
      section = trim(line.substr(3));
      sections.insert(section);
      continue;
    }
    if (section.empty() || line.rfind("| ", 0) != 0 || line.rfind("| form ", 0) == 0) continue;
    const auto row = cells(line);
    if (row.size() < 3) continue;
    std::string example = trim(row.back());
    if (example.size() < 2 || example.front() != '`' || example.back() != '`') continue;
    out.push_back(DocForm{section, example.substr(1, example.size() - 2), line_no});
  }
  return out;
}

}  // namespace

TEST_CASE("docs/facts.md: every listed form is a match example of its extractor", "[rules]") {
  const std::string doc = test::read_file(test::source_dir() + "/docs/facts.md");
  std::set<std::string> sections;
  const auto forms = doc_forms(doc, sections);
  const auto& pack = detail::compiled(test::builtin_pack());
  REQUIRE(!forms.empty());
  for (const auto& form : forms) {
    INFO("docs/facts.md:" << form.line << " (" << form.extractor << "): `" << form.example << "`");
    const detail::FactExtractorSpec* extractor = nullptr;
    for (const auto& x : pack.extractors) {
      if (x.id == form.extractor) extractor = &x;
    }
    REQUIRE(extractor != nullptr);  // a section names an extractor of the pack
    bool found = false;
    for (const auto& example : extractor->examples) {
      for (const auto& r : example.records) {
        if (example.expect_match && (r.message == form.example || r.exception == form.example)) found = true;
      }
    }
    CHECK(found);
  }
  for (const auto& x : pack.extractors) {
    INFO("docs/facts.md has no section `## " << x.id << "`");
    CHECK(sections.count(x.id) == 1);
  }
}
