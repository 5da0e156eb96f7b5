// Fact extractors (rules/facts/, docs/rules.md "Fact extractors"): read, linted and proven like
// rules, and what they set is what a run's facts hold — with priorities and sources.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <string>

#include "gpudiag/analyzer.h"
#include "gpudiag/rule_pack.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

const char* kExtractor = R"(extractor: gpu-zone-line
description: Used by the tests.
match:
  all:
    - log: job-message
    - message: 'GPU pool (?P<machine>[a-z0-9-]+) in (?P<zone>[a-z]+-[a-z]+[0-9]+-[a-z])'
set: { machine_type: '{machine}', zone: '{zone}', gpu_requested: 'true' }
examples:
  match:
    - { message: 'GPU pool g2-standard-8 in us-central1-a', log: job-message, severity: INFO, yields: { zone: us-central1-a, machine_type: g2-standard-8 } }
  no_match:
    - { message: 'GPU pool g2-standard-8 in us-central1-a', log: worker, severity: INFO }
sources:
  - 'made up for the tests'
)";

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

std::string dir_with(const std::string& text) {
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/extractor.yaml", text);
  return dir;
}

Diagnostics lint(const std::string& text) {
  return RulePack::lint(RuleSources{test::catalog_files(), {dir_with(text)}});
}

// One job-message entry per line of `messages`, as gcloud exports them.
std::string export_of(const std::vector<std::string>& messages) {
  std::string out = "[";
  for (size_t i = 0; i < messages.size(); ++i) {
    out += fmt::format(
        R"({}{{"insertId":"x{}","logName":"projects/p/logs/dataflow.googleapis.com%2Fjob-message","resource":{{"type":"dataflow_step","labels":{{"job_id":"2024-01-01_00_00_00-1","job_name":"j","project_id":"p","region":"us-central1"}}}},"severity":"INFO","textPayload":"{}","timestamp":"2024-01-01T00:00:0{}Z"}})",
        i ? "," : "", i, messages[i], i);
  }
  return out + "]";
}

const JobFact* fact(const Analysis& d, std::string_view name) {
  for (const auto& f : d.facts) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("a fact extractor in a --rules directory loads, and sets its facts", "[rules]") {
  CHECK(lint(kExtractor).empty());
  auto pack = RulePack::load(RuleSources{builtin_rule_files(), {dir_with(kExtractor)}});
  REQUIRE(pack);
  CHECK_THAT(pack->dump(), Catch::Contains("extractor gpu-zone-line\n"));
  const std::string path = test::temp_dir() + "/export.json";
  test::write_file(path, export_of({"GPU pool g2-standard-8 in us-central1-a"}));
  auto d = analyze(*pack, {path}, {});
  REQUIRE(d);
  const JobFact* zone = fact(*d, "zone");
  REQUIRE(zone != nullptr);
  CHECK(zone->value == "us-central1-a");
  CHECK(zone->extractor == "gpu-zone-line");
  CHECK(zone->line > 0);
  REQUIRE(fact(*d, "job_id") != nullptr);  // the labels are facts of the same owner
  CHECK(fact(*d, "job_id")->value == "2024-01-01_00_00_00-1");
  CHECK(fact(*d, "job_id")->source == "resource labels");
}

TEST_CASE("a fact extractor's problems are diagnostics at their place", "[rules]") {
  auto diags = lint(replace(kExtractor, "zone: '{zone}'", "zones: '{zone}'"));
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].code == "rule-unknown-fact");
  CHECK(diags[0].help == "did you mean `zone`?");
  CHECK(diags[0].line == 7);

  diags = lint(replace(kExtractor, "zone: '{zone}'", "zone: '{zon}'"));
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].code == "rule-reference");
  CHECK(diags[0].message == "`{zon}` is not a named group of `match`");
  CHECK(diags[0].help == "did you mean `zone`?");

  diags = lint(replace(kExtractor, "gpu_requested: 'true'", "gpu_requested: 'yes'"));
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].message == "`gpu_requested` is a bool fact: `yes` is not a value it takes");

  diags = lint(replace(kExtractor, "set: {", "decode: { machine: pickle }\nset: {"));
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].message == "unknown decoder `pickle`");

  diags = lint(replace(kExtractor, "yields: { zone: us-central1-a, machine_type: g2-standard-8 } ", ""));
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].message == "a fact extractor's `match` example says what it `yields`");
}

TEST_CASE("a user fact extractor is proven by its examples when it loads", "[rules]") {
  auto wrong = RulePack::load(
      RuleSources{test::catalog_files(),
                  {dir_with(replace(kExtractor, "yields: { zone: us-central1-a", "yields: { zone: us-central1-b"))}});
  REQUIRE(!wrong);
  CHECK(wrong.error().code == "rule-example");
  CHECK_THAT(wrong.error().message,
             Catch::StartsWith("extractor `gpu-zone-line`: this `match` example should yield zone=us-central1-b"));
  // A no_match example that yields something fails too.
  auto loud = RulePack::load(RuleSources{
      test::catalog_files(),
      {dir_with(replace(kExtractor, "log: worker, severity: INFO }", "log: job-message, severity: INFO }"))}});
  REQUIRE(!loud);
  CHECK_THAT(loud.error().message, Catch::Contains("this `no_match` example yields"));
}

