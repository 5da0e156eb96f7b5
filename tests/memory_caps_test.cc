// Memory bounded in every dimension (issue 11, finding 5): what is kept of huge inputs is a crop or
// a counted summary, each with a note. Caps are set small here so the tests stay quick.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

#include "gpudiag/formats.h"
#include "gpudiag/report.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

const std::string kOomLine = "RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB";

// A worker entry whose message is `message` (plain text: no character needs escaping).
std::string worker_entry(int second, const std::string& message, const std::string& worker = "w-1") {
  return fmt::format(
      R"({{"timestamp":"2024-01-01T00:00:{:02}Z","severity":"ERROR","logName":"projects/p/logs/dataflow.googleapis.com%2Fworker","labels":{{"compute.googleapis.com/resource_name":"{}"}},"jsonPayload":{{"message":"{}"}}}})",
      second, worker, message);
}

Analysis analyze_with(const std::string& text, const ReadLimits& limits, const std::string& name = "export.json") {
  const std::string path = test::temp_dir() + "/" + name;
  test::write_file(path, text);
  auto d = analyze(test::builtin_pack(), {path}, AnalysisOptions{.threads = 1, .limits = limits});
  REQUIRE(d.ok());
  return std::move(*d);
}

// The OOM line once from each of `workers` distinct workers (w-00000, w-00001 …).
std::string oom_from_workers(int workers) {
  std::string text;
  for (int i = 0; i < workers; ++i) text += worker_entry(i % 60, kOomLine, fmt::format("w-{:05}", i)) + "\n";
  return text;
}

