// One YAML document of an export — what `gcloud logging read` prints without --format=json — as the
// JSON object of the same LogEntry. Internal to ingest: ChunkParser reads the JSON it writes with
// the one LogEntry reader every export goes through, so what each field means is said in one place
// (log_entry_reader.cc) whatever the input's format.
//
//   std::string json;
//   if (auto error = yaml_document_to_json("insertId: a1\ntextPayload: |-\n  two\n  lines\n", json)) {
//     skip(error->line, error->message);  // 1-based within the document
//   }
//   // json == R"({"insertId":"a1","textPayload":"two\nlines"})"
//
// Scalars are typed as gcloud's writer types them (ruamel.yaml, YAML 1.2 core schema): a plain
// scalar is null (`null`, `~`, empty), a boolean (`true`, `False` …), an integer or a float when it
// reads as one, a string otherwise; a quoted or block scalar is always a string. Timestamps stay
// strings. The document is read with yaml-cpp's event parser, so memory is the document's size and
// not its node count; aliases are refused (a log export has none, and they are how YAML bombs).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpudiag::detail {

struct YamlDocumentError {
  uint64_t line = 0;    // 1-based, within the document (0: unknown)
  uint64_t column = 0;  // 1-based (0: unknown)
  std::string message;
};

// Appends the document's JSON object to `json` (cleared first). nullopt when it converted; the
// problem otherwise (a YAML syntax error, a document that is not a mapping, an alias), with
// `json` left unspecified.
std::optional<YamlDocumentError> yaml_document_to_json(std::string_view document, std::string& json);

// The JSON text of a plain YAML 1.2 scalar that is not a string (`null`, `true`, `-12`, `1.5e3`),
// or "" when it is a string (timestamps, `.inf` and `.nan` included: JSON has no such numbers).
std::string plain_scalar_json(std::string_view plain);

}  // namespace gpudiag::detail
