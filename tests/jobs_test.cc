// Jobs are the unit (issue 14): each job of an export gets its own facts, findings, outcome and
// verdict; entries of no job join the export's only job; --max-jobs, --job-id and --job-name bound
// and select; a succeeded job's findings are risks; history records one run per job.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "gpudiag/analyzer.h"
#include "gpudiag/formats.h"
#include "gpudiag/report.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

constexpr const char* kOom =
    "RuntimeError: CUDA out of memory. Tried to allocate 602.00 MiB (GPU 0; 5.70 GiB total capacity; 2.97 GiB "
    "already allocated; 340.50 MiB free; 3.57 GiB reserved in total by PyTorch)";

// One LogEntry of job `job` ("" = no job labels at all), named "name-<job>".
std::string entry(const std::string& time, const std::string& log, const std::string& message, const std::string& job,
                  const std::string& severity = "INFO") {
  std::string line = test::log_entry_line(time, log, message, severity, log == "job-message" ? "" : "w-" + job);
  const std::string labels =
      R"(,"resource":{"type":"dataflow_step","labels":{"job_id":"2024-01-01_00_00_00-1","region":"us-central1"}})";
  const auto at = line.find(labels);
  REQUIRE(at != std::string::npos);
  line.replace(
      at, labels.size(),
      job.empty()
          ? ""
          : fmt::format(
                R"(,"resource":{{"type":"dataflow_step","labels":{{"job_id":"{}","job_name":"name-{}","region":"us-central1"}}}})",
                job, job));
  return line;
}

Analysis analyze_jobs(const std::string& text, AnalysisOptions options = {}) {
  const std::string path = test::temp_dir() + "/export.ndjson";
  test::write_file(path, text);
  options.threads = 1;
  auto d = analyze(test::builtin_pack(), {path}, options);
  REQUIRE(d.ok());
  return std::move(*d);
}

const Analysis& job(const Analysis& d, const std::string& id) {
  const auto it = std::find_if(d.jobs.begin(), d.jobs.end(), [&](const Analysis& j) { return j.job.id == id; });
  INFO("job " << id);
  REQUIRE(it != d.jobs.end());
  return *it;
}

bool fired(const Analysis& d, const std::string& rule) {
  return std::any_of(d.findings.begin(), d.findings.end(), [&](const Finding& f) { return f.rule_id == rule; });
}

// A failed GPU job (an OOM, then the job's failure) beside a healthy job with more entries.
std::string failed_beside_healthy() {
  std::string text = entry("2024-01-01T00:00:01Z", "worker", kOom, "j-gpu", "ERROR");
  text += entry("2024-01-01T00:00:02Z", "job-message", "Workflow failed. Causes: S01:Read+Process failed.", "j-gpu",
                "ERROR");
  for (int i = 0; i < 5; ++i) {
    text += entry(fmt::format("2024-01-01T00:00:{:02}Z", 10 + i), "worker", "Processing bundle", "j-cpu");
  }
  text += entry("2024-01-01T00:00:30Z", "job-message", "Worker pool stopped.", "j-cpu");
  return text;
}

}  // namespace

TEST_CASE("each job of an export has its own findings and outcome and verdict and the worst is at the top", "[unit]") {
  const Analysis d = analyze_jobs(failed_beside_healthy());
  REQUIRE(d.jobs.size() == 2);
  CHECK(d.jobs.front().job.id == "j-gpu");  // worst first, although the healthy job has more entries
  CHECK(d.job.id == "j-gpu");
  CHECK(fired(job(d, "j-gpu"), "gpu-out-of-memory"));
  CHECK(job(d, "j-gpu").job.outcome == JobOutcome::kFailed);
  CHECK(verdict_of(job(d, "j-gpu")) == Verdict::kFailed);
  CHECK(job(d, "j-cpu").findings.empty());
  CHECK(job(d, "j-cpu").job.outcome == JobOutcome::kSucceeded);
  CHECK(verdict_of(job(d, "j-cpu")) == Verdict::kOk);
  CHECK(job(d, "j-cpu").job.entries == 6);
  CHECK(job(d, "j-gpu").job.entries == 2);
  // The evidence names its job.
  CHECK(job(d, "j-gpu").findings.front().evidence.front().entry->job_id == "j-gpu");
}

