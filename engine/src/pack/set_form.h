// The form a pattern takes in the pack's RE2::Set, which only answers *whether* a text holds a match
// (captures come from the pattern's own RE2, run on the entries the set picked). Internal to engine.
//
// A leading element that can always match empty — `(?:X)?`, `(X)*`, `[\w.]*` — changes where a
// match starts and what it captures, never whether an unanchored search finds one: the set leaves it
// out. A leading `X+` finds a match exactly when `X` does. Such prefixes are what a rule writes to
// capture the frame before an exception line (`(?:-packages/(\w+)/…\n(?:    .*\n){0,3})?TypeError: …`),
// and they were most of the cost of the set's lazily built DFA on a small export: every traceback
// frame starts a thread of them, and their combinations are new DFA states (bench/RESULTS-set-form.md).
//
//   set_form("(?s)(?:lib/python(3\\.[0-9]+)/.*?)?SystemError: unknown opcode")
//     == "(?s)SystemError: unknown opcode"
#pragma once

#include <string>
#include <string_view>

namespace gpudiag::detail {

// `pattern` with its leading always-empty-matching elements removed and a leading `X+` as `X`;
// the pattern unchanged when it has none. Leading flag groups (`(?s)`, `(?im)`) are kept.
std::string set_form(std::string_view pattern);

}  // namespace gpudiag::detail
