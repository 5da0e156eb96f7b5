// Reading rule directories (see rule_source.h).
#include "rule_source.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace gpudiag::detail {
namespace {

// What a --rules directory may hold (docs/rules.md, "Limits"): every rule costs memory on every run
// (its regexes, its examples proven at load), so a pack has bounds that lint checks.
constexpr size_t kMaxUserRules = 500;
constexpr uint64_t kMaxRuleFileBytes = 256u << 10;

void read_rule_dir(const std::string& dir, std::vector<RuleFile>& files, Diagnostics& diags) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    diags.push_back(Diagnostic{.code = "rule-dir",
                               .message = "is not a directory of rule files",
                               .file = dir,
                               .help = "--rules takes a directory holding *.yaml rule files"});
    return;
  }
  std::vector<std::string> paths;
  for (auto it = fs::recursive_directory_iterator(dir, ec); it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (ec) break;
    const auto ext = it->path().extension();
    if (it->is_regular_file(ec) && (ext == ".yaml" || ext == ".yml")) paths.push_back(it->path().string());
  }
  std::sort(paths.begin(), paths.end());
  for (const auto& path : paths) {
    if (const auto size = fs::file_size(path, ec); !ec && size > kMaxRuleFileBytes) {
      diags.push_back(Diagnostic{
          .code = "rule-limit",
          .message = fmt::format("is {} bytes; a rule file holds at most {} KiB", size, kMaxRuleFileBytes >> 10),
          .file = path,
          .help = "keep examples to the lines that matter (each at most 16 KiB)"});
      continue;
    }
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
      diags.push_back(Diagnostic{.code = "rule-file", .message = "cannot be read", .file = path});
      continue;
    }
    files.push_back(RuleFile{path, text.str()});
  }
}

}  // namespace

std::vector<RuleDirectory> read_rule_dirs(const std::vector<std::string>& dirs) {
  std::vector<RuleDirectory> out;
  size_t user_files = 0;
  for (const auto& dir : dirs) {
    RuleDirectory d{.path = dir};
    read_rule_dir(dir, d.files, d.problems);
    if (user_files + d.files.size() > kMaxUserRules) {
      d.problems.push_back(Diagnostic{
          .code = "rule-limit",
          .message = fmt::format("more than {} user rule files; a pack takes at most {}", kMaxUserRules, kMaxUserRules),
          .file = dir,
          .help = "merge rules that look for the same thing, or split the directories between runs"});
      d.files.resize(kMaxUserRules - std::min(user_files, kMaxUserRules));
    }
    user_files += d.files.size();
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace gpudiag::detail
