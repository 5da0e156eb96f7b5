#include "follow.h"

#include <fmt/format.h>

#include <cctype>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <set>
#include <thread>

#include "fetch_options.h"
#include "gpudiag/report.h"
#include "interrupts.h"
#include "shell_word.h"

namespace gpudiag::cli {
namespace {

bool interrupted() { return interrupt_signal().load() != 0; }

// Waits `seconds`, or less when Ctrl-C comes.
void wait_or_interrupt(double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!interrupted() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string clock_now() {
  const auto now = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
  return fmt::format("{:%H:%M:%S}", now);
}

// Prints the findings and error groups (at warning or above) not printed before: a finding is told
// once, when it first appears, and never taken back.
void print_new_findings(const RankedReport& report, std::set<std::string>& told, std::ostream& out) {
  const auto jobs = report.jobs.empty() ? std::vector<const RankedReport*>{&report} : [&] {
    std::vector<const RankedReport*> all;
    for (const auto& job : report.jobs) all.push_back(&job);
    return all;
  }();
  for (const RankedReport* job : jobs) {
    for (const RankedFinding& f : job->findings) {
      const Finding& finding = *f.finding;
      // By rule and job, not fingerprint: a fingerprint made of captures can change as entries come,
      // and the same finding would be told again.
      if (!told.insert(fmt::format("{} {}", finding.rule_id, job->analysis->job.id)).second) continue;
      // A finding made from the job's configuration (facts) has no entry of its own.
      const std::string seen = finding.count == 0
                                   ? std::string("from the job's configuration")
                                   : fmt::format("{} entr{} from {}", finding.count, finding.count == 1 ? "y" : "ies",
                                                 format_rfc3339(finding.first_seen));
      out << terminal_safe(fmt::format("{} new: [{}] {} ({}), {}", clock_now(), upper(impact_name(finding.severity)),
                                       finding.title, finding.rule_id, seen))
          << '\n';
    }
    for (const RankedUnexplained& u : job->unexplained) {
      if (u.severity() < Impact::kWarning || !told.insert(u.group->fingerprint).second) continue;
      out << terminal_safe(fmt::format("{} new: [{}] an error no rule knows: {} ({}), {} entr{}", clock_now(),
                                       upper(impact_name(u.severity())), unexplained_headline(*u.group),
                                       u.group->fingerprint, u.group->count, u.group->count == 1 ? "y" : "ies"))
          << '\n';
    }
  }
  out << std::flush;
}

}  // namespace

void FollowOptions::add_to(CLI::App& cmd) {
  CLI::Option* flag = cmd.add_flag("--follow", enabled,
                                   "With --project and --job-id: follow a running job, printing each finding as it "
                                   "appears, and the report when the job ends or on Ctrl-C (which then exits as "
                                   "analyze does, not 130)");
  cmd.add_option("--poll-interval", poll_seconds, "Seconds between two fetches while following")
      ->check(CLI::Range(1.0, 3600.0))
      ->capture_default_str()
      ->needs(flag);
}

int follow_job(const RunOptions& o, const FollowOptions& follow, bool lines_to_stderr, const FinishRun& finish) {
  FetchTarget target = o.fetch;
  target.job_id = o.job_ids.front();
  auto request = fetch_request(target);
  if (!request) return kExitError;
  const auto cache = fetch_cache_folder(target);
  if (!cache) return kExitError;
  // The pieces of this follow, one per poll; an earlier follow's are ours to replace.
  const auto folder = *cache / (target.job_id + ".follow");
  std::error_code ec;
  std::filesystem::remove_all(folder, ec);
  std::filesystem::create_directories(folder, ec);
  if (ec) {
    std::cerr << fmt::format("gpudiag: cannot make {}: {}\n", terminal_safe(folder.string()), ec.message());
    return kExitError;
  }
  catch_interrupts();
  request->interrupt = &interrupt_signal();
  request->force = true;
  std::ostream& lines = lines_to_stderr ? std::cerr : std::cout;

  RunOptions followed = o;
  followed.fetch = FetchTarget{};
  followed.history.db.clear();  // a poll is not a run: the report at the end is recorded
  std::set<std::string> told;
  uint64_t entries = 0;
  bool fetch_failed = false;
  for (unsigned poll = 1;; ++poll) {
    // poll-0001.entries.json, its description poll-0001.entries.job.json: `*.entries.json` is the export.
    request->output = (folder / fmt::format("poll-{:04}.entries.json", poll)).string();
    auto fetched = fetch_with_progress(*request);
    if (!fetched) {
      if (interrupted()) break;  // Ctrl-C while gcloud ran: the report of what came
      print_problem(fetched.error());
      fetch_failed = true;
      break;
    }
    // The latest description says the job's state; the previous one goes.
    if (!followed.job_files.empty()) std::filesystem::remove(followed.job_files.front(), ec);
    followed.job_files = {fetched->job_path};
    if (!fetched->region.empty()) request->region = fetched->region;  // found in another region: once
    if (fetched->entries > 0) {
      followed.inputs.push_back(fetched->export_path);
      request->after = fetched->cursor;
      entries += fetched->entries;
    } else {
      std::filesystem::remove(fetched->export_path, ec);
    }
    std::cerr << fmt::format("gpudiag: follow: poll {}: {} new entries, {} in all, {}\n", poll, fetched->entries,
                             entries, fetched->state.empty() ? "state not given" : terminal_safe(fetched->state));
    if (!followed.inputs.empty()) {
      RunOptions quiet = followed;
      quiet.github_errors = false;
      if (auto analysed = run_analysis(quiet)) print_new_findings(rank(analysed->analysis), told, lines);
    }
    if (fetched->terminal || interrupted()) break;
    wait_or_interrupt(follow.poll_seconds);
    if (interrupted()) break;
  }
  // Following ends at the job's end or on Ctrl-C: either way the report of what came, as analyze.
  take_interrupt();
  if (followed.inputs.empty()) {
    std::cerr << fmt::format("gpudiag: follow: no entry of job {} came; no report\n", terminal_safe(target.job_id));
    return kExitError;
  }
  followed.history = o.history;
  std::cerr << fmt::format("gpudiag: follow: the export is {}/*.entries.json ({} pieces)\n",
                           terminal_safe(folder.string()), followed.inputs.size());
  auto analysed = run_analysis(followed);
  if (!analysed) return kExitError;
  analysed->header_notes.push_back(fmt::format(
      "export: {}/*.entries.json ({} pieces; offline: gpudiag analyze --job {} {}/*.entries.json)", folder.string(),
      followed.inputs.size(), shell_word(followed.job_files.front()), shell_word(folder.string())));
  const int code = finish(followed, *analysed);
  return fetch_failed && code == kExitOk ? kExitError : code;
}

}  // namespace gpudiag::cli
