// The machine formats validate against their published schemas for every corpus case, and the HTML
// post-mortem opens in a real browser (Debian's headless chromium) with its timeline and every
// finding in the DOM and no request leaving the page.
//
// Tools: xmllint (libxml2-utils), python3 -m jsonschema (python3-jsonschema), chromium; tools/setup
// test installs them. A missing tool or schema fails its test (a validation that did not run must not
// pass).
#include <fmt/format.h>
#include <simdjson.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "gpudiag/formats.h"
#include "test_support.h"

using namespace gpudiag;
namespace fs = std::filesystem;

namespace {

// tests/schemas holds copies of ../shared/schemas, so that the validation runs wherever the repository is.
std::string schema(const std::string& name) { return test::source_dir() + "/tests/schemas/" + name; }

bool have(const std::string& check) { return test::run_shell(check + " >/dev/null 2>&1").exit_code == 0; }

// Debian's python3 has python3-jsonschema; a python3 earlier on PATH may not.
std::string python_with_jsonschema() {
  for (const std::string py : {"/usr/bin/python3", "python3"}) {
    if (have(py + " -c 'import jsonschema'")) return py;
  }
  return "";
}

// Renders `format` for every corpus case into `dir`; returns the files.
std::vector<std::string> render_corpus(OutputFormat format, const std::string& dir, const std::string& extension) {
  std::vector<std::string> files;
  for (const auto& c : test::corpus_cases()) {
    const Analysis d = test::analyze_case(c);
    const std::string path = dir + "/" + c.substr(c.find('/') + 1) + extension;
    test::write_file(path, render(format, rank(d), test::builtin_pack().rules(), RenderOptions{.deterministic = true}));
    files.push_back(path);
  }
  return files;
}

std::string args(const std::vector<std::string>& files, const std::string& flag = "") {
  std::string out;
  for (const auto& f : files) out += " " + flag + test::shell_quote(f);
  return out;
}

const std::string kChromium =
    "chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update "
    "--no-first-run --disable-sync --disable-default-apps --disable-extensions --no-pings "
    "--host-resolver-rules='MAP * ~NOTFOUND'";

// Opens `html` in chromium with a NetLog; returns the dumped DOM and the URLs the page itself asked
// for (the browser's own background requests carry no page initiator and are left out).
std::pair<std::string, std::vector<std::string>> open_in_chromium(const std::string& html_path) {
  const std::string dir = test::temp_dir();
  const auto r = test::run_shell(fmt::format(
      "timeout 120 {} --user-data-dir={} --log-net-log={}/netlog.json --dump-dom {}", kChromium,
      test::shell_quote(dir + "/profile"), test::shell_quote(dir), test::shell_quote("file://" + html_path)));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element log;
  REQUIRE(parser.load(dir + "/netlog.json").get(log) == simdjson::SUCCESS);
  int64_t start_job = -1;
  for (auto [name, id] : simdjson::dom::object(log["constants"]["logEventTypes"])) {
    if (name == "URL_REQUEST_START_JOB") start_job = int64_t(id);
  }
  REQUIRE(start_job >= 0);
  std::vector<std::string> page_requests;
  for (simdjson::dom::element e : simdjson::dom::array(log["events"])) {
    if (int64_t(e["type"]) != start_job) continue;
    std::string_view url, initiator;
    if (e["params"]["url"].get(url) != simdjson::SUCCESS) continue;
    if (e["params"]["initiator"].get(initiator) == simdjson::SUCCESS && initiator == "not an origin") continue;
    page_requests.emplace_back(url);
  }
  return {r.out, page_requests};
}

}  // namespace

TEST_CASE("the SARIF of every corpus case validates against SARIF 2.1.0", "[golden][formats]") {
  const std::string py = python_with_jsonschema();
  if (py.empty() || !fs::exists(schema("sarif-schema-2.1.0.json"))) {
    FAIL(
        "cannot validate: needs python3-jsonschema and tests/schemas/sarif-schema-2.1.0.json (tools/setup test "
        "installs it)");
  }
  const std::string dir = test::temp_dir();
  const auto files = render_corpus(OutputFormat::kSarif, dir, ".sarif");
  const std::string command =
      py + " -m jsonschema" + args(files, "-i ") + " " + test::shell_quote(schema("sarif-schema-2.1.0.json"));
  const auto r = test::run_shell(command);
  INFO(command << "\n" << r.out << r.err);
  CHECK(r.exit_code == 0);
  // The validator does reject a broken document.
  test::write_file(dir + "/broken.sarif", R"({"version": "2.1.0", "runs": [{"results": [{"level": "loud"}]}]})");
  CHECK(test::run_shell(py + " -m jsonschema -i " + dir + "/broken.sarif " + schema("sarif-schema-2.1.0.json"))
            .exit_code != 0);
}

