// gpudiag mcp: the Model Context Protocol server over stdio (gpudiag/mcp.h, docs/mcp.md).
#include <fmt/format.h>
#include <unistd.h>

#include <climits>
#include <csignal>
#include <iostream>

#include "commands.h"
#include "gpudiag/mcp.h"

namespace gpudiag::cli {

namespace {

// Each tool call runs this very binary; /proc/self/exe names it whatever PATH or argv[0] said.
std::string own_binary() {
  char path[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<size_t>(n)) : std::string();
}

int run_mcp(McpServerOptions options) {
  options.gpudiag_path = own_binary();
  if (options.gpudiag_path.empty()) {
    std::cerr << "gpudiag: mcp: cannot find the gpudiag binary (/proc/self/exe)\n";
    return kExitError;
  }
  options.version = GPUDIAG_VERSION;
  // A client that goes away mid-answer is the end of the session, not a crash: write() says EPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  std::cerr << fmt::format(
      "gpudiag mcp: serving on stdio (tools: analyze, explain, rules, history, preflight; "
      "reports {}redacted by default; {:.0f} s per call)\n",
      options.redact_by_default ? "" : "not ", options.call_timeout_seconds);
  return serve_mcp(STDIN_FILENO, STDOUT_FILENO, options) == 0 ? kExitOk : kExitError;
}

}  // namespace

void add_mcp_command(CLI::App& app, std::function<int()>& run) {
  auto o = std::make_shared<McpServerOptions>();
  CLI::App* cmd = app.add_subcommand("mcp", "Serve the diagnosis to an AI assistant: an MCP server on stdio");
  cmd->add_option("--call-timeout", o->call_timeout_seconds,
                  "Seconds a tool call may run; then it is stopped and returns what it read")
      ->check(CLI::Range(1.0, 86400.0))
      ->capture_default_str();
  cmd->add_flag(
      "--no-redact", [o](int64_t) { o->redact_by_default = false; },
      "Send reports unredacted unless a call asks for redaction (default: redacted unless a call "
      "says redact: false)");
  cmd->footer(
      "Configure it in the assistant as a stdio server whose command is `gpudiag mcp` (README, \"In an AI "
      "assistant\"). Messages are JSON-RPC 2.0, one per line on stdin and stdout; the log goes to stderr.");
  cmd->callback([&run, o] { run = [o] { return run_mcp(*o); }; });
}

}  // namespace gpudiag::cli
