// gpudiag mcp: the diagnosis as tools of the Model Context Protocol, for the AI assistant an on-call
// engineer already uses (Claude Code, Gemini CLI, VS Code). JSON-RPC 2.0 over stdio, one message
// per line; docs/mcp.md describes the tools and what the assistant sees.
//
// Every tool call runs the gpudiag binary itself as a child process (`gpudiag analyze --format json
// …`): a call that crashes, hangs or grows cannot take the server down, the time limit and a
// cancellation are a signal to the child (which writes the report of what it read, as on Ctrl-C),
// and each call keeps the command line's 64 MiB bound on its own.
#pragma once

#include <string>

namespace gpudiag {

struct McpServerOptions {
  std::string gpudiag_path;           // the binary each tool call runs (the server's own)
  std::string version;                // serverInfo.version
  double call_timeout_seconds = 120;  // a call still running then is stopped (SIGTERM, then SIGKILL)
  bool redact_by_default = true;      // reports sent to a model are redacted unless a call says not
};

// Serves the messages read from `in_fd`, answering on `out_fd` (log lines go to stderr, never to
// `out_fd`), until end of input. Returns the process exit code: 0 at end of input, 2 when the
// output channel is gone.
int serve_mcp(int in_fd, int out_fd, const McpServerOptions& options);

}  // namespace gpudiag