TEST_CASE("the JUnit XML of every corpus case validates against the JUnit schema", "[golden][formats]") {
  if (!have("xmllint --version") || !fs::exists(schema("junit.xsd"))) {
    FAIL(
        "cannot validate: needs xmllint (libxml2-utils) and tests/schemas/junit.xsd (tools/setup test installs "
        "it)");
  }
  const std::string dir = test::temp_dir();
  const auto files = render_corpus(OutputFormat::kJunit, dir, ".junit.xml");
  const std::string command = "xmllint --noout --schema " + test::shell_quote(schema("junit.xsd")) + args(files);
  const auto r = test::run_shell(command);
  INFO(command << "\n" << r.out << r.err);
  CHECK(r.exit_code == 0);
  test::write_file(dir + "/broken.xml", R"(<testsuite name="x"><testcase/></testsuite>)");
  CHECK(test::run_shell("xmllint --noout --schema " + schema("junit.xsd") + " " + dir + "/broken.xml").exit_code != 0);
}

TEST_CASE("the HTML post-mortem has no way to load anything", "[golden][formats]") {
  for (const std::string c : {"corpus/gpu-oom-then-sdk-disconnected-work-item-failed", "corpus/hostile-log-text"}) {
    const std::string html = render_html(rank(test::analyze_case(c)), RenderOptions{.deterministic = true});
    INFO(c);
    CHECK_THAT(html, Catch::Contains("content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:;"));
    // Log text has no raw '<' (it is escaped), so tags and attributes below can only be gpudiag's own.
    for (const std::string banned :
         {"<script", "<link", "<img", "<iframe", "<object", "<embed", "<base", "<form", "<meta http-equiv=\"refresh"}) {
      INFO(banned);
      CHECK(html.find(banned) == std::string::npos);
    }
    for (const std::string attribute : {" src=", " srcset=", " style=", " background="}) {
      for (size_t at = html.find(attribute); at != std::string::npos; at = html.find(attribute, at + 1)) {
        INFO(attribute << " at " << at);
        CHECK(html.rfind('<', at) < html.rfind('>', at));  // in text, never inside a tag
      }
    }
    const size_t style = html.find("<style>");
    const std::string css = html.substr(style, html.find("</style>") - style);
    CHECK(css.find("url(") == std::string::npos);
    CHECK(css.find("@import") == std::string::npos);
    // Links are in-page anchors or documentation pages (followed only when clicked, never fetched).
    for (size_t at = html.find("href=\""); at != std::string::npos; at = html.find("href=\"", at + 1)) {
      const std::string target = html.substr(at + 6, html.find('"', at + 6) - at - 6);
      INFO(target);
      CHECK((target.rfind('#', 0) == 0 || target.rfind("https://cloud.google.com/", 0) == 0));
    }
  }
}

TEST_CASE("the HTML post-mortem in headless chromium: timeline, every finding, no request", "[golden][formats]") {
  if (!have("chromium --version")) {
    FAIL("cannot validate: needs chromium (tools/setup test installs it)");
  }
  const std::string dir = test::temp_dir();
  // First prove the NetLog check sees what a page loads.
  test::write_file(dir + "/beacon.html", R"(<!DOCTYPE html><img src="http://beacon.invalid/x.png"><p>beacon</p>)");
  CHECK(open_in_chromium(dir + "/beacon.html").second.size() == 1);

  for (const std::string c : {"corpus/gpu-oom-then-sdk-disconnected-work-item-failed", "corpus/hostile-log-text"}) {
    INFO(c);
    const Analysis d = test::analyze_case(c);
    const RankedReport report = rank(d);
    test::write_file(dir + "/post-mortem.html", render_html(report, RenderOptions{.deterministic = true}));
    const auto [dom, requests] = open_in_chromium(dir + "/post-mortem.html");
    CHECK(requests.empty());
    CHECK_THAT(dom, Catch::Contains("<svg id=\"timeline\""));
    CHECK_THAT(dom, Catch::Contains("class=\"state-running\""));
    CHECK(dom.find("<script") == std::string::npos);  // hostile text stayed text
    for (const auto& rf : report.findings) {
      INFO(rf.finding->rule_id);
      CHECK_THAT(dom, Catch::Contains(fmt::format("id=\"f-{}\"", rf.rank)));        // its card
      CHECK_THAT(dom, Catch::Contains(fmt::format("<a href=\"#f-{}\"", rf.rank)));  // its pin / lane
      CHECK_THAT(dom, Catch::Contains(fmt::format("<code>{}</code>", rf.finding->rule_id)));
    }
  }
}
