// docs/rules.md's fact table, generated from the pack: the catalog's facts, and for each the fact
// extractors that set it (a test keeps the committed doc equal to this).
#include <fmt/format.h>

#include "gpudiag/analyzer.h"
#include "pack/pack.h"

namespace gpudiag {

std::string fact_reference(const RulePack& pack) {
  const auto& compiled = detail::compiled(pack);
  std::string out = "| fact | type | meaning | set by |\n|---|---|---|---|\n";
  for (const auto& f : compiled.catalog.facts()) {
    std::vector<std::string> by;
    for (const auto& x : compiled.extractors) {
      for (const auto& a : x.sets) {
        if (a.fact == f.name) {
          by.push_back(fmt::format("`{}`", x.id));
          break;
        }
      }
    }
    if (!f.from.empty()) by.push_back(f.from);
    out += fmt::format("| `{}` | {} | {} | {} |\n", f.name, detail::fact_type_name(f.type), f.meaning,
                       by.empty() ? "the options decoders" : fmt::format("{}", fmt::join(by, "; ")));
  }
  return out;
}

}  // namespace gpudiag
