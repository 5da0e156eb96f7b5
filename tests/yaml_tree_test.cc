// The YAML reader rule and baseline files share (gpudiag/yaml_tree.h): LF and CRLF line endings give
// the same tree with the same positions, and problems point at the right line and column in both.
#include "gpudiag/yaml_tree.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <catch2/catch.hpp>

#include "gpudiag/baseline.h"
#include "gpudiag/rule_pack.h"
#include "pack/rule_tree.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

const yaml::ParseErrors kErrors{DiagnosticCode::kBaselineYaml, "test"};

std::string with_crlf(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

// The tree with every node's kind, line, column and text (the form gpudiag-rulec embeds).
std::string dump(const std::string& text) {
  const Result<yaml::Node> tree = yaml::parse(text, "t.yaml", kErrors);
  REQUIRE(tree.ok());
  return detail::tree_to_json(*tree);
}

std::string where(const Diagnostic& d) {
  return fmt::format("{}:{}:{} {} [{}]", d.file, d.line, d.column, d.code, d.source_line);
}

std::vector<std::string> where_all(const Diagnostics& ds) {
  std::vector<std::string> out;
  for (const Diagnostic& d : ds) out.push_back(where(d));
  return out;
}

Diagnostics lint_rule(const std::string& text) {
  static const std::string dir = test::temp_dir();  // one path, so diagnostics compare equal
  test::write_file(dir + "/rule.yaml", text);
  return RulePack::lint(RuleSources{builtin_rule_files(), {dir}});  // the pack's lists and policy
}

const char* kBaseline = R"(# accepted findings
version: 1
suppress:
  - rule: gpu-out-of-memory
    fingerprint: gpu-out-of-memory/8f0828455c766f42
    reason: |
      staging runs on P4s
      tracked in OPS-123
    expires: 2031-12-31
  - {rule: a, fingerprint: a/1, reason: "r"}
)";

}  // namespace

TEST_CASE("a rule file reads the same with LF and CRLF line endings", "[unit][yaml]") {
  const std::string path = test::source_dir() + "/rules/gpu-software/cuda-driver-too-old.yaml";
  const std::string lf = test::read_file(path);
  REQUIRE(lf.find('\n') != std::string::npos);
  REQUIRE(lf.find('\r') == std::string::npos);
  const std::string crlf = with_crlf(lf);
  CHECK(dump(crlf) == dump(lf));
  CHECK(lint_rule(lf).empty());
  CHECK(lint_rule(crlf).empty());

  // A problem in either points at the same line and column and shows the line without its `\r`.
  const std::string bad = "id: test-rule\nseverity: eror\n";
  const Diagnostics from_lf = lint_rule(bad);
  REQUIRE(!from_lf.empty());
  CHECK(where_all(lint_rule(with_crlf(bad))) == where_all(from_lf));
  const auto syntax_lf = detail::parse_rule_yaml("id: x\nmatch: [a, b\nseverity: error\n", "r.yaml");
  const auto syntax_crlf = detail::parse_rule_yaml(with_crlf("id: x\nmatch: [a, b\nseverity: error\n"), "r.yaml");
  REQUIRE((!syntax_lf.ok() && !syntax_crlf.ok()));
  CHECK(syntax_lf.error().code == "rule-yaml");
  CHECK(where(syntax_crlf.error()) == where(syntax_lf.error()));
}

TEST_CASE("a baseline file reads the same with LF and CRLF line endings", "[unit][yaml][baseline]") {
  const std::string crlf = with_crlf(kBaseline);
  CHECK(dump(crlf) == dump(kBaseline));
  const auto lf_baseline = parse_baseline(kBaseline, "b.yaml");
  const auto crlf_baseline = parse_baseline(crlf, "b.yaml");
  REQUIRE((lf_baseline.ok() && crlf_baseline.ok()));
  REQUIRE(crlf_baseline->entries.size() == 2);
  for (size_t i = 0; i < 2; ++i) {
    CHECK(crlf_baseline->entries[i].reason == lf_baseline->entries[i].reason);
    CHECK(crlf_baseline->entries[i].line == lf_baseline->entries[i].line);
  }
  CHECK(crlf_baseline->entries[0].reason == "staging runs on P4s\ntracked in OPS-123\n");
  CHECK(crlf_baseline->entries[1].line == 10);
}

TEST_CASE("a baseline error reports its line and column, with LF or CRLF", "[unit][yaml][baseline]") {
  const std::string text = R"(version: 1
suppress:
  - rule: a
    fingerprint: a/1
    reason: r
    expires: 2024-13-01
  - {rule: b, fingerprint: b/1, reson: typo}
)";
  for (const std::string& t : {text, with_crlf(text)}) {
    const Diagnostics all = lint_baseline(t, "b.yaml");
    REQUIRE(all.size() == 3);
    CHECK(where(all[0]) == "b.yaml:6:14 baseline-date [    expires: 2024-13-01]");
    CHECK(where(all[1]) == "b.yaml:7:33 baseline-unknown-key [  - {rule: b, fingerprint: b/1, reson: typo}]");
    CHECK(where(all[2]) == "b.yaml:7:5 baseline-missing [  - {rule: b, fingerprint: b/1, reson: typo}]");
    const auto syntax = parse_baseline(t.substr(0, t.find("  - {")) + "  - {rule: b\n", "b.yaml");
    REQUIRE(!syntax.ok());
    CHECK(where(syntax.error()) == "b.yaml:8:1 baseline-yaml []");
  }
  CHECK(to_string(lint_baseline("version: 2\r\n", "v.yaml").front()) ==
        "v.yaml:1:10: unknown baseline version (this gpudiag reads version 1)");
}

TEST_CASE("baseline files get the reader's guards against alias bombs and deep nesting", "[unit][yaml][baseline]") {
  const auto deep = parse_baseline("suppress: " + std::string(1000, '['), "d.yaml");
  REQUIRE(!deep.ok());
  CHECK(deep.error().code == "baseline-yaml");
  CHECK(deep.error().message == "nested more than 64 levels deep");
  CHECK((deep.error().line == 1 && deep.error().column == 75));

  // Ten levels of ten aliases each: 10^10 nodes once expanded.
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'j'; ++c) {
    const std::string alias = std::string("*") + static_cast<char>(c - 1);
    bomb += fmt::format("{}: &{} [{}]\n", c, c, fmt::join(std::vector<std::string>(10, alias), ", "));
  }
  const auto bombed = parse_baseline(bomb, "bomb.yaml");
  REQUIRE(!bombed.ok());
  CHECK(bombed.error().code == "baseline-yaml");
  CHECK(bombed.error().message == "the YAML expands to too many nodes (aliases?)");
}
