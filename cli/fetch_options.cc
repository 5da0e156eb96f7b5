#include "fetch_options.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <regex>

#include "commands.h"
#include "gpudiag/job_file.h"
#include "interrupts.h"

namespace gpudiag::cli {

void FetchTarget::add_to(CLI::App& cmd) {
  cmd.add_option("--project", project, "The job's project (default: gcloud's configured project)");
  cmd.add_option("--region", region, "The job's region (default: gcloud's, dataflow/region, else us-central1)");
}

std::optional<FetchRequest> fetch_request(const FetchTarget& t) {
  struct NameCheck {
    const char* flag;
    const std::string* value;
    const char* pattern;
    const char* what;
  };
  const NameCheck checks[] = {
      {"JOB_ID", &t.job_id, R"([A-Za-z0-9][A-Za-z0-9_-]{0,127})", "a Dataflow job id (2024-05-01_10_00_00-123…)"},
      {"--project", &t.project, R"(([a-z][a-z0-9.-]{0,62}:)?[a-z][a-z0-9-]{4,28}[a-z0-9])", "a project id"},
      {"--region", &t.region, R"([a-z]+(-[a-z0-9]+)+)", "a region such as us-central1"},
  };
  for (const auto& c : checks) {
    if (c.value->empty() || std::regex_match(*c.value, std::regex(c.pattern))) continue;
    std::cerr << fmt::format("gpudiag: {} {}: not {}; nothing was fetched\n", c.flag, terminal_safe(*c.value), c.what);
    return std::nullopt;
  }
  FetchRequest r{.job_id = t.job_id, .project = t.project, .region = t.region};
  if (const char* ms = std::getenv("GPUDIAG_FETCH_BACKOFF_MS"); ms != nullptr && *ms != '\0') {
    r.backoff = std::chrono::milliseconds(std::strtoll(ms, nullptr, 10));
  }
  return r;
}

Result<FetchedJob> fetch_with_progress(const FetchRequest& request) {
  FetchRequest r = request;
  catch_interrupts();  // Ctrl-C: gcloud stops, gpudiag removes its temporary files and exits 130
  r.interrupt = &interrupt_signal();
  const bool progress = isatty(STDERR_FILENO) != 0;
  if (progress) {
    r.progress = [](const FetchProgress& p) {
      const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(p.elapsed).count();
      std::cerr << fmt::format("\r\x1b[2Kgpudiag fetch: {}: {} entries, {} gcloud run{}, {} KB coming, {}s", p.doing,
                               p.entries, p.gcloud_runs, p.gcloud_runs == 1 ? "" : "s", p.bytes / 1024, seconds)
                << std::flush;
    };
  }
  auto fetched = fetch_job(r);
  if (progress) std::cerr << "\r\x1b[2K" << std::flush;
  if (fetched && !fetched->region.empty()) {
    std::cerr << fmt::format("gpudiag: job {} is in region {}, not gcloud's default; --region {} saves the search\n",
                             terminal_safe(request.job_id), terminal_safe(fetched->region),
                             terminal_safe(fetched->region));
  }
  return fetched;
}

namespace {

// $XDG_CACHE_HOME/gpudiag/fetch (else ~/.cache/gpudiag/fetch); nullopt (said why) when neither is set.
std::optional<std::filesystem::path> fetch_cache_root() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/') {
    return std::filesystem::path(xdg) / "gpudiag" / "fetch";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::filesystem::path(home) / ".cache" / "gpudiag" / "fetch";
  }
  std::cerr << "gpudiag: neither XDG_CACHE_HOME nor HOME is set: no cache to fetch into; use gpudiag fetch -o FILE\n";
  return std::nullopt;
}

// Keeps the cache under GPUDIAG_CACHE_MAX_MB (default 2048): the files written longest ago go first,
// never those of the job just fetched.
void trim_cache(const std::filesystem::path& cache, const FetchedJob& keep) {
  uint64_t limit = 2048;
  if (const char* mb = std::getenv("GPUDIAG_CACHE_MAX_MB"); mb != nullptr && *mb != '\0') {
    limit = std::strtoull(mb, nullptr, 10);
  }
  limit <<= 20;
  struct CachedFile {
    std::filesystem::file_time_type written;
    std::filesystem::path path;
    uint64_t bytes;
  };
  std::vector<CachedFile> files;
  uint64_t total = 0;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(cache, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    // A follow still under way writes its folder at least once an hour (--poll-interval ≤ 3600 s):
    // its pieces are not trimmed under it.
    const auto parent = it->path().parent_path();
    if (parent.extension() == ".follow" && std::filesystem::last_write_time(parent, ec) >
                                               std::filesystem::file_time_type::clock::now() - std::chrono::hours(1)) {
      continue;
    }
    const uint64_t bytes = it->file_size(ec);
    files.push_back({it->last_write_time(ec), it->path(), bytes});
    total += bytes;
  }
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.written < b.written; });
  for (const auto& f : files) {
    if (total <= limit) break;
    if (f.path == keep.export_path || f.path == keep.job_path) continue;
    if (std::filesystem::remove(f.path, ec)) total -= f.bytes;
  }
}

}  // namespace

std::optional<std::filesystem::path> fetch_cache_folder(const FetchTarget& target) {
  const auto root = fetch_cache_root();
  if (!root) return std::nullopt;
  auto folder = *root / (target.project.empty() ? "default-project" : target.project) /
                (target.region.empty() ? "default-region" : target.region);
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) {
    std::cerr << fmt::format("gpudiag: cannot make the cache folder {}: {}\n", terminal_safe(folder.string()),
                             ec.message());
    return std::nullopt;
  }
  return folder;
}

std::optional<FetchedJob> fetch_into_cache(const FetchTarget& target) {
  auto request = fetch_request(target);
  if (!request) return std::nullopt;
  const auto folder = fetch_cache_folder(target);
  if (!folder) return std::nullopt;
  std::error_code ec;
  request->output = (*folder / (target.job_id + ".json.gz")).string();
  request->force = true;
  // A job that has ended logs nothing more: a complete export of it is reused.
  const std::string job_path = job_path_for(request->output);
  if (std::filesystem::exists(request->output, ec) && std::filesystem::exists(job_path, ec)) {
    if (auto jobs = read_job_descriptions(job_path); jobs && jobs->size() == 1) {
      const JobDescription& job = jobs->front();
      if (job.fetch_complete == true && job.terminal()) {
        std::cerr << fmt::format("gpudiag: using the export fetched before: {}\n", terminal_safe(request->output));
        return FetchedJob{.export_path = request->output,
                          .job_path = job_path,
                          .state = job.current_state,
                          .terminal = true,
                          .complete = true};
      }
    }
  }
  auto fetched = fetch_with_progress(*request);
  if (!fetched) {
    print_problem(fetched.error());
    return std::nullopt;
  }
  std::cerr << fmt::format("gpudiag: fetched {} entries of job {} into {}\n", fetched->entries,
                           terminal_safe(target.job_id), terminal_safe(fetched->export_path));
  trim_cache(*fetch_cache_root(), *fetched);
  return *fetched;
}

}  // namespace gpudiag::cli
