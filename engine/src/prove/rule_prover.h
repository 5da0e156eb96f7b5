// The loader's last check, above the analyzer: a rule from a --rules directory proves itself before
// it is used. Each runs its examples in a pack of its own (with the built-in fact observers), which
// is what its examples describe and keeps a large rule directory quick to load; the proofs are
// independent and run on every core. (The built-in pack is proven when gpudiag is built.)
// Internal to engine; the only loader file that runs the analyzer.
#pragma once

#include <optional>

#include "pack/pack.h"

namespace gpudiag::detail {

// The first failing user rule, in id order, as a diagnostic; nullopt when every one holds.
std::optional<Diagnostic> prove_user_rules(const CollectedRules& rules);

}  // namespace gpudiag::detail
