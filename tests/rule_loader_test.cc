// Rule files: every problem is a diagnostic with file:line:column, never a crash.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cstdlib>

#include "gpudiag/analyzer.h"
#include "gpudiag/rule_pack.h"
#include "pack/rule_keys.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

const char* const kGoodRule = test::kTestRule;

Diagnostics lint_one(const std::string& text) { return test::lint_rule(text); }

std::string replace(std::string text, const std::string& from, const std::string& to) {
  return test::replaced(std::move(text), from, to);
}

}  // namespace

TEST_CASE("a well-formed rule loads without problems", "[rules]") { CHECK(lint_one(kGoodRule).empty()); }

TEST_CASE("an invalid regex names file, line and column and says RE2", "[rules]") {
  const auto diags =
      lint_one(replace(kGoodRule, "'no capacity in (?P<zone>[a-z0-9-]+)'", "'cudaErrorMemoryAllocation(.*'"));
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].code == "rule-regex");
  CHECK(diags[0].line == 8);
  CHECK(diags[0].column == 9);
  CHECK_THAT(diags[0].file, Catch::EndsWith("rule.yaml"));
  const std::string rendered = render_with_source(diags[0]);
  CHECK_THAT(rendered, Catch::Contains("rule.yaml:8:9"));
  CHECK_THAT(rendered, Catch::Contains("8 |   text: 'cudaErrorMemoryAllocation(.*'"));
  CHECK_THAT(rendered, Catch::Contains("^"));
  CHECK_THAT(rendered, Catch::Contains("RE2"));
}

TEST_CASE("Python-style named groups get a hint", "[rules]") {
  const auto diags = lint_one(replace(kGoodRule, "(?P<zone>", "(?<zone>"));
  REQUIRE(diags.size() == 1);
  CHECK_THAT(diags[0].help, Catch::Contains("(?P<name>"));
}

TEST_CASE("a misspelt key is an error with a suggestion", "[rules]") {
  const auto diags = lint_one(replace(kGoodRule, "severity: error", "sevrity: error"));
  REQUIRE(diags.size() >= 1);
  bool suggested = false;
  for (const auto& d : diags) {
    if (d.code == "rule-unknown-key") {
      CHECK(d.line == 4);
      CHECK(d.help == "did you mean `severity`?");
      suggested = true;
    }
  }
  CHECK(suggested);
}

TEST_CASE("every problem in a file is reported, not only the first", "[rules]") {
  std::string text = replace(kGoodRule, "confidence: 0.8", "confidence: 1.7");
  text = replace(text, "family: capacity", "family: capcity");
  text = replace(text, "weight: 80", "weight: lots");
  const auto diags = lint_one(text);
  CHECK(diags.size() == 3);
}

TEST_CASE("a rule without a no_match example is refused", "[rules]") {
  const auto diags = lint_one(replace(kGoodRule, "  no_match:\n    - 'plenty of capacity'\n", ""));
  REQUIRE(diags.size() == 1);
  CHECK_THAT(diags[0].message, Catch::Contains("no_match"));
}

TEST_CASE("YAML syntax errors and alias bombs are diagnostics", "[rules]") {
  const auto syntax = lint_one("id: [unclosed\n");
  REQUIRE(syntax.size() == 1);
  CHECK(syntax[0].code == "rule-yaml");
  CHECK(syntax[0].line >= 1);

  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'j'; ++c) {
    bomb += std::string(1, c) + ": &" + c + " [*" + static_cast<char>(c - 1) + ", *" + static_cast<char>(c - 1) +
            ", *" + static_cast<char>(c - 1) + ", *" + static_cast<char>(c - 1) + ", *" + static_cast<char>(c - 1) +
            ", *" + static_cast<char>(c - 1) + ", *" + static_cast<char>(c - 1) + ", *" + static_cast<char>(c - 1) +
            ", *" + static_cast<char>(c - 1) + ", *" + static_cast<char>(c - 1) + "]\n";
  }
  const auto bombed = lint_one(bomb);
  REQUIRE(bombed.size() == 1);
  CHECK_THAT(bombed[0].message, Catch::Contains("aliases"));

  const auto deep = lint_one(std::string(100000, '[') + std::string(100000, ']'));
  REQUIRE(deep.size() == 1);
  CHECK_THAT(deep[0].message, Catch::Contains("nested"));
}

