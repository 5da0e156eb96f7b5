// --redact: masks what a report must not carry into a PR comment, a ticket or a SARIF upload —
// e-mail addresses, tokens and keys, bucket and project names, quoted user data in exception
// messages — in every string the Analysis took from the logs (docs/formats.md, "Redaction").
// It runs after the analysis and before ranking, so fingerprints (computed by the engine from the
// raw text) do not change.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/analysis.h"

namespace gpudiag {

// What is masked besides the patterns, wherever it appears as a whole word: the export's own
// project ids and numbers, and the buckets its evidence and facts name (so "access to BUCKET." is
// masked too, not only gs://BUCKET).
struct RedactionTerms {
  std::vector<std::string> projects;
  std::vector<std::string> buckets;
};

// The project ids and numbers the Analysis knows (JobInfo.project, the `project` fact and its
// sources, the entries' resource project) and the buckets named in facts and evidence, of every job.
RedactionTerms redaction_terms(const Analysis& analysis);

// `text` with every secret and name masked: `<email>`, `<token>`, `gs://<bucket>/…`, `<project>`,
// and quoted user data after `Error: ` / `Exception: ` as `'<redacted>'`.
std::string redact_text(std::string_view text, const RedactionTerms& terms);

// A copy of the analysis whose log-derived strings are redacted. Kept as they are: rule ids,
// fingerprints, job ids and names, worker names, steps, exception types, user frames (file:line),
// input paths.
Analysis redacted(const Analysis& analysis);
Analysis redacted(const Analysis& analysis, const RedactionTerms& terms);

}  // namespace gpudiag
