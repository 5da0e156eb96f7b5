// The reader of a Java stack trace (error_text.h calls it): `Caused by:` chains, `... N more`,
// `Suppressed:` blocks, the job-message copy's frames without `at`, and the innermost
// `Type: message` of a message built from a cause, as error_text.h explains. Internal to the
// unexplained stage.
#pragma once

#include <string_view>

#include "error_text.h"
#include "evidence/evidence.h"

namespace gpudiag::detail {

// The exception of `l` (classify_trace_lines) that caused the error, into `out`, with its frames.
void read_java_stack_trace(const TraceLines& l, const FrameFilter& frameworks, ParsedError& out);

// Whether `line` is a Java frame without `at` (`pkg.Cls.m(Fn.java:12)`, as the job-message copy
// prints it): classify_trace_lines leaves those as other lines.
bool is_bare_java_frame(std::string_view line);

}  // namespace gpudiag::detail
