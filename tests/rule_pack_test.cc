// The built-in pack: the build refuses a bad one, its examples pass, and the examples really can fail.
#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "gpudiag/analyzer.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

// A user rule file: `match` is the YAML of its match condition (two-space indented under `match:`).
std::string rule_file(const std::string& id, const std::string& match, const std::string& match_example,
                      const std::string& no_match_example) {
  return fmt::format(R"(id: {}
title: T
family: runtime
severity: warning
confidence: 0.5
description: A rule written by a test.
match:
{}
fixes:
  - id: nothing
    action: Nothing
    why: A test.
    doc: {{title: T, section: S, url: 'https://cloud.google.com/dataflow/docs'}}
examples:
  match:
    - '{}'
  no_match:
    - '{}'
sources: ['tests']
)",
                     id, match, match_example, no_match_example);
}

}  // namespace

// The built-in pack is linted and proven by gpudiag-rulec while it is embedded, so a clean pack is
// what the build already guarantees; what is tested is that the guard itself refuses a bad pack.
TEST_CASE("the build refuses a rule pack with a problem or a failing example", "[rules]") {
  const std::string dir = test::temp_dir();
  const auto rulec = [&](const std::string& file, const std::string& text) {
    test::write_file(dir + "/" + file, text);
    return test::run_shell(fmt::format("{} {} {} {}", test::shell_quote(GPUDIAG_RULEC),
                                       test::shell_quote(dir + "/out.cc"), test::shell_quote(dir),
                                       test::shell_quote(dir + "/" + file)));
  };
  const auto good = rulec("good.yaml", rule_file("a-good-rule", "  message: 'disk full'", "disk full", "disk ok"));
  INFO(good.err);
  REQUIRE(good.exit_code == 0);

  const auto unknown_key = rulec(
      "bad-key.yaml", rule_file("a-bad-rule", "  message: 'disk full'", "disk full", "disk ok") + "colour: red\n");
  CHECK(unknown_key.exit_code == 1);
  CHECK_THAT(unknown_key.err, Catch::Contains("bad-key.yaml:"));
  CHECK_THAT(unknown_key.err, Catch::Contains("colour"));

  const auto failing_example =
      rulec("bad-example.yaml", rule_file("a-wrong-rule", "  message: 'disk full'", "disk nearly full", "disk ok"));
  CHECK(failing_example.exit_code == 1);
  CHECK_THAT(failing_example.err, Catch::Contains("a-wrong-rule"));
}

TEST_CASE("every built-in rule's examples pass", "[rules]") {
  const ExampleReport report = test_rule_examples(test::builtin_pack());
  for (const auto& f : report.failures) INFO(f.rule_id << ": " << f.file << ":" << f.line << ": " << f.message);
  CHECK(report.failures.empty());
  CHECK(report.rules == test::builtin_pack().rules().size());
  CHECK(report.examples >= 2 * report.rules);
}

TEST_CASE("the issue's rule ids are all in the pack", "[rules]") {
  for (const char* id : {"python-version-mismatch",
                         "gpu-out-of-memory",
                         "zone-resource-pool-exhausted",
                         "flex-start-capacity-timeout",
                         "gpu-driver-missing",
                         "workers-stuck-no-activity",
                         "gpu-quota-exceeded",
                         "gpu-type-unavailable",
                         "accelerator-machine-mismatch",
                         "accelerator-option-missing",
                         "gpu-reservation-missing",
                         "flex-start-unsupported-config",
                         "flex-start-max-runtime",
                         "container-image-pull-failed",
                         "container-crash-loop",
                         "container-arch-mismatch",
                         "worker-disk-full",
                         "beam-pip-missing",
                         "venv-unavailable",
                         "beam-version-mismatch",
                         "gpu-driver-in-image",
                         "cuda-libraries-missing",
                         "cuda-driver-too-old",
                         "cuda-arch-unsupported",
                         "gpu-not-used",
                         "multiple-processes-per-gpu",
                         "host-out-of-memory",
                         "gpu-xid-error",
                         "sdk-unresponsive",
                         "runner-v2-missing",
                         "accelerator-option-malformed",
                         "prime-with-worker-accelerator",
                         "mps-with-single-sdk-container",
                         "sdk-harness-disconnected",
                         "worker-lost-contact",
                         "work-item-failed",
                         "workflow-failed",
                         "logging-throttled",
                         "export-window-short"}) {
    INFO(id);
    const RuleInfo* r = test::builtin_pack().find(id);
    REQUIRE(r != nullptr);
    CHECK(r->enabled);
    REQUIRE_FALSE(r->fixes.empty());
    for (const auto& fix : r->fixes) {
      CHECK_THAT(fix.doc.url, Catch::StartsWith("https://cloud.google.com/"));
      CHECK_FALSE(fix.doc.section.empty());
    }
  }
}

