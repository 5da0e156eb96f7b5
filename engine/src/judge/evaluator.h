// Whole-job reasoning: facts, sequences, counts in windows and absence with a horizon, turning the
// accumulated hits into findings and inconclusive checks. Internal to engine.
#pragma once

#include "gpudiag/analysis.h"
#include "job_accumulator.h"

namespace gpudiag::detail {

// Fills findings, inconclusive checks, facts, phases and the job identity of `out`.
void evaluate_rules(const JobAccumulator& acc, Analysis& out);

// What a finding counts for its placeholders: {count} evidence entries, on {workers} workers, and
// {ran_after}, how long the job went on after the first of them (to its last entry; < 0: unknown).
struct FindingNumbers {
  uint64_t count = 0;
  size_t workers = 0;
  int64_t ran_after_ns = -1;
};

// Replaces {name} with captured values, facts, {count}, {workers} and {ran_after} (placeholders.h);
// an unknown one becomes `?`.
std::string fill_placeholders(std::string_view text, const std::map<std::string, std::vector<std::string>>& captures,
                              const JobFacts& facts, const FindingNumbers& numbers);

// A fix's action for this job: the first of `fix.action_with_facts` whose every placeholder is
// known, else `fix.action` filled as fill_placeholders does.
std::string fill_fix_action(const FixInfo& fix, const std::map<std::string, std::vector<std::string>>& captures,
                            const JobFacts& facts, const FindingNumbers& numbers);

// A fix's command for this job: the first of `fix.command_with_facts` whose every placeholder is
// known, else `fix.command` with unknown placeholders as the docs' upper-case names ({gpu_type} →
// GPU_TYPE). Values are literal shell text (shell_command.h); a capture gives its first value.
std::string fill_fix_command(const FixInfo& fix, const std::map<std::string, std::vector<std::string>>& captures,
                             const JobFacts& facts, const FindingNumbers& numbers);

}  // namespace gpudiag::detail
