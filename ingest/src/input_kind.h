// What an input that does not start like JSON is: gcloud's YAML (read), or something users save in
// an export's place (refused, with a diagnostic that says what it is and what to do). Internal to
// ingest: ExportReader::detect asks, from the input's first bytes, before it reads any entry.
//
//   if (auto refused = saved_in_place_of_export(head, "logs.json", 1, 0)) return *refused;
//   if (starts_like_yaml_export(head)) shape = ExportShape::kYaml;
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gpudiag/result.h"

namespace gpudiag::detail {

// A gcloud error or gcloud's warnings saved as the file (input-gcloud-error), an HTML page
// (input-html), a CSV of log entries (input-csv); nullopt for anything else. `head` is the input
// from its first non-blank byte, which is on line `line` at byte `offset`.
std::optional<Diagnostic> saved_in_place_of_export(std::string_view head, const std::string& path, uint64_t line,
                                                   int64_t offset);

// Does `head` open a YAML stream of mappings: comments, directives or gcloud's warnings, then a
// `---` line or a mapping key (`insertId: …`, `'0': …`)?
bool starts_like_yaml_export(std::string_view head);

// gcloud's error on a line of its own (`ERROR: …` at the line's start) inside a YAML export: gcloud
// stopped part way and its stderr went to the file too (`2>&1`), so the entries after it are
// missing. The input error that says so (input-gcloud-error), or nullopt. `text` starts on line
// `line` at byte `offset` of its input.
std::optional<Diagnostic> gcloud_error_inside(std::string_view text, uint64_t line, uint64_t offset);

}  // namespace gpudiag::detail
