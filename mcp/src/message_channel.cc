#include "message_channel.h"

#include <unistd.h>

#include <cerrno>

namespace gpudiag::mcp_detail {

bool MessageReader::fill() {
  char chunk[64 * 1024];
  for (;;) {
    const ssize_t n = read(fd_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<size_t>(n));
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    eof_ = true;
    return false;
  }
}

std::optional<std::string> MessageReader::next() {
  for (;;) {
    const size_t newline = buffer_.find('\n', scanned_);
    if (newline == std::string::npos) {
      scanned_ = buffer_.size();
      if (buffer_.size() > kMaxMessageBytes) {  // keep reading, but not keeping
        if (!discarding_) oversized_ = true;
        discarding_ = true;
        buffer_.clear();
        scanned_ = 0;
      }
      // A last message without its newline still counts at end of input.
      if (eof_ && !buffer_.empty() && !discarding_) {
        std::string last = std::move(buffer_);
        buffer_.clear();
        scanned_ = 0;
        while (!last.empty() && (last.back() == '\r' || last.back() == ' ' || last.back() == '\t')) last.pop_back();
        if (!last.empty()) return last;
      }
      return std::nullopt;
    }
    std::string line = buffer_.substr(0, newline);
    buffer_.erase(0, newline + 1);
    scanned_ = 0;
    if (discarding_) {
      discarding_ = false;
      continue;
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    return line;
  }
}

bool write_message(int fd, const std::string& json) {
  std::string line = json;
  while (!line.empty() && line.back() == '\n') line.pop_back();
  line += '\n';
  size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = write(fd, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace gpudiag::mcp_detail
