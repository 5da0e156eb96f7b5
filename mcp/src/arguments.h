// A tool call's arguments, checked against the tool's own input schema (the one tools/list sends), so
// the schema a model reads and the check a call meets cannot drift apart. The schemas use a small
// part of JSON Schema: an object of string, boolean and string-array properties, `enum`, `required`,
// no additional properties.
#pragma once

#include <simdjson.h>

#include <string>
#include <string_view>

#include "tool_table.h"

namespace gpudiag::mcp_detail {

// Reads `arguments` (absent: an empty object) into `out`; returns "" or what is wrong, in words a
// model can act on ("unknown argument `path`; the arguments are: paths, project, …").
std::string read_arguments(std::string_view input_schema, simdjson::dom::element arguments, bool present,
                           Arguments& out);

}  // namespace gpudiag::mcp_detail
