// The loader's first stage: rule directories (--rules) read into rule files, with the limits a
// directory has (docs/rules.md, "Limits"). Only I/O here; the reader parses what this returns.
// Internal to engine.
//
//   for (const RuleDirectory& dir : read_rule_dirs(sources.dirs)) collector.add(dir);
#pragma once

#include <string>
#include <vector>

#include "gpudiag/result.h"
#include "gpudiag/rule_pack.h"

namespace gpudiag::detail {

struct RuleDirectory {
  std::string path;
  std::vector<RuleFile> files;  // *.yaml and *.yml under `path`, recursively, sorted by path
  Diagnostics problems;         // files left out: unreadable, not regular files, oversized, over the
                                // pack's limit (then no file is read)
};

// Reads every directory, in order.
std::vector<RuleDirectory> read_rule_dirs(const std::vector<std::string>& dirs);

}  // namespace gpudiag::detail
