// One evidence item per failure: Dataflow copies a worker's error into several logs — the SDK
// harness's worker log, the container's docker log, and the job-message log ("Error message from
// worker: …", without a worker, the traceback sometimes flattened onto one line and cut) — and
// each copy matches the rule. Copies become one item, kept from the most complete copy, whose
// `also_in` names the other logs. A finding's count still counts every entry. Internal to engine.
//
//   merge_copies(finding.evidence);   // in time order before and after
#pragma once

#include <re2/re2.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/analysis.h"

namespace gpudiag::detail {

// How far apart in time two copies of one failure may be.
inline constexpr Timestamp kCopyWindow = int64_t{60} * 1'000'000'000;

// The text two copies share: what the pack's `wrappers:` match removed (the job-message wrapper
// "Error message from worker: ", a status such as "generic::unknown: ", the SDK's
// " [while running 'step']" suffix), then a cut's trailing "..." and all whitespace (a flattened
// traceback keeps no line breaks).
// `wrappers` are the pack's (PackPolicy::wrappers, compiled).
using Wrappers = std::vector<std::shared_ptr<const re2::RE2>>;
std::string failure_text(std::string_view text, const Wrappers& wrappers);
Wrappers compile_wrappers(const std::vector<std::string>& patterns);

// Whether `a` and `b` are copies of one failure: from different logs, the same job and worker (an
// entry without one, like the job-message copy, matches any), at most kCopyWindow apart, and one's
// failure_text equal to or (when cut or prefixed) contained in the other's.
bool same_failure(const LogRecord& a, const LogRecord& b, const Wrappers& wrappers);

// Merges the copies among `evidence` (time order, kept): each group of copies becomes its most
// complete member — a worker's copy before the job-message one — with the others' logs in
// `also_in`.
void merge_copies(std::vector<Evidence>& evidence, const Wrappers& wrappers);

}  // namespace gpudiag::detail
