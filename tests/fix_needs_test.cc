// Fixes that fit the job (issue 41, item 1): `demote_if` ranks last a fix whose goal already holds,
// whichever setting made it hold (an `any` of the ways), and `needs` leaves out a fix the job's facts
// rule out, which the JSON report keeps with the reason.
#include <algorithm>
#include <catch2/catch.hpp>

#include "gpudiag/report.h"
#include "json_support.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

const RankedFinding* ranked(const RankedReport& r, const std::string& rule_id) {
  for (const auto& rf : r.findings) {
    if (rf.finding->rule_id == rule_id) return &rf;
  }
  return nullptr;
}

const FindingFix* fix_in(const std::vector<FindingFix>& fixes, const std::string& id) {
  const auto it = std::find_if(fixes.begin(), fixes.end(), [&](const FindingFix& f) { return f.id == id; });
  return it == fixes.end() ? nullptr : &*it;
}

bool has_fix(const std::vector<FindingFix>& fixes, const std::string& id) { return fix_in(fixes, id) != nullptr; }

// Both roads to one SDK process per GPU (the experiment, 1-vCPU workers) rank last, saying `because`.
void check_one_process_in_place(const RankedFinding& oom, const std::string& because) {
  for (const auto& id : {"one-sdk-process-per-gpu", "one-vcpu-workers"}) {
    const FindingFix* it = fix_in(oom.fixes, id);
    REQUIRE(it != nullptr);
    CHECK(it->demoted);
    CHECK_THAT(it->demoted_because, Catch::Contains(because));
  }
}

}  // namespace

TEST_CASE("the README sample's first fix is the one that fits a PyTorch job with one SDK process", "[rules]") {
  // corpus/gpu-oom-then-sdk-disconnected-work-item-failed: PyTorch (its frames) on a P4 with
  // no_use_multiple_sdk_containers: one process per GPU already holds, so both ways to it rank last,
  // MPS (for several processes) and TensorFlow's fix do not fit, and less memory per step leads.
  const Analysis d = test::analyze_case("corpus/gpu-oom-then-sdk-disconnected-work-item-failed");
  const RankedReport r = rank(d);
  REQUIRE_FALSE(r.fixes.empty());
  CHECK(r.fixes.front().id == "smaller-batches-or-bigger-gpu");
  const RankedFinding* oom = ranked(r, "gpu-out-of-memory");
  REQUIRE(oom != nullptr);
  check_one_process_in_place(*oom,
                             "already in place: each GPU serves a single SDK process — "
                             "experiments is no_use_multiple_sdk_containers");
  // The evidence of the fact that decided it.
  CHECK_THAT(fix_in(oom->fixes, "one-vcpu-workers")->demoted_because, Catch::Contains("export.json:"));
  CHECK_FALSE(has_fix(oom->fixes, "enable-mps"));
  CHECK_FALSE(has_fix(oom->fixes, "one-tensorflow-process-per-gpu"));
  const FindingFix* tf = fix_in(oom->fixes_not_applicable, "one-tensorflow-process-per-gpu");
  REQUIRE(tf != nullptr);
  CHECK_THAT(tf->not_applicable_because, Catch::Contains("it needs framework"));
  CHECK_THAT(tf->not_applicable_because, Catch::Contains("the job's is torch (from the worker entry at export.json:"));
}

