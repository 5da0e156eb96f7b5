// Whole-job reasoning: facts from the logs, absence with a horizon, sequences, counts in windows,
// de-duplication, and results that do not depend on the thread count.
#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "facts/job_facts.h"
#include "gpudiag/report.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

// One NDJSON LogEntry line.
std::string entry(const std::string& time, const std::string& log, const std::string& message,
                  const std::string& severity = "INFO", const std::string& worker = "",
                  const std::string& insert_id = "") {
  return test::log_entry_line(time, log, message, severity, worker, insert_id);
}

const std::string kGpuOptions =
    "Python sdk harness started with pipeline_options: {'runner': 'DataflowRunner', 'streaming': False, "
    "'experiments': ['use_runner_v2'], 'dataflow_service_options': "
    "['worker_accelerator=type:nvidia-tesla-t4;count:1'], "
    "'machine_type': 'n1-standard-4', 'disk_size_gb': 30, 'subscription': "
    "<apache_beam.options.value_provider.StaticValueProvider object at 0x7fa38a661520>}";

bool fired(const Analysis& d, const std::string& id) {
  return std::any_of(d.findings.begin(), d.findings.end(), [&](const Finding& f) { return f.rule_id == id; });
}
bool inconclusive(const Analysis& d, const std::string& id) {
  return std::any_of(d.inconclusive.begin(), d.inconclusive.end(),
                     [&](const Inconclusive& i) { return i.rule_id == id; });
}
std::string fact(const Analysis& d, const std::string& name) {
  for (const auto& f : d.facts) {
    if (f.name == name) return f.value;
  }
  return "<unknown>";
}

}  // namespace

TEST_CASE("facts come from the options the SDK harness echoes", "[unit][engine]") {
  const Analysis d = test::analyze_text(entry("2024-01-01T00:05:00Z", "worker", kGpuOptions, "INFO", "w-harness-1"));
  CHECK(fact(d, "gpu_requested") == "true");
  CHECK(fact(d, "gpu_type") == "nvidia-tesla-t4");
  CHECK(fact(d, "gpu_count") == "1");
  CHECK(fact(d, "driver_install_requested") == "false");
  CHECK(fact(d, "flex_start") == "false");
  CHECK(fact(d, "runner_v2") == "true");
  CHECK(fact(d, "streaming") == "false");
  CHECK(fact(d, "disk_size_gb") == "30");
  CHECK(fact(d, "machine_type") == "n1-standard-4");
}

TEST_CASE("the pipeline-options parser keeps what parsed before a cropped end", "[unit][engine]") {
  auto options =
      detail::parse_python_dict("{'a': 'x', 'b': [1, 'two', (3, 4)], 'c': True, 'd': {'e': None}, 'f': 'cut of");
  CHECK(options["a"].text == "x");
  CHECK(options["b"].items == std::vector<std::string>{"1", "two", "(3, 4)"});
  CHECK(options["c"].text == "True");
  CHECK(options.count("f") == 0);
  CHECK(detail::parse_python_dict(std::string(10000, '[')).empty());
  CHECK(detail::parse_python_dict("{'deep': " + std::string(1000, '[')).empty());
}

TEST_CASE("absence: a GPU job without a driver line is a finding only past the horizon", "[unit][engine]") {
  const std::string head =
      entry("2024-01-01T00:00:00Z", "job-message", "Starting 1 workers in us-central1-a...") +
      entry("2024-01-01T00:01:00Z", "worker", kGpuOptions, "INFO", "w-harness-1") +
      entry("2024-01-01T00:02:00Z", "system", "ima: No architecture policies found", "INFO", "w-harness-1");
  SECTION("the export runs well past the horizon: finding") {
    const Analysis d = test::analyze_text(head + entry("2024-01-01T02:00:00Z", "job-message", "Worker pool stopped."));
    CHECK(fired(d, "gpu-driver-missing"));
  }
  SECTION("the export ends before the horizon: inconclusive, not a finding") {
    const Analysis d = test::analyze_text(head);
    CHECK_FALSE(fired(d, "gpu-driver-missing"));
    CHECK(inconclusive(d, "gpu-driver-missing"));
  }
  SECTION("a driver line is present: nothing") {
    const Analysis d = test::analyze_text(
        head +
        entry("2024-01-01T00:03:00Z", "system", "Installing GPU driver version 535.104.05", "INFO", "w-harness-1") +
        entry("2024-01-01T02:00:00Z", "job-message", "Worker pool stopped."));
    CHECK_FALSE(fired(d, "gpu-driver-missing"));
    CHECK_FALSE(inconclusive(d, "gpu-driver-missing"));
  }
}

