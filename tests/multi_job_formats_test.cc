// Several jobs in one export (issue 14), format by format: the HTML jobs table and a section per job
// whose verdict is not ok, a SARIF run per such job (automationDetails.id gpudiag/PIPELINE/JOB), a
// JUnit testsuite per such job plus one summary suite, and GitHub annotations naming their job.
// (The schema validation of every corpus case, these included, is format_validation_test.cc.)
#include <fmt/format.h>
#include <simdjson.h>

#include <catch2/catch.hpp>
#include <regex>
#include <set>

#include "gpudiag/formats.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

struct Case {
  std::string dir;
  size_t failed_jobs;  // from the case's description
};

}  // namespace

TEST_CASE("several jobs: every format names the failed jobs and keeps the healthy ones short",
          "[unit][reports][jobs]") {
  for (const Case& c :
       {Case{"corpus/multi-job-stockout-beside-healthy", 1}, Case{"corpus/multi-job-sink-shard-two-failures", 2}}) {
    INFO(c.dir);
    const Analysis d = test::analyze_case(c.dir);
    const RankedReport report = rank(d);
    REQUIRE(report.jobs.size() > 1);
    std::vector<const JobInfo*> failed, healthy;
    for (const auto& job : report.jobs) {
      (job.verdict == Verdict::kOk ? healthy : failed).push_back(&job.analysis->job);
    }
    REQUIRE(failed.size() == c.failed_jobs);
    REQUIRE(report.jobs.front().verdict == Verdict::kFailed);
    REQUIRE(!healthy.empty());
    const JobInfo& worst = report.jobs.front().analysis->job;
    const RenderOptions o{.deterministic = true};
    const auto& rules = test::builtin_pack().rules();

    SECTION("HTML") {
      const std::string html = render_html(report, o);
      CHECK_THAT(html,
                 Catch::Contains(fmt::format("<title>{} — gpudiag post-mortem</title>", html_escape(worst.name))));
      const size_t table = html.find(R"(<section id="jobs">)");
      REQUIRE(table != std::string::npos);
      const size_t first_row = html.find("<tbody><tr", table);
      REQUIRE(first_row != std::string::npos);
      const std::string row = html.substr(first_row, html.find("</tr>", first_row) - first_row);
      CHECK_THAT(row, Catch::Contains(html_escape(worst.id)) && Catch::Contains(html_escape(worst.name)) &&
                          Catch::Contains("failed"));
      CHECK(count(html.substr(table), "<tr class=\"job-") == report.jobs.size());
      // The worst job is the report's own sections; every other failed job has one of its own.
      CHECK(count(html, R"(<section class="job")") == failed.size() - 1);
      for (const JobInfo* j : failed) {
        if (j == &worst) continue;
        CHECK_THAT(html,
                   Catch::Contains(fmt::format("<h2>job {} ({})</h2>", html_escape(j->name), html_escape(j->id))));
      }
      for (const JobInfo* j : healthy) {
        CHECK(html.find(fmt::format("<h2>job {} (", html_escape(j->name))) == std::string::npos);
      }
      // Ids stay unique across the job sections.
      std::set<std::string> ids;
      const std::regex id_re(R"re( id="([^"]+)")re");
      for (auto it = std::sregex_iterator(html.begin(), html.end(), id_re); it != std::sregex_iterator(); ++it) {
        INFO((*it)[1].str());
        CHECK(ids.insert((*it)[1].str()).second);
      }
    }

    SECTION("SARIF") {
      const std::string sarif = render_sarif(report, rules, o);
      simdjson::dom::parser parser;
      simdjson::dom::element doc;
      REQUIRE(parser.parse(sarif).get(doc) == simdjson::SUCCESS);
      simdjson::dom::array runs = doc["runs"];
      CHECK(runs.size() == failed.size());
      std::set<std::string> automation;
      for (simdjson::dom::element run : runs) {
        automation.emplace(std::string_view(run["automationDetails"]["id"]));
        const std::string_view id = run["properties"]["job"]["id"];
        // Each run lists the rules its results name (not the whole pack), and each ruleIndex is one.
        simdjson::dom::array listed = run["tool"]["driver"]["rules"];
        CHECK(listed.size() < rules.size());
        for (simdjson::dom::element result : simdjson::dom::array(run["results"])) {
          CHECK_THAT(std::string(std::string_view(result["message"]["text"])), Catch::Contains(std::string(id)));
          const uint64_t index = result["ruleIndex"];
          REQUIRE(index < listed.size());
          CHECK(std::string_view(listed.at(index)["id"]) == std::string_view(result["ruleId"]));
        }
      }
      std::set<std::string> expected;
      for (const JobInfo* j : failed) expected.insert(fmt::format("gpudiag/{}/{}", j->name, j->id));
      CHECK(automation == expected);
      // The healthy jobs: one summary on the first run.
      CHECK(simdjson::dom::array(runs.at(0)["properties"]["otherJobs"]).size() == healthy.size());
    }

    SECTION("JUnit") {
      const std::string junit = render_junit(report, rules, o);
      CHECK_THAT(junit, Catch::Contains("<testsuites>"));
      CHECK(count(junit, "<testsuite ") == failed.size() + 1);  // + the healthy jobs' summary
      for (const JobInfo* j : failed) {
        CHECK_THAT(junit, Catch::Contains(fmt::format(
                              "name=\"{}\"", xml_escape(fmt::format("gpudiag job {} ({})", j->name, j->id), true))));
      }
      CHECK(count(junit, R"(<testcase name="input")") == 1);
      CHECK_THAT(junit, Catch::Contains(fmt::format(
                            "gpudiag: {} without findings",
                            healthy.size() == 1 ? "1 other job" : fmt::format("{} other jobs", healthy.size()))));
    }

    SECTION("GitHub") {
      const std::string gh = render_github(report, o);
      size_t annotations = 0;
      for (size_t at = gh.find("\n::"); at != std::string::npos; at = gh.find("\n::", at + 1)) {
        const std::string line = gh.substr(at + 1, gh.find('\n', at + 1) - at - 1);
        ++annotations;
        bool names_a_job = false;
        for (const JobInfo* j : failed)
          names_a_job |= line.find(fmt::format("::job {} ({}): ", j->name, j->id)) != std::string::npos;
        INFO(line);
        CHECK(names_a_job);
      }
      CHECK(annotations >= failed.size());
    }

    SECTION("Markdown") {
      const std::string md = render_markdown(report, o);
      CHECK(md.size() <= o.markdown_max_bytes);
      const size_t table = md.find("| Job | Name | Outcome |");
      REQUIRE(table != std::string::npos);
      CHECK(md.find("### Root causes") > table);
      for (const JobInfo* j : failed) CHECK_THAT(md, Catch::Contains(markdown_code_span(j->id)));
    }
  }
}
