// The machine formats validate against their published schemas for every corpus case, and the HTML
// post-mortem opens in a real browser (Debian's headless chromium) with its timeline and every
// finding in the DOM and no request leaving the page.
//
// Tools: xmllint (libxml2-utils), python3 -m jsonschema (python3-jsonschema), chromium; tools/setup
// test installs them. A missing tool or schema fails its test (a validation that did not run must not
// pass).
#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
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
    // Links are in-page anchors, documentation pages or the job in the Cloud console (Logs Explorer,
    // the Dataflow job page), followed only when clicked, never fetched.
    for (size_t at = html.find("href=\""); at != std::string::npos; at = html.find("href=\"", at + 1)) {
      const std::string target = html.substr(at + 6, html.find('"', at + 6) - at - 6);
      INFO(target);
      CHECK((target.rfind('#', 0) == 0 || target.rfind("https://cloud.google.com/", 0) == 0 ||
             target.rfind("https://console.cloud.google.com/logs/query;query=", 0) == 0 ||
             target.rfind("https://console.cloud.google.com/dataflow/jobs/", 0) == 0));
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

namespace {

// Layout and links, measured inside the page: a copy of the post-mortem without its CSP and with this
// script at the end of its body writes what it found into the DOM, which --dump-dom returns. Checks:
// nothing wider than the window, every line number (`.ln`) on one line, every in-page link's target
// present, every other link a well-formed https URL, and every Logs Explorer link querying one job
// (resource.labels.job_id="…").
constexpr std::string_view kLayoutProbe = R"js(<script>
(function () {
  const problems = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width) {
    problems.push('overflow: the page is ' + document.documentElement.scrollWidth + 'px wide in ' + width + 'px');
  }
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg')) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > width + 0.5) {
      problems.push('overflow: <' + el.tagName.toLowerCase() + ' class="' + el.className + '"> ends at ' + r.right);
      break;
    }
  }
  let numbers = 0;
  for (const el of document.querySelectorAll('.ln')) {
    ++numbers;
    const style = getComputedStyle(el);
    const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
    const boxes = el.getClientRects().length, height = el.getBoundingClientRect().height;
    if (boxes !== 1 || height > line * 1.5) {
      problems.push('wrapped line number "' + el.textContent + '": ' + boxes + ' boxes, ' + height + 'px for lines of ' + line + 'px');
    }
  }
  let links = 0, explorer = 0, pages = 0;
  for (const a of document.querySelectorAll('a')) {
    const href = a.getAttribute('href');
    if (href === null) continue;
    ++links;
    if (href.startsWith('#')) {
      if (!document.getElementById(href.slice(1))) problems.push('no element with the id of ' + href);
      continue;
    }
    let url;
    try { url = new URL(href); } catch (e) { problems.push('malformed link ' + href); continue; }
    if (url.protocol !== 'https:' || /\s/.test(href) || url.href.length === 0) problems.push('not an https link: ' + href);
    if (url.hostname === 'console.cloud.google.com' && url.pathname.startsWith('/logs/query;')) {
      ++explorer;
      const param = url.pathname.split(';').find(p => p.startsWith('query='));
      const query = param ? decodeURIComponent(param.slice(6)) : '';
      if (!/^resource\.labels\.job_id="[^"]+"$/.test(query)) problems.push('Logs Explorer query ' + query + ' in ' + href);
      for (const p of url.pathname.split(';').slice(1)) {
        if (!/^(query|timeRange|cursorTimestamp)=/.test(p)) problems.push('unknown Logs Explorer parameter ' + p);
      }
    }
    if (url.hostname === 'console.cloud.google.com' && url.pathname.startsWith('/dataflow/jobs/')) {
      ++pages;
      if (!/^\/dataflow\/jobs\/[a-z0-9-]+\/[^/]+$/.test(url.pathname)) problems.push('job page ' + href);
    }
  }
  const out = document.createElement('pre');
  out.id = 'gpudiag-layout';
  out.textContent = JSON.stringify({inner_width: window.innerWidth, numbers, links, explorer, pages, problems});
  document.body.appendChild(out);
})();
</script>)js";

struct Layout {
  int64_t inner_width = 0, numbers = 0, links = 0, explorer = 0, pages = 0;
  std::vector<std::string> problems;
};

