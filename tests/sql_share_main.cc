// gpudiag_sql_share EXPORT...: how many entries of each export the query of `gpudiag sql` selects,
// evaluated locally with its own patterns (LocalSelection), for bench/RESULTS-sql.md.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <set>
#include <vector>

#include "gpudiag/ingest.h"
#include "gpudiag/pack_selection.h"
#include "gpudiag/sql_query.h"

int main(int argc, char** argv) {
  using namespace gpudiag;
  auto pack = RulePack::load({.builtin = builtin_rule_files()});
  if (!pack) return 2;
  const PackSelection ps = pack_selection(*pack);
  const LocalSelection selection(ps);
  for (int i = 1; i < argc; ++i) {
    uint64_t entries = 0, picked = 0;
    std::set<std::string> jobs;
    std::map<int, uint64_t> reasons;
    auto summary = read_export(argv[i], [&](const LogRecord& r) {
      ++entries;
      jobs.insert(std::string(r.job_id));
      const int why = selection.reason(r);
      if (why != LocalSelection::kNotPicked) {
        ++picked;
        ++reasons[why];
      }
    });
    if (!summary) {
      std::cerr << "cannot read " << argv[i] << '\n';
      return 2;
    }
    const double share = entries == 0 ? 0 : 100.0 * static_cast<double>(picked) / static_cast<double>(entries);
    std::cout << fmt::format("{}: {} entries of {} jobs, {} selected ({:.3f} %), {} rows with the summary rows\n",
                             argv[i], entries, jobs.size(), picked, share, picked + jobs.size());
    std::vector<std::pair<uint64_t, int>> by_count;
    for (const auto& [why, n] : reasons) by_count.emplace_back(n, why);
    std::sort(by_count.rbegin(), by_count.rend());
    for (const auto& [n, why] : by_count) {
      const std::string what = why == LocalSelection::kWholeLog    ? "every job-message entry"
                               : why == LocalSelection::kCandidate ? "the unexplained-error candidate screen"
                                                                   : ps.conditions[static_cast<size_t>(why)].source;
      std::cout << fmt::format("  {:>9} {:7.3f} %  {}\n", n,
                               100.0 * static_cast<double>(n) / static_cast<double>(entries), what);
    }
  }
  return 0;
}
