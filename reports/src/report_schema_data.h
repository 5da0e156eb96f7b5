// reports/data/report.schema.json, embedded at build time (embed_text.cmake).
#pragma once

#include <string_view>

namespace gpudiag::detail {
extern const std::string_view kReportSchemaJson;
}  // namespace gpudiag::detail
