// fetch_job: describe the job, then read its entries in its window, resuming after the runs gcloud
// cuts short.
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <simdjson.h>
#include <unistd.h>

#include <array>
#include <deque>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <thread>

#include "export_file.h"
#include "gcloud_process.h"
#include "gpudiag/diagnostic_codes.h"
#include "gpudiag/fetch.h"

namespace gpudiag {
namespace {

using fetch_detail::ExportFile;
using fetch_detail::GcloudRun;
using fetch_detail::run_gcloud;
using Clock = std::chrono::steady_clock;

constexpr std::string_view kInstallHelp =
    "install the Google Cloud CLI (https://cloud.google.com/sdk/docs/install; on Debian and Ubuntu the "
    "google-cloud-cli package from Google's apt repository, packages.cloud.google.com/apt), run `gcloud auth "
    "login`, and try again; or export by hand (gpudiag export-command JOB_ID)";

// What gcloud's stderr says went wrong, in the order it is looked for.
enum class GcloudTrouble : uint8_t { kNotLoggedIn, kPermission, kNotFound, kRetry, kOther };

struct TroubleMarker {
  std::string_view text;
  GcloudTrouble trouble;
};

// gcloud prints "ERROR: (gcloud.logging.read) STATUS: message" for an API error (STATUS is the
// google.rpc code), and its own sentences for missing credentials and broken connections.
constexpr std::array<TroubleMarker, 14> kTroubleMarkers{{
    {"You do not currently have an active account selected", GcloudTrouble::kNotLoggedIn},
    {"Reauthentication failed", GcloudTrouble::kNotLoggedIn},
    {"There was a problem refreshing your current auth tokens", GcloudTrouble::kNotLoggedIn},
    {"UNAUTHENTICATED", GcloudTrouble::kNotLoggedIn},
    {"PERMISSION_DENIED", GcloudTrouble::kPermission},
    {"NOT_FOUND", GcloudTrouble::kNotFound},
    {"RESOURCE_EXHAUSTED", GcloudTrouble::kRetry},
    {"UNAVAILABLE", GcloudTrouble::kRetry},
    {"DEADLINE_EXCEEDED", GcloudTrouble::kRetry},
    {"INTERNAL:", GcloudTrouble::kRetry},
    {"ConnectionError", GcloudTrouble::kRetry},
    {"Connection aborted", GcloudTrouble::kRetry},
    {"Read timed out", GcloudTrouble::kRetry},
    {"IncompleteRead", GcloudTrouble::kRetry},
}};

GcloudTrouble trouble_of(const GcloudRun& run) {
  if (run.signal != 0) return GcloudTrouble::kRetry;
  for (const auto& m : kTroubleMarkers) {
    if (run.stderr_text.find(m.text) != std::string::npos) return m.trouble;
  }
  return GcloudTrouble::kOther;
}

// gcloud's own error line(s), without its blank lines and boilerplate, for a message.
std::string gcloud_said(const GcloudRun& run) {
  std::string out;
  size_t start = 0;
  while (start < run.stderr_text.size()) {
    size_t end = run.stderr_text.find('\n', start);
    if (end == std::string::npos) end = run.stderr_text.size();
    const std::string_view line(run.stderr_text.data() + start, end - start);
    start = end + 1;
    if (line.starts_with("ERROR:") || line.starts_with("WARNING:") || line.find("denied") != std::string::npos) {
      if (!out.empty()) out += ' ';
      out += line;
    }
  }
  if (out.empty() && run.signal != 0) return fmt::format("gcloud was killed by signal {}", run.signal);
  if (out.empty()) out = run.stderr_text.substr(0, run.stderr_text.find('\n'));
  return out.size() > 600 ? out.substr(0, 600) + " …" : out;
}

Diagnostic problem(DiagnosticCode code, std::string message, std::string help, std::string file = {}) {
  return Diagnostic{
      .code = code_name(code), .message = std::move(message), .file = std::move(file), .help = std::move(help)};
}

struct Fetcher {
  explicit Fetcher(const FetchRequest& r) : request(r) {}

  const FetchRequest& request;
  Clock::time_point started = Clock::now();
  FetchProgress progress;
  std::mt19937_64 random{std::random_device{}()};
  std::chrono::milliseconds waited{0};
  unsigned retries = 0;

  void report(std::string doing, uint64_t bytes = 0) {
    if (!request.progress) return;
    progress.doing = std::move(doing);
    progress.bytes = bytes;
    progress.elapsed = Clock::now() - started;
    request.progress(progress);
  }

