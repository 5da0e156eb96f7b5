// The preflight cases of tests/fixtures/preflight/cases (issue 17): one folder a configuration check
// or a healthy option set from the Dataflow GPU guide, each with its launch input, a case.yaml (the
// doc page and line it is written from, the rules that must and must not fire, the exit code, the
// fix text, the SARIF line of each finding), text and SARIF goldens, and the equivalent job.json on
// which `gpudiag analyze --job` must report the same configuration findings.
#include <simdjson.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "test_support.h"

using namespace gpudiag;
using test::run_gpudiag;

namespace {

const std::string kCases = "tests/fixtures/preflight/cases";

// The cases' folders (each with a case.yaml), sorted.
std::vector<std::string> preflight_cases() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(test::source_dir() + "/" + kCases)) {
    if (e.is_directory() && std::filesystem::exists(e.path() / "case.yaml")) names.push_back(e.path().filename());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::set<std::string> strings_of(const YAML::Node& list) {
  std::set<std::string> out;
  for (const auto& n : list) out.insert(n.as<std::string>());
  return out;
}

// The configuration family's findings of a JSON report, rule id -> severity.
std::map<std::string, std::string> configuration_findings(const std::string& json) {
  std::map<std::string, std::string> out;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(json).get(root)) return {{"<not JSON>", json.substr(0, 200)}};
  simdjson::dom::array findings;
  if (root["findings"].get_array().get(findings)) return out;
  for (auto f : findings) {
    std::string_view id, family, severity;
    if (f["rule_id"].get_string().get(id) || f["family"].get_string().get(family) ||
        f["severity"].get_string().get(severity))
      continue;
    if (family == "configuration") out[std::string(id)] = std::string(severity);
  }
  return out;
}

// SARIF results, rule id -> the start line of its first location (0 when it has none).
std::map<std::string, int64_t> sarif_lines(const std::string& sarif) {
  std::map<std::string, int64_t> out;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(sarif).get(root)) return out;
  simdjson::dom::array results;
  if (root["runs"].at(0)["results"].get_array().get(results)) return out;
  for (auto r : results) {
    std::string_view id;
    if (r["ruleId"].get_string().get(id)) continue;
    int64_t line = 0;
    if (r["locations"].at(0)["physicalLocation"]["region"]["startLine"].get_int64().get(line)) line = 0;
    out[std::string(id)] = line;
  }
  return out;
}

// The preflight command line of a case: its input (a launch script or an options file) and its args,
// a `job.json` among them being the case's own.
std::vector<std::string> preflight_args(const std::string& dir, const YAML::Node& spec, const std::string& format) {
  std::vector<std::string> args{"preflight", "--deterministic", "--no-launch-env", "--color", "never", "--format",
                                format};
  const std::string input = spec["input"].as<std::string>();
  const bool options_file = input.ends_with(".json") || input.ends_with(".yaml");
  args.push_back(options_file ? "--options" : "--script");
  args.push_back(dir + "/" + input);
  for (const auto& a : spec["args"]) {
    const std::string arg = a.as<std::string>();
    args.push_back(arg == "job.json" ? dir + "/job.json" : arg);
  }
  return args;
}

std::set<std::string> configuration_rule_ids() {
  std::set<std::string> ids;
  for (const auto& e : std::filesystem::directory_iterator(test::source_dir() + "/rules/configuration")) {
    if (e.path().extension() == ".yaml") ids.insert(YAML::LoadFile(e.path().string())["id"].as<std::string>());
  }
  return ids;
}

}  // namespace

