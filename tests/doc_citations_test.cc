// Doc citations: every fix of the built-in pack cites a page and section that docs/doc-sections.md
// lists, and docs/doc-sections.md's line numbers point at headings of the translated pages in
// ../shared/reference/doc-pages (where a reviewer checks them).
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "gpudiag/rule_pack.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string trim(std::string s) {
  while (!s.empty() && s.front() == ' ') s.erase(s.begin());
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  size_t pos = 1;  // past the leading `|`
  while (pos < row.size()) {
    const size_t bar = row.find('|', pos);
    if (bar == std::string::npos) break;
    out.push_back(trim(row.substr(pos, bar - pos)));
    pos = bar + 1;
  }
  return out;
}

// A section cell: "Verify your Dataflow job (`#verify`)" → "Verify your Dataflow job".
std::string section_name(std::string cell) {
  const size_t anchor = cell.find(" (`");
  return anchor == std::string::npos ? cell : cell.substr(0, anchor);
}

struct Page {
  std::string url;
  std::set<std::string> sections;
  // language column → (section, cited line) for the tables with translated copies
  std::vector<std::tuple<std::string, std::string, int>> lines;
};

// docs/doc-sections.md: `## TITLE — URL`, then tables whose first column is the section cited.
std::map<std::string, Page> doc_sections() {
  std::map<std::string, Page> pages;
  Page* page = nullptr;
  std::vector<std::string> header;
  for (const auto& line : lines_of(test::read_file(test::source_dir() + "/docs/doc-sections.md"))) {
    if (line.rfind("## ", 0) == 0) {
      const size_t dash = line.rfind(" — ");  // a title may hold one ("threading — Thread-based …")
      page = dash == std::string::npos ? nullptr : &pages[line.substr(3, dash - 3)];
      if (page != nullptr) page->url = line.substr(dash + std::string(" — ").size());
      header.clear();
      continue;
    }
    if (page == nullptr || line.rfind("|", 0) != 0) {
      if (line.empty()) header.clear();
      continue;
    }
    const auto row = cells(line);
    if (header.empty()) {
      header = row;
      continue;
    }
    if (row.empty() || row[0].rfind("---", 0) == 0) continue;
    const std::string section = section_name(row[0]);
    page->sections.insert(section);
    for (size_t i = 1; i < row.size() && i < header.size(); ++i) {
      if (row[i].empty() || !std::isdigit(static_cast<unsigned char>(row[i][0]))) continue;
      page->lines.emplace_back(header[i], section, std::stoi(row[i]));
    }
  }
  return pages;
}

}  // namespace

TEST_CASE("every cited doc section of every rule is in docs/doc-sections.md", "[unit]") {
  const auto pages = doc_sections();
  REQUIRE(pages.size() >= 5);
  std::vector<std::string> missing;
  size_t checked = 0;
  for (const auto& rule : test::builtin_pack().rules()) {
    for (const auto& fix : rule.fixes) {
      ++checked;
      const auto page = pages.find(fix.doc.title);
      const std::string where = fmt::format("{} fix {}", rule.id, fix.id);
      if (page == pages.end()) {
        missing.push_back(fmt::format("{}: page \"{}\" is not in docs/doc-sections.md", where, fix.doc.title));
        continue;
      }
      if (page->second.sections.count(fix.doc.section) == 0) {
        missing.push_back(fmt::format("{}: section \"{}\" of \"{}\" is not in docs/doc-sections.md", where,
                                      fix.doc.section, fix.doc.title));
      }
      const std::string url = fix.doc.url.substr(0, fix.doc.url.find('#'));
      if (url != page->second.url) {
        missing.push_back(fmt::format("{}: url {} is not the page's {}", where, fix.doc.url, page->second.url));
      }
    }
  }
  // The first steps of errors no rule knows cite their pages the same way (rules/first-steps.yaml).
  for (const auto& step : test::builtin_pack().policy().first_steps) {
    ++checked;
    const auto page = pages.find(step.doc.title);
    const std::string where = fmt::format("first step {}", step.id);
    if (page == pages.end()) {
      missing.push_back(fmt::format("{}: page \"{}\" is not in docs/doc-sections.md", where, step.doc.title));
      continue;
    }
    if (page->second.sections.count(step.doc.section) == 0)
      missing.push_back(fmt::format("{}: section \"{}\" is not in docs/doc-sections.md", where, step.doc.section));
    if (step.doc.url.substr(0, step.doc.url.find('#')) != page->second.url)
      missing.push_back(fmt::format("{}: url {} is not the page's {}", where, step.doc.url, page->second.url));
  }
  CHECK(test::builtin_pack().policy().first_steps.size() >= 5);
  CHECK(checked > 50);
  INFO(fmt::format("{}", fmt::join(missing, "\n")));
  CHECK(missing.empty());
}

TEST_CASE("the Xid fixes cite no section about lost workers", "[unit]") {
  // The hardware-Xid fix used to cite "Timed out waiting for an update from the worker", which is about
  // workers that stop reporting (overload, the GIL), not about GPU faults.
  for (const auto& rule : test::builtin_pack().rules()) {
    if (rule.id.rfind("gpu-xid", 0) != 0) continue;
    for (const auto& fix : rule.fixes) {
      INFO(rule.id << " fix " << fix.id);
      CHECK(fix.doc.section != "Timed out waiting for an update from the worker");
    }
  }
}

TEST_CASE("docs/doc-sections.md's line numbers are headings of the translated pages", "[unit]") {
  const std::string dir = test::shared_dir() + "/reference/doc-pages";
  if (test::shared_dir().empty()) {
    WARN("skipped: no reference pages (../shared/reference or GPUDIAG_SHARED)");
    return;
  }
  // The files the language columns name (docs/doc-sections.md, "Files").
  const std::map<std::string, std::string> files = {{"es", "run-pipeline-with-gpus.es.txt"},
                                                    {"es-419", "run-pipeline-with-gpus.es-419.txt"},
                                                    {"ja", "use-gpus.ja.txt"},
                                                    {"ko", "use-gpus.ko.txt"},
                                                    {"he", "gpu-best-practices.he.txt"}};
  std::map<std::string, std::vector<std::string>> text;
  for (const auto& [lang, file] : files) text[lang] = lines_of(test::read_file(dir + "/" + file));
  size_t checked = 0;
  std::vector<std::string> wrong;
  for (const auto& [title, page] : doc_sections()) {
    for (const auto& [lang, section, line] : page.lines) {
      const auto it = text.find(lang);
      if (it == text.end()) continue;
      ++checked;
      const auto& l = it->second;
      // A heading in these copies: a short line of its own between blank lines, not a sentence leading
      // into a list. (Headings may hold or end with a period: "Instalar los controladores de GPU.",
      // "접근 방법 1. GPU 사용을 위해 구성된 기존 이미지 사용".)
      const bool heading = line >= 2 && static_cast<size_t>(line) < l.size() && !l[line - 1].empty() &&
                           l[line - 2].empty() && l[line].empty() && l[line - 1].size() < 120 &&
                           l[line - 1].back() != ':';
      if (!heading) {
        wrong.push_back(
            fmt::format("{} › {}: {} line {} is not a heading: \"{}\"", title, section, lang, line,
                        line >= 1 && static_cast<size_t>(line) <= l.size() ? l[line - 1] : "(past the end)"));
      }
    }
  }
  CHECK(checked > 40);
  INFO(fmt::format("{}", fmt::join(wrong, "\n")));
  CHECK(wrong.empty());
}
