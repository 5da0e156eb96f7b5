// ExportShape: how the entries of a Cloud Logging export are laid out, as ingest detects it from the
// bytes and the reports name it (inputs[].shape in gpudiag.report/v1).
#pragma once

#include <cstdint>

#include "gpudiag/enum_names.h"

namespace gpudiag {

enum class ExportShape : uint8_t {
  kUnknown,
  kArray,     // [ {…}, {…} ]  (gcloud logging read --format=json, Logs Explorer download)
  kNdjson,    // one entry per line (Cloud Storage sink shards)
  kSequence,  // concatenated JSON objects, e.g. pretty-printed by `jq '.[]'`
  kYaml,      // YAML documents split by `---` lines (gcloud logging read without --format=json)
};

inline constexpr std::array<EnumName<ExportShape>, 5> kExportShapeNames{{
    {ExportShape::kUnknown, "unknown"},
    {ExportShape::kArray, "array"},
    {ExportShape::kNdjson, "ndjson"},
    {ExportShape::kSequence, "json-seq"},
    {ExportShape::kYaml, "yaml"},
}};
static_assert(names_are_distinct(kExportShapeNames));

std::string_view shape_name(ExportShape s);  // "array", "ndjson", "json-seq", "yaml", "unknown"
std::optional<ExportShape> parse_shape(std::string_view name);

}  // namespace gpudiag
