// The first step of each error group (rules/first-steps.yaml; docs/unexplained.md, "The first
// step"): the pack's first step whose pattern finds one of the group's lines — its exception line,
// its cause, then its chain — filled from that line. Internal to engine.
#pragma once

#include <vector>

#include "gpudiag/analysis.h"
#include "pack/pack.h"

namespace gpudiag::detail {

// Sets `first_step` of every group that one of the pack's first steps fits.
void assign_first_steps(const CompiledRulePack& pack, std::vector<UnexplainedGroup>& groups);

}  // namespace gpudiag::detail