TEST_CASE("entries of no job join the export's only job and stay apart beside several", "[unit]") {
  const std::string no_job_oom = entry("2024-01-01T00:00:05Z", "worker", kOom, "", "ERROR");
  SECTION("one job") {
    const Analysis d = analyze_jobs(entry("2024-01-01T00:00:01Z", "worker", "Processing bundle", "j-1") + no_job_oom);
    REQUIRE(d.jobs.size() == 1);
    CHECK(d.job.id == "j-1");
    CHECK(fired(d, "gpu-out-of-memory"));
    CHECK(d.job.entries == 2);
  }
  SECTION("two jobs") {
    const Analysis d = analyze_jobs(entry("2024-01-01T00:00:01Z", "worker", "Processing bundle", "j-1") +
                                    entry("2024-01-01T00:00:02Z", "worker", "Processing bundle", "j-2") + no_job_oom);
    REQUIRE(d.jobs.size() == 3);
    CHECK(fired(job(d, ""), "gpu-out-of-memory"));
    CHECK_FALSE(fired(job(d, "j-1"), "gpu-out-of-memory"));
    CHECK_FALSE(fired(job(d, "j-2"), "gpu-out-of-memory"));
  }
}

TEST_CASE("past the max-jobs cap jobs are counted and not diagnosed and never dropped silently", "[unit]") {
  // Five jobs of ~1.2 MB each, so that the record stream merges them in several batches.
  const std::string pad(900, 'x');
  const auto job_entries = [&](int j, int i) {
    return entry(fmt::format("2024-01-01T0{}:{:02}:{:02}Z", j, i / 60 % 60, i % 60), "worker",
                 i == 7 ? std::string(kOom) : "Processing bundle " + pad, fmt::format("j-{}", j),
                 i == 7 ? "ERROR" : "INFO");
  };
  constexpr int kJobs = 5, kEntries = 1200;
  AnalysisOptions options;
  options.max_jobs = 2;
  SECTION("grouped by job: each job is diagnosed as soon as the next ones begin") {
    std::string text;
    for (int j = 0; j < kJobs; ++j) {
      for (int i = 0; i < kEntries; ++i) text += job_entries(j, i);
    }
    const Analysis d = analyze_jobs(text, options);
    REQUIRE(d.jobs.size() == kJobs);
    for (const auto& job : d.jobs) {
      INFO(job.job.id);
      CHECK(fired(job, "gpu-out-of-memory"));
      CHECK(job.job.entries == kEntries);
    }
    CHECK(d.not_diagnosed.empty());
  }
  SECTION("interleaved: what comes after a job was diagnosed is counted") {
    std::string text;
    for (int i = 0; i < kEntries; ++i) {
      for (int j = 0; j < kJobs; ++j) text += job_entries(j, i);
    }
    const Analysis d = analyze_jobs(text, options);
    uint64_t diagnosed = 0, counted = 0;
    for (const auto& job : d.jobs) diagnosed += job.job.entries;
    for (const auto& c : d.not_diagnosed) counted += c.entries;
    CHECK(diagnosed + counted == uint64_t{kJobs} * kEntries);  // never dropped silently
    CHECK_FALSE(d.not_diagnosed.empty());
    std::string problems;
    for (const auto& p : d.inputs[0].problems) problems += p.message + "\n";
    CHECK_THAT(problems, Catch::Contains("the input is not grouped by job"));
  }
}

TEST_CASE("every job of a many-job export is diagnosed once with its own entries", "[unit]") {
  // Each entry its own job, more jobs in one batch than --max-jobs and more jobs than the old list of
  // finished ids held: no job may be finished before its entries are in, nor come back as a new one.
  constexpr int kJobs = 10'500;
  std::string text;
  for (int j = 0; j < kJobs; ++j) {
    text += entry(fmt::format("2024-01-01T00:{:02}:{:02}Z", j / 60 % 60, j % 60), "worker",
                  j % 7 == 0 ? std::string(kOom) : "Processing bundle", fmt::format("j-{:05}", j),
                  j % 7 == 0 ? "ERROR" : "INFO");
  }
  AnalysisOptions options;
  options.max_jobs = 2;
  const Analysis d = analyze_jobs(text, options);
  CHECK(d.not_diagnosed.empty());
  CHECK(d.not_diagnosed_unlisted == 0);
  std::vector<std::string> ids;
  for (const auto& job : d.jobs) {
    ids.push_back(job.job.id);
    CHECK(job.job.entries == 1);
  }
  std::sort(ids.begin(), ids.end());
  CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end());  // no job listed twice
  CHECK(d.jobs.size() + d.unlisted_jobs.jobs == kJobs);
  CHECK(d.unlisted_jobs.entries == d.unlisted_jobs.jobs);
}

