// docs/architecture.md is checked against the tree: every folder, public header and handed-on type its
// table names exists (the type declared in that header), every public header in the tree is in the
// table, and no library reaches into another one's src/.
#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "test_support.h"

namespace fs = std::filesystem;

namespace {

struct FolderRow {
  std::string folder;                // "ingest/"
  std::vector<std::string> headers;  // "ingest/include/gpudiag/ingest.h"
  std::vector<std::string> types;    // "ExportStream"
};

// The rows of the table under "## Folders": `folder/` | job | `header.h` … | `Type` …
std::vector<FolderRow> folder_rows(const std::string& doc) {
  std::vector<FolderRow> rows;
  std::istringstream in(doc);
  bool in_section = false;
  const std::regex code("`([^`]+)`");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) in_section = line == "## Folders";
    if (!in_section || line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream cell_stream(line.substr(1));
    for (std::string cell; std::getline(cell_stream, cell, '|');) cells.push_back(cell);
    if (cells.size() < 4) continue;
    FolderRow row;
    const auto codes = [&](const std::string& cell) {
      std::vector<std::string> out;
      for (std::sregex_iterator it(cell.begin(), cell.end(), code), end; it != end; ++it) out.push_back((*it)[1]);
      return out;
    };
    const auto folder = codes(cells[0]);
    if (folder.size() != 1) continue;
    row.folder = folder[0];
    row.headers = codes(cells[2]);
    row.types = codes(cells[3]);
    rows.push_back(row);
  }
  return rows;
}

bool declares(const std::string& header_text, const std::string& type) {
  // `class [[nodiscard]] Result`, `enum class Impact : uint8_t`, `using Status = …`
  const std::regex declaration("\\b(class|struct|enum class|using)\\s+(\\[\\[[a-z_]+\\]\\]\\s+)?" + type + "\\b");
  return std::regex_search(header_text, declaration);
}

}  // namespace

TEST_CASE("docs/architecture.md names folders, public headers and types that exist", "[unit][docs]") {
  const std::string root = gpudiag::test::source_dir();
  const auto rows = folder_rows(gpudiag::test::read_file(root + "/docs/architecture.md"));
  REQUIRE(rows.size() >= 7);
  std::set<std::string> documented_headers;
  for (const auto& row : rows) {
    INFO(row.folder);
    CHECK(fs::is_directory(root + "/" + row.folder));
    std::string headers_text;
    for (const auto& header : row.headers) {
      INFO(header);
      CHECK(header.rfind(row.folder, 0) == 0);
      REQUIRE(fs::is_regular_file(root + "/" + header));
      headers_text += gpudiag::test::read_file(root + "/" + header);
      documented_headers.insert(header);
    }
    for (const auto& type : row.types) {
      INFO(type);
      CHECK(declares(headers_text, type));
    }
  }
  // A public header that is not in the table is a folder's interface nobody described.
  for (const auto& folder : fs::directory_iterator(root)) {
    const fs::path include = folder.path() / "include" / "gpudiag";
    if (!fs::is_directory(include)) continue;
    for (const auto& header : fs::directory_iterator(include)) {
      const std::string relative = fs::relative(header.path(), root).string();
      INFO(relative);
      CHECK(documented_headers.count(relative) == 1);
    }
  }
}

TEST_CASE("no library includes another one's src/", "[unit][docs]") {
  const std::string root = gpudiag::test::source_dir();
  // tests/ and fuzz/ test internals on purpose; the libraries and the CLI may not.
  for (const std::string folder : {"core", "ingest", "engine", "rules", "reports", "history", "cli"}) {
    const std::string cmake = gpudiag::test::read_file(root + "/" + folder + "/CMakeLists.txt");
    INFO(folder);
    const std::regex other_src("PROJECT_SOURCE_DIR\\}/([a-z]+)/src");
    for (std::sregex_iterator it(cmake.begin(), cmake.end(), other_src), end; it != end; ++it) {
      INFO((*it)[0]);
      CHECK((*it)[1] == folder);
    }
  }
}