const Finding* find(const Analysis& d, const std::string& rule_id) {
  for (const auto& f : d.findings) {
    if (f.rule_id == rule_id) return &f;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("evidence keeps a crop of a huge matching entry, never the whole entry", "[badinput]") {
  // Four matching entries of 1 MiB each: evidence keeps the head and the tail of each.
  const std::string filler(1u << 20, 'x');
  std::string text;
  for (int i = 0; i < 4; ++i) text += worker_entry(i, kOomLine + " " + filler) + "\n";
  const Analysis d = analyze_with(text, ReadLimits{});
  const Finding* oom = find(d, "gpu-out-of-memory");
  REQUIRE(oom != nullptr);
  CHECK(oom->count == 4);
  REQUIRE(oom->evidence.size() == 4);
  for (const auto& e : oom->evidence) {
    const std::string_view message = e.entry->message;
    CHECK(message.size() < (40u << 10));
    CHECK(message.substr(0, kOomLine.size()) == kOomLine);
    CHECK_THAT(std::string(message), Catch::Contains("bytes cropped"));
    CHECK(e.entry.cropped_bytes() > 0);
    CHECK(e.matched_line.size() <= 2000);
  }
}

TEST_CASE("an entry over --max-entry-bytes is matched over its whole length and kept cropped", "[badinput]") {
  // A 1 MiB message with the signature in its middle, against a 64 KiB limit: the signature is
  // found, its capture read, and what is kept is a crop, listed in the input's problems.
  const std::string filler(512u << 10, 'x');
  const std::string message = filler + "\\n" + kOomLine + "\\n" + filler;
  for (const bool pretty : {false, true}) {
    std::string text = "[\n" + worker_entry(0, "starting") + ",\n" + worker_entry(1, message) + ",\n" +
                       worker_entry(2, "after") + "\n]\n";
    if (pretty) {  // one field a line, as gcloud writes
      std::string spaced;
      for (char c : text) {
        spaced += c;
        if (c == ',' && spaced.size() > 2 && spaced[spaced.size() - 2] == '"') spaced += "\n    ";
      }
      text = spaced;
    }
    ReadLimits limits;
    limits.max_entry_bytes = 64u << 10;
    limits.chunk_bytes = 16u << 10;
    const Analysis d = analyze_with(text, limits);
    CHECK(d.entries == 3);
    CHECK(d.analysed == 3);
    CHECK(d.skipped == 0);
    const Finding* oom = find(d, "gpu-out-of-memory");
    REQUIRE(oom != nullptr);
    CHECK(oom->count == 1);
    CHECK(oom->captures.at("requested") == std::vector<std::string>{"1.00 GiB"});
    REQUIRE(oom->evidence.size() == 1);
    const Evidence& e = oom->evidence[0];
    CHECK(e.matched_line == kOomLine);
    CHECK(e.entry->message.size() < (16u << 10));
    CHECK(e.entry->worker == "w-1");
    CHECK(e.entry->severity == Severity::kError);
    REQUIRE(d.inputs.size() == 1);
    std::string problems;
    for (const auto& p : d.inputs[0].problems) problems += fmt::format("{}@{}: {}\n", p.line, p.offset, p.message);
    CHECK_THAT(problems, Catch::Contains("was matched over its whole length and kept cropped: "
                                         "jsonPayload.message (1048638 bytes)"));
    const size_t at = text.find(",\n", text.find("starting")) + 2;  // where the big entry starts
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<ptrdiff_t>(at), '\n');
    CHECK_THAT(problems, Catch::StartsWith(fmt::format("{}@{}:", line, at)));
  }
}

TEST_CASE("a quiet shape anywhere in an entry over --max-entry-bytes makes it quiet", "[badinput]") {
  // An argparse --help text (the policy's help-text shape) that names the OOM error in an option's
  // help, 1 MiB long against a 64 KiB limit, the help line in the middle that the kept crop leaves
  // out: the shape is matched over the whole text, as the rules' patterns are, so the entry is
  // never the OOM rule's evidence. The same text without the help line is.
  const std::string filler(512u << 10, 'x');
  const std::string help = "  -h, --help            show this help message and exit";
  ReadLimits limits;
  limits.max_entry_bytes = 64u << 10;
  limits.chunk_bytes = 16u << 10;
  for (const bool with_help : {true, false}) {
    INFO(with_help);
    const std::string message = kOomLine + "\\n" + filler + "\\n" + (with_help ? help : "  --x  x") + "\\n" + filler;
    const Analysis d = analyze_with(worker_entry(0, message) + "\n", limits, "help.ndjson");
    CHECK((find(d, "gpu-out-of-memory") == nullptr) == with_help);
  }
}

TEST_CASE("workers past the cap are counted, not named, and reports list a bounded number", "[badinput]") {
  // 10,050 distinct workers with the same error: the finding names 100, counts all of them.
  const Analysis d = analyze_with(oom_from_workers(10'050), ReadLimits{});
  const Finding* oom = find(d, "gpu-out-of-memory");
  REQUIRE(oom != nullptr);
  CHECK(oom->count == 10'050);
  CHECK(oom->workers_total == 10'050);
  CHECK(oom->workers.size() == kMaxListedWorkers);
  CHECK(oom->workers.front() == "w-00000");
  std::string problems;
  for (const auto& p : d.inputs[0].problems) problems += p.message + "\n";
  CHECK_THAT(problems, Catch::Contains("10050 distinct workers: the first 10000 are named, the other 50 counted only"));
  bool seen_fact = false;
  for (const auto& f : d.facts) {
    if (f.name == "workers_seen") {
      CHECK(f.value == "10050");
      seen_fact = true;
    }
  }
  CHECK(seen_fact);

  const RankedReport report = rank(d);
  RenderOptions options;
  options.deterministic = true;
  const std::string junit = render(OutputFormat::kJunit, report, test::builtin_pack().rules(), options);
  CHECK_THAT(junit, Catch::Contains("w-00019 … of 10050"));
  CHECK_THAT(junit, !Catch::Contains("w-00020"));
  const std::string sarif = render(OutputFormat::kSarif, report, test::builtin_pack().rules(), options);
  CHECK_THAT(sarif, Catch::Contains("\"workersTotal\": 10050"));
  CHECK_THAT(sarif, !Catch::Contains("w-00020"));
  const std::string json = render(OutputFormat::kJson, report, test::builtin_pack().rules(), options);
  CHECK_THAT(json, Catch::Contains("\"workers_total\": 10050"));
}

TEST_CASE("a finding counts its workers exactly past the hits it keeps references to", "[badinput]") {
  // 25,000 matching entries from 25,000 workers: more than SignalHits::kMaxRefs (20,000).
  const Analysis d = analyze_with(oom_from_workers(25'000), ReadLimits{});
  const Finding* oom = find(d, "gpu-out-of-memory");
  REQUIRE(oom != nullptr);
  CHECK(oom->count == 25'000);
  CHECK(oom->workers_total == 25'000);
}

TEST_CASE("hit references of every job held at once share one budget, and past it hits are counted", "[badinput]") {
  // 8 jobs, interleaved, of 18,000 OOM lines each: under kMaxRefs per job, 144,000 references in
  // all, more than RefBudget::kBytes holds (131,072).
  constexpr int kJobs = 8, kHitsPerJob = 18'000;
  std::string text;
  for (int i = 0; i < kJobs * kHitsPerJob; ++i) {
    text += fmt::format(
        R"({{"timestamp":"2024-01-01T00:{:02}:{:02}Z","severity":"ERROR","resource":{{"labels":{{"job_id":"j-{}"}}}},"labels":{{"compute.googleapis.com/resource_name":"w-{}"}},"jsonPayload":{{"message":"{}"}}}})"
        "\n",
        (i / 60) % 60, i % 60, i % kJobs, i % 3, kOomLine);
  }
  const Analysis d = analyze_with(text, ReadLimits{});
  REQUIRE(d.jobs.size() == kJobs);
  for (const auto& job : d.jobs) {
    const Finding* oom = find(job, "gpu-out-of-memory");
    REQUIRE(oom != nullptr);
    CHECK(oom->count == kHitsPerJob);  // counts stay exact past the budget …
    CHECK(oom->workers_total == 3);    // … and so do the workers
  }
  std::string problems;
  for (const auto& p : d.inputs[0].problems) problems += p.message + "\n";
  CHECK_THAT(problems, Catch::Contains("hit references: past the 4 MiB that all jobs held at once share"));
}

TEST_CASE("job phases are bounded and the rest are counted", "[badinput]") {
  std::string text;
  for (int i = 0; i < 100; ++i) {
    text +=
        fmt::format(
            R"({{"timestamp":"2024-01-01T00:00:{:02}Z","severity":"ERROR","logName":"projects/p/logs/dataflow.googleapis.com%2Fjob-message","resource":{{"type":"dataflow_step","labels":{{"job_id":"j-1"}}}},"textPayload":"Workflow failed. Causes: 4 vCpus is an invalid configuration"}})",
            i % 60) +
        "\n";
  }
  const Analysis d = analyze_with(text, ReadLimits{});
  CHECK(d.phases.size() == 16);
  std::string problems;
  for (const auto& p : d.inputs[0].problems) problems += p.message + "\n";
  CHECK_THAT(problems, Catch::Contains("84 further job phase messages are counted, not kept"));
}

TEST_CASE("rule packs are bounded: lint names a huge example and too many rule files", "[badinput]") {
  const std::string dir = test::temp_dir() + "/rules";
  std::filesystem::create_directories(dir);
  const auto rule = [](const std::string& id, const std::string& example) {
    return fmt::format(R"(id: {}
title: A test rule
family: runtime
severity: error
confidence: 0.5
description: A rule for the limits test.
match:
  text: 'needle-{}'
examples:
  match:
    - 'needle-{} {}'
  no_match:
    - 'hay'
)",
                       id, id, id, example);
  };
  test::write_file(dir + "/big.yaml", rule("big-example", std::string(20u << 10, 'x')));
  auto lint = test::run_gpudiag({"rules", "lint", "--rules", dir});
  CHECK(lint.exit_code != 0);
  CHECK_THAT(lint.out + lint.err, Catch::Contains("examples hold at most 16 KiB"));

  std::filesystem::remove(dir + "/big.yaml");
  for (int i = 0; i < 501; ++i)
    test::write_file(fmt::format("{}/r{:03}.yaml", dir, i), rule(fmt::format("r{:03}", i), ""));
  lint = test::run_gpudiag({"rules", "lint", "--rules", dir});
  CHECK(lint.exit_code != 0);
  CHECK_THAT(lint.out + lint.err, Catch::Contains("more than 500 user rule files"));
}

TEST_CASE("the max-entry-bytes option sets the limit over which entries are kept cropped", "[badinput]") {
  const std::string path = test::temp_dir() + "/big.json";
  test::write_file(path, worker_entry(0, kOomLine + " " + std::string(100u << 10, 'x')) + "\n");
  const auto small = test::run_gpudiag({"analyze", "--format", "json", "--max-entry-bytes", "65536", path});
  CHECK(small.exit_code == 0);
  CHECK_THAT(small.out, Catch::Contains("(over --max-entry-bytes 65536) was matched over its whole length"));
  CHECK_THAT(small.out, Catch::Contains("\"rule_id\": \"gpu-out-of-memory\""));
  const auto whole = test::run_gpudiag({"analyze", "--format", "json", path});
  CHECK_THAT(whole.out, !Catch::Contains("--max-entry-bytes"));
  CHECK(test::run_gpudiag({"analyze", "--max-entry-bytes", "10", path}).exit_code == 2);
}
