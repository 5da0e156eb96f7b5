// Dataflow's wrappers around a worker's error, taken off before it is parsed (error_text.h): the
// pack's `wrappers:` anchored with `^` (rules/wrappers.yaml: the job-message copy's `Error message
// from worker: `, a gRPC status, the SDK harness's `… Original traceback is`, a Java runner's `Error
// received from SDK harness for instruction ID: `), in any nesting order; Beam's ` [while running
// 'STEP']` suffix (runners/common.py, _reraise_augmented) is read as the step.
// A flattened traceback (the job-message copy keeps no line breaks) is put back onto lines.
// Internal to engine.
#pragma once

#include <string>
#include <string_view>

#include "evidence/evidence.h"

namespace gpudiag::detail {

// `text` without its leading wrappers: those of `wrappers` whose pattern starts with `^`, as many as
// there are, in any order (each time the first in the pack's order that matches).
std::string_view unwrap_error_prefixes(std::string_view text, const Wrappers& wrappers);

// The step of the first ` [while running 'STEP']` in `s` (the innermost: Beam appends it once, at
// the step that raised), "" when there is none.
std::string_view step_of(std::string_view s);

// `s` without its ` [while running '…']` suffixes.
std::string without_steps(std::string_view s);
// The first line of without_steps(s), reading `s` only as far as that line needs.
std::string first_line_without_steps(std::string_view s);

// A traceback flattened onto one line put back one frame a line: a Python `File "…", line N, in f`
// (its source line indented under it, the exception after the last frame on a line of its own),
// the `Traceback …` header and chain separators on lines of their own; Java's ` at …` frames and
// `Caused by:` likewise. Lines that are not flattened are kept as they are. Returns `text` itself
// when nothing changes, else the reflowed text, held in `storage`.
std::string_view reflow_traceback(std::string_view text, std::string& storage);

// Whether `line` holds what every flattened Java trace needs: two frames (a blank and `at ` twice,
// or twice a bare frame's file, `Unknown Source` or `Native Method`). Most lines do not, and spare
// the pattern that tells one.
bool may_be_flat_java(std::string_view line);

// Whether the traceback header or a chain separator (each ends in its only ':') ends at `colon`,
// a ':' of `line`.
bool chain_phrase_ends_at(std::string_view line, size_t colon);

// The index in `rest` (what follows the last frame of a flattened traceback) where the exception
// line starts (`ValueError: …`, `struct.error: …`, `KeyboardInterrupt`), npos when none is seen.
size_t exception_start(std::string_view rest);

}  // namespace gpudiag::detail