TEST_CASE("two rule files with the same id in one directory clash", "[rules]") {
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/a.yaml", kGoodRule);
  test::write_file(dir + "/b.yaml", kGoodRule);
  const auto diags = RulePack::lint(RuleSources{test::catalog_files(), {dir}});
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].code == "rule-duplicate-id");
}

TEST_CASE("a rule may not take the id reserved for errors no rule explains", "[rules]") {
  const auto diags = lint_one(replace(kGoodRule, "id: test-rule", "id: unexplained-error"));
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].code == "rule-id");
  CHECK(diags[0].message == "rule id `unexplained-error` is reserved for errors no rule explains");
  CHECK_THAT(diags[0].file, Catch::EndsWith("rule.yaml"));
  CHECK(diags[0].line == 1);
  CHECK(diags[0].column == 5);
  CHECK_THAT(render_with_source(diags[0]), Catch::Contains("1 | id: unexplained-error"));
  // Only the exact id is reserved: a rule about unexplained errors may still say so in its id.
  CHECK(lint_one(replace(kGoodRule, "id: test-rule", "id: unexplained-error-in-sink")).empty());
}

TEST_CASE("unknown facts and rule references are caught", "[rules]") {
  const auto fact = lint_one(replace(kGoodRule, "fixes:", "when: {gpu_requsted: true}\nfixes:"));
  REQUIRE(fact.size() == 1);
  CHECK(fact[0].code == "rule-unknown-fact");
  CHECK(fact[0].line == 9);
  CHECK(fact[0].help == "did you mean `gpu_requested`?");
  const auto reference = lint_one(replace(kGoodRule, "fixes:", "explains: [no-such-rule]\nfixes:"));
  REQUIRE(reference.size() == 1);
  CHECK(reference[0].code == "rule-reference");
  CHECK_THAT(reference[0].message, Catch::Contains("no-such-rule"));
}

TEST_CASE("a user directory overrides a built-in rule by id, or disables it", "[rules]") {
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/off.yaml", "id: gpu-out-of-memory\nenabled: false\n");
  auto pack = RulePack::load(RuleSources{builtin_rule_files(), {dir}});
  REQUIRE(pack.ok());
  const RuleInfo* oom = pack->find("gpu-out-of-memory");
  REQUIRE(oom != nullptr);
  CHECK_FALSE(oom->enabled);
  CHECK_THAT(pack->dump(), Catch::Contains("disabled gpu-out-of-memory"));

  const std::string dir2 = test::temp_dir();
  test::write_file(dir2 + "/mine.yaml", replace(kGoodRule, "id: test-rule", "id: zone-resource-pool-exhausted"));
  auto replaced = RulePack::load(RuleSources{builtin_rule_files(), {dir2}});
  REQUIRE(replaced.ok());
  CHECK(replaced->find("zone-resource-pool-exhausted")->title == "A test rule about {zone}");
  CHECK_FALSE(replaced->find("zone-resource-pool-exhausted")->builtin);
}

TEST_CASE("a pattern over RE2's memory budget is a diagnostic, not a crash", "[rules]") {
  // Repetitions nested past RE2's limit are refused by its parser; \pL{500} parses but its program
  // (every Unicode letter 500 times) is over the 8 MiB a pattern may take.
  const auto nested =
      lint_one(replace(kGoodRule, "'no capacity in (?P<zone>[a-z0-9-]+)'", "'((((a{100}){100}){100}){100})'"));
  REQUIRE(nested.size() == 1);
  CHECK(nested[0].code == "rule-regex");
  CHECK(nested[0].line == 8);
  const auto diags = lint_one(replace(kGoodRule, "'no capacity in (?P<zone>[a-z0-9-]+)'", "'\\pL{500}'"));
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].code == "rule-regex");
  CHECK(diags[0].line == 8);
  CHECK_THAT(diags[0].message, Catch::Contains("pattern too large"));
  CHECK(diags[0].help == "the pattern is over RE2's memory budget; simplify it");
}

