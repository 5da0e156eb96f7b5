#include "tool_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace gpudiag::mcp_detail {
namespace {

const Argument* find(const Arguments& args, std::string_view name) {
  const auto it = args.find(name);
  return it == args.end() ? nullptr : &it->second;
}

bool redacting(const Arguments& args, const McpServerOptions& options) {
  const Argument* redact = find(args, "redact");
  return redact == nullptr ? options.redact_by_default : redact->flag;
}

std::string prepare_analyze(const Arguments& args, const McpServerOptions& options, std::vector<std::string>& argv) {
  const Argument* paths = find(args, "paths");
  if (paths == nullptr && find(args, "project") == nullptr) {
    return "give `paths` (exported logs), or `project` and `job_id` to fetch a job's logs through gcloud";
  }
  // "-" means stdin to the command line; here stdin is the protocol channel.
  if (paths != nullptr && std::find(paths->list.begin(), paths->list.end(), "-") != paths->list.end()) {
    return "'-' (stdin) cannot be read here: stdin carries the protocol; give the file's path";
  }
  if (redacting(args, options)) argv.emplace_back("--redact");
  return "";
}

std::string prepare_nothing(const Arguments&, const McpServerOptions&, std::vector<std::string>&) { return ""; }

std::string prepare_preflight(const Arguments& args, const McpServerOptions& options, std::vector<std::string>& argv) {
  if (find(args, "command") == nullptr && find(args, "options_files") == nullptr && find(args, "scripts") == nullptr &&
      find(args, "job_file") == nullptr) {
    return "give the launch `command`, `options_files`, `scripts` or a `job_file`";
  }
  // A launch environment is the user's, not the server's: read its versions only when asked.
  const Argument* launch_env = find(args, "read_launch_env");
  if (launch_env == nullptr || !launch_env->flag) argv.emplace_back("--no-launch-env");
  if (redacting(args, options)) argv.emplace_back("--redact");
  if (find(args, "fail_on") == nullptr) argv.emplace_back("--fail-on=never");  // preflight's default is error
  return "";
}

constexpr std::array kAnalyzeOptions = {
    OptionArgument{"job_id", "job-id"}, OptionArgument{"job_name", "job-name"}, OptionArgument{"project", "project"},
    OptionArgument{"region", "region"}, OptionArgument{"job_file", "job"},      OptionArgument{"fail_on", "fail-on"},
    OptionArgument{"lang", "lang"},     OptionArgument{"rules", "rules"},
};
constexpr std::array kExplainOptions = {OptionArgument{"lang", "lang"}, OptionArgument{"rules", "rules"}};
constexpr std::array kRulesOptions = {OptionArgument{"rules", "rules"}};
constexpr std::array kHistoryOptions = {OptionArgument{"db", "db"}, OptionArgument{"pipeline", "pipeline"}};
constexpr std::array kPreflightOptions = {
    OptionArgument{"fail_on", "fail-on"},
    OptionArgument{"options_files", "options"},
    OptionArgument{"scripts", "script"},
    OptionArgument{"job_file", "job"},
    OptionArgument{"image_python", "image-python"},
    OptionArgument{"image_beam", "image-beam"},
    OptionArgument{"rules", "rules"},
};

// Shared pieces of the input schemas.
#define GPUDIAG_RULES_ARG                                                                                               \
  R"json("rules": {"type": "array", "items": {"type": "string"}, "description": "Directories of extra rule files )json" \
  R"json((the team's own rules: they add rules, override built-in ones by id, or disable them)."})json"
#define GPUDIAG_SEVERITY_ENUM R"json(["never", "info", "warning", "error", "critical"])json"

constexpr std::string_view kAnalyzeSchema =
    R"json({
  "type": "object",
  "properties": {
    "paths": {"type": "array", "items": {"type": "string"}, "description": "Exported Cloud Logging logs of a Dataflow job, as the server's working directory sees them: `gcloud logging read --format=json` arrays, gcloud's YAML, Cloud Storage sink shards (NDJSON), gzip"},
    "project": {"type": "string", "description": "Instead of paths: the Google Cloud project of the job to fetch through the user's gcloud (with job_id; cached)"},
    "region": {"type": "string", "description": "The job's region, when fetching (default: gcloud's)"},
    "job_id": {"type": "string", "description": "With project: the Dataflow job to fetch. With paths: diagnose only this job of the export"},
    "job_name": {"type": "string", "description": "With paths: diagnose only the jobs whose name matches this glob"},
    "job_file": {"type": "string", "description": "`gcloud dataflow jobs describe JOB --full --format=json` output: the job's state and options"},
    "fail_on": {"type": "string", "enum": )json" GPUDIAG_SEVERITY_ENUM
    R"json(, "description": "Set the report's gate: tripped when a finding is at least this severe"},
    "redact": {"type": "boolean", "default": true, "description": "Mask e-mail addresses, tokens, keys, bucket and project names and quoted data (default true; false only when the user asks for the raw text)"},
    "lang": {"type": "string", "description": "Language of the documentation links (en, es, es-419, ja, ko, he)"},
    )json" GPUDIAG_RULES_ARG R"json(
  },
  "additionalProperties": false
})json";

