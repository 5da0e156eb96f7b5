// gpudiag export-command JOB_ID: prints the `gcloud logging read` command that exports what gpudiag
// needs (README, "Exporting the logs"), and where a Cloud Storage sink keeps the same entries.
//
// Two facts shape the command. gcloud applies --freshness (default 1d) only with --order=desc and a
// filter that names no timestamp (`gcloud logging read --help`; surface/logging/read.py), so with
// --order=asc the window goes into the filter as `timestamp>=…`. And a Dataflow job id starts with
// its creation time in US Pacific time (2022-11-28_14_05_40-… began at 22:05:41Z): that is where
// the window starts when --since does not say.
#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <regex>
#include <tuple>

#include "commands.h"
#include "gpudiag/fetch.h"
#include "output_files.h"
#include "shell_word.h"
#include "stdout_guard.h"

namespace gpudiag::cli {
namespace {

using Clock = std::chrono::system_clock;
using Seconds = std::chrono::sys_seconds;

struct ExportOptions {
  std::string job_id;
  std::string project;
  std::string region;
  std::string since;  // a duration back from now (7d), or a time (RFC 3339 UTC, or a date)
  std::string until;
  std::string bucket;
  std::string output = "logs.json";
  bool startup = false;
};

std::string sink_day(std::chrono::sys_days d) {
  const std::chrono::year_month_day ymd{d};
  return fmt::format("{:04}/{:02}/{:02}", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                     static_cast<unsigned>(ymd.day()));
}

std::optional<Seconds> civil(int y, unsigned mo, unsigned d, int h, int mi, int s) {
  const std::chrono::year_month_day ymd{std::chrono::year{y}, std::chrono::month{mo}, std::chrono::day{d}};
  if (!ymd.ok() || h > 23 || mi > 59 || s > 60) return std::nullopt;
  return std::chrono::sys_days{ymd} + std::chrono::hours{h} + std::chrono::minutes{mi} + std::chrono::seconds{s};
}

// A job id's creation time, as UTC: its digits are US Pacific time, daylight time from the second
// Sunday of March to the first Sunday of November, 02:00 (the rule since 2007).
std::optional<Seconds> job_created(const std::string& job_id) {
  static const std::regex kJobId(R"((\d{4})-(\d{2})-(\d{2})_(\d{2})_(\d{2})_(\d{2})-\d+)");
  std::smatch m;
  if (!std::regex_match(job_id, m, kJobId)) return std::nullopt;
  const int y = std::stoi(m[1]);
  const auto local = civil(y, std::stoul(m[2]), std::stoul(m[3]), std::stoi(m[4]), std::stoi(m[5]), std::stoi(m[6]));
  if (!local) return std::nullopt;
  using std::chrono::Sunday;
  const auto sunday = [&](unsigned month, unsigned n) {
    return std::chrono::sys_days{std::chrono::year_month_weekday{std::chrono::year{y}, std::chrono::month{month},
                                                                 std::chrono::weekday_indexed{Sunday, n}}} +
           std::chrono::hours{2};
  };
  const bool daylight = *local >= sunday(3, 2) && *local < sunday(11, 1);
  return *local + std::chrono::hours{daylight ? 7 : 8};
}

// "7d", "36h", "90m", "2w" back from now; "2024-05-01T10:00:00Z" or "2024-05-01" (UTC).
std::optional<Seconds> parse_time(const std::string& s, Seconds now) {
  static const std::regex kDuration(R"((\d{1,6})([smhdw]))");
  static const std::regex kTime(R"((\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?Z)?)");
  std::smatch m;
  if (std::regex_match(s, m, kDuration)) {
    const long n = std::stol(m[1]);
    static constexpr std::string_view kUnits = "smhdw";
    static constexpr long kSeconds[] = {1, 60, 3600, 86400, 604800};
    return now - std::chrono::seconds{n * kSeconds[kUnits.find(m[2].str()[0])]};
  }
  if (std::regex_match(s, m, kTime)) {
    const bool has_time = m[4].matched;
    return civil(std::stoi(m[1]), std::stoul(m[2]), std::stoul(m[3]), has_time ? std::stoi(m[4]) : 0,
                 has_time ? std::stoi(m[5]) : 0, has_time ? std::stoi(m[6]) : 0);
  }
  return std::nullopt;
}

// The names gcloud and Cloud Logging take, checked before they are put in a filter: a job id, a
// project id (domain-scoped ones too), a region, a bucket.
struct NameRule {
  const char* flag;
  const std::string* value;
  const char* pattern;
  const char* what;
};

int run_export(const ExportOptions& o) {
  const NameRule rules[] = {
      {"JOB_ID", &o.job_id, R"([A-Za-z0-9][A-Za-z0-9_-]{0,127})", "a Dataflow job id (2024-05-01_10_00_00-123…)"},
      {"--project", &o.project, R"(([a-z][a-z0-9.-]{0,62}:)?[a-z][a-z0-9-]{4,28}[a-z0-9])", "a project id"},
      {"--region", &o.region, R"([a-z]+(-[a-z0-9]+)+)", "a region such as us-central1"},
      {"--bucket", &o.bucket, R"([a-z0-9][a-z0-9._-]{1,220}[a-z0-9])", "a Cloud Storage bucket name"},
  };
  for (const auto& r : rules) {
    if (r.value->empty() || std::regex_match(*r.value, std::regex(r.pattern))) continue;
    std::cerr << fmt::format("gpudiag: {} {}: not {}; nothing was printed\n", r.flag, terminal_safe(*r.value), r.what);
    return kExitError;
  }
  const Seconds now = std::chrono::floor<std::chrono::seconds>(Clock::now());
  const std::optional<Seconds> created = job_created(o.job_id);
  std::optional<Seconds> since = created ? std::optional<Seconds>(*created - std::chrono::hours{1}) : std::nullopt;
  std::optional<Seconds> until;
  using TimeOption = std::tuple<const char*, const std::string*, std::optional<Seconds>*>;
  for (const auto& [flag, text, target] :
       {TimeOption{"--since", &o.since, &since}, TimeOption{"--until", &o.until, &until}}) {
    if (text->empty()) continue;
    *target = parse_time(*text, now);
    if (!*target) {
      std::cerr << fmt::format(
          "gpudiag: {} {}: not a time: write a duration back from now (7d, 36h, 90m) or a UTC time "
          "(2024-05-01T10:00:00Z, 2024-05-01)\n",
          flag, terminal_safe(*text));
      return kExitError;
    }
  }
  if (!since) {
    std::cerr << fmt::format("gpudiag: the job id {} does not say when the job ran; pass --since (7d, 2024-05-01)\n",
                             terminal_safe(o.job_id));
    return kExitError;
  }
  // A startup failure happens within the job's first hour or two; a job's own logs may run for days.
  if (o.startup && !until) until = *since + std::chrono::hours{3};
  if (until && *until <= *since) {
    std::cerr << "gpudiag: --until is not after the window's start\n";
    return kExitError;
  }
  const std::string from = rfc3339_utc(*since), to = until ? rfc3339_utc(*until) : "";
  std::string filter = o.startup ? fmt::format(R"(timestamp>="{}")", from) : job_log_filter(o.job_id, from, "");
  if (until) filter += fmt::format(R"( AND timestamp<="{}")", to);
  std::vector<std::string> args{"gcloud", "logging", "read", filter};
  if (!o.project.empty()) args.push_back("--project=" + o.project);
  args.insert(args.end(), {"--order=asc", "--format=json"});
  std::vector<std::string> words;
  for (const auto& a : args) words.push_back(shell_word(a));

  std::string out;
  if (o.startup) {
    out +=
        "# Every log of the project in the job's first hours: a job that failed to start has no worker logs,\n"
        "# and what stopped it (quota, capacity, the image, the VM) is logged beside the job, not in it.\n";
  } else {
    out +=
        "# The job's logs: its job messages and its worker, harness and startup logs all carry the job's\n"
        "# dataflow_step resource.\n";
  }
  out +=
      "# gcloud applies --freshness (default 1d) only with --order=desc and no timestamp in the filter, so\n"
      "# the window is in the filter.\n";
  out += fmt::format("{} > {}\n", fmt::join(words, " "), shell_word(o.output));
  out += fmt::format("gpudiag analyze {}{}\n", o.startup ? "--job-id " + shell_word(o.job_id) + " " : "",
                     shell_word(o.output));
  if (!o.region.empty()) {
    out += fmt::format("# The job in the console: https://console.cloud.google.com/dataflow/jobs/{}/{}{}\n", o.region,
                       o.job_id, o.project.empty() ? "" : "?project=" + o.project);
  }
  // A sink writes hourly shards of every job under LOG_ID/YYYY/MM/DD/, by UTC day.
  const std::string bucket = o.bucket.empty() ? "BUCKET" : o.bucket;
  const auto first = std::chrono::floor<std::chrono::days>(*since);
  // Without an end, the first two days: most batch jobs end within one (a longer job: later days too).
  const auto last = until ? std::chrono::floor<std::chrono::days>(*until) : first + std::chrono::days{1};
  out += fmt::format("# From a Cloud Storage sink instead: the shards under {} (every job's; --job-id selects){}:\n",
                     o.startup ? "every log's folder" : "the Dataflow logs' folders",
                     until ? "" : ", and later days' while the job ran");
  constexpr int kMaxDays = 7;
  int days = 0;
  for (auto d = first; d <= last; d += std::chrono::days{1}) {
    if (++days > kMaxDays) {
      out += fmt::format("#   … and {} more days\n", (last - d).count() + 1);
      break;
    }
    out += fmt::format("#   gs://{}/{}/{}/\n", bucket, o.startup ? "**" : "dataflow.googleapis.com/*", sink_day(d));
  }
  return write_stdout(out) ? kExitOk : kExitError;
}

}  // namespace

void add_export_command(CLI::App& app, std::function<int()>& run) {
  auto o = std::make_shared<ExportOptions>();
  CLI::App* cmd =
      app.add_subcommand("export-command", "Print the gcloud command that exports a job's logs for gpudiag");
  cmd->add_option("job_id", o->job_id, "The Dataflow job id")->required();
  cmd->add_option("--project", o->project, "The job's project (default: gcloud's configured project)");
  cmd->add_option("--region", o->region, "The job's region, for the link to its console page");
  cmd->add_flag("--startup", o->startup,
                "The whole project's logs in the job's first hours: for a job that failed to start");
  cmd->add_option("--since,--freshness", o->since,
                  "Start of the window: a duration back from now (7d) or a UTC time (default: an hour before the "
                  "time in the job id)");
  cmd->add_option("--until", o->until, "End of the window, a UTC time (default: none; with --startup, 3 hours on)");
  cmd->add_option("--bucket", o->bucket, "The Cloud Storage bucket a log sink writes to, for the sink prefixes");
  cmd->add_option("-o,--output", o->output, "The file the printed command writes")->capture_default_str();
  cmd->footer(
      "Examples:\n  gpudiag export-command 2024-05-01_10_00_00-123456789 --project my-proj --region us-central1\n"
      "  gpudiag export-command 2024-05-01_10_00_00-123456789 --project my-proj --startup | sh");
  cmd->callback([&run, o] { run = [o] { return run_export(*o); }; });
}

}  // namespace gpudiag::cli