TEST_CASE("a fact keeps its strongest source's value, its first five sources and their number", "[rules]") {
  // Equal priority: the first in input order stays; a higher priority replaces it.
  const std::string stronger =
      replace(replace(replace(kExtractor, "gpu-zone-line", "gpu-zone-line-v2"), "GPU pool", "GPU fleet"), "set: {",
              "priority: 25\nset: {");
  const std::string dir = dir_with(kExtractor);
  test::write_file(dir + "/stronger.yaml", replace(stronger, "'GPU pool g2-standard-8 in us-central1-a', log: job",
                                                   "'GPU fleet g2-standard-8 in us-central1-a', log: job"));
  auto pack = RulePack::load(RuleSources{builtin_rule_files(), {dir}});
  REQUIRE(pack);
  const std::string path = test::temp_dir() + "/export.json";
  std::vector<std::string> lines;
  for (const char* zone : {"us-east1-b", "us-east1-c", "us-east1-d", "us-west1-a", "us-west1-b", "us-west1-c"}) {
    lines.push_back(fmt::format("GPU pool n1-standard-4 in {}", zone));
  }
  test::write_file(path, export_of(lines));
  auto d = analyze(*pack, {path}, {});
  REQUIRE(d);
  const JobFact* zone = fact(*d, "zone");
  REQUIRE(zone != nullptr);
  CHECK(zone->value == "us-east1-b");
  CHECK(zone->sources.size() == 5);
  CHECK(zone->sources_total == 6);
  CHECK(zone->conflicts().size() == 4);

  lines.push_back("GPU fleet a2-highgpu-1g in europe-west4-a");
  test::write_file(path, export_of(lines));
  d = analyze(*pack, {path}, {});
  REQUIRE(d);
  zone = fact(*d, "zone");
  REQUIRE(zone != nullptr);
  CHECK(zone->value == "europe-west4-a");
  CHECK(zone->extractor == "gpu-zone-line-v2");
  CHECK(zone->sources_total == 7);
}

namespace {

// The first options echo of a corpus case's export, as the JSON string it is there (still escaped).
std::string options_echo_of(const std::string& corpus_case) {
  const std::string text = test::read_file(test::source_dir() + "/corpus/" + corpus_case + "/export.json");
  const std::string key = R"("message": "Python sdk harness started with pipeline_options: {)";
  const size_t at = text.find(key);
  REQUIRE(at != std::string::npos);
  size_t end = at + key.size();
  while (end < text.size() && (text[end] != '"' || text[end - 1] == '\\')) ++end;
  return text.substr(at + 11, end + 1 - (at + 11));
}

}  // namespace

TEST_CASE("an options echo that repeats is counted each time and read again once a fact was added", "[rules]") {
  // The options echoes of two corpus cases (healthy-cpu-batch: no container image; healthy-gpu-t4-
  // tensorflow: a custom image, so custom_container is set whenever sdk_container_image is known).
  // Five SDK processes of one job echo them as C C G C C: the last two C are read again after G
  // added facts (the engine may only count a repeated echo while no fact was added since).
  const std::string cpu = options_echo_of("healthy-cpu-batch");
  const std::string gpu = options_echo_of("healthy-gpu-t4-tensorflow");
  std::string text = "[";
  int n = 0;
  for (const std::string* echo : {&cpu, &cpu, &gpu, &cpu, &cpu}) {
    text += fmt::format(
        R"({}{{"insertId":"o{}","logName":"projects/p/logs/dataflow.googleapis.com%2Fworker","resource":{{"type":"dataflow_step","labels":{{"job_id":"2024-01-01_00_00_00-1","job_name":"j","project_id":"p","region":"us-central1"}}}},"severity":"INFO","jsonPayload":{{"message":{}}},"timestamp":"2024-01-01T00:00:0{}Z"}})",
        n ? "," : "", n, *echo, n);
    ++n;
  }
  const std::string path = test::temp_dir() + "/export.json";
  test::write_file(path, text + "]");
  auto d = analyze(test::builtin_pack(), {path}, {});
  REQUIRE(d);
  const JobFact* custom = fact(*d, "custom_container");
  REQUIRE(custom != nullptr);
  CHECK(custom->value == "true");
  CHECK(custom->sources_total == 3);  // G, and each C after it
  const JobFact* experiments = fact(*d, "experiments");
  REQUIRE(experiments != nullptr);
  CHECK(experiments->sources_total == 5);
  CHECK(experiments->sources.size() == 2);  // the two distinct echoes
  const JobFact* image = fact(*d, "sdk_container_image");
  REQUIRE(image != nullptr);
  CHECK(image->sources_total == 1);
}