TEST_CASE("past the list's cap the report keeps the worst jobs and counts the rest by verdict and cause", "[unit]") {
  // 1,200 jobs: every fifth fails with an OOM, the rest are healthy; kMaxListedJobs (1,000) are listed.
  constexpr int kJobs = 1'200;
  const auto job_entry = [](int j) {
    return entry(fmt::format("2024-01-01T00:{:02}:{:02}Z", j / 60 % 60, j % 60), "worker",
                 j % 5 == 0 ? std::string(kOom) : "Processing bundle", fmt::format("j-{:05}", j),
                 j % 5 == 0 ? "ERROR" : "INFO");
  };
  std::string forward, backward;
  for (int j = 0; j < kJobs; ++j) forward += job_entry(j);
  for (int j = kJobs - 1; j >= 0; --j) backward += job_entry(j);
  const Analysis d = analyze_jobs(forward);
  REQUIRE(d.jobs.size() == kMaxListedJobs);
  const UnlistedJobs& u = d.unlisted_jobs;
  CHECK(u.jobs == kJobs - kMaxListedJobs);
  CHECK(u.ok == u.jobs);  // the failed jobs are all listed: the least bad are the ones counted
  CHECK(u.failed == 0);
  CHECK(u.top_rules.empty());
  size_t failed = 0;
  for (const auto& job : d.jobs) failed += verdict_of(job) == Verdict::kFailed ? 1 : 0;
  CHECK(failed == kJobs / 5);
  CHECK(verdict_of(d.jobs.front()) == Verdict::kFailed);
  CHECK(d.job.other_ids.size() == kMaxListedJobs - 1);

  SECTION("the list does not depend on the order the jobs come in") {
    const Analysis b = analyze_jobs(backward);
    REQUIRE(b.jobs.size() == d.jobs.size());
    for (size_t i = 0; i < d.jobs.size(); ++i) CHECK(b.jobs[i].job.id == d.jobs[i].job.id);
    CHECK(b.unlisted_jobs.jobs == u.jobs);
  }
  SECTION("failed jobs past the list are counted by their top finding, and every format says so") {
    std::string all_failed;
    for (int j = 0; j < kJobs; ++j) {
      all_failed += entry(fmt::format("2024-01-01T00:{:02}:{:02}Z", j / 60 % 60, j % 60), "worker", kOom,
                          fmt::format("j-{:05}", j), "ERROR");
    }
    const Analysis f = analyze_jobs(all_failed);
    CHECK(f.unlisted_jobs.failed == kJobs - kMaxListedJobs);
    REQUIRE(f.unlisted_jobs.top_rules.count("gpu-out-of-memory") == 1);
    CHECK(f.unlisted_jobs.top_rules.at("gpu-out-of-memory") == kJobs - kMaxListedJobs);
    CHECK(f.unlisted_jobs.top_severity == Impact::kError);
    const RankedReport r = rank(f);
    RenderOptions o;
    const auto& rules = test::builtin_pack().rules();
    const std::string json = render(OutputFormat::kJson, r, rules, o);
    const auto unlisted = json.find(R"("jobs_unlisted": {)");
    REQUIRE(unlisted != std::string::npos);
    CHECK_THAT(json.substr(unlisted, 200), Catch::Contains(R"("jobs": 200,)") && Catch::Contains(R"("failed": 200,)"));
    for (auto format : {OutputFormat::kText, OutputFormat::kMarkdown, OutputFormat::kHtml, OutputFormat::kJunit,
                        OutputFormat::kGithub}) {
      INFO(static_cast<int>(format));
      CHECK_THAT(render(format, r, rules, o), Catch::Contains("200 more jobs not listed"));
    }
    const std::string sarif = render(OutputFormat::kSarif, r, rules, o);
    CHECK_THAT(sarif, Catch::Contains(R"("jobsUnlisted": 200)"));
    // A run per failed job lists the rules its results name, not the pack: with the pack in each of
    // the 1,000 runs this document was 717 MB.
    CHECK(sarif.size() < 32 * 1024 * 1024);
  }
}

TEST_CASE("job selection by id and by name glob diagnoses those jobs and lists the others", "[unit]") {
  AnalysisOptions by_id;
  by_id.select.ids = {"j-cpu"};
  const Analysis d = analyze_jobs(failed_beside_healthy(), by_id);
  REQUIRE(d.jobs.size() == 1);
  CHECK(d.job.id == "j-cpu");
  CHECK(d.findings.empty());
  REQUIRE(d.not_selected.size() == 1);
  CHECK(d.not_selected.front().id == "j-gpu");

  AnalysisOptions by_name;
  by_name.select.name_glob = "name-j-g*";
  const Analysis g = analyze_jobs(failed_beside_healthy(), by_name);
  REQUIRE(g.jobs.size() == 1);
  CHECK(g.job.id == "j-gpu");
}

