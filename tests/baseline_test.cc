// Baselines: parsing with positions for every problem, and apply_baseline as a pure function that
// suppresses, lets expired entries lapse, and finds unused ones.
#include <algorithm>
#include <catch2/catch.hpp>

#include "gpudiag/formats.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

const Analysis& oom_case() {
  static const Analysis d = test::analyze_case("corpus/gpu-oom-then-sdk-disconnected-work-item-failed");
  return d;
}

std::string fingerprint_of(const Analysis& d, std::string_view rule) {
  for (const auto& f : d.findings) {
    if (f.rule_id == rule) return f.fingerprint;
  }
  return "";
}

}  // namespace

TEST_CASE("a baseline file parses, as YAML or JSON", "[unit][baseline]") {
  const auto yaml = parse_baseline(R"(# accepted findings
version: 1
suppress:
  - rule: gpu-out-of-memory
    fingerprint: gpu-out-of-memory/8f0828455c766f42
    reason: staging runs on P4s; tracked in OPS-123
    expires: 2031-12-31
  - rule: workflow-failed
    fingerprint: workflow-failed/0000000000000000
    reason: follows from the OOM
)",
                                   "baseline.yaml");
  REQUIRE(yaml.ok());
  REQUIRE(yaml->entries.size() == 2);
  CHECK(yaml->entries[0].rule_id == "gpu-out-of-memory");
  CHECK(yaml->entries[0].expires == "2031-12-31");
  CHECK(yaml->entries[0].line == 4);
  CHECK(yaml->entries[1].expires.empty());
  CHECK(yaml->entries[1].line == 8);

  const auto json = parse_baseline(
      R"({"version": 1, "suppress": [{"rule": "a", "fingerprint": "a/1", "reason": "r"}]})", "baseline.json");
  REQUIRE(json.ok());
  CHECK(json->entries.size() == 1);
  CHECK(parse_baseline("", "empty.yaml").ok());
}

TEST_CASE("baseline problems say what and where, all of them", "[unit][baseline]") {
  const std::string text = R"(suppress:
  - rule: gpu-out-of-memory
    fingerprint: host-out-of-memory/1
    reason: x
  - rule: a
    fingerprint: a/1
    expires: 2024-02-30
    reson: typo
)";
  const Diagnostics all = lint_baseline(text, "b.yaml");
  REQUIRE(all.size() == 4);
  CHECK(to_string(all[0]) == "b.yaml:3:18: fingerprint `host-out-of-memory/1` is not one of rule `gpu-out-of-memory`");
  CHECK(all[1].code == "baseline-unknown-key");
  CHECK(all[1].line == 8);
  CHECK(all[1].column == 5);
  CHECK(all[1].source_line == "    reson: typo");
  CHECK(all[2].code == "baseline-missing");
  CHECK(all[2].message == "the entry has no `reason`");
  CHECK(all[3].code == "baseline-date");
  CHECK(all[3].line == 7);
  const auto first = parse_baseline(text, "b.yaml");
  REQUIRE(!first.ok());
  CHECK(first.error().code == "baseline-fingerprint");

  const auto syntax = parse_baseline("suppress: [\n  - rule: x\n", "s.yaml");
  REQUIRE(!syntax.ok());
  CHECK(syntax.error().code == "baseline-yaml");
  CHECK(syntax.error().line >= 1);
  CHECK(lint_baseline(
            "suppress:\n  - {rule: a, fingerprint: a/1, reason: r}\n  - {rule: a, fingerprint: a/1, reason: s}\n",
            "d.yaml")
            .front()
            .code == "baseline-duplicate");
  CHECK(lint_baseline("- just a list\n", "l.yaml").front().code == "baseline-type");
  CHECK(lint_baseline("version: 2\n", "v.yaml").front().code == "baseline-version");
}

