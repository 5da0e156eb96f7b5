// Running fact tests: comparing a value with a test as rules write them ('<50', '!= {other}', a regex,
// true/false), shared by job-fact tests and captured-group tests. Internal to engine.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "rule_spec.h"

namespace gpudiag::detail {

enum class Tri { kFalse, kTrue, kUnknown };

// Looks a name up (a fact, or a captured group); nullopt when it has no value.
using ValueLookup = std::function<std::optional<std::string>(const std::string& name)>;

// One test. kAny tests its groups; kKnown/kUnknown never answer kUnknown.
Tri run_test(const FactTest& t, const ValueLookup& lookup);
// Every test holds (kTrue), one fails (kFalse), or none fails but one is undecided (kUnknown, and
// `undecided` names the first such value).
Tri run_all(const std::vector<FactTest>& tests, const ValueLookup& lookup, std::string* undecided = nullptr);

}  // namespace gpudiag::detail
