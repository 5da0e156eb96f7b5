// Golden tests over corpus/: one test per case, registered at start-up from the folders present.
//
// Each case is checked twice: against its labels.yaml (the semantic truth: which rules fire, on which
// evidence lines, folded under which cause, what is inconclusive, what ingest counted) and against its
// rendered goldens expected.txt / expected.json. GPUDIAG_UPDATE_GOLDENS=1 rewrites the rendered
// goldens (tools/update-goldens). Labels are generated, with the export, from a hand-written spec
// (tools/corpus/cases/*.py, by tools/corpus/build.py; the "corpus: specs" test checks they are
// current) and never from gpudiag's output. Every case is also analysed
// with one and with two threads, and the reports must be byte-identical. A few representative cases
// (kFormatCases) also hold goldens of the post-mortem and CI formats: expected.md, .html, .sarif,
// .junit.xml and .github.txt. Errors no rule explains (labels `unexplained:`) are checked against the
// report's `unexplained` groups (check_unexplained).
#define CATCH_CONFIG_RUNNER
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <deque>
#include <filesystem>
#include <set>

#include "gpudiag/formats.h"
#include "gpudiag/report.h"
#include "json_support.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace gpudiag;

namespace {

struct CaseRun {
  Analysis analysis;
  std::string text;
  std::string json;
};

CaseRun run_case(const std::string& dir, unsigned threads) {
  CaseRun run{test::analyze_case(dir, threads), "", ""};
  const RankedReport report = rank(run.analysis);
  RenderOptions render;
  render.deterministic = true;
  run.text = render_text(report, render);
  run.json = render_json(report, render);
  return run;
}

// The job of the export a label names ("" or absent: the export's only or worst job).
const Analysis& job_named(const Analysis& d, const YAML::Node& id) {
  if (!id) return d;
  const std::string want = id.as<std::string>();
  const auto it = std::find_if(d.jobs.begin(), d.jobs.end(), [&](const Analysis& j) { return j.job.id == want; });
  INFO("job in the labels: " << want);
  REQUIRE(it != d.jobs.end());
  return *it;
}

void check_fire_item(const Analysis& d, const YAML::Node& item) {
  const RankedReport report = rank(d);
  const std::string rule = item["rule"].as<std::string>();
  INFO("rule that must fire: " << rule << (item["job"] ? " in job " + item["job"].as<std::string>() : ""));
  const auto it =
      std::find_if(d.findings.begin(), d.findings.end(), [&](const Finding& f) { return f.rule_id == rule; });
  REQUIRE(it != d.findings.end());
  if (item["evidence_lines"]) {
    std::set<uint64_t> lines;
    for (const auto& e : it->evidence) {
      lines.insert(e.entry->where.line);
      for (const auto& copy : e.also_at) lines.insert(copy.line);  // a copy merged into the item
    }
    for (const auto& line : item["evidence_lines"]) {
      INFO("evidence line " << line.as<uint64_t>() << " of " << rule);
      CHECK(lines.count(line.as<uint64_t>()) == 1);
    }
  }
  if (item["captures"]) {
    for (const auto& kv : item["captures"]) {
      const std::string name = kv.first.as<std::string>();
      const std::string value = kv.second.as<std::string>();
      INFO("capture " << name << " = " << value);
      const auto c = it->captures.find(name);
      REQUIRE(c != it->captures.end());
      CHECK(std::find(c->second.begin(), c->second.end(), value) != c->second.end());
    }
  }
  if (item["caused_by"]) {
    const auto rf = std::find_if(report.findings.begin(), report.findings.end(),
                                 [&](const RankedFinding& r) { return r.finding->rule_id == rule; });
    const std::string cause = rf->caused_by ? report.findings[*rf->caused_by].finding->rule_id : "";
    const std::string want = item["caused_by"].IsNull() ? "" : item["caused_by"].as<std::string>();
    INFO("caused_by of " << rule);
    CHECK(cause == want);
  }
}

// The rules that fired in `job` are exactly `fire` plus any of `may_fire`; `inconclusive` holds.
void check_fired_set(const Analysis& job, const YAML::Node& fire, const YAML::Node& may_fire,
                     const YAML::Node& inconclusive) {
  std::set<std::string> fired, expected, may;
  for (const auto& f : job.findings) fired.insert(f.rule_id);
  for (const auto& f : fire) expected.insert(f.IsMap() ? f["rule"].as<std::string>() : f.as<std::string>());
  if (may_fire) {
    for (const auto& m : may_fire) may.insert(m.as<std::string>());
  }
  for (const auto& rule : expected) {
    INFO("must fire: " << rule);
    CHECK(fired.count(rule) == 1);
  }
  for (const auto& rule : fired) {
    INFO("fired but not expected: " << rule);
    CHECK((expected.count(rule) == 1 || may.count(rule) == 1));
  }
  if (inconclusive) {
    std::set<std::string> seen;
    for (const auto& i : job.inconclusive) seen.insert(i.rule_id);
    for (const auto& rule : inconclusive) {
      INFO("must be inconclusive: " << rule.as<std::string>());
      CHECK(seen.count(rule.as<std::string>()) == 1);
    }
  }
}

void check_labels(const CaseRun& run, const YAML::Node& labels) {
  const Analysis& d = run.analysis;
  for (const auto& item : labels["fire"]) check_fire_item(job_named(d, item["job"]), item);
  if (!labels["jobs"]) {
    check_fired_set(d, labels["fire"], labels["may_fire"], labels["inconclusive"]);
  } else {
    // The truth per job: each job of the labels is a job of the report, with its own outcome,
    // verdict, findings and entries; with several jobs the worst (the top-level one) is a failed one
    // when any job failed.
    CHECK(d.jobs.size() == labels["jobs"].size());
    bool any_failed = false;
    for (const auto& truth : labels["jobs"]) {
      const Analysis& job = job_named(d, truth["id"]);
      INFO("job " << job.job.id);
      CHECK(job.job.name == truth["name"].as<std::string>());
      CHECK(std::string(job_outcome_name(job.job.outcome)) == truth["outcome"].as<std::string>());
      CHECK(std::string(verdict_name(rank(job).verdict)) == truth["verdict"].as<std::string>());
      any_failed = any_failed || truth["verdict"].as<std::string>() == "failed";
      check_fired_set(job, truth["fire"], truth["may_fire"], truth["inconclusive"]);
      if (truth["entries"]) CHECK(job.job.entries == truth["entries"].as<uint64_t>());
    }
    if (any_failed) CHECK(verdict_of(d) == Verdict::kFailed);
  }
  // The counts against the generator's own (tools/corpus/build.py counts the entries it writes:
  // distinct ones, broken ones, second copies), so that `analysed + skipped + duplicates ==
  // entries` is checked against entries counted outside gpudiag, not only by how analysed is derived.
  const auto input = labels["input"];
  REQUIRE(input);
  const auto written = input["entries"].as<uint64_t>();
  const auto broken = input["skipped"].as<uint64_t>();
  const auto copies = input["duplicates"].as<uint64_t>();
  CHECK(d.analysed == written);
  CHECK(d.skipped == broken);
  CHECK(d.duplicates == copies);
  CHECK(d.entries == written + broken + copies);
}

// The first `n` lines of a text report (its first screen).
std::string first_lines(const std::string& text, size_t n) {
  size_t end = 0;
  for (size_t i = 0; i < n && end != std::string::npos; ++i) end = text.find('\n', end == 0 ? 0 : end + 1);
  return end == std::string::npos ? text : text.substr(0, end);
}

std::string json_string(simdjson::dom::element e, const char* key) {
  std::string_view v;
  return e[key].get(v) == simdjson::SUCCESS ? std::string(v) : std::string();
}

// "basename:line" of a group's user frame, "" when it has none.
std::string user_frame_of(simdjson::dom::element group) {
  simdjson::dom::element frame;
  if (group["user_frame"].get(frame) != simdjson::SUCCESS || frame.is_null()) return "";
  const std::string file = json_string(frame, "file");
  int64_t line = 0;
  if (frame["line"].get(line) != simdjson::SUCCESS) return file;
  return fmt::format("{}:{}", file.substr(file.rfind('/') + 1), line);
}

// Does `group` (its JSON) hold everything the label item says?
bool group_matches(simdjson::dom::element group, const YAML::Node& item) {
  const std::string dump = simdjson::to_string(group);
  const std::string frame = item["user_frame"].IsNull() ? "" : item["user_frame"].as<std::string>();
  const std::string step = item["step"].IsNull() ? "" : item["step"].as<std::string>();
  if (json_string(group, "exception_type") != item["exception"].as<std::string>()) return false;
  if (dump.find(item["message"].as<std::string>()) == std::string::npos) return false;
  if (user_frame_of(group) != frame || json_string(group, "step") != step) return false;
  for (const auto& line : item["evidence_lines"]) {
    const auto n = line.as<uint64_t>();
    if (dump.find(fmt::format(":{}\"", n)) == std::string::npos &&
        dump.find(fmt::format("\"line\":{},", n)) == std::string::npos &&
        dump.find(fmt::format("\"line\":{}}}", n)) == std::string::npos)
      return false;
  }
  return true;
}

// The text report's verdict lines (one per job), joined.
std::string verdict_lines(const std::string& text) {
  std::string out;
  size_t at = 0;
  while ((at = text.find("verdict: ", at)) != std::string::npos) {
    const size_t end = text.find('\n', at);
    out += text.substr(at, end - at) + "\n";
    at = end == std::string::npos ? text.size() : end;
  }
  return out;
}

// Errors no rule explains (labels `unexplained:`, corpus/README.md, issue 15). Each listed group is
// reported at its severity (error unless the item says `severity: info`), the first listed one leads
// its job's groups, and each error-level one shows its exception, user file:line and step in the
// text report's first 25 lines. A case that lists no error-level group has none.
void check_unexplained(const CaseRun& run, const YAML::Node& labels) {
  simdjson::dom::parser parser;
  const simdjson::dom::element root = test::parse_json(parser, run.json);
  std::vector<simdjson::dom::array> lists;
  simdjson::dom::array list;
  if (root["unexplained"].get(list) == simdjson::SUCCESS) lists.push_back(list);
  simdjson::dom::array jobs;
  if (root["jobs"].get(jobs) == simdjson::SUCCESS) {
    for (simdjson::dom::element job : jobs) {
      if (job["unexplained"].get(list) == simdjson::SUCCESS) lists.push_back(list);
    }
  }
  // Every group once (a job's groups are repeated at the top level); the first error-level group
  // of each list is its job's most likely cause.
  std::vector<simdjson::dom::element> errors, infos, leading;
  std::set<std::string> seen;
  for (simdjson::dom::array groups : lists) {
    bool first = true;
    for (simdjson::dom::element g : groups) {
      const bool error = json_string(g, "severity") == "error";
      if (error && first) leading.push_back(g);
      first = first && !error;
      const std::string fingerprint = json_string(g, "fingerprint");
      if (!seen.insert(fingerprint.empty() ? simdjson::to_string(g) : fingerprint).second) continue;
      (error ? errors : infos).push_back(g);
    }
  }
  const YAML::Node want = labels["unexplained"];
  std::vector<YAML::Node> want_errors, want_infos;
  if (want) {
    for (const auto& item : want) {
      (item["severity"] && item["severity"].as<std::string>() == "info" ? want_infos : want_errors).push_back(item);
    }
  }
  if (want_errors.empty()) {
    INFO("error-level unexplained groups in a case whose labels list none");
    CHECK(errors.empty());
  }
  const std::string screen = first_lines(run.text, 25);
  {
    // Every verdict names something: never an empty name before its dash (issue 39).
    INFO("verdicts: " << verdict_lines(run.text));
    CHECK(verdict_lines(run.text).find(":  —") == std::string::npos);
    CHECK(verdict_lines(run.text).find("cause:  ") == std::string::npos);
  }
  for (const auto& item : want_infos) {
    INFO("unexplained group at info: " << item["exception"].as<std::string>() << " "
                                       << item["message"].as<std::string>());
    CHECK(std::any_of(infos.begin(), infos.end(), [&](simdjson::dom::element g) { return group_matches(g, item); }));
  }
  for (size_t i = 0; i < want_errors.size(); ++i) {
    const YAML::Node& item = want_errors[i];
    INFO("unexplained group: " << item["exception"].as<std::string>() << " " << item["message"].as<std::string>());
    CHECK(std::any_of(errors.begin(), errors.end(), [&](simdjson::dom::element g) { return group_matches(g, item); }));
    // The first one listed leads its job: it is the report's most likely cause.
    if (i == 0) {
      CHECK(std::any_of(leading.begin(), leading.end(),
                        [&](simdjson::dom::element g) { return group_matches(g, item); }));
    }
    CHECK(screen.find(item["exception"].as<std::string>()) != std::string::npos);
    // The decisive text an engineer needs (issue 39) is on the first screen, and the verdict of
    // the job it leads names the first of it.
    if (const YAML::Node keys = item["key_strings"]) {
      for (const auto& key : keys) {
        INFO("key string on the first 25 lines: " << key.as<std::string>());
        CHECK(screen.find(key.as<std::string>()) != std::string::npos);
      }
      if (i == 0 && keys.size() > 0) {
        INFO("the verdict names the failure: " << keys[0].as<std::string>());
        CHECK(verdict_lines(run.text).find(keys[0].as<std::string>()) != std::string::npos);
      }
    }
    if (!item["user_frame"].IsNull()) CHECK(screen.find(item["user_frame"].as<std::string>()) != std::string::npos);
    if (!item["step"].IsNull()) CHECK(screen.find(item["step"].as<std::string>()) != std::string::npos);
  }
}

void check_rendered(const std::string& dir, const CaseRun& run) {
  const std::string base = test::source_dir() + "/" + dir;
  if (std::getenv("GPUDIAG_UPDATE_GOLDENS") != nullptr) {
    test::write_file(base + "/expected.txt", run.text);
    test::write_file(base + "/expected.json", run.json);
    return;
  }
  INFO("rendered golden differs; review and run tools/update-goldens if the change is intended");
  CHECK(run.text == test::read_file(base + "/expected.txt"));
  CHECK(run.json == test::read_file(base + "/expected.json"));
}

// Cases whose every format has a golden: cause and symptoms, healthy, inconclusive, hostile log
// text, messy input, flex-start with a job file.
constexpr std::array<std::string_view, 9> kFormatCases = {"corpus/gpu-oom-then-sdk-disconnected-work-item-failed",
                                                          "corpus/healthy-gpu-t4-tensorflow",
                                                          "corpus/gpu-driver-absent-export-ends-early-inconclusive",
                                                          "corpus/hostile-log-text",
                                                          "corpus/messy-malformed-line-ndjson",
                                                          "corpus/flex-start-capacity-timeout-jobjson",
                                                          "corpus/multi-job-stockout-beside-healthy",
                                                          "corpus/multi-job-sink-shard-two-failures",
                                                          "corpus/user-dofn-valueerror-python"};
constexpr std::array<std::pair<OutputFormat, std::string_view>, 5> kFormatGoldens = {{
    {OutputFormat::kMarkdown, "expected.md"},
    {OutputFormat::kHtml, "expected.html"},
    {OutputFormat::kSarif, "expected.sarif"},
    {OutputFormat::kJunit, "expected.junit.xml"},
    {OutputFormat::kGithub, "expected.github.txt"},
}};

void check_format_goldens(const std::string& dir, const CaseRun& run) {
  if (std::find(kFormatCases.begin(), kFormatCases.end(), dir) == kFormatCases.end()) return;
  const RankedReport report = rank(run.analysis);
  RenderOptions render;
  render.deterministic = true;
  for (const auto& [format, name] : kFormatGoldens) {
    const std::string path = test::source_dir() + "/" + dir + "/" + std::string(name);
    const std::string text = gpudiag::render(format, report, test::builtin_pack().rules(), render);
    if (std::getenv("GPUDIAG_UPDATE_GOLDENS") != nullptr) {
      test::write_file(path, text);
      continue;
    }
    INFO("rendered golden " << name << " differs; review and run tools/update-goldens if the change is intended");
    CHECK(text == test::read_file(path));
  }
}

class GoldenCase final : public Catch::ITestInvoker {
 public:
  explicit GoldenCase(std::string dir) : dir_(std::move(dir)) {}
  void invoke() const override {
    const YAML::Node labels = YAML::LoadFile(test::source_dir() + "/" + dir_ + "/labels.yaml");
    const CaseRun one = run_case(dir_, 1);
    const CaseRun two = run_case(dir_, 2);
    {
      INFO("the report must not depend on the thread count");
      CHECK(one.json == two.json);
      CHECK(one.text == two.text);
    }
    check_labels(one, labels);
    check_unexplained(one, labels);
    check_rendered(dir_, one);
    check_format_goldens(dir_, one);
  }

 private:
  std::string dir_;
};

void register_corpus() {
  static std::deque<std::string> names;  // Catch keeps StringRefs to these
  static const std::string tags = "[golden]";
  for (const auto& c : test::corpus_cases()) {
    names.push_back("golden: " + c.substr(c.find('/') + 1));
    Catch::getMutableRegistryHub().registerTest(
        Catch::makeTestCase(new GoldenCase(c), "", Catch::NameAndTags{names.back(), tags}, CATCH_INTERNAL_LINEINFO));
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  std::filesystem::current_path(test::source_dir());  // reports show repo-relative paths
  register_corpus();
  return Catch::Session().run(argc, argv);
}