TEST_CASE("the stall line means flex-start capacity only when flex-start is on", "[unit][engine]") {
  const std::string stall =
      entry("2024-01-01T01:00:00Z", "job-message",
            "Workflow failed. Causes: The Dataflow job appears to be stuck because no worker activity has been seen in "
            "the last 1h. Please check the worker logs in Stackdriver Logging.",
            "ERROR");
  const Analysis without = test::analyze_text(stall);
  CHECK(fired(without, "workers-stuck-no-activity"));
  CHECK_FALSE(fired(without, "flex-start-capacity-timeout"));

  const std::string flex =
      entry("2024-01-01T00:00:00Z", "worker",
            "Python sdk harness started with pipeline_options: {'dataflow_service_options': "
            "['worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver;provisioning_model:FLEX_START']}");
  const Analysis with = test::analyze_text(flex + stall);
  CHECK(fired(with, "flex-start-capacity-timeout"));
  CHECK_FALSE(fired(with, "workers-stuck-no-activity"));
}

TEST_CASE("a cause folds its symptoms under it and ranks first", "[unit][engine]") {
  const std::string text =
      entry("2024-01-01T00:10:00Z", "worker",
            "RuntimeError: CUDA out of memory. Tried to allocate 602.00 MiB (GPU 0; 5.70 GiB total capacity)", "ERROR",
            "w-harness-1") +
      entry("2024-01-01T00:11:00Z", "job-message",
            "Error message from worker: generic::aborted: SDK harness sdk-0-0 disconnected.", "ERROR");
  const Analysis d = test::analyze_text(text);
  const RankedReport r = rank(d);
  REQUIRE(r.findings.size() == 2);
  CHECK(r.findings[0].finding->rule_id == "gpu-out-of-memory");
  CHECK(r.findings[1].finding->rule_id == "sdk-harness-disconnected");
  REQUIRE(r.findings[1].caused_by);
  CHECK(*r.findings[1].caused_by == 0);
  CHECK(r.findings[0].symptoms == std::vector<size_t>{1});
}

TEST_CASE("a finding keeps its 8 earliest and 2 latest entries, in time order", "[unit][engine]") {
  // 30 out-of-memory entries, written out of time order (minute 29 - i*7 mod 30), one per line.
  std::string text;
  for (int i = 0; i < 30; ++i) {
    const int minute = (29 - i * 7 % 30 + 30) % 30;
    text += entry(fmt::format("2024-01-01T00:{:02}:00Z", minute), "worker",
                  fmt::format("RuntimeError: CUDA out of memory. Tried to allocate {}.00 MiB", minute), "ERROR",
                  "w-harness-1");
  }
  const Analysis d = test::analyze_text(text);
  const auto f = std::find_if(d.findings.begin(), d.findings.end(),
                              [](const Finding& f) { return f.rule_id == "gpu-out-of-memory"; });
  REQUIRE(f != d.findings.end());
  CHECK(f->count == 30);
  std::vector<std::string> kept;
  for (const auto& e : f->evidence) kept.emplace_back(e.entry->message.substr(52));
  CHECK(kept == std::vector<std::string>{"0.00 MiB", "1.00 MiB", "2.00 MiB", "3.00 MiB", "4.00 MiB", "5.00 MiB",
                                         "6.00 MiB", "7.00 MiB", "28.00 MiB", "29.00 MiB"});
}

TEST_CASE("duplicated entries are counted once and reported", "[unit][engine]") {
  const std::string one = entry("2024-01-01T00:10:00Z", "worker", "hello", "INFO", "w", "id-1");
  const std::string two = entry("2024-01-01T00:10:01Z", "worker", "hello", "INFO", "w", "id-2");
  const Analysis d = test::analyze_text(one + two + one + one);
  CHECK(d.entries == 4);
  CHECK(d.analysed == 2);
  CHECK(d.duplicates == 2);
}