TEST_CASE("a rule whose examples do not hold is reported by rules test", "[rules]") {
  const std::string dir = test::temp_dir();
  // Its match example does not match and its no_match example does.
  test::write_file(dir + "/wrong.yaml",
                   rule_file("wrong-examples", "  text: 'needle'", "haystack only", "a needle in it"));
  // Loaded for use, it is refused: rules prove themselves before they run.
  auto refused = RulePack::load(RuleSources{test::catalog_files(), {dir}});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code == "rule-example");
  CHECK_THAT(refused.error().message, Catch::Contains("wrong-examples"));
  // Loaded for `rules test`, every failing example is listed.
  auto pack = RulePack::load(RuleSources{test::catalog_files(), {dir}, /*check_examples=*/false});
  REQUIRE(pack.ok());
  const ExampleReport report = test_rule_examples(*pack);
  CHECK(report.failures.size() == 2);
}

TEST_CASE("of several rules whose examples fail, the first by id is reported", "[rules]") {
  // Rules prove themselves in parallel; which failure is reported must not depend on timing.
  const std::string dir = test::temp_dir();
  for (const std::string id : {"e-good", "c-wrong", "a-good", "d-wrong", "b-good", "f-good"}) {
    const bool wrong = id.ends_with("wrong");
    test::write_file(dir + "/" + id + ".yaml",
                     rule_file(id, "  text: 'needle'", wrong ? "no pin" : "a needle", "nothing here"));
  }
  for (int run = 0; run < 5; ++run) {
    auto refused = RulePack::load(RuleSources{test::catalog_files(), {dir}});
    REQUIRE_FALSE(refused.ok());
    CHECK_THAT(refused.error().message, Catch::StartsWith("rule `c-wrong`"));
  }
}

TEST_CASE("the compiled pack matches its reviewed dump", "[rules]") {
  // A change to any rule shows up here as a diff of the compiled form; tools/update-goldens
  // rewrites the file for review.
  const std::string path = test::source_dir() + "/tests/fixtures/rule-pack.dump";
  const std::string dump = test::builtin_pack().dump();
  if (std::getenv("GPUDIAG_UPDATE_GOLDENS") != nullptr) test::write_file(path, dump);
  CHECK(dump == test::read_file(path));
}

TEST_CASE("the compiled pack dumps canonically and lists its patterns for rg", "[rules]") {
  const std::string dump = test::builtin_pack().dump();
  CHECK_THAT(dump, Catch::StartsWith("rulepack rules="));
  CHECK_THAT(dump, Catch::Contains("rule gpu-out-of-memory\n  family runtime\n  severity error"));
  CHECK(dump == test::builtin_pack().dump());
  const std::string patterns = test::builtin_pack().dump(true);
  CHECK_THAT(patterns, Catch::Contains("RESOURCE_POOL_EXHAUSTED"));
  CHECK_THAT(patterns, !Catch::Contains("pipeline_options: ("));  // the rules' regexes only …
  CHECK_THAT(test::builtin_pack().dump(true, /*observers=*/true),
             Catch::Contains("pipeline_options: ("));  // … unless the fact extractors' are asked for
  CHECK_THAT(dump, Catch::Contains("extractor worker-configuration\n  match message =~ /Worker configuration: "));
  CHECK_THAT(dump, Catch::Contains("fact gpu_requested bool\n"));
  CHECK(patterns.find("(?P<") == std::string::npos);  // ripgrep rejects repeated group names
  CHECK(test::builtin_pack().version_hash().size() == 16);
}

TEST_CASE("refining patterns answer as if tried one by one, empty texts included", "[rules]") {
  // Refiners share the trigger's RE2::Set pass, which never runs on an empty text; a refiner that
  // matches an empty text (here: "no exception") must still see one.
  const std::string dir = test::temp_dir();
  // A needle in the message, an exception attached, and no haystack anywhere.
  test::write_file(dir + "/refined.yaml", rule_file("needle-with-exception", R"(  all:
    - message: 'needle'
    - not: { exception: '^$' }
    - not: { text: '(?i)haystack' })",
                                                    "a needle", "no pin"));
  auto pack = RulePack::load(RuleSources{test::catalog_files(), {dir}, /*check_examples=*/false});
  REQUIRE(pack.ok());
  const auto fires = [&](std::string_view message, std::string_view exception) {
    RecordAnalysis run(*pack, {"t"});
    LogRecord r;
    r.timestamp = 1'704'067'200'000'000'000;
    r.severity = Severity::kError;
    r.log = "worker";
    r.message = message;
    r.exception = exception;
    run.add(r);
    const Analysis d = run.finish();
    return std::any_of(d.findings.begin(), d.findings.end(),
                       [](const Finding& f) { return f.rule_id == "needle-with-exception"; });
  };
  CHECK(fires("a needle", "Traceback (most recent call last):"));
  CHECK_FALSE(fires("a needle", ""));                         // the empty exception matches ^$
  CHECK_FALSE(fires("a needle in a Haystack", "Traceback"));  // refiner on the message …
  CHECK_FALSE(fires("a needle", "Traceback: haystack"));      // … and on the exception
  CHECK_FALSE(fires("a pin", "Traceback"));
}
