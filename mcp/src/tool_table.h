// The tools `gpudiag mcp` offers: one table, each row a name, the words a model reads to choose it,
// the JSON Schema of its arguments, and the gpudiag command line a call becomes.
#pragma once

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/mcp.h"

namespace gpudiag::mcp_detail {

// What a tool's child prints on stdout, and so how its result is shaped (tool_results.h).
enum class ToolOutput {
  kReport,   // a gpudiag.report/v1 object: structured content with the report's schema
  kRules,    // `rules list --format json`
  kHistory,  // a gpudiag.history/v1 object
  kText,     // plain text
};

// A call's arguments, checked against the tool's input schema: strings, booleans, string arrays.
struct Argument {
  std::string text;
  bool flag = false;
  std::vector<std::string> list;
};
using Arguments = std::map<std::string, Argument, std::less<>>;

// An argument passed on as an option of the command line: `--option=value`, once per value.
struct OptionArgument {
  std::string_view argument;
  std::string_view option;
};

struct ToolSpec {
  std::string_view name;
  std::string_view title;
  std::string_view description;  // written for a model: when to call it and what comes back
  std::string_view input_schema;
  ToolOutput output;
  bool open_world;                          // reaches outside the machine (fetching from Cloud Logging through gcloud)
  std::string_view command;                 // the gpudiag subcommand: "analyze", "rules list" …
  std::span<const OptionArgument> options;  // the arguments that are options, in order
  std::string_view positional;              // the argument whose values follow `--` ("" = none)
  // What is particular to the tool: its checks of the arguments, its fixed options. Returns "" when
  // the call can go on, else why not.
  std::string (*prepare)(const Arguments& args, const McpServerOptions& options, std::vector<std::string>& argv);
};

// The child's argv after the binary's path: the subcommand, what `prepare` adds, the options, then
// `--` and the positional values, so no value can become an option. "" or why the call cannot run.
std::string tool_command(const ToolSpec& tool, const Arguments& args, const McpServerOptions& options,
                         std::vector<std::string>& argv);

std::span<const ToolSpec> tool_table();
const ToolSpec* find_tool(std::string_view name);

}  // namespace gpudiag::mcp_detail
