// Paths relative to the working directory (relative_path.h).
#include "relative_path.h"

#include <fmt/format.h>

#include <filesystem>
#include <system_error>

#include "gpudiag/report.h"

namespace gpudiag::detail {

std::string cwd_relative(const std::string& path) {
  if (path.empty() || path.front() != '/') return path;
  std::error_code ec;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  if (ec) return path;
  const std::filesystem::path rel = std::filesystem::path(path).lexically_normal().lexically_relative(cwd);
  if (rel.empty() || *rel.begin() == "..") return path;
  return rel.string();
}

std::string shown_path(const std::string& path, bool deterministic) {
  return display_path(cwd_relative(path), deterministic);
}

std::string shown_input_path(const Analysis& d, const LogRecord& r, bool deterministic) {
  return r.where.input < d.inputs.size() ? shown_path(d.inputs[r.where.input].path, deterministic) : "?";
}

std::string shown_location(const Analysis& d, const LogRecord& r, bool deterministic) {
  return fmt::format("{}:{}", shown_input_path(d, r, deterministic), r.where.line);
}

}  // namespace gpudiag::detail