TEST_CASE("a misspelt key in a fix names its place, line and column", "[rules]") {
  const auto diags = lint_one(replace(kGoodRule, "    weight: 80", "    wieght: 80"));
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].code == "rule-unknown-key");
  CHECK(diags[0].message == "unknown key `wieght` in a fix");
  CHECK(diags[0].line == 13);
  CHECK(diags[0].column == 5);
  CHECK(diags[0].help == "did you mean `weight`?");
}

TEST_CASE("a rule missing its required keys hears of each, in the key table's order", "[rules]") {
  const auto diags = lint_one("id: lonely-rule\ntitle: Lonely\n");
  std::vector<std::string> messages;
  for (const auto& d : diags) messages.push_back(d.message);
  CHECK(messages == std::vector<std::string>{"the rule has no `family`", "the rule has no `severity`",
                                             "the rule has no `confidence`", "the rule has no `description`",
                                             "the rule has no `fixes`", "the rule has no `examples`",
                                             "the rule has no `sources`",
                                             "the rule needs `match`, `absent` or `when`: nothing could make it fire"});
}

// docs/rules.md's generated parts: the key reference of every place, and the fact table. With
// GPUDIAG_UPDATE_GOLDENS=1 (tools/update-goldens) the doc is rewritten in place.
TEST_CASE("docs/rules.md's key reference is the reader's key table and its fact table the catalog", "[rules]") {
  const std::string path = test::source_dir() + "/docs/rules.md";
  std::string doc = test::read_file(path);
  const bool update = std::getenv("GPUDIAG_UPDATE_GOLDENS") != nullptr;
  const auto check = [&](const std::string& marker, const std::string& expected, const std::string& end) {
    const size_t at = doc.find(marker);
    INFO("docs/rules.md needs, after a line `" << marker << "`:\n" << expected);
    REQUIRE(at != std::string::npos);
    const size_t from = at + marker.size();
    if (update) {
      const size_t to = end.empty() ? from + expected.size() : doc.find(end, from);
      REQUIRE(to != std::string::npos);
      if (!end.empty()) doc.replace(from, to - from, expected);
    }
    CHECK(doc.substr(from, expected.size()) == expected);
    if (!end.empty()) CHECK(doc.compare(from + expected.size(), end.size(), end) == 0);
  };
  for (auto place :
       {detail::KeyPlace::kRule, detail::KeyPlace::kCount, detail::KeyPlace::kAfter, detail::KeyPlace::kAbsent,
        detail::KeyPlace::kFix, detail::KeyPlace::kDoc, detail::KeyPlace::kExamples, detail::KeyPlace::kExample,
        detail::KeyPlace::kExampleEntry, detail::KeyPlace::kPackFile, detail::KeyPlace::kConfidencePolicy,
        detail::KeyPlace::kQuietShape, detail::KeyPlace::kExtractor, detail::KeyPlace::kCatalogFact,
        detail::KeyPlace::kWrapper, detail::KeyPlace::kWrapperExample, detail::KeyPlace::kFixState}) {
    const std::string marker = fmt::format("<!-- key-reference: {} -->\n", detail::place_name(place));
    const std::string expected = detail::key_reference(place);
    if (update) {  // a key table ends at the first blank line
      const size_t at = doc.find(marker);
      REQUIRE(at != std::string::npos);
      const size_t from = at + marker.size();
      const size_t to = doc.find("\n\n", from);
      doc.replace(from, (to == std::string::npos ? doc.size() : to + 1) - from, expected);
    }
    check(marker, expected, "");
  }
  check("<!-- fact-reference -->\n", fact_reference(test::builtin_pack()), "<!-- end fact-reference -->");
  if (update) test::write_file(path, doc);
}

namespace {

Diagnostics lint_with_pack_file(const std::string& rule, const std::string& pack_file) {
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/rule.yaml", rule);
  test::write_file(dir + "/lists.yaml", pack_file);
  return RulePack::lint(RuleSources{test::catalog_files(), {dir}});
}

const char* kStatePack = R"(fix_states:
  - id: zone-spread
    meaning: the workers may start in any zone of the region
    holds_if: { any: [ { zone_pinned: false }, { worker_zone: unknown, region: known } ] }
    holds:
      - { zone_pinned: false }
    does_not_hold:
      - { zone_pinned: true, worker_zone: us-central1-a }
    sources: [made up for the tests]
)";

