// The protocol: JSON-RPC 2.0 messages on stdio, the lifecycle (initialize, version negotiation),
// ping, tools/list, tools/call and cancellation. One call runs at a time; while it runs the server
// keeps reading, answers pings, takes cancellations and queues the rest.
#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <array>
#include <deque>
#include <iostream>
#include <set>

#include "arguments.h"
#include "child_run.h"
#include "gpudiag/json_writer.h"
#include "gpudiag/mcp.h"
#include "gpudiag/report_schema.h"
#include "message_channel.h"
#include "tool_results.h"
#include "tool_table.h"

namespace gpudiag {
namespace {

using namespace mcp_detail;

// Newest first: the revisions of the MCP specification this server speaks. Structured tool output
// (outputSchema, structuredContent) and tool titles came in 2025-06-18, tool annotations in 2025-03-26.
constexpr std::array<std::string_view, 5> kProtocolVersions = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05",
                                                               "2024-10-07"};

// JSON-RPC 2.0 error codes.
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kServerBusy = -32000;  // implementation-defined server error

// Requests read while a call runs wait for it; past this many they are refused.
constexpr size_t kMaxQueued = 1024;

constexpr std::string_view kInstructions =
    "gpudiag diagnoses Apache Beam pipelines on Google Cloud Dataflow GPUs from their Cloud Logging logs. "
    "Call `analyze` with the exported logs (or project and job_id) first: it returns the verdict, the most "
    "likely cause with its evidence lines, and ranked fixes citing the Dataflow GPU documentation. Use "
    "`explain` for what a rule means, `history` to tell a new failure from a recurring one, and `preflight` "
    "before a job is launched.";

std::string error_response(std::string_view id, int code, std::string_view message) {
  std::string out = R"({"jsonrpc":"2.0","id":)";
  out += id.empty() ? "null" : id;
  out += fmt::format(R"(,"error":{{"code":{},"message":)", code);
  append_json_string(out, message);
  out += "}}";
  return out;
}

std::string result_response(std::string_view id, std::string_view result) {
  return fmt::format(R"({{"jsonrpc":"2.0","id":{},"result":{}}})", id, result);
}

// The report's schema as an outputSchema: without its "$id", so a client that compiles the schema
// once per tool (analyze and preflight share it) does not meet the same id twice.
std::string output_schema() {
  simdjson::dom::parser parser;
  simdjson::dom::object schema;
  const std::string_view text = report_json_schema();
  if (parser.parse(text.data(), text.size()).get(schema) != simdjson::SUCCESS) return "{}";
  std::string out = "{";
  for (auto [key, value] : schema) {
    if (key == "$id") continue;
    if (out.size() > 1) out += ',';
    append_json_string(out, key);
    out += ':';
    out += simdjson::minify(value);
  }
  return out + "}";
}

constexpr std::string_view kRulesOutputSchema =
    R"({"type":"object","properties":{"rules":{"type":"array","items":{"type":"object","properties":{)"
    R"("id":{"type":"string"},"family":{"type":"string"},"severity":{"type":"string"},"title":{"type":"string"},)"
    R"("enabled":{"type":"boolean"}},"required":["id","family","severity","title","enabled"]}}},"required":["rules"]})";

class Session {
 public:
  Session(int in_fd, int out_fd, const McpServerOptions& options)
      : options_(options), reader_(in_fd), out_fd_(out_fd), report_schema_(output_schema()) {}

  int run() {
    for (;;) {
      std::optional<std::string> message;
      if (!queued_.empty()) {
        message = std::move(queued_.front());
        queued_.pop_front();
      } else {
        message = reader_.next();
        if (reader_.oversized_dropped()) {
          send(
              error_response("", kInvalidRequest,
                             fmt::format("message longer than {} MiB dropped", MessageReader::kMaxMessageBytes >> 20)));
        }
      }
      if (!message) {
        if (reader_.at_end()) return 0;
        reader_.fill();
        continue;
      }
      const std::string response = serve(*message);
      if (!response.empty()) send(response);
      if (out_broken_) return 2;
    }
  }

 private:
  bool structured_output() const { return protocol_ >= "2025-06-18"; }

  void send(const std::string& json) {
    if (!out_broken_ && !write_message(out_fd_, json)) out_broken_ = true;
  }

  // One message (or a batch of them, which the 2025-03-26 revision allowed): the response, or "" when
  // there is none (a notification, a cancelled request).
  std::string serve(const std::string& text) {
    simdjson::dom::element root;
    if (const auto error = parser_.parse(text).get(root); error != simdjson::SUCCESS) {
      return error_response("", kParseError, fmt::format("not JSON: {}", simdjson::error_message(error)));
    }
    if (root.is_array()) {
      std::vector<std::string> parts;
      simdjson::dom::array batch = root.get_array().value();
      for (auto item : batch) parts.push_back(simdjson::minify(item));
      if (parts.empty()) return error_response("", kInvalidRequest, "an empty batch");
      std::vector<std::string> responses;
      for (const auto& part : parts) {
        if (std::string r = serve_one(part); !r.empty()) responses.push_back(std::move(r));
      }
      return responses.empty() ? "" : fmt::format("[{}]", fmt::join(responses, ","));
    }
    return serve_one_parsed(root);
  }

