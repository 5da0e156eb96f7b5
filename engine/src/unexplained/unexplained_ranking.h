// The unexplained groups of one job, judged and ordered once its rules have been evaluated
// (docs/unexplained.md, "Severity" and "Ranking"). Internal to engine.
#pragma once

#include "evidence/evidence.h"
#include "gpudiag/analysis.h"
#include "pack/pack.h"

namespace gpudiag::detail {

// A job keeps this many groups, the most likely cause first; Analysis::unexplained_groups_total
// counts them all.
inline constexpr size_t kMaxReportedGroups = 50;

// Sets each group's severity — error when the job failed (its outcome, or with the outcome unknown
// a failure job message) after the group's first entry and no cause rule at error explains the job;
// info otherwise — orders them (severity, then the earliest first, more workers, more entries) and
// sets the exemplars' excerpts.
void rank_unexplained(const CompiledRulePack& pack, const FrameFilter& frameworks, Analysis& job);

// Whether a cause rule (not a symptom, not `generic: true`) at error or above explains the job.
bool cause_rule_explains(const Analysis& job);

}  // namespace gpudiag::detail
