// The JSON Schema of the JSON report (`gpudiag.report/v1`): reports/data/report.schema.json, embedded.
// Draft-07, and every object allows added fields, since v1 only ever grows (docs/json-schema.md).
#pragma once

#include <string_view>

namespace gpudiag {

std::string_view report_json_schema();

}  // namespace gpudiag