  std::string serve_one(const std::string& text) {
    simdjson::dom::element root;
    if (const auto error = parser_.parse(text).get(root); error != simdjson::SUCCESS) {
      return error_response("", kParseError, fmt::format("not JSON: {}", simdjson::error_message(error)));
    }
    return serve_one_parsed(root);
  }

  std::string serve_one_parsed(simdjson::dom::element root) {
    if (!root.is_object()) return error_response("", kInvalidRequest, "a message must be a JSON object");
    std::string id;
    simdjson::dom::element id_element;
    const bool has_id = root["id"].get(id_element) == simdjson::SUCCESS;
    if (has_id) id = simdjson::minify(id_element);
    std::string_view method;
    if (root["method"].get(method) != simdjson::SUCCESS) {
      // A response to a request of ours (we send none) or garbage: answer only what has an id.
      return has_id && root["result"].error() != simdjson::SUCCESS && root["error"].error() != simdjson::SUCCESS
                 ? error_response(id, kInvalidRequest, "a request needs a `method`")
                 : "";
    }
    simdjson::dom::element params;
    const bool has_params = root["params"].get(params) == simdjson::SUCCESS;
    if (!has_id) {
      if (has_params) notification(method, params);
      return "";
    }
    if (cancelled_.erase(id) > 0) return "";  // cancelled while it waited in the queue
    if (method == "initialize") return result_response(id, initialize(params, has_params));
    if (method == "ping") return result_response(id, "{}");
    if (method == "tools/list") return result_response(id, tools_list());
    if (method == "tools/call") return call_tool(id, params, has_params);
    return error_response(id, kMethodNotFound, fmt::format("no method `{}`", method));
  }

  void notification(std::string_view method, simdjson::dom::element params) {
    if (method != "notifications/cancelled") return;  // initialized, roots changes …: nothing to do
    simdjson::dom::element request;
    if (params.is_object() && params["requestId"].get(request) == simdjson::SUCCESS) {
      if (cancelled_.size() >= kMaxQueued) cancelled_.clear();  // ids of requests long answered: bounded
      cancelled_.insert(simdjson::minify(request));
    }
  }

  std::string initialize(simdjson::dom::element params, bool has_params) {
    std::string_view wanted;
    if (!has_params || params["protocolVersion"].get(wanted) != simdjson::SUCCESS) wanted = {};
    // The client's revision when we speak it, else our newest: the client then decides.
    const auto known = std::find(kProtocolVersions.begin(), kProtocolVersions.end(), wanted);
    protocol_ = std::string(known != kProtocolVersions.end() ? *known : kProtocolVersions.front());
    std::cerr << fmt::format("gpudiag mcp: protocol {} (the client asked for {})\n", protocol_,
                             wanted.empty() ? "none" : wanted);
    JsonWriter w;
    w.begin_object().field("protocolVersion", protocol_);
    w.key("capabilities")
        .begin_object()
        .key("tools")
        .begin_object()
        .field("listChanged", false)
        .end_object()
        .end_object();
    w.key("serverInfo")
        .begin_object()
        .field("name", "gpudiag")
        .field("title", "gpudiag")
        .field("version", options_.version);
    w.end_object();
    w.field("instructions", kInstructions).end_object();
    return compact(w.take());
  }

