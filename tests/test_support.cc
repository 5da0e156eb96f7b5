#include "test_support.h"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "gpudiag/json_writer.h"

namespace gpudiag::test {

std::string source_dir() { return GPUDIAG_SOURCE_DIR; }

std::string shared_dir() {
  if (const char* dir = std::getenv("GPUDIAG_SHARED"); dir != nullptr && *dir != '\0') return dir;
  for (const std::string& dir : {source_dir() + "/../shared", std::string("/work/shared")}) {
    if (std::filesystem::is_directory(dir + "/reference")) return dir;
  }
  return "";
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
}

std::vector<RuleFile> catalog_files() {
  std::vector<RuleFile> out;
  for (const auto& f : builtin_rule_files()) {
    if (f.path.size() >= 24 && f.path.compare(f.path.size() - 24, 24, "rules/facts/catalog.yaml") == 0)
      out.push_back(f);
  }
  return out;
}

const char* const kTestRule = R"(id: test-rule
title: A test rule about {zone}
family: capacity
severity: error
confidence: 0.8
description: Used by the tests.
match:
  text: 'no capacity in (?P<zone>[a-z0-9-]+)'
fixes:
  - id: test-fix
    action: Try another zone
    why: Capacity differs by zone.
    weight: 80
    doc: {title: Troubleshoot Dataflow errors, section: Resource pool exhausted, url: 'https://cloud.google.com/dataflow/docs/guides/common-errors'}
examples:
  match:
    - 'no capacity in us-central1-a'
  no_match:
    - 'plenty of capacity'
sources:
  - 'made up for the tests'
)";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  if (at == std::string::npos) throw std::runtime_error("test text has no `" + from + "`");
  return text.replace(at, from.size(), to);
}

Diagnostics lint_rule(const std::string& rule_text) {
  const std::string dir = temp_dir();
  write_file(dir + "/rule.yaml", rule_text);
  return RulePack::lint(RuleSources{catalog_files(), {dir}});
}

const RulePack& builtin_pack() {
  static const RulePack pack = [] {
    auto p = RulePack::load(RuleSources{builtin_rule_files(), {}});
    if (!p) throw std::runtime_error("built-in rule pack: " + to_string(p.error()));
    return std::move(*p);
  }();
  return pack;
}

std::string gzip(const std::string& text) {
  z_stream zs{};
  deflateInit2(&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, text.size()) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

namespace {

// The folder of this test process's scratch folders, removed when the process ends: a suite run
// left some 2,600 folders in /tmp, and every run more. Only by the process that made it (a forked
// child that exits runs the same destructor), and kept with GPUDIAG_KEEP_TEST_FILES set, to look
// at what a failing test wrote.
class ScratchRoot {
 public:
  ScratchRoot()
      : owner_(::getpid()), path_(std::filesystem::temp_directory_path() / fmt::format("gpudiag-test-{}", ::getpid())) {
    std::filesystem::remove_all(path_);
  }
  ~ScratchRoot() {
    const char* keep = std::getenv("GPUDIAG_KEEP_TEST_FILES");
    if (::getpid() != owner_ || (keep != nullptr && *keep != '\0')) return;
    std::error_code ignored;  // a destructor at exit: nothing to report to
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  pid_t owner_;
  std::filesystem::path path_;
};

}  // namespace

std::string temp_dir() {
  static ScratchRoot root;
  static std::atomic<int> counter{0};  // tests call this from several threads (concurrent writers)
  const auto dir = root.path() / std::to_string(++counter);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

Analysis analyze_text(const std::string& text, const std::string& name, unsigned threads) {
  const std::string path = temp_dir() + "/" + name;
  write_file(path, text);
  auto d = analyze(builtin_pack(), {path}, AnalysisOptions{.threads = threads});
  if (!d) throw std::runtime_error(to_string(d.error()));
  return std::move(*d);
}

std::vector<std::string> corpus_cases() {
  std::vector<std::string> cases;
  for (const auto& entry : std::filesystem::directory_iterator(source_dir() + "/corpus")) {
    if (entry.is_directory() && std::filesystem::exists(entry.path() / "labels.yaml")) {
      cases.push_back("corpus/" + entry.path().filename().string());
    }
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

Analysis analyze_case(const std::string& dir, unsigned threads) {
  std::vector<std::string> inputs;
  for (const auto& entry : std::filesystem::directory_iterator(source_dir() + "/" + dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("export", 0) == 0) inputs.push_back(dir + "/" + name);
  }
  std::sort(inputs.begin(), inputs.end());
  AnalysisOptions options;
  options.threads = threads;
  const YAML::Node labels = YAML::LoadFile(source_dir() + "/" + dir + "/labels.yaml");
  if (labels["args"]) {
    const auto args = labels["args"].as<std::vector<std::string>>();
    for (size_t i = 0; i + 1 < args.size(); ++i) {
      if (args[i] == "--job") options.job_files.push_back(dir + "/" + args[i + 1]);
    }
  }
  auto d = analyze(builtin_pack(), inputs, options);
  if (!d) throw std::runtime_error(to_string(d.error()));
  return std::move(*d);
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

CommandResult run_gpudiag(const std::vector<std::string>& args, const std::string& stdin_file) {
  std::string cmd = shell_quote(GPUDIAG_BINARY);
  for (const auto& a : args) cmd += fmt::format(" {}", shell_quote(a));
  if (!stdin_file.empty()) cmd += fmt::format(" < {}", shell_quote(stdin_file));
  return run_shell(cmd);
}

CommandResult run_shell(const std::string& command) {
  const std::string dir = temp_dir();
  const std::string cmd =
      fmt::format("cd {} && {{ {} ; }} > {}/out 2> {}/err", shell_quote(source_dir()), command, dir, dir);
  const int status = std::system(cmd.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(dir + "/out");
  r.err = read_file(dir + "/err");
  return r;
}

std::string log_entry_line(const std::string& time, const std::string& log, const std::string& message,
                           const std::string& severity, const std::string& worker, const std::string& insert_id) {
  std::string payload;
  append_json_string(payload, message);  // the one escaper the reports use
  const std::string labels =
      worker.empty() ? "" : fmt::format(R"(,"labels":{{"compute.googleapis.com/resource_name":"{}"}})", worker);
  const std::string id = insert_id.empty() ? "" : fmt::format(R"(,"insertId":"{}")", insert_id);
  return fmt::format(
             R"({{"timestamp":"{}","severity":"{}","logName":"projects/p/logs/dataflow.googleapis.com%2F{}",{}{}{},"resource":{{"type":"dataflow_step","labels":{{"job_id":"2024-01-01_00_00_00-1","region":"us-central1"}}}}}})",
             time, severity, log,
             log == "job-message" ? fmt::format(R"("textPayload":{})", payload)
                                  : fmt::format(R"("jsonPayload":{{"message":{}}})", payload),
             labels, id) +
         "\n";
}

}  // namespace gpudiag::test
