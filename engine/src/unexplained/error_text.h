// One error entry's text as structured fields: the exception that caused it, its message, the
// frames of its traceback and the innermost frame of the user's own code, Beam's step, whether the
// text was cut. Dataflow's wrappers come off first (error_unwrap.h). The group key of an
// unexplained error (issue 15) is built from these fields. Internal to engine.
//
//   const ReadingRules rules{*pack.frameworks, pack.wrappers, pack.causes};   // CompiledRulePack
//   const ParsedError e = parse_error_text(record.message, rules);
//   if (e.user_frame) show(e.exception_type, e.user_frame->file, e.user_frame->line);
//
// Which exception of a chain is the cause (the Python rules follow the language reference,
// "Exception context", docs.python.org/3/library/exceptions.html: a traceback prints the chain
// oldest first and "the final line of the traceback always shows the last exception that was
// raised"):
// - `The above exception was the direct cause of the following exception:` (`raise B from A`):
//   the writer declared A the cause, so the cause is A — walking back through every explicit link.
// - `During handling of the above exception, another exception occurred:` (A was being handled
//   when B was raised): A was caught on purpose, so the failure is B — unless B is Beam's re-raise
//   of A (`_reraise_augmented`: the same type, or a RuntimeError naming A's type, with
//   ` [while running 'STEP']` added), which is A again, with the step.
// - A cut chain (the job-message copy): the last complete exception is the cause unless the cut
//   one was raised while handling it and it holds no user frame (then the cut one is the failure,
//   of unknown type, with its frames); a user error is what Beam re-raises, and a traceback that
//   follows with no separator is a repeat.
// - Java: the last top-level `Caused by:` (Throwable.printStackTrace prints the root cause last),
//   and inside its message the innermost `Type: message` (a Throwable built from a cause takes
//   the cause's toString() as its message: `RuntimeException: UserCodeException: java.lang.X: m`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "evidence/evidence.h"

namespace gpudiag::detail {

struct CauseLines;  // pack/compiled_rule_pack.h

struct ErrorFrame {
  std::string file;  // Python: the path as printed; Java: the file in the parentheses ("Fn.java")
  uint64_t line = 0;
  std::string function;  // Python: the name after `in`; Java: the qualified method (pkg.Cls.m)
  bool framework = false;

  bool operator==(const ErrorFrame&) const = default;
};

// What parse_error_text keeps: the innermost frames of the cause (a 10 k-frame recursion keeps
// its last ones), and the first bytes of a message line and of the body.
inline constexpr size_t kMaxErrorFrames = 64;
inline constexpr size_t kMaxErrorLine = 4096;
inline constexpr size_t kMaxErrorBody = 64 * 1024;
// What is kept of an error's chain (the cause's further message lines, the other exceptions).
inline constexpr size_t kMaxChainLines = 8;
inline constexpr size_t kMaxChainLine = 512;

struct ParsedError {
  std::string language;                  // "python", "java", "" (a plain line)
  std::string exception_type;            // innermost cause: "ValueError", "java.lang.IllegalStateException"
  std::string message;                   // its message: the first line, raw, without Beam's step suffix
  std::string exception_line;            // the raw line as printed ("ValueError: Input contains NaN …")
  std::vector<ErrorFrame> frames;        // the cause's frames, outermost first
  std::optional<ErrorFrame> user_frame;  // innermost frame not in a framework
  std::string step;                      // Beam's ` [while running 'STEP']` (the innermost one), "" if none
  bool truncated = false;                // the text was cut (a flattened job-message copy often is)
  std::string body;  // the text after unwrapping, without the step suffix (what a template miner sees)
  // The chain around the cause (issue 39): the cause's further message lines (a native library's
  // `Last error:` and the line after it, `Missing key(s) in state_dict: …`), then the other
  // exceptions of the chain, the nearest first; at most kMaxChainLines of kMaxChainLine bytes.
  std::vector<std::string> chain;
  size_t chain_below = 0;  // the first lines of `chain` that are below the cause (its cause may be one)
  // The cause's own line says only that something below failed (the pack's generic_errors) …
  bool generic = false;
  // … and this is the most specific line of the chain: the first of `chain` that is neither generic,
  // nor advice, nor a label ("Last error:"); "" when the cause's own line is specific, or none is.
  std::string cause;
};

// What the pack says about reading an error, compiled once per pack (CompiledRulePack): which
// frames are a framework's (`frameworks:`, rules/frameworks.yaml) and what Dataflow wraps around a
// copied error (`wrappers:`, rules/wrappers.yaml; those anchored with `^` come off its front).
// `causes`: which lines of a chain are generic or advice (`generic_errors:`, `advice_lines:`,
// rules/generic-errors.yaml).
struct ReadingRules {
  const FrameFilter& frameworks;
  const Wrappers& wrappers;
  const CauseLines& causes;
};

// Never fails: text that holds no traceback is a plain line (language "", body only). Linear in
// the text's size. `full` false keeps only what an error candidate reads: `frames` empty (the user
// frame is still read) and `body` its first line (copying every frame and the whole text of every
// traceback cost more).
ParsedError parse_error_text(std::string_view text, const ReadingRules& rules, bool full = true);

}  // namespace gpudiag::detail