const char* kZoneMacro = "macros:\n  zone_chars: '[a-z0-9-]'\nlists:\n  capacity_words: [capacity, room]\n";

}  // namespace

TEST_CASE("a fix names a fix state that exists and the state holds on its examples", "[rules]") {
  const std::string achieving = replace(kGoodRule, "    weight: 80\n", "    weight: 80\n    achieves: zone-spread\n");
  CHECK(lint_with_pack_file(achieving, kStatePack).empty());
  // A state the pack does not define, with the closest one suggested.
  const auto unknown = lint_with_pack_file(replace(achieving, "zone-spread", "zone-sprad"), kStatePack);
  REQUIRE(unknown.size() == 1);
  CHECK(unknown[0].code == "rule-reference");
  CHECK_THAT(unknown[0].message, Catch::Contains("`zone-sprad`, which is not a fix state"));
  CHECK_THAT(unknown[0].help, Catch::Contains("zone-spread"));
  // One way to say when a fix is in place.
  const auto both = lint_with_pack_file(replace(achieving, "    achieves: zone-spread\n",
                                                "    achieves: zone-spread\n    demote_if: { zone_pinned: false }\n"),
                                        kStatePack);
  REQUIRE_FALSE(both.empty());
  CHECK_THAT(both[0].message, Catch::Contains("not both"));
  // A state that does not hold on a `holds` example, or holds on a `does_not_hold` one, is refused
  // at its example's line; an unknown fact is named.
  const auto wrong = lint_with_pack_file(
      achieving, replace(kStatePack, "      - { zone_pinned: false }\n", "      - { zone_pinned: true }\n"));
  REQUIRE_FALSE(wrong.empty());
  CHECK(wrong[0].code == "rule-example");
  CHECK(wrong[0].line == 6);
  CHECK_THAT(wrong[0].message, Catch::Contains("`holds` example: the state does not hold"));
  const auto fact =
      lint_with_pack_file(achieving, replace(kStatePack, "{ zone_pinned: false }\n", "{ zone_pined: false }\n"));
  REQUIRE_FALSE(fact.empty());
  CHECK(fact[0].code == "rule-unknown-fact");
}

TEST_CASE("lists and macros expand in a rule's patterns", "[rules]") {
  const std::string rule = replace(kGoodRule, "'no capacity in (?P<zone>[a-z0-9-]+)'",
                                   "'no (?:${capacity_words}) in (?P<zone>${zone_chars}+)'");
  CHECK(lint_with_pack_file(rule, kZoneMacro).empty());
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/rule.yaml", rule);
  test::write_file(dir + "/lists.yaml", kZoneMacro);
  auto pack = RulePack::load(RuleSources{test::catalog_files(), {dir}});
  REQUIRE(pack);
  CHECK_THAT(pack->dump(), Catch::Contains("match text =~ /no (?:capacity|room) in (?P<zone>[a-z0-9-]+)/"));
}

TEST_CASE("an undefined list or macro is named at its place, with a suggestion", "[rules]") {
  const std::string rule =
      replace(kGoodRule, "'no capacity in (?P<zone>[a-z0-9-]+)'", "'no ${capacity_words} in (?P<zone>${zone_char}+)'");
  const auto diags = lint_with_pack_file(rule, kZoneMacro);
  REQUIRE(diags.size() == 2);
  CHECK(diags[0].code == "rule-reference");
  CHECK(diags[0].message == "`${zone_char}` names no list or macro");
  CHECK(diags[0].line == 8);
  CHECK(diags[0].column == 9 + 1 + 33);  // the quote, then the offset of `${`
  CHECK(diags[0].help == "did you mean `zone_chars`?");
  CHECK(diags[1].message == "macro `zone_chars` is defined but no rule uses it");
  CHECK_THAT(diags[1].file, Catch::EndsWith("lists.yaml"));
  CHECK(diags[1].line == 2);
  CHECK(diags[1].column == 3);
}