  // The region of a job gcloud's default region does not have, from the jobs of every region
  // (`gcloud dataflow jobs list` without --region: the aggregated list); "" when none has it.
  std::string find_region(const std::string& job_id, const std::string& out_path) {
    const GcloudRun listed = run(gcloud_argv({"dataflow", "jobs", "list", "--status=all", "--filter=id=" + job_id,
                                              "--limit=1", "--format=value(location)"}),
                                 out_path, "looking for the job in every region");
    if (!listed.started || listed.exit_code != 0) return "";
    std::ifstream in(out_path);
    std::string line;
    std::getline(in, line);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    // A region name, or nothing: what goes on the next command line is checked first.
    const bool region_name =
        !line.empty() && line.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
    return region_name ? line : "";
  }

  std::vector<std::string> gcloud_argv(std::vector<std::string> words) const {
    words.insert(words.begin(), request.gcloud);
    if (!request.project.empty()) words.push_back("--project=" + request.project);
    return words;
  }

  // Runs gcloud with stdout into `out_path`; ticks the progress line with the bytes received.
  GcloudRun run(const std::vector<std::string>& argv, const std::string& out_path, const std::string& doing) {
    return run_gcloud(
        argv, out_path,
        [&] {
          std::error_code ec;
          const auto size = std::filesystem::file_size(out_path, ec);
          report(doing, ec ? 0 : size);
        },
        request.interrupt);
  }

  // Sleeps before retry n (1-based); false when no retry is left.
  bool back_off(const std::string& why) {
    if (retries >= request.max_retries) return false;
    ++retries;
    const auto base = request.backoff * (1u << std::min(retries - 1, 16u));
    std::uniform_real_distribution<double> jitter(0.5, 1.5);
    const auto wait =
        std::chrono::milliseconds(static_cast<int64_t>(static_cast<double>(base.count()) * jitter(random)));
    report(fmt::format("waiting {:%Q}ms before retry {} of {} ({})", wait, retries, request.max_retries, why));
    for (auto left = wait; left.count() > 0 && !interrupted(); left -= std::chrono::milliseconds(50)) {
      std::this_thread::sleep_for(std::min(left, std::chrono::milliseconds(50)));
    }
    waited += wait;
    return !interrupted();
  }

  bool interrupted() const { return request.interrupt != nullptr && request.interrupt->load() != 0; }

  Diagnostic interruption() const {
    return Diagnostic{
        .code = code_name(DiagnosticCode::kFetchFailed),
        .message = fmt::format("interrupted by signal {}; nothing was written", request.interrupt->load()),
        .file = request.output,
        .help = "run it again to fetch the job"};
  }

