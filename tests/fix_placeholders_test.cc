// Fixes that use the facts: `action_with_facts` texts are used when every placeholder is known,
// the generic `action` otherwise; the loader rejects unknown placeholders and filters with file:line.
#include <catch2/catch.hpp>

#include "facts/job_facts.h"
#include "gpudiag/rule_pack.h"
#include "judge/evaluator.h"
#include "pack/placeholders.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

detail::JobFacts facts_of(const std::vector<std::pair<std::string, std::string>>& values) {
  detail::JobFacts facts;
  for (const auto& [name, value] : values) facts.set(name, value, detail::FactSource{"test"}, 10);
  return facts;
}

FixInfo host_oom_fix() {
  FixInfo fix;
  fix.id = "more-memory-per-worker";
  fix.action = "Give each worker more RAM per SDK process, for example a highmem machine type";
  fix.action_with_facts = {
      "Give each SDK process more RAM: {machine_type} → {machine_type|highmem}, or 1 SDK process per worker "
      "instead of {sdk_processes_per_worker|several}",
      "Give each SDK process more RAM: {machine_type} → {machine_type|highmem}"};
  return fix;
}

const FindingFix* fix_of(const Analysis& a, std::string_view rule, std::string_view fix) {
  for (const auto& f : a.findings) {
    if (f.rule_id != rule) continue;
    for (const auto& x : f.fixes) {
      if (x.id == fix) return &x;
    }
  }
  return nullptr;
}

}  // namespace

TEST_CASE("placeholder filters: highmem and several", "[unit]") {
  CHECK(detail::apply_filter("highmem", "n1-standard-4") == "n1-highmem-4");
  CHECK(detail::apply_filter("highmem", "n2-highcpu-16") == "n2-highmem-16");
  CHECK_FALSE(detail::apply_filter("highmem", "g2-standard-8"));  // the GPU series have fixed shapes
  CHECK_FALSE(detail::apply_filter("highmem", "n1-highmem-8"));   // already the most memory per vCPU
  CHECK_FALSE(detail::apply_filter("highmem", "a2-highgpu-1g"));
  CHECK(detail::apply_filter("several", "4") == "4");
  CHECK(detail::apply_filter("several", "12") == "12");
  CHECK_FALSE(detail::apply_filter("several", "1"));
  CHECK_FALSE(detail::apply_filter("several", "0"));
  CHECK_FALSE(detail::apply_filter("several", "many"));
}

TEST_CASE("placeholders are read with their filters and other braces stay text", "[unit]") {
  const auto p = detail::placeholders_in("a {machine_type|highmem} b {} c {zone} d { x } {A}");
  REQUIRE(p.size() == 2);
  CHECK(p[0].name == "machine_type");
  CHECK(p[0].filter == "highmem");
  CHECK(p[1].name == "zone");
  CHECK(p[1].filter.empty());
}

TEST_CASE("a fix uses the first text whose facts are all known", "[unit]") {
  const FixInfo fix = host_oom_fix();
  const std::map<std::string, std::vector<std::string>> none;
  CHECK(detail::fill_fix_action(
            fix, none, facts_of({{"machine_type", "n1-standard-4"}, {"sdk_processes_per_worker", "4"}}), {1, 1}) ==
        "Give each SDK process more RAM: n1-standard-4 → n1-highmem-4, or 1 SDK process per worker instead of 4");
  // One SDK process already: the second text.
  CHECK(detail::fill_fix_action(fix, none,
                                facts_of({{"machine_type", "n1-standard-4"}, {"sdk_processes_per_worker", "1"}}),
                                {1, 1}) == "Give each SDK process more RAM: n1-standard-4 → n1-highmem-4");
  // Unknown machine type, or one without a highmem shape: the generic text, never a `?`.
  CHECK(detail::fill_fix_action(fix, none, facts_of({{"sdk_processes_per_worker", "4"}}), {1, 1}) == fix.action);
  CHECK(detail::fill_fix_action(fix, none, facts_of({{"machine_type", "g2-standard-8"}}), {1, 1}) == fix.action);
  // Captures count as known too.
  FixInfo pull;
  pull.action = "Check that the image exists";
  pull.action_with_facts = {"Check that {image} exists"};
  CHECK(detail::fill_fix_action(pull, {{"image", {"gcr.io/p/app:1"}}}, facts_of({}), {1, 1}) ==
        "Check that gcr.io/p/app:1 exists");
  CHECK(detail::fill_fix_action(pull, none, facts_of({}), {1, 1}) == "Check that the image exists");
  // {ran_after}: how long the job went on after the finding's first entry, when known.
  const std::map<std::string, std::vector<std::string>> nothing;
  CHECK(detail::fill_placeholders("ran on for {ran_after}", nothing, facts_of({}),
                                  {1, 1, 3LL * 3600 * 1000000000 + 120LL * 1000000000}) == "ran on for 3h2m");
  CHECK(detail::fill_placeholders("ran on for {ran_after}", nothing, facts_of({}), {1, 1}) == "ran on for ?");
}

