// docs/architecture.md is checked against the tree: every folder, public header and handed-on type its
// table names exists (the type declared in that header), every public header in the tree is in the
// table, no library reaches into another one's src/, and engine's stage folders include each other
// only through their doors, one way.
#include <algorithm>
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

// The rows of the table under "## Inside engine": `engine/src/FOLDER/` | …, lowest stage first.
std::vector<std::string> engine_stages(const std::string& doc) {
  std::vector<std::string> stages;
  std::istringstream in(doc);
  bool in_section = false;
  const std::regex row(R"(^\| `engine/src/([a-z_]+)/` \|)");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) in_section = line == "## Inside engine";
    std::smatch m;
    if (in_section && std::regex_search(line, m, row)) stages.push_back(m[1]);
  }
  return stages;
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

TEST_CASE("engine's stage folders include each other through their doors, and one way", "[unit][docs]") {
  const std::string root = gpudiag::test::source_dir();
  const auto stages = engine_stages(gpudiag::test::read_file(root + "/docs/architecture.md"));
  REQUIRE(stages.size() >= 5);
  const auto rank = [&](const std::string& folder) {
    return static_cast<int>(std::find(stages.begin(), stages.end(), folder) - stages.begin());
  };
  const std::string src = root + "/engine/src";
  // Every folder of engine/src is a stage of the table.
  for (const auto& entry : fs::directory_iterator(src)) {
    if (!entry.is_directory()) continue;
    INFO("engine/src/" << entry.path().filename().string() << "/ is not in docs/architecture.md");
    CHECK(rank(entry.path().filename().string()) < static_cast<int>(stages.size()));
  }
  const std::regex include(R"re(#include "([a-z_]+)/([a-z_]+)\.h")re");
  for (const auto& entry : fs::recursive_directory_iterator(src)) {
    if (!entry.is_regular_file()) continue;
    const std::string relative = fs::relative(entry.path(), src).string();
    const size_t slash = relative.find('/');
    // A file at the top of engine/src (the pipeline, the public API) stands above every stage.
    const int mine = slash == std::string::npos ? static_cast<int>(stages.size()) : rank(relative.substr(0, slash));
    const std::string text = gpudiag::test::read_file(entry.path().string());
    for (std::sregex_iterator it(text.begin(), text.end(), include), end; it != end; ++it) {
      const std::string folder = (*it)[1], header = (*it)[2];
      if (rank(folder) == static_cast<int>(stages.size())) continue;  // not a stage (gpudiag/…)
      INFO(relative << " includes " << (*it)[0]);
      CHECK(header == folder);     // only the stage's door
      CHECK(rank(folder) < mine);  // and only a stage below its own
    }
  }
}
