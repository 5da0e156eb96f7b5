// preflight(): the pack's configuration checks on a job's launch options, before it is launched.
// The options become facts through the same code as `analyze --job job.json` (so the two agree),
// and the rules that test facts only are evaluated on them: no log record, no other rule.
//
//   PreflightInput in;
//   in.sources = {"launch.sh"};
//   in.options = *read_launch_script("launch.sh");   // ingest's launch_options.h
//   Result<Analysis> a = preflight(pack, in);        // findings of the configuration rules
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "gpudiag/analysis.h"
#include "gpudiag/launch_options.h"
#include "gpudiag/result.h"
#include "gpudiag/rule_pack.h"

namespace gpudiag {

struct PreflightInput {
  // The files the options come from, in order ("" for the command line): the Analysis' inputs,
  // where findings are located and notes are listed.
  std::vector<std::string> sources;
  std::vector<LaunchOption> options;
  std::vector<std::string> job_files;                      // --job: an earlier run's description
  std::vector<std::pair<std::string, std::string>> facts;  // given directly (--image-python 3.10 …)
  std::vector<std::string> notes;                          // the caller's own ("skipped: docker not found")
};

// Options that hold a placeholder or an unknown `$VAR` are left out (each placeholder is noted
// once); Beam's and Dataflow's near misses set the `misspelled_options` fact; options neither
// knows are noted at info. Notes are the inputs' problems (InputSummary::problems). Fails only for
// a bad --job file.
Result<Analysis> preflight(const RulePack& pack, const PreflightInput& input);

}  // namespace gpudiag