TEST_CASE("a wrapper's examples are proven where the pack is read, each wrong one at its line", "[rules]") {
  const std::string wrappers =
      "wrappers:\n"
      "  - '^\\s*Error message from worker:\\s*'\n"  // a pattern alone still reads
      "  - pattern: '^[a-z_]+::[a-z_]+:\\s*'\n"
      "    examples:\n"
      "      - text: 'generic::unknown: Traceback'\n"
      "        leaves: 'Traceback'\n"
      "      - text: 'generic::unknown: x'\n"
      "        leaves: 'generic::unknown: x'\n"  // the example of line 7: the wrapper does take it off
      "  - pattern: 'x'\n"
      "    example: []\n";  // line 10: not a key of a wrapper
  const auto diags = lint_with_pack_file(kGoodRule, wrappers);
  REQUIRE(diags.size() == 2);
  CHECK(diags[0].code == "rule-example");
  CHECK(diags[0].line == 7);
  CHECK(diags[0].message == "the wrapper leaves \"x\" of this example's text, not \"generic::unknown: x\"");
  CHECK(diags[1].code == "rule-unknown-key");
  CHECK(diags[1].line == 10);
  CHECK(diags[1].help == "did you mean `examples`?");
  // An example written as a flow mapping reads as well.
  CHECK(lint_with_pack_file(kGoodRule, "wrappers:\n  - pattern: '^a'\n    examples:\n      - {text: ab, leaves: b}\n")
            .empty());
}

TEST_CASE("a pack file's keys are checked like a rule's", "[rules]") {
  const auto diags = lint_with_pack_file(kGoodRule, "list:\n  a: [b]\nmacros:\n  Bad-Name: 'x'\n");
  REQUIRE(diags.size() >= 1);
  CHECK(diags[0].message == "unknown key `list` in a pack file");
  CHECK(diags[0].help == "did you mean `lists`?");
  REQUIRE(diags.size() == 2);
  CHECK(diags[1].message == "macro name `Bad-Name` is not snake_case");
}

namespace {

// One worker entry; the quiet-shape test below varies its severity and message.
std::string worker_entry(int n, const std::string& severity, const std::string& message) {
  return fmt::format(
      R"({{"insertId":"q{}","timestamp":"2026-03-02T09:00:0{}Z","severity":"{}","logName":"projects/p/logs/)"
      R"(dataflow.googleapis.com%2Fworker","jsonPayload":{{"message":"{}"}}}})",
      n, n, severity, message);
}

std::vector<std::string> fired(const RulePack& pack, const std::string& ndjson) {
  const std::string path = test::temp_dir() + "/export.ndjson";
  test::write_file(path, ndjson);
  auto d = analyze(pack, {path}, AnalysisOptions{.threads = 1});
  REQUIRE(d);
  std::vector<std::string> ids;
  for (const auto& f : d->findings) ids.push_back(f.rule_id + "×" + std::to_string(f.count));
  return ids;
}

}  // namespace

