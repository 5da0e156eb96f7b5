// Markdown, SARIF and GitHub as issue 16 wants them: what a reader copies is in code spans and the
// fixes come first; SARIF URIs are relative to a base, rules carry help.markdown, symptoms are never
// errors, input problems are notifications; GitHub annotates symptoms as notices.
#include <fmt/format.h>
#include <simdjson.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "gpudiag/formats.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

const char* kOom = "corpus/gpu-oom-then-sdk-disconnected-work-item-failed";

std::string sarif_of(const Analysis& d, bool deterministic = true) {
  RenderOptions o;
  o.deterministic = deterministic;
  o.version = "test";
  o.working_directory = std::filesystem::current_path().string();  // as the CLI sets it
  return render_sarif(rank(d), test::builtin_pack().rules(), o);
}

}  // namespace

TEST_CASE("Markdown prose puts flags identifiers paths and resource names in code spans", "[unit][reports]") {
  // The fix text of rules/runtime/gpu-out-of-memory.yaml, one-sdk-process-per-gpu.
  CHECK(markdown_prose("Run one SDK process per worker with --experiments=no_use_multiple_sdk_containers (and tune "
                       "--number_of_worker_harness_threads)") ==
        "Run one SDK process per worker with `--experiments=no_use_multiple_sdk_containers` (and tune "
        "`--number_of_worker_harness_threads`)");
  CHECK(markdown_prose("Give each SDK process more RAM: n1-standard-4 → n1-highmem-4, or 1 SDK process per worker") ==
        "Give each SDK process more RAM: `n1-standard-4` → `n1-highmem-4`, or 1 SDK process per worker");
  CHECK(markdown_prose("Put /usr/local/nvidia/lib64 on LD_LIBRARY_PATH") ==
        "Put `/usr/local/nvidia/lib64` on `LD_LIBRARY_PATH`");
  CHECK(markdown_prose("docker pull gcr.io/p/app:1.2, then retry") == "docker pull `gcr.io/p/app:1.2`, then retry");
  // JAX's message as the gpu-out-of-memory description quotes it.
  CHECK(markdown_prose("JAX/XLA \"RESOURCE_EXHAUSTED: Out of memory\"") ==
        "JAX/XLA \"`RESOURCE_EXHAUSTED`: Out of memory\"");
  // Prose stays prose, markup stays escaped.
  CHECK(markdown_prose("Retry the job; if workers go silent again, use 1-vCPU types and/or *more* RAM") ==
        "Retry the job; if workers go silent again, use 1-vCPU types and/or \\*more\\* RAM");
  // A code span holding a backtick has a longer fence (CommonMark); nothing is backslash-escaped in it.
  CHECK(markdown_prose("value a`b_c here") == "value ``a`b_c`` here");
  CHECK(markdown_prose("x_y") == "`x_y`");
  // Block markers are escaped where the text starts a line, not in mid-sentence; versions stay prose.
  CHECK(markdown_prose("- ln -s a b on x86-64") == "\\- ln -s a b on x86-64");
  CHECK(markdown_prose("nvidia-l4 in us-central1") == "`nvidia-l4` in `us-central1`");
}

TEST_CASE("Markdown: fixes right after the verdict and no escaped flags", "[unit][reports]") {
  const std::string md = render_markdown(rank(test::analyze_case(kOom)), RenderOptions{.deterministic = true});
  const size_t fixes = md.find("### Fixes, best first");
  const size_t causes = md.find("### Root causes");
  REQUIRE(fixes != std::string::npos);
  REQUIRE(causes != std::string::npos);
  CHECK(fixes < causes);
  CHECK(md.find("no\\_use") == std::string::npos);
  CHECK_THAT(md, Catch::Contains("`--experiments=no_use_multiple_sdk_containers`"));
  CHECK_THAT(md, Catch::Contains("`corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json:488`"));
}

TEST_CASE("SARIF: relative URIs with a base id and never file:///", "[unit][reports]") {
  // Inside the working directory (tests run from the repository root): %SRCROOT%.
  const std::string inside = sarif_of(test::analyze_case(kOom));
  CHECK(inside.find("file://") == std::string::npos);
  simdjson::dom::parser parser;
  simdjson::dom::element run = parser.parse(inside)["runs"].at(0);
  simdjson::dom::element at = run["results"].at(0)["locations"].at(0)["physicalLocation"]["artifactLocation"];
  CHECK(std::string_view(at["uri"]) == "corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json");
  CHECK(std::string_view(at["uriBaseId"]) == "%SRCROOT%");
  CHECK(run["originalUriBaseIds"]["%SRCROOT%"].error() == simdjson::SUCCESS);

  // Outside it (a temporary directory): its own base id, the file name as the URI; the base's
  // absolute URI only when not deterministic.
  const Analysis outside = test::analyze_text(test::read_file(std::string(kOom) + "/export.json"), "oom export.json");
  REQUIRE(!outside.inputs.empty());
  REQUIRE(outside.inputs[0].path.front() == '/');
  const std::string deterministic = sarif_of(outside);
  CHECK(deterministic.find("file://") == std::string::npos);
  simdjson::dom::parser p2;
  simdjson::dom::element run2 = p2.parse(deterministic)["runs"].at(0);
  simdjson::dom::element at2 = run2["results"].at(0)["locations"].at(0)["physicalLocation"]["artifactLocation"];
  CHECK(std::string_view(at2["uri"]) == "oom%20export.json");
  CHECK(std::string_view(at2["uriBaseId"]) == "INPUT_DIR_1");
  const std::string full = sarif_of(outside, false);
  simdjson::dom::parser p3;
  simdjson::dom::element bases = p3.parse(full)["runs"].at(0)["originalUriBaseIds"];
  const std::string dir = std::filesystem::path(outside.inputs[0].path).parent_path().string();
  CHECK(std::string_view(bases["INPUT_DIR_1"]["uri"]) == "file://" + dir + "/");
  CHECK(std::string_view(bases["%SRCROOT%"]["uri"]) == "file://" + std::filesystem::current_path().string() + "/");
}

