// Tracebacks the Flex Template launcher logs one entry per line below ERROR (issue 15): the lines
// reassemble by (job, VM, log) and timestamp into one traceback, which is a candidate whatever its
// severity — in any input order and at any thread count — while INFO lines that only look like
// pieces of a traceback (a handled warning, a header alone, a worker's own INFO output) make nothing.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "gpudiag/report.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

// The traceback of python-docs-samples#4891's launch (its lower frames verbatim), as NDJSON lines
// of the launcher log at `severity`, 10 µs apart from 10:00:00.000100.
std::vector<std::string> launcher_traceback(const std::string& severity, const std::string& log = "launcher",
                                            const std::string& id_prefix = "tb") {
  const std::vector<std::string> lines = {
      "Traceback (most recent call last):",
      "  File \"/dataflow/template/main.py\", line 55, in run",
      "    pipeline.run()",
      "  File \"/usr/local/lib/python3.7/site-packages/apache_beam/utils/processes.py\", line 91, in check_output",
      "    out = subprocess.check_output(*args, **kwargs)",
      "  File \"/usr/local/lib/python3.7/subprocess.py\", line 512, in run",
      "    output=stdout, stderr=stderr)",
      "subprocess.CalledProcessError: Command '['/usr/local/bin/python', '-m', 'pip', 'download']' returned "
      "non-zero exit status 1.",
  };
  std::vector<std::string> out;
  for (size_t k = 0; k < lines.size(); ++k) {
    out.push_back(test::log_entry_line(fmt::format("2024-01-01T10:00:00.{:06}Z", 100 + 10 * k), log, lines[k], severity,
                                       "launcher-202401010000001", fmt::format("{}{}", id_prefix, k)));
  }
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l;
  return out;
}

std::vector<std::string> reversed(std::vector<std::string> lines) {
  std::reverse(lines.begin(), lines.end());
  return lines;
}

}  // namespace

TEST_CASE("a launcher traceback logged one line per entry at INFO is one group in any order", "[unit]") {
  const auto lines = launcher_traceback("INFO");
  const Analysis forward = test::analyze_text(joined(lines), "export.ndjson", 1);
  const Analysis backward = test::analyze_text(joined(reversed(lines)), "export.ndjson", 2);
  // Interleaved: every other line first (a sink shard's order), at two threads.
  std::vector<std::string> shuffled;
  for (size_t k = 1; k < lines.size(); k += 2) shuffled.push_back(lines[k]);
  for (size_t k = 0; k < lines.size(); k += 2) shuffled.push_back(lines[k]);
  const Analysis interleaved = test::analyze_text(joined(shuffled), "export.ndjson", 2);
  for (const Analysis* d : {&forward, &backward, &interleaved}) {
    REQUIRE(d->unexplained.size() == 1);
    const UnexplainedGroup& g = d->unexplained.front();
    CHECK(g.exception_type == "subprocess.CalledProcessError");
    CHECK(g.count == 1);
    REQUIRE(g.user_frame);
    CHECK(g.user_frame->file.find("main.py") != std::string::npos);
    CHECK(g.user_frame->line == 55);
    CHECK(g.fingerprint == forward.unexplained.front().fingerprint);
    // The exemplar is the whole traceback, from its first line's entry.
    const std::string text(g.exemplar.entry->message);
    CHECK(text.rfind("Traceback (most recent call last):\n", 0) == 0);
    CHECK(text.find("\nsubprocess.CalledProcessError: Command") != std::string::npos);
  }
}

TEST_CASE("a launcher traceback at DEFAULT severity is reassembled as at INFO", "[unit]") {
  const Analysis info = test::analyze_text(joined(launcher_traceback("INFO")), "export.ndjson");
  const Analysis fallback = test::analyze_text(joined(launcher_traceback("DEFAULT")), "export.ndjson");
  REQUIRE(fallback.unexplained.size() == 1);
  CHECK(fallback.unexplained.front().fingerprint == info.unexplained.front().fingerprint);
}

TEST_CASE("INFO lines that only look like a traceback make no group", "[unit]") {
  auto lines = launcher_traceback("INFO");
  std::vector<std::string> quiet;
  // A handled warning: the warning line and its indented source line.
  quiet.push_back(test::log_entry_line("2024-01-01T09:00:00.000100Z", "launcher",
                                       "/usr/local/lib/python3.7/site-packages/apache_beam/io/gcp/bigquery.py:1881: "
                                       "BeamDeprecationWarning: options is deprecated since First stable release. "
                                       "References to <pipeline>.options will not be supported",
                                       "INFO", "launcher-202401010000001", "w1"));
  quiet.push_back(test::log_entry_line("2024-01-01T09:00:00.000110Z", "launcher",
                                       "  temp_location = pcoll.pipeline.options.view_as(", "INFO",
                                       "launcher-202401010000001", "w2"));
  // A header with frames but no exception line (the rest never logged), a minute later.
  const auto cut = launcher_traceback("INFO", "launcher", "cut");
  for (size_t k = 0; k + 1 < cut.size(); ++k) {
    std::string line = cut[k];
    line.replace(line.find("T10:00"), 6, "T10:01");
    quiet.push_back(line);
  }
  // A line that mentions a traceback without being one.
  quiet.push_back(test::log_entry_line("2024-01-01T10:05:00Z", "launcher",
                                       "Traceback printing is off; set --save_main_session to see more", "INFO",
                                       "launcher-202401010000001", "m1"));
  // The whole traceback, but in a worker's own INFO log: not a launcher's split output.
  quiet.push_back(joined(launcher_traceback("INFO", "worker", "wk")));
  const Analysis d = test::analyze_text(joined(quiet), "export.ndjson", 2);
  CHECK(d.unexplained.empty());
  // The same whole traceback in the launcher log is one, beside them.
  quiet.push_back(joined(lines));
  const Analysis with_it = test::analyze_text(joined(quiet), "export.ndjson", 2);
  REQUIRE(with_it.unexplained.size() == 1);
  CHECK(with_it.unexplained.front().exception_type == "subprocess.CalledProcessError");
}

TEST_CASE("the launcher case's traceback is its job's cause at -j1 and -j2 and its healthy job has none", "[unit]") {
  const Analysis one = test::analyze_case("corpus/flex-template-launcher-traceback-info", 1);
  const Analysis two = test::analyze_case("corpus/flex-template-launcher-traceback-info", 2);
  REQUIRE(one.jobs.size() == 2);
  REQUIRE(two.jobs.size() == 2);
  for (size_t j = 0; j < one.jobs.size(); ++j) {
    REQUIRE(one.jobs[j].unexplained.size() == two.jobs[j].unexplained.size());
    for (size_t g = 0; g < one.jobs[j].unexplained.size(); ++g) {
      CHECK(one.jobs[j].unexplained[g].fingerprint == two.jobs[j].unexplained[g].fingerprint);
      CHECK(one.jobs[j].unexplained[g].count == two.jobs[j].unexplained[g].count);
    }
  }
  for (const Analysis& job : one.jobs) {
    if (job.job.name == "catalog-export-flex") {
      CHECK(job.unexplained.empty());  // its launcher's deprecation warning at INFO is no group
    } else {
      REQUIRE_FALSE(job.unexplained.empty());
      CHECK(job.unexplained.front().exception_type == "subprocess.CalledProcessError");
      CHECK(job.unexplained.front().severity == Impact::kError);
    }
  }
}
