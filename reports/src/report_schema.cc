#include "gpudiag/report_schema.h"

#include "report_schema_data.h"

namespace gpudiag {

std::string_view report_json_schema() { return detail::kReportSchemaJson; }

}  // namespace gpudiag
