// What a tool call returns: the child's output shaped as an MCP tool result — the text a model reads
// first (a summary sized for its context), the structured content (the whole report), or an error
// with the command line's own message.
#pragma once

#include <string>

#include "child_run.h"
#include "tool_table.h"

namespace gpudiag::mcp_detail {

struct ToolResult {
  std::string text;        // the first content block
  std::string structured;  // a JSON object, or "" when the tool returns text alone
  bool is_error = false;
};

ToolResult shape_result(const ToolSpec& tool, const Arguments& args, const ChildRun& run, double timeout_seconds);

// The report's summary for a model: verdict, the causes with one evidence line each, the error
// groups no rule explains, the first fix, the other jobs and the input problems, in at most ~40 lines.
std::string summarize_report(std::string_view report_json);

}  // namespace gpudiag::mcp_detail