TEST_CASE("a quiet shape of the pack's policy is never evidence, except of the rules it names", "[rules]") {
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/rule.yaml", kGoodRule);
  test::write_file(dir + "/policy.yaml",
                   "quiet:\n"
                   "  - {name: debug-chatter, severity: [DEBUG]}\n"
                   "  - {name: help-text, message: 'show this help message and exit', severity: [INFO, ERROR]}\n");
  auto pack = RulePack::load(RuleSources{{}, {dir}});
  REQUIRE(pack);
  CHECK_THAT(pack->dump(), Catch::Contains("quiet debug-chatter severity=[DEBUG] message=- except=[]"));
  // The same failure text at DEBUG, and inside help text, is not evidence; at ERROR alone it is.
  CHECK(fired(*pack, worker_entry(1, "DEBUG", "no capacity in us-central1-a")).empty());
  CHECK(fired(*pack, worker_entry(2, "INFO", "-h, --help  show this help message and exit; no capacity in a")).empty());
  CHECK(fired(*pack, worker_entry(1, "DEBUG", "no capacity in us-central1-a") + "\n" +
                         worker_entry(3, "ERROR", "no capacity in us-central1-a")) ==
        std::vector<std::string>{"test-rule×1"});
  // A DEFAULT entry (a projected export has no severity) is not DEBUG: it stays evidence.
  CHECK(fired(*pack, worker_entry(4, "DEFAULT", "no capacity in us-central1-a")) ==
        std::vector<std::string>{"test-rule×1"});

  test::write_file(dir + "/policy.yaml", "quiet:\n  - {name: debug-chatter, severity: DEBUG, except: test-rule}\n");
  auto excepted = RulePack::load(RuleSources{{}, {dir}});
  REQUIRE(excepted);
  CHECK(fired(*excepted, worker_entry(1, "DEBUG", "no capacity in us-central1-a")) ==
        std::vector<std::string>{"test-rule×1"});

  const auto diags = lint_with_pack_file(
      kGoodRule, "quiet:\n  - {name: a, severity: LOUD}\n  - {severity: DEBUG}\n  - {name: b, mesage: x}\n");
  REQUIRE(diags.size() == 3);
  CHECK(diags[0].message == "unknown log severity `LOUD`");
  CHECK(diags[1].message == "a quiet shape needs a `name` and a `severity` or `message`");
  CHECK(diags[2].message == "unknown key `mesage` in a quiet shape");
  CHECK(diags[2].help == "did you mean `message`?");
  // An `except` naming a rule the pack does not hold is ignored (a rule directory's own pack).
  test::write_file(dir + "/policy.yaml", "quiet:\n  - {name: a, severity: DEBUG, except: no-such-rule}\n");
  REQUIRE(RulePack::load(RuleSources{{}, {dir}}));
}

TEST_CASE("the pack's policy is data in a pack file, checked like rules", "[rules]") {
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/rule.yaml", kGoodRule);
  test::write_file(dir + "/policy.yaml", "families: {capacity: symptom}\nconfidence: {weak_only: 0.25}\n");
  auto pack = RulePack::load(RuleSources{test::catalog_files(), {dir}});
  REQUIRE(pack);
  CHECK(pack->policy().role_of("capacity") == FamilyRole::kSymptom);
  CHECK(pack->policy().role_of("runtime") == FamilyRole::kCause);
  CHECK(pack->policy().confidence.weak_only == 0.25);
  CHECK(pack->policy().confidence.unknown_fact == 0.8);
  CHECK_THAT(pack->dump(), Catch::Contains("policy symptoms=[capacity] weak_only=0.25 unknown_fact=0.80"));

  const auto diags = lint_with_pack_file(kGoodRule, "families: {capcity: symptom}\nconfidence: {weak: 0.5}\n");
  REQUIRE(diags.size() == 2);
  CHECK(diags[0].message == "unknown family `capcity`");
  CHECK(diags[0].help == "did you mean `capacity`?");
  CHECK(diags[1].message == "unknown key `weak` in confidence");
  CHECK(diags[1].line == 2);
}

TEST_CASE("a pack file's frameworks are RE2 patterns, checked at their line", "[rules]") {
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/rule.yaml", kGoodRule);
  test::write_file(dir + "/frameworks.yaml", "frameworks:\n  - 'my_company_lib/'\n");
  auto pack = RulePack::load(RuleSources{{}, {dir}});
  REQUIRE(pack);
  CHECK(pack->policy().framework_frames == std::vector<std::string>{"my_company_lib/"});
  CHECK_THAT(pack->dump(), Catch::Contains("frameworks my_company_lib/\n"));

  const auto diags = lint_with_pack_file(kGoodRule, "frameworks:\n  - 'apache_beam/'\n  - 'site-packages/(torch'\n");
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].code == "rule-regex");
  CHECK(diags[0].line == 3);
}