TEST_CASE("corpus: host OOM names the machine type and SDK processes the job has", "[rules]") {
  // corpus/host-oom-kernel-killer-lost-contact: n1-standard-4 workers with 4 SDK processes each.
  const Analysis known = test::analyze_case("corpus/host-oom-kernel-killer-lost-contact");
  const FindingFix* fix = fix_of(known, "host-out-of-memory", "more-memory-per-worker");
  REQUIRE(fix != nullptr);
  CHECK(fix->action ==
        "Give each SDK process more RAM: n1-standard-4 → n1-highmem-4, or 1 SDK process per worker instead of 4 "
        "(--experiments=no_use_multiple_sdk_containers)");
  // corpus/host-oom-jvm-gc-thrashing: n1-highmem-8 already, SDK processes unknown: the generic text.
  const Analysis generic = test::analyze_case("corpus/host-oom-jvm-gc-thrashing");
  fix = fix_of(generic, "host-out-of-memory", "more-memory-per-worker");
  REQUIRE(fix != nullptr);
  CHECK(fix->action.rfind("Give each worker more RAM per SDK process, for example a highmem machine type", 0) == 0);
}

TEST_CASE("corpus: the image-pull fix names the image", "[rules]") {
  const Analysis a = test::analyze_case("corpus/container-image-pull-failed");
  const FindingFix* fix = fix_of(a, "container-image-pull-failed", "fix-image-path-and-access");
  REQUIRE(fix != nullptr);
  CHECK(fix->action.find("{image}") == std::string::npos);
  CHECK(fix->action.rfind("Check that ", 0) == 0);
  const auto& f = *std::find_if(a.findings.begin(), a.findings.end(),
                                [](const Finding& x) { return x.rule_id == "container-image-pull-failed"; });
  REQUIRE(f.captures.count("image") == 1);
  CHECK(fix->action.find(f.captures.at("image").front()) != std::string::npos);
}

namespace {

const std::string kRule = test::replaced(test::kTestRule, "    action: Try another zone\n",
                                         "    action: Try another zone\n    action_with_facts:\n"
                                         "      - 'Try another zone than {zone} in {region}'\n");

Diagnostics lint(const std::string& text, const std::string& from, const std::string& to) {
  return test::lint_rule(from.empty() ? text : test::replaced(text, from, to));
}

}  // namespace

TEST_CASE("an unknown placeholder or filter is a load error at its line", "[rules]") {
  CHECK(lint(kRule, "", "").empty());
  auto diags = lint(kRule, "{zone} in {region}", "{zone} in {regoin}");
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].code == "rule-reference");
  CHECK(diags[0].line == 13);
  CHECK_THAT(diags[0].message, Catch::Contains("`{regoin}`"));
  CHECK(diags[0].help == "did you mean `region`?");
  diags = lint(kRule, "{zone} in {region}", "{zone|highmen} in {region}");
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].line == 13);
  CHECK_THAT(diags[0].message, Catch::Contains("unknown placeholder filter `highmen`"));
  diags = lint(kRule, "title: A test rule about {zone}", "title: A test rule about {zones}");
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].line == 2);
}
