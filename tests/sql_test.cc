// gpudiag sql: the pack's selection compiled into GoogleSQL. Goldens pin the text of each source
// (GPUDIAG_UPDATE_GOLDENS=1 rewrites them: tools/update-goldens); the rest checks what users see.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <set>
#include <utility>
#include <vector>

#include "gpudiag/ingest.h"
#include "gpudiag/log_record.h"
#include "gpudiag/pack_selection.h"
#include "gpudiag/sql_query.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

const char* kUserRule = R"(id: user-sql-rule
title: A user's rule
family: runtime
severity: warning
confidence: 0.5
description: A rule written by a test.
match:
  message: 'flux capacitor (?:over|under)loaded'
fixes:
  - id: nothing
    action: Nothing
    why: A test.
    doc: {title: T, section: S, url: 'https://cloud.google.com/dataflow/docs'}
examples:
  match: ['flux capacitor overloaded']
  no_match: ['flux capacitor fine']
sources: ['tests']
)";

void check_golden(const std::string& name, const std::string& text) {
  const std::string path = test::source_dir() + "/tests/fixtures/sql/" + name;
  if (std::getenv("GPUDIAG_UPDATE_GOLDENS") != nullptr) test::write_file(path, text);
  CHECK(test::read_file(path) == text);
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("gpudiag sql: the GoogleSQL text of each source is its golden", "[cli]") {
  const struct {
    std::vector<std::string> args;
    std::string golden;
  } cases[] = {
      {{"sql", "--source", "analytics:my-proj.my_logs", "--since", "24h"}, "analytics.sql"},
      {{"sql", "--source", "sink:my-proj.dataflow_logs", "--since", "2024-05-01", "--until", "2024-05-08",
        "--sink-layout", "sharded", "--job-name", "traffic-cam-*"},
       "sink-sharded.sql"},
      {{"sql", "--source", "sink:my-proj.dataflow_logs", "--job-id", "2022-11-28_14_05_40-8583720370029902118",
        "--max-rows-per-job", "500"},
       "sink-partitioned.sql"},
  };
  for (const auto& c : cases) {
    INFO(c.golden);
    const auto r = test::run_gpudiag(c.args);
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());
    check_golden(c.golden, r.out);
  }
}

TEST_CASE("gpudiag sql: every pattern of the pack is in the query, only as REGEXP_CONTAINS", "[cli]") {
  const auto r = test::run_gpudiag({"sql", "--source", "analytics:p.d"});
  REQUIRE(r.exit_code == 0);
  CHECK(count(r.out, "REGEXP_EXTRACT") == 0);
  CHECK(r.out.find("WHERE timestamp") == std::string::npos);  // no --since: no time filter
  const PackSelection s = pack_selection(test::builtin_pack());
  CHECK(s.conditions.size() > 50);
  std::vector<std::pair<std::string, std::string>> patterns;  // every regex of every filter, and its source
  std::function<void(const SelectionFilter&, const std::string&)> walk = [&](const SelectionFilter& f,
                                                                             const std::string& source) {
    if (f.kind == SelectionFilter::Kind::kRegex) patterns.emplace_back(f.regex, source);
    for (const auto& child : f.children) walk(child, source);
  };
  for (const auto& c : s.conditions) walk(c.filter, c.source);
  CHECK(patterns.size() > 100);
  for (const auto& [pattern, source] : patterns) {
    INFO(source);
    // As a GoogleSQL literal: an escaped backslash written \x5c (docs/sql.md), then \ and ' escaped.
    std::string regex;
    for (size_t i = 0; i < pattern.size(); ++i) {
      if (pattern[i] == '\\' && i + 1 < pattern.size()) {
        regex += pattern[i + 1] == '\\' ? std::string("\\x5c") : pattern.substr(i, 2);
        ++i;
      } else {
        regex += pattern[i];
      }
    }
    std::string escaped;
    for (char ch : regex)
      escaped += ch == '\\' ? std::string("\\\\") : ch == '\'' ? std::string("\\'") : std::string(1, ch);
    CHECK(r.out.find("'" + escaped + "'") != std::string::npos);
  }
}