TEST_CASE("`identity:` names named groups of the rule's patterns, with a suggestion", "[rules]") {
  CHECK(lint_one(replace(kGoodRule, "fixes:", "identity: [zone]\nfixes:")).empty());
  CHECK(lint_one(replace(kGoodRule, "fixes:", "identity: []\nfixes:")).empty());
  auto diags = lint_one(replace(kGoodRule, "fixes:", "identity: [zone, zome]\nfixes:"));
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].code == "rule-reference");
  CHECK(diags[0].message == "`identity` names `zome`, which is not a named group of the rule's patterns");
  CHECK(diags[0].help == "did you mean `zone`?");
  CHECK(diags[0].line == 9);
  CHECK(diags[0].column == 18);
  diags = lint_one(replace(kGoodRule, "fixes:", "identity: [region]\nfixes:"));
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].help == "its named groups: zone");
  diags = lint_one(replace(kGoodRule, "fixes:", "identity: zone\nfixes:"));
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].code == "rule-type");
}

TEST_CASE("generic errors and advice lines are proven where the pack is read: examples found, near misses not",
          "[rules]") {
  const std::string causes =
      "generic_errors:\n"
      "  - pattern: 'Engine core initialization failed'\n"
      "    sources: [vllm-project/vllm#23176]\n"
      "    examples: ['RuntimeError: Engine core initialization failed. See root cause above.']\n"
      "    near_misses: ['ValueError: Free memory on device']\n"
      "advice_lines:\n"
      "  - pattern: '^For debugging'\n"
      "    sources: [pytorch/pytorch c10/cuda/CUDAMiscFunctions.cpp]\n"
      "    examples: ['CUDA kernel errors might be asynchronously reported']\n"         // line 9: not found
      "    near_misses: ['For debugging consider passing CUDA_LAUNCH_BLOCKING=1.']\n";  // line 10: found
  const auto diags = lint_with_pack_file(kGoodRule, causes);
  REQUIRE(diags.size() == 2);
  CHECK(diags[0].code == "rule-example");
  CHECK(diags[0].line == 9);
  CHECK(diags[0].message == "the pattern does not find this example");
  CHECK(diags[1].line == 10);
  CHECK(diags[1].message == "the pattern finds this near miss");
  // Without examples or sources a line pattern is refused.
  const auto bare = lint_with_pack_file(kGoodRule, "generic_errors:\n  - pattern: 'x'\n");
  REQUIRE(bare.size() == 1);
  CHECK(bare[0].code == "rule-type");
}

TEST_CASE("a line format's examples are read to their level and text where the pack is read", "[rules]") {
  const std::string formats =
      "line_formats:\n"
      "  - name: vllm\n"
      "    starts: ['(', 'ERROR ']\n"
      "    pattern: '(?:\\((?P<process>\\w+ pid=\\d+)\\) )?(?P<level>INFO|ERROR) \\d\\d-\\d\\d "
      "\\d\\d:\\d\\d:\\d\\d \\[[\\w.]+:\\d+\\] (?P<text>.*)'\n"
      "    sources: [vllm-project/vllm#18730]\n"
      "    examples:\n"
      "      - line: 'ERROR 05-23 09:31:47 [core.py:396] EngineCore failed to start.'\n"
      "        level: ERROR\n"
      "        text: 'EngineCore failed to start.'\n"
      "      - line: 'INFO 05-23 09:31:22 [loader.py:458] Loading weights took 38.52 seconds'\n"  // line 10
      "        level: INFO\n"
      "        text: 'Loading weights'\n";  // wrong text, and INFO is not in `starts`
  const auto diags = lint_with_pack_file(kGoodRule, formats);
  REQUIRE(diags.size() == 2);
  CHECK(diags[0].code == "rule-example");
  CHECK(diags[0].message == "the format reads level INFO and text \"Loading weights took 38.52 seconds\" of this line");
  CHECK(diags[1].line == 10);
  CHECK(diags[1].message == "the line starts with none of `starts`");
  const auto no_text = lint_with_pack_file(
      kGoodRule,
      "line_formats:\n  - name: x\n    starts: ['x']\n    pattern: 'x(?P<level>E)'\n    sources: [s]\n"
      "    examples: [{line: xE, level: ERROR, text: ''}]\n");
  REQUIRE(no_text.size() == 1);
  CHECK(no_text[0].message == "a line format's pattern needs a named group `text`");
}
