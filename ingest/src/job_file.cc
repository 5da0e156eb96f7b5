#include "gpudiag/job_file.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <sstream>

#include "gpudiag/diagnostic_codes.h"

namespace gpudiag {
namespace {

constexpr std::string_view kHelp =
    "pass the output of `gcloud dataflow jobs describe JOB --full --format=json` (one job), or of `gcloud "
    "dataflow jobs list --format=json` (an array of jobs)";
constexpr int kMaxDepth = 256;

// A JSON syntax check that knows where it is: simdjson says what is wrong, not where. Also records
// where the root value and, for an array, each element starts.
class JsonScanner {
 public:
  explicit JsonScanner(std::string_view text) : s_(text) {}

  bool scan() {
    ws();
    if (at_end()) return fail("the file is empty");
    root_at_ = i_;
    if (!value(0, true)) return false;
    ws();
    if (!at_end()) return fail("unexpected text after the JSON value");
    return true;
  }
  size_t error_at() const { return error_at_; }
  const std::string& error() const { return error_; }
  size_t root_at() const { return root_at_; }
  const std::vector<size_t>& elements() const { return elements_; }

 private:
  bool at_end() const { return i_ >= s_.size(); }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  bool fail(std::string message) {
    if (error_.empty()) {
      error_at_ = std::min(i_, s_.size());
      error_ = std::move(message);
    }
    return false;
  }
  bool eat(char c) {
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool value(int depth, bool root) {
    if (depth > kMaxDepth) return fail("the JSON nests too deep");
    if (at_end()) return fail("the file ends where a JSON value was expected");
    switch (s_[i_]) {
      case '{':
        return object(depth);
      case '[':
        return array(depth, root);
      case '"':
        return string();
      case 't':
        return literal("true");
      case 'f':
        return literal("false");
      case 'n':
        return literal("null");
      default:
        if (s_[i_] == '-' || (s_[i_] >= '0' && s_[i_] <= '9')) return number();
        return fail("expected a JSON value");
    }
  }
  bool object(int depth) {
    ++i_;
    ws();
    if (eat('}')) return true;
    for (;;) {
      ws();
      if (at_end() || s_[i_] != '"') return fail("expected a quoted key");
      if (!string()) return false;
      ws();
      if (!eat(':')) return fail("expected `:` after the key");
      ws();
      if (!value(depth + 1, false)) return false;
      ws();
      if (eat('}')) return true;
      if (!eat(',')) return fail(at_end() ? "the file ends inside an object" : "expected `,` or `}`");
    }
  }
  bool array(int depth, bool root) {
    ++i_;
    ws();
    if (eat(']')) return true;
    for (;;) {
      ws();
      if (root) elements_.push_back(i_);
      if (!value(depth + 1, false)) return false;
      ws();
      if (eat(']')) return true;
      if (!eat(',')) return fail(at_end() ? "the file ends inside an array" : "expected `,` or `]`");
    }
  }
  bool string() {
    const size_t start = i_++;
    while (i_ < s_.size()) {
      const auto c = static_cast<unsigned char>(s_[i_]);
      if (c == '"') {
        ++i_;
        return true;
      }
      if (c < 0x20) return fail("a control character inside a string (a raw line break?)");
      if (c == '\\') {
        ++i_;
        if (at_end()) break;
        const char e = s_[i_];
        if (e == 'u') {
          for (int k = 1; k <= 4; ++k) {
            if (i_ + k >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[i_ + k]))) {
              return fail("a \\u escape needs four hex digits");
            }
          }
          i_ += 4;
        } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
          return fail("an unknown escape in a string");
        }
      }
      ++i_;
    }
    i_ = start;
    return fail("a string is opened but never closed");
  }
  bool number() {
    eat('-');
    if (eat('0')) {
    } else if (!digits()) {
      return fail("expected a digit");
    }
    if (eat('.') && !digits()) return fail("expected a digit after `.`");
    if (eat('e') || eat('E')) {
      if (!eat('+')) eat('-');
      if (!digits()) return fail("expected a digit in the exponent");
    }
    return true;
  }
  bool digits() {
    const size_t start = i_;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
    return i_ > start;
  }
  bool literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return fail("expected a JSON value");
    i_ += word.size();
    return true;
  }

  std::string_view s_;
  size_t i_ = 0;
  size_t root_at_ = 0;
  size_t error_at_ = 0;
  std::string error_;
  std::vector<size_t> elements_;
};

// 1-based line and byte column of `offset`, and the line itself (for the caret display).
struct Position {
  uint64_t line = 1;
  uint64_t column = 1;
  std::string source_line;
};
Position position_of(std::string_view text, size_t offset) {
  Position p;
  offset = std::min(offset, text.size());
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++p.line;
      line_start = i + 1;
    }
  }
  p.column = offset - line_start + 1;
  size_t line_end = text.find('\n', line_start);
  if (line_end == std::string_view::npos) line_end = text.size();
  p.source_line = std::string(text.substr(line_start, std::min<size_t>(line_end - line_start, 300)));
  if (!p.source_line.empty() && p.source_line.back() == '\r') p.source_line.pop_back();
  return p;
}