constexpr std::string_view kExplainSchema = R"json({
  "type": "object",
  "properties": {
    "rule_id": {"type": "string", "description": "A rule id from a report's findings or from the rules tool (gpu-out-of-memory), or unexplained-error"},
    "lang": {"type": "string", "description": "Language of the documentation links (en, es, es-419, ja, ko, he)"},
    )json" GPUDIAG_RULES_ARG R"json(
  },
  "required": ["rule_id"],
  "additionalProperties": false
})json";

constexpr std::string_view kRulesSchema = R"json({
  "type": "object",
  "properties": {
    )json" GPUDIAG_RULES_ARG R"json(
  },
  "additionalProperties": false
})json";

constexpr std::string_view kHistorySchema = R"json({
  "type": "object",
  "properties": {
    "db": {"type": "string", "description": "The run history database (SQLite) that `gpudiag analyze --db` records into"},
    "pipeline": {"type": "string", "description": "Only this pipeline"},
    "fingerprint": {"type": "string", "description": "A finding's fingerprint from a report (rule-id/16 hex digits): say whether an earlier run had it, and when"}
  },
  "required": ["db"],
  "additionalProperties": false
})json";

constexpr std::string_view kPreflightSchema = R"json({
  "type": "object",
  "properties": {
    "command": {"type": "array", "items": {"type": "string"}, "description": "The launch command, one argument per item: [\"python\", \"main.py\", \"--runner\", \"DataflowRunner\", …]"},
    "options_files": {"type": "array", "items": {"type": "string"}, "description": "Pipeline options files (JSON or YAML: a map, a Flex Template's parameters, sdkPipelineOptions)"},
    "scripts": {"type": "array", "items": {"type": "string"}, "description": "Launch scripts whose python/java/gcloud launch commands are read"},
    "job_file": {"type": "string", "description": "An earlier run's `gcloud dataflow jobs describe --full --format=json`"},
    "image_python": {"type": "string", "description": "The Python minor version in the worker image (3.10)"},
    "image_beam": {"type": "string", "description": "The Beam version in the worker image (2.60.0)"},
    "read_launch_env": {"type": "boolean", "default": false, "description": "Also read the Python and Beam versions of the server's own environment (python3 -c 'import apache_beam'): only when it is the launch environment"},
    "fail_on": {"type": "string", "enum": )json" GPUDIAG_SEVERITY_ENUM
                                              R"json(, "description": "Set the report's gate at this severity"},
    "redact": {"type": "boolean", "default": true, "description": "Mask secrets, bucket and project names (default true)"},
    )json" GPUDIAG_RULES_ARG R"json(
  },
  "additionalProperties": false
})json";