TEST_CASE("every preflight case fires what its case.yaml says and prints its goldens", "[cli][preflight][cases]") {
  const auto names = preflight_cases();
  REQUIRE(names.size() >= 15);
  const std::string shared = test::shared_dir();
  size_t index = 0;
  for (const auto& name : names) {
    // Under the sanitizers every third case: three runs a case, and this test and the next took
    // 11.6 s in Release (2026-12-07), several times that in the sanitizer suite's one cli process;
    // the Release build checks every case and golden.
    if (test::kSanitized && index++ % 3 != 0) continue;
    DYNAMIC_SECTION(name) {
      const std::string dir = kCases + "/" + name;
      const YAML::Node spec = YAML::LoadFile(test::source_dir() + "/" + dir + "/case.yaml");
      // The cited doc line exists and says something (when the shared reference pages are here).
      const std::string page = spec["source"]["page"].as<std::string>();
      const int line = spec["source"]["line"].as<int>();
      if (!shared.empty()) {
        std::istringstream in(test::read_file(shared + "/reference/" + page));
        std::string text;
        for (int i = 0; i < line && std::getline(in, text); ++i) {
        }
        CHECK(text.find_first_not_of(" \t") != std::string::npos);
      }
      const auto json = run_gpudiag(preflight_args(dir, spec, "json"));
      CHECK(json.exit_code == spec["exit"].as<int>());
      const auto found = configuration_findings(json.out);
      for (const auto& id : strings_of(spec["fires"])) CHECK(found.count(id) == 1);
      for (const auto& id : strings_of(spec["quiet"])) CHECK(found.count(id) == 0);
      CHECK(found.size() == spec["fires"].size());

      const auto text = run_gpudiag(preflight_args(dir, spec, "text"));
      CHECK(text.exit_code == spec["exit"].as<int>());
      if (spec["fix"]) CHECK_THAT(text.out, Catch::Contains(spec["fix"].as<std::string>()));
      if (spec["fires"].size() == 0) CHECK_THAT(text.out, Catch::Contains("verdict: OK"));
      const auto sarif = run_gpudiag(preflight_args(dir, spec, "sarif"));
      const auto lines = sarif_lines(sarif.out);
      for (const auto& at : spec["sarif_lines"]) {
        INFO(at.first.as<std::string>());
        CHECK(lines.count(at.first.as<std::string>()) == 1);
        if (lines.count(at.first.as<std::string>()) == 1)
          CHECK(lines.at(at.first.as<std::string>()) == at.second.as<int64_t>());
      }
      for (const auto& [out, golden] : {std::pair{text.out, "expected.txt"}, std::pair{sarif.out, "expected.sarif"}}) {
        const std::string path = test::source_dir() + "/" + dir + "/" + golden;
        if (std::getenv("GPUDIAG_UPDATE_GOLDENS") != nullptr) test::write_file(path, out);
        CHECK(out == test::read_file(path));
      }
    }
  }
}

// analyze --job on the case's job.json (the `gcloud dataflow jobs describe --full` shape of the same
// options) and an export of one job-message line of that job: the same configuration findings, with
// the same severities, but for the ones only preflight can know (case.yaml's preflight_only, and why).
TEST_CASE("preflight and analyze --job agree on every preflight case", "[cli][preflight][cases]") {
  size_t index = 0;
  for (const auto& name : preflight_cases()) {
    if (test::kSanitized && index++ % 3 != 1) continue;  // as above, the other third of the cases
    DYNAMIC_SECTION(name) {
      const std::string dir = kCases + "/" + name;
      const YAML::Node spec = YAML::LoadFile(test::source_dir() + "/" + dir + "/case.yaml");
      const auto checked = configuration_findings(run_gpudiag(preflight_args(dir, spec, "json")).out);
      const auto analyzed = run_gpudiag(
          {"analyze", "--deterministic", "--format", "json", "--job", dir + "/job.json", kCases + "/export.json"});
      REQUIRE(analyzed.exit_code != 2);
      auto expected = checked;
      for (const auto& id : strings_of(spec["preflight_only"])) {
        CHECK(checked.count(id) == 1);
        CHECK(spec["why_preflight_only"]);
        expected.erase(id);
      }
      CHECK(configuration_findings(analyzed.out) == expected);
    }
  }
}

TEST_CASE("every configuration rule has a preflight case that fires it", "[cli][preflight][cases]") {
  std::set<std::string> fired;
  bool healthy = false;
  for (const auto& name : preflight_cases()) {
    const YAML::Node spec = YAML::LoadFile(test::source_dir() + "/" + kCases + "/" + name + "/case.yaml");
    const auto fires = strings_of(spec["fires"]);
    fired.insert(fires.begin(), fires.end());
    healthy = healthy || fires.empty();
  }
  for (const auto& id : configuration_rule_ids()) {
    INFO(id);
    CHECK(fired.count(id) == 1);
  }
  CHECK(healthy);
}