Diagnostic job_file_error(std::string_view text, const std::string& path, size_t offset, std::string message) {
  const Position p = position_of(text, offset);
  return Diagnostic{.code = code_name(DiagnosticCode::kJobFile),
                    .message = std::move(message),
                    .file = path,
                    .line = p.line,
                    .column = p.column,
                    .byte = static_cast<int64_t>(offset),
                    .source_line = p.source_line,
                    .help = std::string(kHelp)};
}

std::string_view kind_of(simdjson::dom::element e) {
  switch (e.type()) {
    case simdjson::dom::element_type::ARRAY:
      return "an array";
    case simdjson::dom::element_type::OBJECT:
      return "an object";
    case simdjson::dom::element_type::STRING:
      return "a string";
    case simdjson::dom::element_type::BOOL:
      return "a boolean";
    case simdjson::dom::element_type::NULL_VALUE:
      return "null";
    default:
      return "a number";
  }
}

std::vector<std::string> strings(simdjson::dom::element e) {
  std::vector<std::string> out;
  simdjson::dom::array arr;
  if (e.get_array().get(arr)) return out;
  for (auto item : arr) {
    std::string_view s;
    if (!item.get_string().get(s)) out.emplace_back(s);
  }
  return out;
}

std::string string_field(simdjson::dom::object job, std::string_view key) {
  std::string_view s;
  if (job[key].get_string().get(s)) return "";
  return std::string(s);
}

// Pipeline options as `jobs describe --full` gives them: the environment's service options and
// experiments (the effective ones), the SDK's options, the worker pools' machine, disk and size.
std::map<std::string, JobOptionValue> job_options(simdjson::dom::object job) {
  std::map<std::string, JobOptionValue> options;
  simdjson::dom::element env;
  if (job["environment"].get(env)) return options;
  simdjson::dom::element e;
  if (!env["serviceOptions"].get(e)) options["dataflow_service_options"] = JobOptionValue{"", strings(e), true};
  if (!env["experiments"].get(e)) options["experiments"] = JobOptionValue{"", strings(e), true};
  simdjson::dom::object sdk_options;
  if (!env["sdkPipelineOptions"]["options"].get(sdk_options)) {
    for (auto [key, value] : sdk_options) {
      JobOptionValue v;
      std::string_view s;
      int64_t n;
      bool b;
      if (!value.get_string().get(s))
        v.text = std::string(s);
      else if (!value.get_int64().get(n))
        v.text = std::to_string(n);
      else if (!value.get_bool().get(b))
        v.text = b ? "True" : "False";
      else if (value.is_array()) {
        v.items = strings(value);
        v.is_list = true;
      } else
        continue;
      // serviceOptions/experiments from the environment are the effective ones; keep them.
      if (options.count(std::string(key)) == 0) options[std::string(key)] = std::move(v);
    }
  }
  simdjson::dom::array pools;
  if (!env["workerPools"].get(pools)) {
    for (auto pool : pools) {
      std::string_view machine;
      int64_t disk = 0, workers = 0;
      if (!pool["machineType"].get_string().get(machine) && !machine.empty()) {
        options.emplace("machine_type", JobOptionValue{std::string(machine), {}, false});
      }
      if (!pool["diskSizeGb"].get_int64().get(disk) && disk > 0) {
        options.emplace("disk_size_gb", JobOptionValue{std::to_string(disk), {}, false});
      }
      if (!pool["numWorkers"].get_int64().get(workers) && workers > 0) {
        options.emplace("num_workers", JobOptionValue{std::to_string(workers), {}, false});
      }
    }
  }
  return options;
}

// Keys a Dataflow Job resource has besides `id`; an object with none of them is something else.
constexpr std::array<std::string_view, 9> kJobKeys{"name",         "projectId",   "type",
                                                   "currentState", "environment", "location",
                                                   "createTime",   "jobMetadata", "currentStateTime"};

