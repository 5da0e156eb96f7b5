// Paths as the Markdown, SARIF and GitHub reports show them: relative to the working directory
// when the input lies under it (an absolute path otherwise), then as display_path shows them.
#pragma once

#include <string>

#include "gpudiag/analysis.h"

namespace gpudiag::detail {

// `path` relative to the working directory when it lies under it; otherwise as given.
std::string cwd_relative(const std::string& path);

// display_path(cwd_relative(path), deterministic).
std::string shown_path(const std::string& path, bool deterministic);

// The input of `r` (shown_path), and with its line ("export.json:12").
std::string shown_input_path(const Analysis& d, const LogRecord& r, bool deterministic);
std::string shown_location(const Analysis& d, const LogRecord& r, bool deterministic);

}  // namespace gpudiag::detail
