// The loader's third stage: collected rules compiled into signals and the RE2::Set (see
// compiled_rule_pack.h for what a compiled pack holds). Internal to engine.
//
//   auto pack = compile_rules(std::move(collected));
#pragma once

#include <map>
#include <memory>
#include <string>

#include "compiled_rule_pack.h"
#include "rule_collector.h"

namespace gpudiag::detail {

// Every enabled rule's conditions and every fact extractor's, deduplicated into patterns; the pack's
// hash is XXH3-64 of its canonical dump. (`problems` are the collector's: not looked at here.)
Result<std::unique_ptr<CompiledRulePack>> compile_rules(CollectedRules collected);

}  // namespace gpudiag::detail