TEST_CASE("apply_baseline suppresses, lets expired entries lapse, and finds unused ones", "[unit][baseline]") {
  const Analysis& d = oom_case();
  const RankedReport ranked = rank(d);
  REQUIRE(trips_gate(ranked, Impact::kError));
  Baseline b;
  b.file = "gpudiag-baseline.yaml";
  b.entries.push_back({"gpu-out-of-memory", fingerprint_of(d, "gpu-out-of-memory"), "known on P4", "2030-01-01", 2});
  b.entries.push_back({"workflow-failed", fingerprint_of(d, "workflow-failed"), "follows", "", 6});
  b.entries.push_back({"work-item-failed", fingerprint_of(d, "work-item-failed"), "follows", "2024-01-01", 9});
  b.entries.push_back({"gpu-xid-error", "gpu-xid-error/1", "fixed long ago", "", 12});

  const RankedReport r = apply_baseline(ranked, b, "2025-06-30");
  REQUIRE(r.baseline);
  CHECK(r.baseline->suppressed == 2);
  CHECK(r.baseline->stale() == 2);
  CHECK(r.baseline->entries[0].state == BaselineState::kSuppressing);
  CHECK(r.baseline->entries[2].state == BaselineState::kExpired);
  CHECK(r.baseline->entries[2].matched == std::vector<std::string>{"work-item-failed"});
  CHECK(r.baseline->entries[3].state == BaselineState::kUnused);
  for (const auto& rf : r.findings) {
    const std::string& id = rf.finding->rule_id;
    INFO(id);
    CHECK(rf.suppressed == (id == "gpu-out-of-memory" || id == "workflow-failed"));
    CHECK(rf.baseline_entry.has_value() == (id != "sdk-harness-disconnected" && id != "worker-lost-contact"));
  }
  // The expired entry no longer suppresses: work-item-failed (error) still trips the gate.
  CHECK(trips_gate(r, Impact::kError));
  b.entries[2].expires = "2025-06-30";  // suppresses through its last day
  const RankedReport last_day = apply_baseline(ranked, b, "2025-06-30");
  CHECK_FALSE(trips_gate(last_day, Impact::kError));
  CHECK(trips_gate(last_day, Impact::kWarning));
  // Pure: the input report is unchanged, ranks and verdict stay.
  CHECK_FALSE(ranked.baseline.has_value());
  CHECK(last_day.verdict == ranked.verdict);
  CHECK(last_day.findings.front().rank == 1);
}

TEST_CASE("an entry with a finding's v1 fingerprint still suppresses it, and a note says how to refresh it",
          "[unit][baseline]") {
  const Analysis& d = oom_case();
  const auto finding = [&](std::string_view rule) -> const Finding& {
    return *std::find_if(d.findings.begin(), d.findings.end(), [&](const Finding& f) { return f.rule_id == rule; });
  };
  const Finding& oom = finding("gpu-out-of-memory");
  const Finding& failed = finding("workflow-failed");
  // What gpudiag 0.1 wrote for this export (corpus/…/expected.json before XXH3 fingerprints).
  CHECK(oom.legacy_fingerprint == "gpu-out-of-memory/8f0828455c766f42");
  CHECK(oom.fingerprint != oom.legacy_fingerprint);
  Baseline b;
  b.file = "old-baseline.yaml";
  b.entries.push_back({"gpu-out-of-memory", oom.legacy_fingerprint, "known on P4", "", 4});
  // One finding named both ways: today's fingerprint is the entry that suppresses it, wherever it is.
  b.entries.push_back({"workflow-failed", failed.legacy_fingerprint, "follows", "", 7});
  b.entries.push_back({"workflow-failed", failed.fingerprint, "follows", "", 10});
  const RankedReport r = apply_baseline(rank(d), b, "2025-06-30");
  REQUIRE(r.baseline);
  CHECK(r.baseline->suppressed == 2);
  CHECK(r.baseline->entries[0].state == BaselineState::kSuppressing);
  CHECK(r.baseline->entries[0].current_fingerprint == oom.fingerprint);
  CHECK(r.baseline->entries[1].state == BaselineState::kUnused);
  CHECK(r.baseline->entries[1].current_fingerprint.empty());
  CHECK(r.baseline->entries[2].state == BaselineState::kSuppressing);
  CHECK(baseline_refresh_note(*r.baseline) ==
        "gpudiag: note: old-baseline.yaml uses old (v1 or v2) fingerprints, from before `identity:` and masks (v3); "
        "they still match for now, but write these instead (docs/upgrading.md):\n"
        "  line 4: gpu-out-of-memory/8f0828455c766f42 -> " +
            oom.fingerprint + "\n");
  CHECK_THAT(render_json(r, {.deterministic = true}), Catch::Contains("\"current_fingerprint\": \"" + oom.fingerprint));
  // A baseline of today's fingerprints needs no note.
  b.entries.erase(b.entries.begin(), b.entries.begin() + 2);
  CHECK(baseline_refresh_note(*apply_baseline(rank(d), b, "2025-06-30").baseline).empty());
}