  std::string tools_list() {
    std::vector<std::string> tools;
    for (const ToolSpec& tool : tool_table()) {
      std::string t = "{";
      auto field = [&t](std::string_view key, std::string_view raw) {
        if (t.size() > 1) t += ',';
        append_json_string(t, key);
        t += ':';
        t += raw;
      };
      std::string name, description;
      append_json_string(name, tool.name);
      append_json_string(description, tool.description);
      field("name", name);
      if (structured_output()) {
        std::string title;
        append_json_string(title, tool.title);
        field("title", title);
      }
      field("description", description);
      field("inputSchema", compact(std::string(tool.input_schema)));
      if (structured_output() && tool.output == ToolOutput::kReport) field("outputSchema", report_schema_);
      if (structured_output() && tool.output == ToolOutput::kRules)
        field("outputSchema", std::string(kRulesOutputSchema));
      if (protocol_ >= "2025-03-26") {
        field("annotations",
              fmt::format(R"({{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":{}}})",
                          tool.open_world ? "true" : "false"));
      }
      tools.push_back(t + "}");
    }
    return fmt::format(R"({{"tools":[{}]}})", fmt::join(tools, ","));
  }

  std::string call_tool(const std::string& id, simdjson::dom::element params, bool has_params) {
    std::string_view name;
    if (!has_params || params["name"].get(name) != simdjson::SUCCESS) {
      return error_response(id, kInvalidParams, "tools/call needs the tool's `name`");
    }
    const ToolSpec* tool = find_tool(name);
    if (tool == nullptr) {
      std::vector<std::string_view> names;
      for (const auto& t : tool_table()) names.push_back(t.name);
      return error_response(id, kInvalidParams,
                            fmt::format("no tool `{}`; the tools are: {}", name, fmt::join(names, ", ")));
    }
    simdjson::dom::element arguments;
    const bool has_arguments = params["arguments"].get(arguments) == simdjson::SUCCESS;
    Arguments args;
    std::vector<std::string> argv{options_.gpudiag_path};
    std::string why = read_arguments(tool->input_schema, arguments, has_arguments, args);
    if (why.empty()) why = tool_command(*tool, args, options_, argv);
    if (!why.empty()) {
      std::cerr << fmt::format("gpudiag mcp: {}: {}\n", tool->name, why);
      return result_response(id, tool_result(ToolResult{why, "", true}, nullptr));
    }
    // The request is parsed; while the child runs, the parser serves what arrives meanwhile.
    in_flight_ = id;
    const ChildRun run = run_child(argv, options_.call_timeout_seconds, reader_.fd(),
                                   [this](bool input_ready) { return watch_input(input_ready); });
    in_flight_.clear();
    const bool cancelled = cancelled_.erase(id) > 0;
    std::cerr << fmt::format(
        "gpudiag mcp: {}: {}{}, {:.1f} s, peak RSS {} KiB\n", tool->name,
        run.signal != 0 ? fmt::format("signal {}", run.signal) : fmt::format("exit {}", run.exit_code),
        run.timed_out ? " (time limit)"
        : cancelled   ? " (cancelled)"
                      : "",
        run.seconds, run.peak_rss_kib);
    if (cancelled) return "";  // a cancelled request gets no response
    return result_response(id, tool_result(shape_result(*tool, args, run, options_.call_timeout_seconds), &run));
  }

  // While a call runs: pings are answered, cancellations noted, everything else waits its turn.
  Watch watch_input(bool input_ready) {
    // At the end of input the call still gets its answer, and so do the requests read before it:
    // a client that closes stdin waits for the server to exit (and a script that pipes requests in
    // gets its responses).
    Watch watch;
    watch.input_ended = input_ready && !reader_.fill();
    while (auto message = reader_.next()) {
      simdjson::dom::element root;
      std::string_view method;
      if (side_parser_.parse(*message).get(root) == simdjson::SUCCESS && root.is_object() &&
          root["method"].get(method) == simdjson::SUCCESS) {
        simdjson::dom::element id;
        const bool has_id = root["id"].get(id) == simdjson::SUCCESS;
        if (method == "ping" && has_id) {
          send(result_response(simdjson::minify(id), "{}"));
          continue;
        }
        if (method == "notifications/cancelled" && !has_id) {
          simdjson::dom::element params;
          if (root["params"].get(params) == simdjson::SUCCESS) notification(method, params);
          continue;
        }
        // What waits is bounded: a client that floods requests during one call gets them refused.
        if (queued_.size() >= kMaxQueued && has_id) {
          send(error_response(simdjson::minify(id), kServerBusy,
                              fmt::format("{} requests are already waiting for the call under way", kMaxQueued)));
          continue;
        }
      }
      if (queued_.size() < kMaxQueued) queued_.push_back(std::move(*message));
    }
    watch.cancel = cancelled_.contains(in_flight_);
    return watch;
  }

  std::string tool_result(const ToolResult& result, const ChildRun* run) const {
    std::string out = R"({"content":[{"type":"text","text":)";
    append_json_string(out, result.text);
    out += "}";
    // Before structured output existed, the report travels as a second text block.
    if (!result.structured.empty() && !structured_output()) {
      out += R"(,{"type":"text","text":)";
      append_json_string(out, result.structured);
      out += "}";
    }
    out += "]";
    if (!result.structured.empty() && structured_output()) out += ",\"structuredContent\":" + result.structured;
    out += fmt::format(",\"isError\":{}", result.is_error ? "true" : "false");
    if (run != nullptr) {
      out += fmt::format(
          R"(,"_meta":{{"dev.gpudiag/exit_code":{},"dev.gpudiag/seconds":{:.3f},"dev.gpudiag/peak_rss_kib":{}}})",
          run->exit_code, run->seconds, run->peak_rss_kib);
    }
    return out + "}";
  }

  std::string compact(const std::string& json) {
    simdjson::dom::element root;
    if (schema_parser_.parse(json).get(root) != simdjson::SUCCESS) return "{}";
    return simdjson::minify(root);
  }

  const McpServerOptions& options_;
  MessageReader reader_;
  int out_fd_;
  std::string report_schema_;
  std::string protocol_ = "2025-03-26";  // until initialize says (the SDK's default for a missing header)
  simdjson::dom::parser parser_;         // the message being served
  simdjson::dom::parser side_parser_;    // messages that arrive while a call runs
  simdjson::dom::parser schema_parser_;
  std::deque<std::string> queued_;
  std::set<std::string> cancelled_;  // request ids (as JSON) cancelled before or while they ran
  std::string in_flight_;
  bool out_broken_ = false;
};

}  // namespace

int serve_mcp(int in_fd, int out_fd, const McpServerOptions& options) {
  Session session(in_fd, out_fd, options);
  return session.run();
}

}  // namespace gpudiag