TEST_CASE("the diagnosis does not depend on the thread count", "[unit][engine]") {
  std::string text;
  std::vector<std::string> lines;
  for (int i = 0; i < 29000; ++i) {
    const std::string t = fmt::format("2024-01-01T{:02}:{:02}:{:02}Z", i / 3600 % 24, i / 60 % 60, i % 60);
    lines.push_back(entry(t, "worker", fmt::format("processing element {} of the batch", i), "INFO",
                          fmt::format("w-harness-{}", i % 7), fmt::format("id-{}", i)));
    if (i % 997 == 0) {
      lines.push_back(entry(t, "worker", "RuntimeError: CUDA out of memory. Tried to allocate 16.00 MiB", "ERROR",
                            "w-harness-3", fmt::format("oom-{}", i)));
    }
  }
  for (int i = 0; i < 1000; ++i) lines.push_back(lines[static_cast<size_t>(i) * 29]);  // an overlapping export
  for (const auto& l : lines) text += l;
  const std::string path = test::temp_dir() + "/big.ndjson";
  test::write_file(path, text);
  RenderOptions render;
  render.deterministic = true;
  std::string first;
  for (unsigned threads : {1u, 2u, 3u}) {
    ReadLimits limits;
    limits.chunk_bytes = 1 << 16;  // many chunks, so threads really interleave
    auto d = analyze(test::builtin_pack(), {path}, AnalysisOptions{.threads = threads, .limits = limits});
    REQUIRE(d.ok());
    CHECK(d->duplicates == 1000);
    const std::string json = render_json(rank(*d), render);
    if (first.empty()) first = json;
    INFO("threads " << threads);
    CHECK(json == first);
  }
}

TEST_CASE("an unreadable input among several is an error while the rest is analysed", "[unit][engine]") {
  const std::string good = test::temp_dir() + "/good.json";
  test::write_file(good, entry("2024-01-01T00:10:00Z", "worker",
                               "RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB", "ERROR"));
  auto d = analyze(test::builtin_pack(), {"/nonexistent/a.json", good}, {});
  REQUIRE(d.ok());
  REQUIRE(d->input_errors.size() == 1);
  CHECK(d->input_errors[0].file == "/nonexistent/a.json");
  CHECK(fired(*d, "gpu-out-of-memory"));
}

TEST_CASE("evidence context reaches into the neighbouring chunks", "[unit][engine]") {
  // Entries of one length, and chunks of exactly three of them: entry 3 opens the second chunk,
  // entry 8 closes the third. Their neighbours two either side come from the chunks beside them.
  const auto line = [](int i, bool oom) {
    std::string message = oom ? fmt::format("RuntimeError: CUDA out of memory. Tried to allocate {}.00 MiB", i)
                              : fmt::format("processing element {} of the batch", i);
    message.resize(80, '.');
    return entry("2024-01-01T00:10:00Z", "worker", message, oom ? "ERROR" : "DEBUG", "w-harness-1",
                 fmt::format("id-{:02}", i));
  };
  std::string text;
  for (int i = 0; i < 12; ++i) text += line(i, i == 3 || i == 8);
  const size_t entry_bytes = line(0, false).size();
  REQUIRE(text.size() == 12 * entry_bytes);
  const std::string path = test::temp_dir() + "/edges.ndjson";
  test::write_file(path, text);
  for (unsigned threads : {1u, 2u}) {
    ReadLimits limits;
    limits.chunk_bytes = static_cast<uint32_t>(3 * entry_bytes);
    auto d = analyze(test::builtin_pack(), {path}, AnalysisOptions{.threads = threads, .limits = limits});
    REQUIRE(d.ok());
    const auto f = std::find_if(d->findings.begin(), d->findings.end(),
                                [](const Finding& f) { return f.rule_id == "gpu-out-of-memory"; });
    REQUIRE(f != d->findings.end());
    REQUIRE(f->evidence.size() == 2);
    const auto lines_of = [](const std::vector<KeptRecord>& records) {
      std::vector<uint64_t> out;
      for (const auto& r : records) out.push_back(r->where.line);
      return out;
    };
    INFO("threads " << threads);
    std::vector<uint64_t> evidence_lines{f->evidence[0].entry->where.line, f->evidence[1].entry->where.line};
    std::sort(evidence_lines.begin(), evidence_lines.end());
    REQUIRE(evidence_lines == std::vector<uint64_t>{4, 9});
    for (const auto& e : f->evidence) {
      const uint64_t at = e.entry->where.line;
      CHECK(lines_of(e.before) == std::vector<uint64_t>{at - 2, at - 1});
      CHECK(lines_of(e.after) == std::vector<uint64_t>{at + 1, at + 2});
      REQUIRE(e.before.size() == 2);
      CHECK(e.before[1]->message.starts_with(fmt::format("processing element {} ", at - 2)));
      REQUIRE(e.after.size() == 2);
      CHECK(e.after[0]->message.starts_with(fmt::format("processing element {} ", at)));
      CHECK(e.after[0]->where.offset == at * entry_bytes);
    }
  }
}
