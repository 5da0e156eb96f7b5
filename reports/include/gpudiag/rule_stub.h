// A rule stub for the pack from an error no rule explains (`gpudiag patterns suggest FINGERPRINT`):
// the group's template as an RE2 pattern (literal text escaped, `<*>` a run of non-blanks), its
// exemplar as a `match:` example, a line of the same export that is not the error as `no_match`,
// and TODO for what a person must write (the title, the description, the fix and its citation).
// `gpudiag rules test` passes on it and `gpudiag rules lint` warns once per TODO (docs/unexplained.md).
#pragma once

#include <string>
#include <vector>

#include "gpudiag/analysis.h"

namespace gpudiag {

struct RankedReport;

// What a stub is made of, taken from a group when it is found (an export analysed now, or a run
// recorded in the history with --db, which stores these fields: history.h, rule_stub()).
struct RuleStubInput {
  std::string fingerprint;    // "unexplained-error/…"
  std::string rule_id;        // "user-value-error-in-process": what failed, [a-z0-9-]
  std::string headline;       // unexplained_headline(group)
  std::string template_text;  // the group's template, `<*>` for variables
  std::string example;        // the line the pattern must match (the exception line, or the plain line)
  // A line of the same run that is not the error, for `no_match` ("" when none is known: the stub
  // then says so in a comment; a line the pattern matches is left out the same way).
  std::string no_match;
  // The rules whose findings the report folded under the group (its symptoms: work-item-failed …),
  // sorted: the stub's `explains:`, so that the new rule folds them too.
  std::vector<std::string> explains;
};

// The stored lines are cut to this many bytes (at a UTF-8 boundary), so that a noisy run's history
// stays bounded; the pattern falls back to the cut line's own text when the template no longer fits.
inline constexpr size_t kMaxStubLineBytes = 1024;

// `healthy_line`: see RuleStubInput::no_match.
RuleStubInput rule_stub_input(const UnexplainedGroup& group, std::string_view healthy_line);
// The rule ids of the findings `report` folded under `group` (RankedUnexplained::symptoms), sorted
// and unique; empty for a group that is not the most likely cause.
std::vector<std::string> stub_explains(const RankedReport& report, const UnexplainedGroup& group);

// A line of `job` that is not `group`'s error: another group's exemplar, else a job message ("").
std::string stub_healthy_line(const Analysis& job, const UnexplainedGroup& group);

// `from` names where the group was found ("export.json:12", "run 3 of pipeline p").
std::string render_rule_stub(const RuleStubInput& stub, std::string_view from);
std::string render_rule_stub(const UnexplainedGroup& group, std::string_view healthy_line, std::string_view from);

// The RE2 pattern of a template: tokens separated by `\s+`, `<*>` standing for `\S+`, the rest
// escaped. Exposed for tests.
std::string template_pattern(std::string_view line_template);

}  // namespace gpudiag