TEST_CASE("a succeeded job's findings are risks at most at warning and a failed job no rule knows is failed",
          "[unit]") {
  SECTION("succeeded") {
    const Analysis d = analyze_jobs(entry("2024-01-01T00:00:01Z", "worker", kOom, "j-1", "ERROR") +
                                    entry("2024-01-01T00:00:09Z", "job-message", "Worker pool stopped.", "j-1"));
    CHECK(d.job.outcome == JobOutcome::kSucceeded);
    REQUIRE(fired(d, "gpu-out-of-memory"));
    const Finding& oom = d.findings.front();
    CHECK(oom.severity == Impact::kWarning);
    REQUIRE(oom.severity_before_outcome);
    CHECK(*oom.severity_before_outcome == Impact::kError);
    const RankedReport report = rank(d);
    CHECK(report.verdict == Verdict::kWarning);
    CHECK_THAT(report.verdict_line, Catch::StartsWith("WARNING — the job succeeded, but: GPU ran out of memory"));
    CHECK_FALSE(trips_gate(report, Impact::kError));
  }
  SECTION("succeeded, and the program logged the error as a warning it went on from") {
    const Analysis d = analyze_jobs(entry("2024-01-01T00:00:01Z", "worker", kOom, "j-1", "WARNING") +
                                    entry("2024-01-01T00:00:09Z", "job-message", "Worker pool stopped.", "j-1"));
    REQUIRE(fired(d, "gpu-out-of-memory"));
    const Finding& oom = d.findings.front();
    CHECK(oom.logged_as_handled);
    CHECK(oom.severity == Impact::kInfo);
    REQUIRE(oom.severity_before_outcome);
    CHECK(*oom.severity_before_outcome == Impact::kError);
    const RankedReport report = rank(d);
    CHECK(report.verdict == Verdict::kOk);
    CHECK_FALSE(trips_gate(report, Impact::kWarning));
  }
  SECTION("the same warning on stderr (docker) is a warning: stderr's level is not the program's") {
    const Analysis d = analyze_jobs(entry("2024-01-01T00:00:01Z", "docker", kOom, "j-1", "WARNING") +
                                    entry("2024-01-01T00:00:09Z", "job-message", "Worker pool stopped.", "j-1"));
    REQUIRE(fired(d, "gpu-out-of-memory"));
    CHECK_FALSE(d.findings.front().logged_as_handled);
    CHECK(d.findings.front().severity == Impact::kWarning);
  }
  SECTION("failed, no rule knows why") {
    const Analysis d = analyze_jobs(entry("2024-01-01T00:00:01Z", "job-message",
                                          "Workflow failed. Causes: The job graph is too large.", "j-1", "ERROR"));
    CHECK(d.job.outcome == JobOutcome::kFailed);
    const RankedReport report = rank(d);
    CHECK(report.verdict == Verdict::kFailed);
    CHECK_THAT(report.verdict_line, Catch::Contains("no rule in the pack explains it"));
  }
}

TEST_CASE("history records one run per job and --pipeline with several jobs in scope is a usage error", "[cli]") {
  const std::string dir = test::temp_dir();
  const std::string path = dir + "/export.ndjson", db = dir + "/runs.db";
  test::write_file(path, failed_beside_healthy());
  const auto refused = test::run_gpudiag({"analyze", path, "--db", db, "--pipeline", "nightly"});
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("--job-id"));
  const auto one = test::run_gpudiag({"analyze", path, "--db", db, "--pipeline", "nightly", "--job-id", "j-gpu"});
  CHECK(one.exit_code == 0);
  const auto each = test::run_gpudiag({"analyze", path, "--db", dir + "/each.db"});
  CHECK(each.exit_code == 0);
  const auto history = test::run_gpudiag({"history", "--db", dir + "/each.db"});
  CHECK_THAT(history.out, Catch::Contains("pipeline name-j-gpu") && Catch::Contains("pipeline name-j-cpu"));
  // The gate trips when any job in scope trips, and only on the jobs in scope.
  CHECK(test::run_gpudiag({"gate", path}).exit_code == 1);
  CHECK(test::run_gpudiag({"gate", path, "--job-id", "j-cpu"}).exit_code == 0);
}
