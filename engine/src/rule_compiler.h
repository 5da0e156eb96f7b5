// The loader's third stage: collected rules compiled into signals and the RE2::Set (see
// compiled_rule_pack.h for what a compiled pack holds). Internal to engine.
//
//   auto pack = compile_rules(std::move(collected.by_id), std::move(collected.policy));
#pragma once

#include <map>
#include <memory>
#include <string>

#include "compiled_rule_pack.h"

namespace gpudiag::detail {

// Every enabled rule's conditions and the built-in fact observers, deduplicated into patterns; the
// pack's hash is XXH3-64 of its canonical dump.
Result<std::unique_ptr<CompiledRulePack>> compile_rules(std::map<std::string, RuleSpec> specs, PackPolicy policy);

}  // namespace gpudiag::detail