TEST_CASE("a fix that achieves a state ranks last when another setting reached it", "[rules]") {
  // The README sample without the experiment, on 1-vCPU workers: one SDK process per GPU holds by
  // the machine type alone, so the fix that adds the experiment is in place as well as the one that
  // names the machine type (rules/facts/fix-states.yaml, one-sdk-process-per-gpu).
  std::string text = test::read_file("corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json");
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"'no_use_multiple_sdk_containers', ", ""},
                                 {"n1-standard-4", "n1-custom-1-15360-ext"}}) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  }
  REQUIRE(text.find("no_use_multiple_sdk_containers") == std::string::npos);
  const Analysis d = test::analyze_text(text);
  const RankedReport r = rank(d);
  const RankedFinding* oom = ranked(r, "gpu-out-of-memory");
  REQUIRE(oom != nullptr);
  check_one_process_in_place(*oom, "each GPU serves a single SDK process — sdk_processes_per_gpu is 1");
  REQUIRE_FALSE(r.fixes.empty());
  CHECK(r.fixes.front().id == "smaller-batches-or-bigger-gpu");
  // The same job on 4-vCPU workers runs four processes per GPU: neither fix is in place.
  std::string four = text;
  for (size_t at = four.find("n1-custom-1-15360-ext"); at != std::string::npos;
       at = four.find("n1-custom-1-15360-ext", at))
    four.replace(at, 21, "n1-standard-4");
  const Analysis d4 = test::analyze_text(four);  // the ranked report points into it
  const RankedReport r4 = rank(d4);
  const RankedFinding* oom4 = ranked(r4, "gpu-out-of-memory");
  REQUIRE(oom4 != nullptr);
  const FindingFix* one = fix_in(oom4->fixes, "one-sdk-process-per-gpu");
  REQUIRE(one != nullptr);
  CHECK_FALSE(one->demoted);
}

TEST_CASE("a fix is left out only when a known fact contradicts what it needs", "[rules]") {
  // Several PyTorch processes share the GPU (corpus/multiple-processes-per-gpu): MPS fits them,
  // TensorFlow's fix still does not.
  const Analysis shared = test::analyze_case("corpus/multiple-processes-per-gpu");
  const RankedReport r = rank(shared);
  const RankedFinding* oom = ranked(r, "gpu-out-of-memory");
  REQUIRE(oom != nullptr);
  CHECK(has_fix(oom->fixes, "enable-mps"));
  const FindingFix* one_process = fix_in(oom->fixes, "one-sdk-process-per-gpu");
  REQUIRE(one_process != nullptr);
  CHECK_FALSE(one_process->demoted);
  CHECK(has_fix(oom->fixes_not_applicable, "one-tensorflow-process-per-gpu"));
  // A framework no frame names (RAPIDS cuDF) and one process: TensorFlow's fix needs several
  // processes, which the job's facts rule out; an unknown framework alone would not.
  const Analysis cudf = test::analyze_case("corpus/gpu-oom-rapids-cudf-gz");
  const RankedReport c = rank(cudf);
  const RankedFinding* cudf_oom = ranked(c, "gpu-out-of-memory");
  REQUIRE(cudf_oom != nullptr);
  CHECK(has_fix(cudf_oom->fixes_not_applicable, "one-tensorflow-process-per-gpu"));
  CHECK(has_fix(cudf_oom->fixes, "smaller-batches-or-bigger-gpu"));
}

TEST_CASE("the JSON report keeps the fixes that do not fit with the reason", "[cli]") {
  const std::string input = "corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json";
  const auto run = test::run_gpudiag({"analyze", "--format", "json", input});
  REQUIRE(run.exit_code == 0);
  simdjson::dom::parser parser;
  const auto doc = test::parse_json(parser, run.out);
  const auto oom = test::finding(doc["jobs"].at(0)["findings"], "gpu-out-of-memory");
  for (simdjson::dom::element x : oom["fixes"].get_array()) CHECK(std::string_view(x["id"]) != "enable-mps");
  bool seen = false;
  for (simdjson::dom::element x : oom["fixes_not_applicable"].get_array()) {
    if (std::string_view(x["id"]) != "enable-mps") continue;
    seen = true;
    CHECK_THAT(std::string(std::string_view(x["because"])), Catch::Contains("it needs sdk_processes_per_gpu >1"));
  }
  CHECK(seen);
  // The text report says how many it left out.
  CHECK_THAT(test::run_gpudiag({"analyze", input}).out,
             Catch::Contains("… and 2 fixes that do not fit this job (--format json says why)"));
}