TEST_CASE("gpudiag sql: a user rule in --rules DIR is selected", "[cli]") {
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/user.yaml", kUserRule);
  const auto without = test::run_gpudiag({"sql", "--source", "analytics:p.d"});
  const auto with = test::run_gpudiag({"sql", "--source", "analytics:p.d", "--rules", dir});
  REQUIRE(with.exit_code == 0);
  CHECK(without.out.find("flux capacitor") == std::string::npos);
  CHECK(with.out.find("REGEXP_CONTAINS(gd_message, 'flux capacitor (?:over|under)loaded')") != std::string::npos);
}

TEST_CASE("gpudiag sql: --since puts a partition filter on timestamp in every table", "[cli]") {
  const auto r = test::run_gpudiag({"sql", "--source", "sink:p.d", "--since", "7d"});
  REQUIRE(r.exit_code == 0);
  const size_t tables = count(r.out, "  FROM `p.d.");
  CHECK(tables == 11);
  CHECK(count(r.out, "timestamp >= CURRENT_TIMESTAMP() - INTERVAL 7 DAY") == tables);
  CHECK(r.out.find("FROM `p.d.dataflow_googleapis_com_job_message`") != std::string::npos);
}

TEST_CASE("gpudiag sql: a bad --source, --since or --schema is an error with exit code 2", "[cli]") {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"sql", "--source", "bigquery:p.d"},
                                               {"sql", "--source", "analytics:p"},
                                               {"sql", "--source", "sink:p.d.t"},
                                               {"sql", "--source", "analytics:p.d`; DROP"},
                                               {"sql", "--source", "analytics:p.d", "--since", "yesterday"},
                                               {"sql", "--source", "analytics:p.d", "--sink-layout", "flat"}}) {
    INFO(fmt::format("{}", fmt::join(args, " ")));
    const auto r = test::run_gpudiag(args);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK_FALSE(r.err.empty());
  }
  const auto r = test::run_gpudiag({"sql", "--source", "bigquery:p.d"});
  CHECK(r.err.find("neither analytics nor sink") != std::string::npos);
}

TEST_CASE("gpudiag sql --check: the built-in pack is fine, and a schema without a column the query reads is an error",
          "[cli]") {
  const auto fine = test::run_gpudiag({"sql", "--source", "analytics:p.d", "--check"});
  CHECK(fine.exit_code == 0);
  CHECK(fine.out.find(" 0 errors") != std::string::npos);
  const std::string dir = test::temp_dir();
  // A sink table of the job messages without jsonPayload (the log carries textPayload only).
  test::write_file(
      dir + "/dataflow_googleapis_com_job_message.json",
      R"([{"name":"logName","type":"STRING","mode":"NULLABLE"},{"name":"resource","type":"RECORD","mode":"NULLABLE","fields":[{"name":"type","type":"STRING"},{"name":"labels","type":"RECORD","fields":[{"name":"job_id","type":"STRING"},{"name":"job_name","type":"STRING"},{"name":"project_id","type":"STRING"},{"name":"region","type":"STRING"},{"name":"step_id","type":"STRING"}]}]},{"name":"textPayload","type":"STRING"},{"name":"timestamp","type":"TIMESTAMP"},{"name":"severity","type":"STRING"},{"name":"insertId","type":"STRING"},{"name":"labels","type":"RECORD","fields":[{"name":"dataflow_googleapis_com_job_id","type":"STRING"},{"name":"dataflow_googleapis_com_job_name","type":"STRING"},{"name":"dataflow_googleapis_com_region","type":"STRING"},{"name":"compute_googleapis_com_resource_name","type":"STRING"}]}])");
  const std::string schema = dir + "/dataflow_googleapis_com_job_message.json";
  const auto check = test::run_gpudiag({"sql", "--source", "sink:p.d", "--schema", schema, "--check"});
  CHECK(check.exit_code == 2);
  CHECK(check.out.find("table p.d.dataflow_googleapis_com_job_message has no column jsonPayload.message, which the "
                       "query reads") != std::string::npos);
  CHECK(check.out.find("no --schema for p.d.dataflow_googleapis_com_worker: the query does not read that table") !=
        std::string::npos);
  // Without --check the query reads the missing columns as NULL in that table alone.
  const auto sql = test::run_gpudiag({"sql", "--source", "sink:p.d", "--schema", schema});
  REQUIRE(sql.exit_code == 0);
  CHECK(sql.out.find("CAST(NULL AS STRING) AS message") != std::string::npos);
  // Given schemas, only the tables they describe are read (a sink creates a log's table late).
  CHECK(sql.out.find("FROM `p.d.dataflow_googleapis_com_job_message`") != std::string::npos);
  CHECK(sql.out.find("dataflow_googleapis_com_worker`") == std::string::npos);
  const std::string broken = dir + "/broken.json";
  test::write_file(broken, "{not json");
  CHECK(test::run_gpudiag({"sql", "--source", "sink:p.d", "--schema", broken}).exit_code == 2);
}

