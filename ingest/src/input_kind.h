// What an input that does not start like JSON is: gcloud's YAML, read as an export. Internal to
// ingest: ExportReader::detect asks, from the input's first bytes, before it reads any entry.
//
//   if (starts_like_yaml_export(head)) shape = ExportShape::kYaml;
#pragma once

#include <string_view>

namespace gpudiag::detail {

// Does `head` open a YAML stream of mappings: comments or directives, then a `---` line or a
// mapping key (`insertId: …`, `'0': …`)?
bool starts_like_yaml_export(std::string_view head);

}  // namespace gpudiag::detail
