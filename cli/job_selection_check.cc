#include "job_selection_check.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "gpudiag/name_suggestions.h"
#include "gpudiag/report.h"

namespace gpudiag::cli {
namespace {

// A Dataflow job id: YYYY-MM-DD_HH_MM_SS-DIGITS. Anything else given to --job-id was most
// likely a job's name or a glob.
bool looks_like_job_id(std::string_view s) {
  if (s.size() < 21 || s[4] != '-' || s[7] != '-' || s[10] != '_' || s[19] != '-') return false;
  return std::all_of(s.begin() + 20, s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool glob_chars(std::string_view s) { return s.find_first_of("*?[") != std::string_view::npos; }

struct HeldJob {
  std::string id, name;
  std::string shown() const { return name.empty() ? id : fmt::format("{} ({})", id, name); }
};

std::vector<HeldJob> held_jobs(const Analysis& d) {
  std::vector<HeldJob> held;
  for (const auto& job : d.jobs) held.push_back({job.job.id, job.job.name});
  for (const auto* list : {&d.not_selected, &d.not_diagnosed}) {
    for (const auto& c : *list) held.push_back({c.id, c.name});
  }
  std::erase_if(held, [](const HeldJob& j) { return j.id.empty(); });
  return held;
}

// The jobs the export holds, those closest to what was typed first, at most five.
std::string closest_first(std::string_view typed, std::vector<HeldJob> held) {
  std::stable_sort(held.begin(), held.end(), [&](const HeldJob& a, const HeldJob& b) {
    const auto distance = [&](const HeldJob& j) {
      return std::min(edit_distance(typed, j.id), j.name.empty() ? j.id.size() : edit_distance(typed, j.name));
    };
    return distance(a) < distance(b);
  });
  std::vector<std::string> shown;
  for (size_t i = 0; i < held.size() && i < 5; ++i) shown.push_back(held[i].shown());
  const std::string more = held.size() > 5 ? fmt::format(" and {} more", held.size() - 5) : "";
  return fmt::format("{}{}", fmt::join(shown, ", "), more);
}

void refuse(std::string_view what, std::string_view typed, const std::vector<HeldJob>& held, std::string help) {
  std::cerr << fmt::format("gpudiag: {} {}: the export holds no such job; it holds {} job{}: {}\n", what,
                           terminal_safe(typed), held.size(), held.size() == 1 ? "" : "s",
                           terminal_safe(closest_first(typed, held)));
  if (!help.empty()) std::cerr << "  help: " << terminal_safe(help) << '\n';
}

}  // namespace

bool check_job_selection(const JobSelection& select, const Analysis& d) {
  if (!select.any()) return true;
  const std::vector<HeldJob> held = held_jobs(d);
  if (held.empty()) return true;  // no job at all: the `empty` verdict says why
  bool ok = true;
  std::vector<std::string> ids, names;
  for (const auto& j : held) {
    ids.push_back(j.id);
    if (!j.name.empty()) names.push_back(j.name);
  }
  for (const auto& id : select.ids) {
    if (std::find(ids.begin(), ids.end(), id) != ids.end()) continue;
    ok = false;
    std::string help = did_you_mean(id, ids);
    if (!looks_like_job_id(id)) {
      const bool named = std::find(names.begin(), names.end(), id) != names.end();
      help = glob_chars(id) ? fmt::format("--job-id takes a job id; for a glob over names use --job-name '{}'", id)
             : named        ? fmt::format("`{}` is a job's name: use --job-name '{}'", id, id)
                            : fmt::format(
                                  "a job id reads like 2022-11-28_14_05_40-8583720370029902118; a "
                                         "name or a glob goes to --job-name{}",
                           help.empty() ? "" : "; " + help);
    }
    refuse("--job-id", id, held, help);
  }
  if (ok && !select.name_glob.empty() && d.jobs.empty() && d.not_diagnosed.empty()) {
    ok = false;
    std::string help = did_you_mean(select.name_glob, names);
    if (help.empty() && looks_like_job_id(select.name_glob)) help = "that is a job id: use --job-id";
    if (help.empty() && !glob_chars(select.name_glob)) help = "--job-name matches whole names: add * for a prefix";
    refuse("--job-name", select.name_glob, held, help);
  }
  return ok;
}

}  // namespace gpudiag::cli
