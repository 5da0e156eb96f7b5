// A rule stub for the pack from an error no rule explains (`gpudiag patterns suggest FINGERPRINT`):
// the group's template as an RE2 pattern (literal text escaped, `<*>` a run of non-blanks), its
// exemplar as a `match:` example, a line of the same export that is not the error as `no_match`,
// and TODO for what a person must write (the title, the description, the fix and its citation).
// `gpudiag rules test` passes on it and `gpudiag rules lint` warns once per TODO (docs/unexplained.md).
#pragma once

#include <string>

#include "gpudiag/analysis.h"

namespace gpudiag {

// `healthy_line`: a line of the same export that the pattern must not match ("" when none is
// known: the stub then says so in a comment). `from` names where the group was found ("export.json").
std::string render_rule_stub(const UnexplainedGroup& group, std::string_view healthy_line, std::string_view from);

// The RE2 pattern of a template: tokens separated by `\s+`, `<*>` standing for `\S+`, the rest
// escaped. Exposed for tests.
std::string template_pattern(std::string_view line_template);

}  // namespace gpudiag
