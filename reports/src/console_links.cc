// Console URLs. The Logs Explorer URL keeps its state in ";"-separated parameters of the path:
//   https://console.cloud.google.com/logs/query;query=<encoded query>;timeRange=<from>%2F<to>?project=<id>
// as documented by the gcplogurl package (https://pkg.go.dev/github.com/vvakame/gcplogurl: the
// Explorer type and its example output, and timerange.go's SpecificTimeBetween "from%2Fto");
// `cursorTimestamp=<RFC 3339>` is the parameter the console itself adds to a link when an entry is
// selected, so the link opens with that entry in view. The query is the Logging query language
// (https://cloud.google.com/logging/docs/view/logging-query-language): a string value is quoted with
// "…", a quote or backslash in it escaped with a backslash.
#include "console_links.h"

#include <fmt/format.h>

namespace gpudiag::detail {
namespace {

constexpr std::string_view kConsole = "https://console.cloud.google.com";
constexpr int64_t kEntryWindow = 5LL * 60 * 1'000'000'000;  // ± 5 minutes around one entry

std::string quoted(std::string_view value) {
  std::string out = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

std::string job_query(std::string_view job_id) { return "resource.labels.job_id=" + quoted(job_id); }

std::string project_suffix(std::string_view project) {
  return project.empty() ? "" : "?project=" + percent_encode(project);
}

std::string time_range(Timestamp from, Timestamp to) {
  if (from == kNoTime && to == kNoTime) return "";
  return fmt::format(";timeRange={}%2F{}", from == kNoTime ? "" : format_rfc3339(from),
                     to == kNoTime ? "" : format_rfc3339(to));
}

}  // namespace

std::string percent_encode(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                            c == '.' || c == '_' || c == '~';
    out += unreserved ? std::string(1, static_cast<char>(c)) : fmt::format("%{:02X}", c);
  }
  return out;
}

std::string logs_explorer_job_url(const JobInfo& job, Timestamp from, Timestamp to) {
  if (job.id.empty()) return "";
  return fmt::format("{}/logs/query;query={}{}{}", kConsole, percent_encode(job_query(job.id)), time_range(from, to),
                     project_suffix(job.project));
}

std::string logs_explorer_entry_url(const JobInfo& job, const LogRecord& entry) {
  const std::string_view id = entry.job_id.empty() ? std::string_view(job.id) : entry.job_id;
  if (id.empty()) return "";
  const std::string_view project = entry.project.empty() ? std::string_view(job.project) : entry.project;
  std::string url = fmt::format("{}/logs/query;query={}", kConsole, percent_encode(job_query(id)));
  if (entry.timestamp != kNoTime) {
    url += time_range(entry.timestamp - kEntryWindow, entry.timestamp + kEntryWindow);
    url += ";cursorTimestamp=" + format_rfc3339(entry.timestamp);
  }
  return url + project_suffix(project);
}

std::string dataflow_job_url(const JobInfo& job) {
  if (job.id.empty() || job.region.empty()) return "";
  return fmt::format("{}/dataflow/jobs/{}/{}{}", kConsole, percent_encode(job.region), percent_encode(job.id),
                     project_suffix(job.project));
}

}  // namespace gpudiag::detail