Result<DescribedJob> parse_job(simdjson::dom::element e, std::string_view text, const std::string& path, size_t at,
                               std::string_view what) {
  simdjson::dom::object job;
  if (e.get_object().get(job)) {
    return job_file_error(text, path, at,
                          fmt::format("{} is {}, not a Dataflow job description (a JSON object)", what, kind_of(e)));
  }
  std::vector<std::string> keys;
  bool job_like = false;
  for (auto [key, value] : job) {
    if (keys.size() < 5) keys.emplace_back(key);
    job_like = job_like || std::find(kJobKeys.begin(), kJobKeys.end(), key) != kJobKeys.end();
  }
  std::string_view id;
  const bool has_id = !job["id"].get_string().get(id) && !id.empty();
  if (!has_id || !job_like) {
    return job_file_error(
        text, path, at,
        fmt::format("{} is not a Dataflow job description: {} (its keys: {}{})", what,
                    has_id ? "it has an `id` but none of a job's other keys (name, currentState, environment …)"
                           : "it has no job `id`",
                    keys.empty() ? "none" : fmt::format("{}", fmt::join(keys, ", ")),
                    job.size() > keys.size() ? " …" : ""));
  }
  DescribedJob out;
  const Position p = position_of(text, at);
  out.about = JobDescription{.file = path,
                             .line = p.line,
                             .column = p.column,
                             .id = std::string(id),
                             .name = string_field(job, "name"),
                             .project = string_field(job, "projectId"),
                             .region = string_field(job, "location"),
                             .current_state = string_field(job, "currentState")};
  // gpudiag fetch's note (fetch.h): whether the export beside it came whole.
  if (simdjson::dom::object note; !job["gpudiagFetch"].get_object().get(note)) {
    bool complete = false;
    if (!note["complete"].get_bool().get(complete)) out.about.fetch_complete = complete;
    out.about.fetch_export = string_field(note, "export");
    out.about.fetch_incomplete_reason = string_field(note, "incompleteReason");
  }
  out.options = job_options(job);
  std::string_view type, version, display;
  if (!job["type"].get_string().get(type)) out.type = std::string(type);
  if (!job["jobMetadata"]["sdkVersion"]["version"].get_string().get(version)) out.sdk_version = std::string(version);
  if (!job["jobMetadata"]["sdkVersion"]["versionDisplayName"].get_string().get(display)) {
    out.sdk_version_display = std::string(display);
  }
  return out;
}

}  // namespace

bool JobDescription::terminal() const {
  static constexpr std::array<std::string_view, 5> kEnded{"JOB_STATE_DONE", "JOB_STATE_FAILED", "JOB_STATE_CANCELLED",
                                                          "JOB_STATE_UPDATED", "JOB_STATE_DRAINED"};
  return std::find(kEnded.begin(), kEnded.end(), current_state) != kEnded.end();
}

Result<std::vector<DescribedJob>> parse_job_file(std::string_view text, const std::string& path) {
  size_t bom = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  JsonScanner scanner(text.substr(bom));
  if (!scanner.scan()) {
    return job_file_error(text, path, scanner.error_at() + bom,
                          fmt::format("the job description is not valid JSON: {}", scanner.error()));
  }
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  const simdjson::padded_string padded(text.substr(bom));
  if (auto err = parser.parse(padded).get(root)) {
    return job_file_error(text, path, scanner.root_at() + bom,
                          fmt::format("the job description is not valid JSON: {}", simdjson::error_message(err)));
  }
  std::vector<DescribedJob> jobs;
  simdjson::dom::array array;
  if (root.get_array().get(array)) {  // one job: `gcloud dataflow jobs describe`
    auto job = parse_job(root, text, path, scanner.root_at() + bom, "the file");
    if (!job) return job.error();
    jobs.push_back(std::move(*job));
    return jobs;
  }
  size_t i = 0;  // an array of jobs: `gcloud dataflow jobs list`
  for (auto element : array) {
    const size_t at = (i < scanner.elements().size() ? scanner.elements()[i] : scanner.root_at()) + bom;
    auto job = parse_job(element, text, path, at, fmt::format("element {} of the array", i + 1));
    if (!job) return job.error();
    job->about.in_list = true;
    jobs.push_back(std::move(*job));
    ++i;
  }
  if (jobs.empty()) {
    return job_file_error(text, path, scanner.root_at() + bom, "the array describes no job (it is empty)");
  }
  return jobs;
}

Result<std::vector<DescribedJob>> read_job_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad()) {
    return Diagnostic{.code = code_name(DiagnosticCode::kJobFile),
                      .message = "cannot read the job description",
                      .file = path,
                      .help = std::string(kHelp)};
  }
  return parse_job_file(text.str(), path);
}

Result<std::vector<JobDescription>> parse_job_descriptions(std::string_view text, const std::string& path) {
  auto parsed = parse_job_file(text, path);
  if (!parsed) return parsed.error();
  std::vector<JobDescription> out;
  for (auto& job : *parsed) out.push_back(std::move(job.about));
  return out;
}

Result<std::vector<JobDescription>> read_job_descriptions(const std::string& path) {
  auto parsed = read_job_file(path);
  if (!parsed) return parsed.error();
  std::vector<JobDescription> out;
  for (auto& job : *parsed) out.push_back(std::move(job.about));
  return out;
}

}  // namespace gpudiag
