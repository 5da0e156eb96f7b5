// The stdio transport of MCP: one JSON-RPC message per line (UTF-8, no embedded newline), read from
// a file descriptor in pieces as they arrive, written whole.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace gpudiag::mcp_detail {

class MessageReader {
 public:
  // A line longer than this is not a message we can hold; it is dropped and reported as one
  // oversized message, so a runaway client cannot grow the server past its memory bound.
  static constexpr size_t kMaxMessageBytes = 8 * 1024 * 1024;

  explicit MessageReader(int fd) : fd_(fd) {}

  // Reads what is available now (one read(2): the caller polls first when it must not block).
  // Returns false at end of input or on a read error.
  bool fill();
  // The next complete message, without its line end; empty lines are skipped. A message that was
  // too long comes back as std::nullopt with `oversized` set.
  std::optional<std::string> next();
  bool oversized_dropped() {
    const bool was = oversized_;
    oversized_ = false;
    return was;
  }
  bool at_end() const { return eof_; }
  int fd() const { return fd_; }

 private:
  int fd_;
  std::string buffer_;
  size_t scanned_ = 0;       // bytes of buffer_ already searched for a newline
  bool discarding_ = false;  // inside an oversized line: drop until its newline
  bool oversized_ = false;
  bool eof_ = false;
};

// Writes `json` and a newline to `fd`, retrying short writes. False when the peer is gone.
bool write_message(int fd, const std::string& json);

}  // namespace gpudiag::mcp_detail