  std::string missing_gcloud_message(const GcloudRun& run) const {
    return fmt::format("cannot run {}: {}", request.gcloud,
                       run.spawn_error == ENOENT ? "it is not on PATH" : std::strerror(run.spawn_error));
  }
};

// A scratch file beside the output, removed when dropped.
struct ScratchFile {
  std::string path;
  explicit ScratchFile(const std::string& beside) {
    std::string pattern = beside + ".gcloud-XXXXXX";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    const int fd = mkstemp(name.data());
    if (fd >= 0) {
      close(fd);
      path = name.data();
    }
  }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  ~ScratchFile() {
    if (!path.empty()) unlink(path.c_str());
  }
};

struct Description {
  std::string text;  // as gcloud printed it
  std::string state;
  std::string create_time;
  std::string state_time;
};

constexpr std::array<std::string_view, 5> kTerminalStates{"JOB_STATE_DONE", "JOB_STATE_FAILED", "JOB_STATE_CANCELLED",
                                                          "JOB_STATE_UPDATED", "JOB_STATE_DRAINED"};

Result<Description> read_description(const std::string& path, const std::string& job_id) {
  simdjson::padded_string text;
  if (simdjson::padded_string::load(path).get(text) != simdjson::SUCCESS) {
    return problem(DiagnosticCode::kFetchFailed, "cannot read what gcloud dataflow jobs describe printed", "");
  }
  simdjson::dom::parser parser;
  simdjson::dom::object job;
  if (parser.parse(text).get(job) != simdjson::SUCCESS) {
    return problem(DiagnosticCode::kFetchFailed,
                   fmt::format("gcloud dataflow jobs describe {} printed no JSON object", job_id),
                   "run it by hand with --format=json to see what it says");
  }
  Description d{.text = std::string(std::string_view(text))};
  const auto field = [&](const char* key) {
    std::string_view v;
    return job[key].get(v) == simdjson::SUCCESS ? std::string(v) : std::string();
  };
  d.state = field("currentState");
  d.create_time = field("createTime");
  d.state_time = field("currentStateTime");
  if (!parse_rfc3339_seconds(d.create_time)) {
    return problem(DiagnosticCode::kFetchFailed,
                   fmt::format("the description of job {} has no createTime, so its window is not known", job_id),
                   "pass the window by hand: gpudiag export-command JOB_ID --since …");
  }
  return d;
}

// The description with gpudiag's note of the fetch: {"…": …, "gpudiagFetch": {…}}.
std::string annotated_description(const std::string& text, const FetchedJob& f, const std::string& filter) {
  size_t close = text.find_last_of('}');
  if (close == std::string::npos) close = text.size();
  size_t before = close;
  while (before > 0 && (text[before - 1] == ' ' || text[before - 1] == '\n' || text[before - 1] == '\r')) --before;
  const bool empty_object = before > 0 && text[before - 1] == '{';
  std::string note = fmt::format(
      R"({}  "gpudiagFetch": {{"complete": {}, "entries": {}, "export": "{}", "filter": "{}", "gcloudRuns": {}, )"
      R"("retries": {}, "incompleteReason": "{}"}})",
      empty_object ? "\n" : ",\n", f.complete ? "true" : "false", f.entries, f.export_path, filter, f.gcloud_runs,
      f.retries, f.incomplete_why);
  return text.substr(0, before) + note + "\n}\n";
}

std::string json_escaped(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

// What one gcloud logging read run printed, appended to the export.
struct Appended {
  uint64_t entries = 0;
  bool whole = true;  // the array parsed to its end
};

struct EntryWriter {
  ExportFile& file;
  uint64_t written = 0;
  std::string last_timestamp;
  std::set<std::string> ids_at_last;  // insertIds of the entries kept at last_timestamp
  bool write_failed = false;
  // Following: the entries an earlier poll kept (dropped when read again), and those of the lookback
  // window before the newest entry, for the next poll's cursor.
  std::set<std::string> kept_before;
  std::deque<std::pair<std::string, std::string>> recent;
  std::chrono::seconds lookback{0};

  void remember(const std::string& timestamp, const std::string& id) {
    recent.emplace_back(timestamp, id);
    const auto newest = parse_rfc3339_seconds(timestamp);
    if (!newest) return;
    while (!recent.empty()) {
      const auto oldest = parse_rfc3339_seconds(recent.front().first);
      if (oldest && *oldest >= *newest - lookback) break;
      recent.pop_front();
    }
  }

  // Where the next poll starts: the lookback before the newest entry kept.
  FetchCursor cursor() const {
    FetchCursor c;
    if (recent.empty()) return c;
    const auto newest = parse_rfc3339_seconds(recent.back().first);
    c.from = newest ? rfc3339_utc(*newest - lookback) : recent.back().first;
    c.kept.assign(recent.begin(), recent.end());
    return c;
  }

  Appended append(const std::string& path) {
    Appended a;
    simdjson::padded_string text;
    if (simdjson::padded_string::load(path).get(text) != simdjson::SUCCESS) return Appended{0, false};
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document doc;
    simdjson::ondemand::array array;
    if (parser.iterate(text).get(doc) != simdjson::SUCCESS || doc.get_array().get(array) != simdjson::SUCCESS) {
      return Appended{0, false};
    }
    simdjson::ondemand::parser fields;
    for (auto element : array) {
      std::string_view raw, timestamp, insert_id;
      simdjson::ondemand::object whole;
      if (element.get_object().get(whole) != simdjson::SUCCESS || whole.raw_json().get(raw) != simdjson::SUCCESS) {
        return Appended{a.entries, false};
      }
      // The entry's own text is kept as gcloud printed it; its two keys come from a parse of it alone.
      const simdjson::padded_string copy(raw);
      simdjson::ondemand::document entry;
      if (fields.iterate(copy).get(entry) != simdjson::SUCCESS) return Appended{a.entries, false};
      simdjson::ondemand::object object;
      if (entry.get_object().get(object) != simdjson::SUCCESS) return Appended{a.entries, false};
      if (object.find_field_unordered("timestamp").get_string().get(timestamp) != simdjson::SUCCESS) timestamp = {};
      const std::string ts(timestamp);
      if (object.find_field_unordered("insertId").get_string().get(insert_id) != simdjson::SUCCESS) insert_id = {};
      const std::string id(insert_id);
      while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\r')) raw.remove_suffix(1);
      if (ts == last_timestamp && !id.empty() && ids_at_last.contains(id)) continue;  // came before the resume
      if (!id.empty() && kept_before.contains(id)) continue;                          // an earlier poll kept it
      if (ts != last_timestamp) {
        last_timestamp = ts;
        ids_at_last.clear();
      }
      ids_at_last.insert(id);
      if (!id.empty()) remember(ts, id);
      if (!file.write(written == 0 ? "[\n  " : ",\n  ") || !file.write(raw)) write_failed = true;
      ++written;
      ++a.entries;
    }
    return a;
  }

  bool finish() { return file.write(written == 0 ? "[]\n" : "\n]\n") && !write_failed; }
};

}  // namespace

Result<FetchedJob> fetch_job(const FetchRequest& request) {
  FetchedJob f{.export_path = request.output, .job_path = job_path_for(request.output)};
  if (!request.force) {
    for (const std::string& path : {f.export_path, f.job_path}) {
      std::error_code ec;
      if (std::filesystem::exists(path, ec)) {
        return problem(DiagnosticCode::kFetchOutputExists, fmt::format("{} exists; nothing was fetched", path),
                       "pass --force to replace it, or -o another file", path);
      }
    }
  }
  Fetcher fetcher(request);
  ScratchFile scratch(request.output);
  if (scratch.path.empty()) {
    return problem(DiagnosticCode::kFetchFailed,
                   fmt::format("cannot write beside {}: {}", request.output, std::strerror(errno)),
                   "pass -o a file in a folder you can write to", request.output);
  }

  // The description.
  std::string region = request.region;
  bool searched_regions = false;  // a job not in gcloud's default region is looked for in every region
  GcloudRun run;
  for (;;) {
    std::vector<std::string> describe{"dataflow", "jobs", "describe", request.job_id, "--full", "--format=json"};
    if (!region.empty()) describe.push_back("--region=" + region);
    run = fetcher.run(fetcher.gcloud_argv(describe), scratch.path, "describing the job");
    if (!run.started) {
      return problem(DiagnosticCode::kFetchGcloudMissing, fetcher.missing_gcloud_message(run),
                     std::string(kInstallHelp));
    }
    if (fetcher.interrupted()) return fetcher.interruption();
    if (run.exit_code == 0) break;
    const GcloudTrouble trouble = trouble_of(run);
    if (trouble == GcloudTrouble::kRetry && fetcher.back_off("gcloud dataflow jobs describe failed")) continue;
    if (fetcher.interrupted()) return fetcher.interruption();
    switch (trouble) {
      case GcloudTrouble::kNotLoggedIn:
        return problem(
            DiagnosticCode::kFetchNotLoggedIn, gcloud_said(run),
            "run `gcloud auth login` (or select an account: gcloud config set account ACCOUNT), then try again");
      case GcloudTrouble::kPermission:
        return problem(
            DiagnosticCode::kFetchPermission, gcloud_said(run),
            "reading a job needs dataflow.jobs.get: ask for the Dataflow Viewer role (roles/dataflow.viewer) "
            "on the project, and the Logs Viewer role (roles/logging.viewer) for its logs");
      case GcloudTrouble::kNotFound: {
        const std::string said = gcloud_said(run);
        if (region.empty() && !searched_regions) {
          searched_regions = true;
          if (auto found = fetcher.find_region(request.job_id, scratch.path); !found.empty()) {
            region = found;
            f.region = found;
            continue;
          }
          if (fetcher.interrupted()) return fetcher.interruption();
        }
        const std::string where =
            fmt::format("project {}, {}", request.project.empty() ? "(gcloud's default)" : request.project,
                        !region.empty() ? "region " + region
                                        : "gcloud's default region (dataflow/region, else us-central1) nor any other "
                                          "region (gcloud dataflow jobs list, every region)");
        return problem(DiagnosticCode::kFetchJobNotFound,
                       fmt::format("job {} not found in {}: {}", request.job_id, where, said),
                       "check the job id, --region and --project: `gcloud dataflow jobs list --project P --region R` "
                       "lists the jobs of a region");
      }
      default:
        return problem(
            DiagnosticCode::kFetchFailed,
            fmt::format("gcloud dataflow jobs describe failed (exit {}): {}", run.exit_code, gcloud_said(run)),
            "run the same gcloud command by hand to see what it needs");
    }
  }
  auto description = read_description(scratch.path, request.job_id);
  if (!description) return description.error();
  f.state = description->state;
  f.terminal = std::find(kTerminalStates.begin(), kTerminalStates.end(), f.state) != kTerminalStates.end();
  const auto created = *parse_rfc3339_seconds(description->create_time);
  // Following, the poll reads from the cursor (the lookback before the last entry seen).
  const std::string since =
      request.after && !request.after->from.empty() ? request.after->from : rfc3339_utc(created - request.margin);
  std::string until;
  if (const auto ended = parse_rfc3339_seconds(description->state_time); f.terminal && ended) {
    until = rfc3339_utc(*ended + request.margin);
  }
  const std::string filter = job_log_filter(request.job_id, since, until);

  // The entries, resumed after each run gcloud cut short.
  ExportFile file;
  if (auto refused = file.open(request.output)) {
    return problem(DiagnosticCode::kFetchFailed, fmt::format("cannot write {}: {}", request.output, *refused),
                   "pass -o a file in a folder you can write to", request.output);
  }
  EntryWriter writer{file};
  writer.lookback = request.lookback;
  if (request.after) {  // following: what an earlier poll kept is dropped, and counts for the next cursor
    for (const auto& [timestamp, id] : request.after->kept) {
      writer.kept_before.insert(id);
      writer.recent.emplace_back(timestamp, id);
    }
  }
  f.complete = false;
  for (;;) {
    std::string run_filter = filter;
    if (!writer.last_timestamp.empty()) run_filter += fmt::format(R"( AND timestamp>="{}")", writer.last_timestamp);
    run = fetcher.run(fetcher.gcloud_argv({"logging", "read", run_filter, "--order=asc", "--format=json"}),
                      scratch.path, "reading entries");
    if (!run.started) {
      return problem(DiagnosticCode::kFetchGcloudMissing, fetcher.missing_gcloud_message(run),
                     std::string(kInstallHelp));
    }
    if (fetcher.interrupted()) return fetcher.interruption();
    ++f.gcloud_runs;
    ++fetcher.progress.gcloud_runs;
    const Appended appended = writer.append(scratch.path);
    fetcher.progress.entries = writer.written;
    if (run.exit_code == 0 && appended.whole) {
      f.complete = true;
      break;
    }
    const GcloudTrouble trouble = run.exit_code == 0 ? GcloudTrouble::kRetry : trouble_of(run);
    const std::string said = run.exit_code == 0 ? "gcloud printed a cut JSON array" : gcloud_said(run);
    if (trouble == GcloudTrouble::kRetry) {
      if (fetcher.back_off(said.substr(0, 80))) continue;
      if (fetcher.interrupted()) return fetcher.interruption();
      f.incomplete_why =
          fmt::format("gcloud logging read still failed after {} retries over {:%Q}s: {}", fetcher.retries,
                      std::chrono::duration_cast<std::chrono::seconds>(fetcher.waited), said);
      break;
    }
    if (trouble == GcloudTrouble::kNotLoggedIn) {
      return problem(DiagnosticCode::kFetchNotLoggedIn, said, "run `gcloud auth login`, then try again");
    }
    if (trouble == GcloudTrouble::kPermission) {
      return problem(DiagnosticCode::kFetchPermission, said,
                     "reading log entries needs logging.logEntries.list: ask for the Logs Viewer role "
                     "(roles/logging.viewer) on the project");
    }
    return problem(DiagnosticCode::kFetchFailed,
                   fmt::format("gcloud logging read failed (exit {}): {}", run.exit_code, said),
                   fmt::format("run it by hand to see what it needs: gcloud logging read '{}' --format=json", filter));
  }
  if (!writer.finish()) {
    return problem(DiagnosticCode::kFetchFailed,
                   fmt::format("cannot write {}: a write failed (is the disk full?)", request.output), "",
                   request.output);
  }
  f.entries = writer.written;
  f.cursor = writer.cursor();
  f.retries = fetcher.retries;
  f.waited = fetcher.waited;
  // The job file first: an export never stands without the note of whether it is whole.
  ExportFile job_file;
  if (auto refused = job_file.open(f.job_path)) {
    return problem(DiagnosticCode::kFetchFailed, fmt::format("cannot write {}: {}", f.job_path, *refused), "",
                   f.job_path);
  }
  // The note's strings go into JSON as they are: escape them here.
  FetchedJob noted = f;
  noted.export_path = json_escaped(std::filesystem::path(f.export_path).filename().string());
  noted.incomplete_why = json_escaped(f.incomplete_why);
  const std::string described = annotated_description(description->text, noted, json_escaped(filter));
  if (!job_file.write(described)) {
    return problem(DiagnosticCode::kFetchFailed, fmt::format("cannot write {}", f.job_path), "", f.job_path);
  }
  for (auto* out : {&job_file, &file}) {
    if (auto refused = out->commit()) {
      return problem(DiagnosticCode::kFetchFailed, fmt::format("cannot put the fetched files in place: {}", *refused),
                     "", request.output);
    }
  }
  return f;
}

}  // namespace gpudiag