TEST_CASE("gpudiag sql --explain: tables, columns, partitions and bytes a day", "[cli]") {
  const auto r = test::run_gpudiag(
      {"sql", "--source", "analytics:p.d", "--since", "24h", "--explain", "--daily-entries", "2000000"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("tables read (1):\n  p.d._AllLogs\n") != std::string::npos);
  CHECK(r.out.find("columns read (") != std::string::npos);
  CHECK(r.out.find("partitions read: timestamp from --since 24h") != std::string::npos);
  CHECK(r.out.find(fmt::format("2000000 entries a day × {:.0f} bytes", kAverageEntryBytes)) != std::string::npos);
  CHECK(r.out.find(fmt::format("= {:.2f} GB scanned per day", 2e6 * kAverageEntryBytes / 1e9)) != std::string::npos);
  const auto all = test::run_gpudiag({"sql", "--source", "sink:p.d", "--explain"});
  CHECK(all.out.find("partitions read: all") != std::string::npos);
}

TEST_CASE("pack_selection: the candidate screen is error_candidates.cc's", "[unit]") {
  const PackSelection s = pack_selection(test::builtin_pack());
  CHECK(s.candidates.min_severity == Severity::kError);
  CHECK(s.candidates.benign_errors == test::builtin_pack().policy().benign_errors);
  CHECK(s.candidates.traceback_markers ==
        std::vector<std::string>{"Traceback (most recent call last)", "\nCaused by: "});
  CHECK(s.candidates.fragment_logs == std::vector<std::string>{"launcher", "job-message"});
  CHECK(s.whole_logs == std::vector<std::string>{"job-message"});
  // Every condition names where it comes from; a fact extractor's too.
  bool extractor = false;
  for (const auto& c : s.conditions) {
    CHECK_FALSE(c.source.empty());
    extractor = extractor || c.source.rfind("fact extractor ", 0) == 0;
  }
  CHECK(extractor);
}

TEST_CASE("pack_selection: an absence's start and markers are read once per job, a fact's first sighting and its count",
          "[unit]") {
  const PackSelection s = pack_selection(test::builtin_pack());
  size_t starts = 0, facts = 0;
  for (const auto& c : s.conditions) {
    INFO(c.source);
    if (c.source.find(" absent") != std::string::npos && c.exact) {
      CHECK(c.per_job == 1);
      ++starts;
    }
    if (c.source.find(" match") != std::string::npos && c.source.rfind("rule ", 0) == 0) CHECK(c.per_job == 0);
    if (c.source.rfind("fact extractor ", 0) == 0 && c.per_job > 0) {
      // One entry where every entry sets the same facts; five of a decoder's (a dict names what it
      // holds) and of one whose groups may not take part (environment-versions' `(?:python(?P<…>…))?`).
      const bool varies = c.source.find("pipeline-options") != std::string::npos ||
                          c.source.find("environment-versions") != std::string::npos;
      CHECK(c.per_job == (varies ? 5 : 1));
      // The summary row counts the rest under the extractor's id: "fact extractor ID match".
      CHECK(c.source == "fact extractor " + c.counted + " match");
      ++facts;
    }
    if (c.source.rfind("fact extractor ", 0) != 0) CHECK(c.counted.empty());
    if (!c.exact) CHECK(c.per_job == 0);
  }
  CHECK(starts > 0);
  CHECK(facts > 0);
}

TEST_CASE("LocalSelection reads the selection as the query does", "[unit]") {
  const PackSelection s = pack_selection(test::builtin_pack());
  const LocalSelection local(s);
  LogRecord r;
  r.log = "launcher";  // the worker logs' first entry of a job starts an absence: picked once
  r.severity = Severity::kInfo;
  r.job_id = "j1";
  r.message = "an ordinary line";
  CHECK(local.reason(r) == LocalSelection::kNotPicked);
  r.message = "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB";
  CHECK(local.reason(r) >= 0);
  r.message = "a line";
  r.log = "job-message";
  CHECK(local.reason(r) == LocalSelection::kWholeLog);
  r.log = "launcher";
  r.severity = Severity::kError;
  r.message = "ValueError: something no rule knows";
  CHECK(local.reason(r) == LocalSelection::kCandidate);
  // An ERROR line whose glog prefix says INFO is not a candidate (rules/line-formats.yaml).
  r.message = "I0512 10:01:02.345678  1234 main.cc:12] nothing wrong";
  CHECK(local.reason(r) == LocalSelection::kNotPicked);
  // The first worker entry of a job is an absence's start; the next one is not picked for it.
  const LocalSelection fresh(s);
  r.log = "worker";
  r.severity = Severity::kInfo;
  r.message = "an ordinary line";
  CHECK(fresh.reason(r) >= 0);
  CHECK(fresh.reason(r) == LocalSelection::kNotPicked);
  r.job_id = "j2";
  CHECK(fresh.reason(r) >= 0);
}

// The parity test runs the query itself (in DuckDB); this one checks the selection's own reading on
// every case: nothing the full diagnosis shows would be filtered out in BigQuery.
TEST_CASE("LocalSelection picks every entry each corpus case's diagnosis shows as evidence or as an exemplar",
          "[unit]") {
  const PackSelection s = pack_selection(test::builtin_pack());
  size_t index = 0;
  for (const std::string& dir : test::corpus_cases()) {
    // Under the sanitizers every fourth case (the reading is the same code for each; the Release
    // build checks them all): all of them took 11.9 s in Release (2026-12-07), several times that
    // under the sanitizers.
    if (test::kSanitized && index++ % 4 != 0) continue;
    INFO(dir);
    const Analysis a = test::analyze_case(dir);
    std::set<std::pair<uint32_t, uint64_t>> shown;  // input, offset
    std::function<void(const Analysis&)> collect = [&](const Analysis& x) {
      for (const auto& f : x.findings) {
        for (const auto& e : f.evidence) shown.emplace(e.entry.record().where.input, e.entry.record().where.offset);
      }
      for (const auto& g : x.unexplained) {
        shown.emplace(g.exemplar.entry.record().where.input, g.exemplar.entry.record().where.offset);
      }
      for (const auto& j : x.jobs) collect(j);
    };
    collect(a);
    std::vector<std::string> inputs;
    for (const auto& entry : std::filesystem::directory_iterator(test::source_dir() + "/" + dir)) {
      if (entry.path().filename().string().rfind("export", 0) == 0) inputs.push_back(entry.path().string());
    }
    std::sort(inputs.begin(), inputs.end());
    // LocalSelection reads records in time order, as the query ranks them: a gcloud export is
    // newest first, and of a condition limited to a job's first entry it must see the earliest.
    std::vector<std::pair<uint32_t, KeptRecord>> records;
    for (uint32_t i = 0; i < inputs.size(); ++i) {
      auto read = read_export(inputs[i], [&](const LogRecord& r) { records.emplace_back(i, KeptRecord(r)); });
      REQUIRE(read.ok());
    }
    std::stable_sort(records.begin(), records.end(),
                     [](const auto& a, const auto& b) { return a.second->timestamp < b.second->timestamp; });
    const LocalSelection local(s);
    std::set<std::pair<uint32_t, uint64_t>> picked;
    for (const auto& [input, kept] : records) {
      if (local.picks(kept.record())) picked.emplace(input, kept->where.offset);
    }
    for (const auto& [input, offset] : shown) {
      INFO("input " << input << " byte " << offset);
      CHECK(picked.count({input, offset}) == 1);
    }
  }
}

TEST_CASE("gpudiag sql --job-name reads the glob as analyze's --job-name does (fnmatch)", "[cli]") {
  const auto r = test::run_gpudiag({"sql", "--source", "analytics:p.d", "--job-name", "cam-[0-9]?-*.x"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("REGEXP_CONTAINS(gd_job_name, '(?s)^cam\\\\-[0-9].\\\\-.*\\\\.x$')") != std::string::npos);
}