#undef GPUDIAG_RULES_ARG
#undef GPUDIAG_SEVERITY_ENUM

constexpr std::array kTools = {
    ToolSpec{"analyze", "Diagnose a Dataflow GPU job from its logs",
             "Why a Dataflow job on GPUs failed, stalled or silently ran on CPU. Reads exported Cloud Logging logs "
             "(or fetches a job's logs by project and job_id through the user's gcloud) and returns gpudiag's report: "
             "the verdict per job, the findings most likely cause first with their evidence lines (file:line), "
             "the error groups no rule explains, and the fixes best first, each citing the Dataflow GPU "
             "documentation. Call this first; the text summary names what to read in the structured report.",
             kAnalyzeSchema, ToolOutput::kReport, true, "analyze --format=json", kAnalyzeOptions, "paths",
             prepare_analyze},
    ToolSpec{"explain", "Explain a gpudiag rule",
             "What a rule (a finding's rule_id) means: the failure it recognises, the evidence it needs, and every fix "
             "it proposes with its documentation link and the conditions that rank it. Use it to explain a finding "
             "to the user or to check a fix before suggesting it.",
             kExplainSchema, ToolOutput::kText, false, "explain", kExplainOptions, "rule_id", prepare_nothing},
    ToolSpec{"rules", "List gpudiag's rules",
             "Every rule gpudiag knows: id, family, severity and title (the built-in pack and any rule directories "
             "given). Use it to see whether a failure is a known signature before reading raw logs.",
             kRulesSchema, ToolOutput::kRules, false, "rules list --format=json", kRulesOptions, "", prepare_nothing},
    ToolSpec{"history", "A pipeline's run history",
             "From a run history database: each pipeline's findings across its recorded runs (new, recurring, "
             "accepted; first and last seen) and, given a fingerprint, whether an earlier run already had it. Use "
             "it to tell a new failure from a known one.",
             kHistorySchema, ToolOutput::kHistory, false, "history --format=json", kHistoryOptions, "",
             prepare_nothing},
    ToolSpec{"preflight", "Check a job's launch options before it runs",
             "Checks a Dataflow GPU job's launch options (a launch command, options files, launch scripts or an "
             "earlier run's description) against gpudiag's configuration rules before it is launched: missing "
             "worker_accelerator or driver install, GPU and machine type that do not fit, several SDK processes per "
             "GPU, disk too small for the image. Returns a gpudiag.report/v1 report of the findings.",
             kPreflightSchema, ToolOutput::kReport, false, "preflight --format=json", kPreflightOptions, "command",
             prepare_preflight},
};

}  // namespace

std::span<const ToolSpec> tool_table() { return kTools; }

std::string tool_command(const ToolSpec& tool, const Arguments& args, const McpServerOptions& options,
                         std::vector<std::string>& argv) {
  for (size_t at = 0; at < tool.command.size();) {  // the subcommand's words
    const size_t space = std::min(tool.command.find(' ', at), tool.command.size());
    argv.emplace_back(tool.command.substr(at, space - at));
    at = space + 1;
  }
  if (std::string why = tool.prepare(args, options, argv); !why.empty()) return why;
  for (const auto& [argument, option] : tool.options) {
    const Argument* given = find(args, argument);
    if (given == nullptr) continue;
    if (given->list.empty()) argv.push_back(fmt::format("--{}={}", option, given->text));
    for (const auto& value : given->list) argv.push_back(fmt::format("--{}={}", option, value));
  }
  if (const Argument* positional = tool.positional.empty() ? nullptr : find(args, tool.positional)) {
    argv.emplace_back("--");
    if (positional->list.empty()) argv.push_back(positional->text);
    argv.insert(argv.end(), positional->list.begin(), positional->list.end());
  }
  return "";
}

const ToolSpec* find_tool(std::string_view name) {
  for (const auto& tool : kTools) {
    if (tool.name == name) return &tool;
  }
  return nullptr;
}

}  // namespace gpudiag::mcp_detail