std::string unescape_text(std::string s) {
  for (const auto& [from, to] :
       std::vector<std::pair<std::string, std::string>>{{"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}}) {
    for (size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size()) s.replace(at, from.size(), to);
  }
  return s;
}

// Opens a copy of `html` with the probe at 1280 × 800 and returns what the probe measured.
Layout measure_in_chromium(const std::string& html, const std::string& dir) {
  std::string page = html;
  const size_t csp = page.find("<meta http-equiv=\"Content-Security-Policy\"");
  if (csp != std::string::npos) page.erase(csp, page.find('>', csp) + 1 - csp);
  const size_t body = page.rfind("</body>");
  REQUIRE(body != std::string::npos);
  page.insert(body, kLayoutProbe);
  const std::string path = dir + "/probe.html";
  test::write_file(path, page);
  const auto r =
      test::run_shell(fmt::format("timeout 120 {} --window-size=1280,800 --user-data-dir={} --dump-dom {}", kChromium,
                                  test::shell_quote(dir + "/probe-profile"), test::shell_quote("file://" + path)));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string open = "<pre id=\"gpudiag-layout\">";
  const size_t at = r.out.find(open);
  REQUIRE(at != std::string::npos);
  const size_t end = r.out.find("</pre>", at);
  const std::string json = unescape_text(r.out.substr(at + open.size(), end - at - open.size()));
  simdjson::dom::parser parser;
  simdjson::dom::element e;
  INFO(json);
  REQUIRE(parser.parse(json).get(e) == simdjson::SUCCESS);
  Layout out{int64_t(e["inner_width"]), int64_t(e["numbers"]), int64_t(e["links"]),
             int64_t(e["explorer"]),    int64_t(e["pages"]),   {}};
  for (simdjson::dom::element p : simdjson::dom::array(e["problems"])) out.problems.emplace_back(std::string_view(p));
  return out;
}

}  // namespace

TEST_CASE("the HTML post-mortem at 1280 px in headless chromium: one-line line numbers and live links",
          "[golden][formats]") {
  if (!have("chromium --version")) {
    FAIL("cannot validate: needs chromium (tools/setup test installs it)");
  }
  const std::string dir = test::temp_dir();
  // First prove the probe sees each kind of problem.
  const Layout bad = measure_in_chromium(
      R"(<!DOCTYPE html><html><body><div style="width:2000px">wide</div>)"
      R"(<p style="width:3em"><span class="ln">12345 67890 12345</span></p><a href="#nowhere">x</a>)"
      R"(<a href="http://plain.test/">y</a></body></html>)",
      dir);
  CHECK(bad.inner_width == 1280);
  const auto has = [](const Layout& l, std::string_view what) {
    return std::any_of(l.problems.begin(), l.problems.end(),
                       [&](const std::string& p) { return p.find(what) != std::string::npos; });
  };
  CHECK(has(bad, "overflow"));
  CHECK(has(bad, "wrapped line number"));
  CHECK(has(bad, "no element with the id of #nowhere"));
  CHECK(has(bad, "not an https link"));

  struct Case {
    std::string dir, lang;
  };
  for (const Case& c : {Case{"corpus/gpu-oom-then-sdk-disconnected-work-item-failed", "en"},
                        Case{"corpus/gpu-oom-then-sdk-disconnected-work-item-failed", "he"},
                        Case{"corpus/hostile-log-text", "en"}, Case{"corpus/multi-job-sink-shard-two-failures", "ja"},
                        Case{"corpus/unexplained-beside-rule-finding", "es-419"},
                        Case{"corpus/container-crash-loop-then-stall", "ko"}}) {
    INFO(c.dir << " --lang " << c.lang);
    const Analysis d = test::analyze_case(c.dir);
    RenderOptions o{.deterministic = true};
    o.lang = c.lang;
    const Layout l = measure_in_chromium(render_html(rank(d), o), dir);
    for (const auto& p : l.problems) UNSCOPED_INFO(p);
    CHECK(l.problems.empty());
    CHECK(l.inner_width == 1280);
    CHECK(l.numbers > 0);
    CHECK(l.links > 0);
    CHECK(l.explorer > 1);  // the job's link and one per evidence entry
  }
}