TEST_CASE("an entry with a finding's v2 fingerprint, from before `identity:` and masks, still suppresses it",
          "[unit][baseline]") {
  const Analysis& d = oom_case();
  const Finding& oom = *std::find_if(d.findings.begin(), d.findings.end(),
                                     [](const Finding& f) { return f.rule_id == "gpu-out-of-memory"; });
  // What the previous gpudiag wrote for this export (corpus/…/expected.json, fingerprint v2).
  CHECK(oom.fingerprint_v2 == "gpu-out-of-memory/86bed2dcef36d419");
  CHECK(oom.fingerprint != oom.fingerprint_v2);
  Baseline b;
  b.file = "v2-baseline.yaml";
  b.entries.push_back({"gpu-out-of-memory", "gpu-out-of-memory/86bed2dcef36d419", "known on P4", "", 3});
  const RankedReport r = apply_baseline(rank(d), b, "2025-06-30");
  REQUIRE(r.baseline);
  CHECK(r.baseline->suppressed == 1);
  CHECK(r.baseline->entries[0].state == BaselineState::kSuppressing);
  CHECK(r.baseline->entries[0].current_fingerprint == oom.fingerprint);
  const auto it = std::find_if(r.findings.begin(), r.findings.end(),
                               [](const RankedFinding& rf) { return rf.finding->rule_id == "gpu-out-of-memory"; });
  REQUIRE(it != r.findings.end());
  CHECK(it->suppressed);
  CHECK_THAT(baseline_refresh_note(*r.baseline),
             Catch::Contains("  line 3: gpu-out-of-memory/86bed2dcef36d419 -> " + oom.fingerprint + "\n"));
  CHECK_THAT(render_json(r, {.deterministic = true}),
             Catch::Contains("\"fingerprint_v2\": \"gpu-out-of-memory/86bed2dcef36d419\""));
}

TEST_CASE("an expired entry for a finding whose fingerprint is the same in every version matches it once",
          "[unit][baseline]") {
  const Analysis& d = oom_case();
  const Finding& failed = *std::find_if(d.findings.begin(), d.findings.end(),
                                        [](const Finding& f) { return f.rule_id == "workflow-failed"; });
  REQUIRE(failed.fingerprint == failed.fingerprint_v2);  // no captures: nothing for v3 to mask
  Baseline b;
  b.file = "gpudiag-baseline.yaml";
  b.entries.push_back({"workflow-failed", failed.fingerprint, "follows", "2024-01-01", 5});
  const RankedReport r = apply_baseline(rank(d), b, "2025-06-30");
  REQUIRE(r.baseline);
  CHECK(r.baseline->entries[0].state == BaselineState::kExpired);
  CHECK(r.baseline->entries[0].matched == std::vector<std::string>{"workflow-failed"});
  CHECK(r.baseline->entries[0].current_fingerprint.empty());
  CHECK(baseline_refresh_note(*r.baseline).empty());
}

TEST_CASE("every format shows a baseline's effect", "[unit][baseline]") {
  const Analysis& d = oom_case();
  Baseline b;
  b.file = "gpudiag-baseline.yaml";
  b.entries.push_back({"gpu-out-of-memory", fingerprint_of(d, "gpu-out-of-memory"), "known on P4", "", 2});
  b.entries.push_back({"gpu-xid-error", "gpu-xid-error/1", "fixed long ago", "", 7});
  const RankedReport r = apply_baseline(rank(d), b, "2025-06-30");
  const auto& rules = test::builtin_pack().rules();
  const RenderOptions o{.deterministic = true, .fail_on = Impact::kError};
  CHECK_THAT(render_text(r, o), Catch::Contains("suppressed by the baseline (gpudiag-baseline.yaml:2): known on P4"));
  CHECK_THAT(render_text(r, o), Catch::Contains("gpudiag-baseline.yaml:7: gpu-xid-error unused"));
  CHECK_THAT(render_json(r, o), Catch::Contains("\"state\": \"unused\""));
  CHECK_THAT(render_json(r, o), Catch::Contains("\"tripped\": true"));
  CHECK_THAT(render_markdown(r, o), Catch::Contains("**Suppressed** by the baseline"));
  CHECK_THAT(render_html(r, o), Catch::Contains("Suppressed by the baseline"));
  CHECK_THAT(render_junit(r, rules, o),
             Catch::Contains("<skipped message=\"accepted in the baseline (gpudiag-baseline.yaml:2): known on P4\">"));
  const std::string sarif = render_sarif(r, rules, o);
  CHECK_THAT(sarif, Catch::Contains("\"baselineState\": \"unchanged\""));
  CHECK_THAT(sarif, Catch::Contains("\"baselineState\": \"new\""));
  CHECK_THAT(sarif, Catch::Contains("\"baselineState\": \"absent\""));
  CHECK_THAT(sarif, Catch::Contains("\"status\": \"accepted\""));
  const std::string gh = render_github(r, o);
  CHECK(gh.find("title=gpudiag%3A GPU ran out of memory") == std::string::npos);
  CHECK_THAT(gh, Catch::Contains(
                     "::warning file=gpudiag-baseline.yaml,line=7,title=gpudiag%3A stale baseline entry (unused)::"));
  CHECK_THAT(gh, Catch::Contains("gpudiag: 1 finding suppressed by the baseline"));
}
