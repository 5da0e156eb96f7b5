// Unknown failures get a concrete first step (issue 41, item 2): an error group the report holds as
// the cause ranks its own fix first — what failed and where, and a step by the error's kind
// (rules/first-steps.yaml) — and its symptoms' fixes ("find the failed attempts") wait with the
// other symptoms' fixes.
#include <catch2/catch.hpp>

#include "gpudiag/report.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

const RankedFix* fix_with_id(const RankedReport& r, std::string_view id) {
  for (const auto& f : r.fixes) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("the pack's first steps load with their examples proven", "[rules]") {
  const auto& steps = test::builtin_pack().policy().first_steps;
  REQUIRE(steps.size() >= 5);
  CHECK(steps.front().id == "cuda-asynchronous-error");
  for (const auto& s : steps) {
    INFO(s.id);
    CHECK_FALSE(s.action.empty());
    CHECK(s.doc.url.rfind("https://", 0) == 0);
  }
}

TEST_CASE("a first step whose example its pattern misses is a load error at the example's line", "[rules]") {
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/steps.yaml", R"(first_steps:
  - id: module-missing
    pattern: 'No module named ''(?P<module>\w+)'''
    action: 'Install {module}'
    command: 'python -c "import {module}"'
    doc: { title: T, section: S, url: 'https://example.com/x' }
    examples:
      - "ModuleNotFoundError: No module named 'cv2'"
      - "ImportError: cannot import name 'x' from 'y'"
    sources: [made up for the tests]
  - id: bad-placeholder
    pattern: 'boom (?P<what>\w+)'
    action: 'Fix {whta}'
    doc: { title: T, section: S, url: 'https://example.com/x' }
    examples: ['boom x']
    sources: [made up for the tests]
  - id: splitting-command
    pattern: 'boom (?P<what>\w+)'
    action: 'Fix {what}'
    command: 'pip install {what}; pip check'
    doc: { title: T, section: S, url: 'https://example.com/x' }
    examples: ['boom x']
    sources: [made up for the tests]
)");
  const auto diags = RulePack::lint(RuleSources{test::catalog_files(), {dir}});
  REQUIRE(diags.size() == 3);
  CHECK(diags[0].code == "rule-example");
  CHECK(diags[0].line == 9);
  CHECK(diags[1].code == "rule-reference");
  CHECK_THAT(diags[1].message, Catch::Contains("`{whta}`"));
  CHECK(diags[2].code == "rule-fixes");
  CHECK_THAT(diags[2].message, Catch::Contains("`;`"));
}

TEST_CASE("a missing module's group ranks its first step first, with the module in a command", "[rules]") {
  // The launch's own import fails: the Flex Template launcher logs the program's traceback one line
  // an entry at INFO (python-docs-samples#4891's shape). python-module-missing, the rule, reads the
  // workers' logs only, so here the module is an unexplained group led by its first step.
  const std::vector<std::string> lines = {
      "Traceback (most recent call last):",
      "  File \"/dataflow/template/main.py\", line 3, in <module>",
      "    import embed_pipeline.transforms",
      "ModuleNotFoundError: No module named 'embed_pipeline.transforms'",
  };
  std::string text;
  for (size_t k = 0; k < lines.size(); ++k) {
    text += test::log_entry_line(fmt::format("2024-01-01T10:00:00.{:06}Z", 100 + 10 * k), "launcher", lines[k], "INFO",
                                 "launcher-202401010000001", fmt::format("mnf{}", k));
  }
  const Analysis a = test::analyze_text(text, "export.ndjson");
  CHECK(a.findings.empty());
  REQUIRE_FALSE(a.unexplained.empty());
  const UnexplainedGroup& g = a.unexplained.front();
  CHECK(g.first_step.id == "python-module-missing");
  CHECK_THAT(g.first_step.action, Catch::Contains("provides embed_pipeline.transforms"));
  CHECK(g.first_step.command == R"(python -c "import embed_pipeline.transforms")");
  CHECK(g.first_step.doc.title == "Manage pipeline dependencies in Dataflow");
}

TEST_CASE("an error of the user's code leads the fixes and the failed attempts' fix waits", "[rules]") {
  const Analysis a = test::analyze_case("corpus/user-dofn-valueerror-python");
  const RankedReport r = rank(a);
  REQUIRE_FALSE(r.fixes.empty());
  const RankedFix& first = r.fixes.front();
  CHECK(first.id == a.unexplained.front().fingerprint);
  // What failed and where, in the fix itself.
  CHECK_THAT(first.action, Catch::StartsWith("Fix the error the pipeline's own code raised: ValueError: Input contains "
                                             "NaN") &&
                               Catch::Contains("pipeline.py:88 in process, step 'Embed'"));
  CHECK_THAT(first.reasons.at(0), Catch::Contains("U1 (8 entries") && Catch::Contains("2 workers"));
  // work-item-failed is a symptom of the group: its fixes rank below and text leaves them out.
  const RankedFix* attempts = fix_with_id(r, "find-the-four-failures");
  REQUIRE(attempts != nullptr);
  CHECK(attempts->rank > 1);
  const auto text = test::run_gpudiag({"analyze", "corpus/user-dofn-valueerror-python/export.json"});
  CHECK_THAT(text.out, Catch::Contains("  1. Fix the error the pipeline's own code raised: ValueError"));
  CHECK_THAT(text.out, !Catch::Contains("Find the four failed attempts"));
}

TEST_CASE("the error a wrapper names as its cause gets no step of its own", "[rules]") {
  // tritonserver logs why it stopped on stderr, then the DoFn raises "tritonserver exited with code 1".
  // triton-model-load-failed knows this reason; a pack without it sees two groups, the wrapper's and
  // the logged cause's, as it would for a reason no rule knows.
  const std::string rules = test::temp_dir();
  test::write_file(rules + "/off.yaml", "id: triton-model-load-failed\nenabled: false\n");
  auto pack = RulePack::load(RuleSources{builtin_rule_files(), {rules}});
  REQUIRE(pack);
  const std::string dir = "corpus/triton-model-repository-incomplete";
  auto analysed = analyze(*pack, {dir + "/export.json"}, AnalysisOptions{});
  REQUIRE(analysed);
  const Analysis& a = *analysed;
  const RankedReport r = rank(a);
  REQUIRE(r.unexplained.size() == 2);
  const UnexplainedGroup& wrapper = *r.unexplained[0].group;
  const UnexplainedGroup& logged = *r.unexplained[1].group;
  CHECK(wrapper.exception_type == "RuntimeError");
  CHECK(wrapper.cause_group == logged.fingerprint);
  CHECK(logged.cause_group.empty());
  CHECK(fix_with_id(r, wrapper.fingerprint) != nullptr);
  CHECK(fix_with_id(r, logged.fingerprint) == nullptr);
  const auto text =
      test::run_gpudiag({"analyze", "--rules", rules, "corpus/triton-model-repository-incomplete/export.json"});
  CHECK_THAT(text.out, Catch::Contains("the cause U1 names"));
  CHECK_THAT(text.out, !Catch::Contains("Start from the first error before the failure"));
}

TEST_CASE("corpus: wherever an error group is the most likely cause the first fix names it", "[rules][golden]") {
  size_t cases = 0;
  for (const auto& dir : test::corpus_cases()) {
    const Analysis a = test::analyze_case(dir);
    const RankedReport r = rank(a);
    if (r.unexplained.empty() || r.unexplained.front().folded() || r.unexplained.front().severity() < Impact::kError)
      continue;
    INFO(dir);
    ++cases;
    REQUIRE_FALSE(r.fixes.empty());
    CHECK(r.fixes.front().id == r.unexplained.front().group->fingerprint);
    CHECK_THAT(r.fixes.front().action, Catch::Contains(unexplained_headline(*r.unexplained.front().group)));
  }
  CHECK(cases >= 8);  // the corpus has that many failures no rule knows
}
