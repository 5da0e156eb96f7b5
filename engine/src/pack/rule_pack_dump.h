// The compiled pack as canonical text (`gpudiag rules dump`, tests, the pack hash), or its regexes
// one per line as `rg -f` takes them. Internal to engine.
#pragma once

#include <string>

#include "compiled_rule_pack.h"

namespace gpudiag::detail {

std::string dump_rule_pack(const CompiledRulePack& pack, bool patterns_only = false, bool observers = false);

}  // namespace gpudiag::detail
