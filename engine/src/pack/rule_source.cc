// Reading rule directories (see rule_source.h).
#include "rule_source.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace gpudiag::detail {
namespace {

// What a --rules directory may hold (docs/rules.md, "Limits"): every rule costs memory on every run
// (its regexes, its examples proven at load), so a pack has bounds that lint checks.
constexpr size_t kMaxUserRules = 500;
constexpr uint64_t kMaxRuleFileBytes = 256u << 10;

// What a file that is no regular file is, for the message.
const char* file_kind(std::filesystem::file_type type) {
  switch (type) {
    case std::filesystem::file_type::fifo:
      return "a FIFO (named pipe)";
    case std::filesystem::file_type::socket:
      return "a socket";
    case std::filesystem::file_type::block:
      return "a block device";
    case std::filesystem::file_type::character:
      return "a character device";
    case std::filesystem::file_type::directory:
      return "a directory";
    default:
      return "not a regular file";
  }
}

Diagnostic not_regular(const std::string& path, std::filesystem::file_type type) {
  return Diagnostic{.code = "rule-file",
                    .message = fmt::format("is {}, not a rule file; it was not opened", file_kind(type)),
                    .file = path,
                    .help = "a rule directory holds regular *.yaml files (or links to them); move it out"};
}

// Reads one rule file whole. Opened without blocking and checked after opening, so a FIFO (or a
// device) put there after the walk saw a file is refused, never waited on.
Diagnostics read_rule_file(const std::string& path, std::vector<RuleFile>& files) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    const int err = errno;
    if (err == ELOOP) {
      return {Diagnostic{.code = "rule-file",
                         .message = "is a symbolic link that never reaches a file (a loop)",
                         .file = path,
                         .help = "point the link at a rule file, or remove it"}};
    }
    return {Diagnostic{
        .code = "rule-file", .message = fmt::format("cannot be read: {}", std::strerror(err)), .file = path}};
  }
  struct stat st {};
  Diagnostics problems;
  std::string text;
  if (::fstat(fd, &st) != 0) {
    problems.push_back(Diagnostic{.code = "rule-file", .message = "cannot be read", .file = path});
  } else if (!S_ISREG(st.st_mode)) {
    namespace fs = std::filesystem;
    const fs::file_type type = S_ISFIFO(st.st_mode)   ? fs::file_type::fifo
                               : S_ISSOCK(st.st_mode) ? fs::file_type::socket
                               : S_ISBLK(st.st_mode)  ? fs::file_type::block
                               : S_ISCHR(st.st_mode)  ? fs::file_type::character
                               : S_ISDIR(st.st_mode)  ? fs::file_type::directory
                                                      : fs::file_type::unknown;
    problems.push_back(not_regular(path, type));
  } else if (static_cast<uint64_t>(st.st_size) > kMaxRuleFileBytes) {
    problems.push_back(Diagnostic{
        .code = "rule-limit",
        .message = fmt::format("is {} bytes; a rule file holds at most {} KiB", st.st_size, kMaxRuleFileBytes >> 10),
        .file = path,
        .help = "keep examples to the lines that matter (each at most 16 KiB)"});
  } else {
    // At most the cap and one byte more: a file that grows while it is read is caught too.
    text.resize(static_cast<size_t>(st.st_size) + 1);
    size_t got = 0;
    for (;;) {
      const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        problems.push_back(Diagnostic{
            .code = "rule-file", .message = fmt::format("cannot be read: {}", std::strerror(errno)), .file = path});
        break;
      }
      if (n == 0) break;
      got += static_cast<size_t>(n);
      if (got == text.size()) {
        if (got > kMaxRuleFileBytes) {
          problems.push_back(
              Diagnostic{.code = "rule-limit",
                         .message = fmt::format("grew past {} KiB while it was read; a rule file holds at most {} KiB",
                                                kMaxRuleFileBytes >> 10, kMaxRuleFileBytes >> 10),
                         .file = path});
          break;
        }
        text.resize(std::min<size_t>(text.size() * 2, kMaxRuleFileBytes + 1));
      }
    }
    text.resize(got);
  }
  ::close(fd);
  if (problems.empty()) files.push_back(RuleFile{path, std::move(text)});
  return problems;
}

// The *.yaml and *.yml files under `dir`, sorted; problems of the walk itself in `diags`. Links to
// directories are not followed (so a link loop is never walked); a link among the files is read
// through (read_rule_file). Stops once more than `budget` files are found: such a pack is refused.
std::vector<std::string> walk_rule_dir(const std::string& dir, size_t budget, Diagnostics& diags) {
  namespace fs = std::filesystem;
  std::vector<std::string> paths;
  std::error_code ec;
  std::string last = dir;  // where the walk was, for an error (the iterator is spent by then)
  auto it = fs::recursive_directory_iterator(dir, fs::directory_options::none, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path& path = it->path();
    last = path.string();
    const auto ext = path.extension();
    if (ext != ".yaml" && ext != ".yml") continue;
    std::error_code type_ec;
    const fs::file_status own = it->symlink_status(type_ec);
    if (!type_ec && own.type() == fs::file_type::directory) continue;  // walked into: its files are read
    paths.push_back(path.string());
    if (paths.size() > budget) break;
  }
  if (ec) {
    diags.push_back(Diagnostic{.code = "rule-dir",
                               .message = fmt::format("cannot be read to its end: {}", ec.message()),
                               .file = last,
                               .help = "make it readable, or leave it out of --rules"});
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

void read_rule_dir(const std::string& dir, size_t budget, std::vector<RuleFile>& files, Diagnostics& diags) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    diags.push_back(Diagnostic{.code = "rule-dir",
                               .message = "is not a directory of rule files",
                               .file = dir,
                               .help = "--rules takes a directory holding *.yaml rule files"});
    return;
  }
  const auto paths = walk_rule_dir(dir, budget, diags);
  if (paths.size() > budget) {
    // Refused before any file is read: ten thousand files of 256 KiB would be 2.5 GB.
    diags.push_back(Diagnostic{
        .code = "rule-limit",
        .message = fmt::format("more than {} user rule files; a pack takes at most {}", kMaxUserRules, kMaxUserRules),
        .file = dir,
        .help = "merge rules that look for the same thing, or split the directories between runs"});
    return;
  }
  for (const auto& path : paths) {
    for (auto& problem : read_rule_file(path, files)) diags.push_back(std::move(problem));
  }
}

}  // namespace

std::vector<RuleDirectory> read_rule_dirs(const std::vector<std::string>& dirs) {
  std::vector<RuleDirectory> out;
  size_t user_files = 0;
  for (const auto& dir : dirs) {
    RuleDirectory d{.path = dir};
    read_rule_dir(dir, kMaxUserRules - std::min(user_files, kMaxUserRules), d.files, d.problems);
    user_files += d.files.size();
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace gpudiag::detail