TEST_CASE("SARIF: every rule has help.markdown with its fixes and doc links", "[unit][reports]") {
  const std::string sarif = sarif_of(test::analyze_case(kOom));
  simdjson::dom::parser parser;
  size_t rules = 0;
  for (simdjson::dom::element rule : parser.parse(sarif)["runs"].at(0)["tool"]["driver"]["rules"].get_array()) {
    ++rules;
    const std::string_view md = rule["help"]["markdown"];
    INFO(std::string_view(rule["id"]));
    CHECK_THAT(std::string(md), Catch::Contains("**Fixes, best first**") && Catch::Contains("](https://"));
  }
  CHECK(rules == test::builtin_pack().rules().size());
}

TEST_CASE("SARIF and GitHub: symptoms are never errors", "[unit][reports]") {
  // The OOM case: gpu-out-of-memory is the cause; workflow-failed, work-item-failed … are folded under it.
  const Analysis oom = test::analyze_case(kOom);
  const RankedReport report = rank(oom);
  const std::string sarif = render_sarif(report, test::builtin_pack().rules(), RenderOptions{.deterministic = true});
  simdjson::dom::parser parser;
  std::map<std::string, std::string> levels;
  for (simdjson::dom::element r : parser.parse(sarif)["runs"].at(0)["results"].get_array()) {
    levels[std::string(std::string_view(r["ruleId"]))] = std::string(std::string_view(r["level"]));
  }
  CHECK(levels["gpu-out-of-memory"] == "error");
  CHECK(levels["workflow-failed"] == "note");
  CHECK(levels["work-item-failed"] == "note");
  CHECK(levels["sdk-harness-disconnected"] == "note");
  const std::string gh = render_github(report, RenderOptions{.deterministic = true});
  CHECK_THAT(gh, Catch::Contains("::error file=corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json,"
                                 "line=488,title=gpudiag%3A GPU ran out of memory::"));
  CHECK_THAT(gh, Catch::Contains("::notice file=corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json,"
                                 "line=170,title=gpudiag%3A The Dataflow job failed::"));
  CHECK(gh.find("::error file=corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json,line=170") ==
        std::string::npos);

  // Symptoms alone (no cause in the export): at most warnings.
  const Analysis symptoms = test::analyze_case("corpus/work-item-failed-old-wording-symptoms-only");
  const RankedReport alone = rank(symptoms);
  REQUIRE(!alone.findings.empty());
  simdjson::dom::parser p2;
  const std::string sarif2 = render_sarif(alone, test::builtin_pack().rules(), RenderOptions{.deterministic = true});
  for (simdjson::dom::element r : p2.parse(sarif2)["runs"].at(0)["results"].get_array()) {
    INFO(std::string_view(r["ruleId"]));
    CHECK(std::string_view(r["level"]) != "error");
  }
  CHECK(render_github(alone, RenderOptions{.deterministic = true}).find("::error ") == std::string::npos);
}

TEST_CASE("SARIF notifications and GitHub warnings carry the input problems", "[unit][reports]") {
  // corpus/messy-malformed-line-ndjson: one line is not JSON and is skipped.
  const Analysis messy = test::analyze_case("corpus/messy-malformed-line-ndjson");
  const RankedReport report = rank(messy);
  const std::string sarif = render_sarif(report, test::builtin_pack().rules(), RenderOptions{.deterministic = true});
  simdjson::dom::parser parser;
  simdjson::dom::element notes = parser.parse(sarif)["runs"].at(0)["invocations"].at(0)["toolExecutionNotifications"];
  REQUIRE(simdjson::dom::array(notes).size() >= 1);
  CHECK(std::string_view(notes.at(0)["level"]) == "warning");
  CHECK(std::string_view(notes.at(0)["descriptor"]["id"]) == "entry-skipped");
  CHECK(std::string_view(notes.at(0)["locations"].at(0)["physicalLocation"]["artifactLocation"]["uriBaseId"]) ==
        "%SRCROOT%");
  CHECK_THAT(render_github(report, RenderOptions{.deterministic = true}),
             Catch::Contains("::warning file=corpus/messy-malformed-line-ndjson/export.ndjson,line=31,"
                             "title=gpudiag%3A entry skipped::"));
}
