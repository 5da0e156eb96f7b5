#include "output_files.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "stdout_guard.h"

namespace gpudiag::cli {
namespace {

namespace fs = std::filesystem;

std::string os_reason() { return std::strerror(errno); }

// What a path names, so that two spellings of one file compare equal: its inode when it exists,
// else its absolute path with links in its folder resolved.
struct FileIdentity {
  bool exists = false;
  dev_t device = 0;
  ino_t inode = 0;
  std::string resolved;
  bool operator==(const FileIdentity& o) const {
    return exists == o.exists && (exists ? device == o.device && inode == o.inode : resolved == o.resolved);
  }
};

FileIdentity identify(const std::string& path) {
  FileIdentity id;
  struct stat st {};
  const bool is_stdout = path == "-";
  if (is_stdout ? ::fstat(STDOUT_FILENO, &st) == 0 : ::stat(path.c_str(), &st) == 0) {
    id.exists = true;
    id.device = st.st_dev;
    id.inode = st.st_ino;
    return id;
  }
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  const fs::path parent = fs::weakly_canonical(absolute.parent_path(), ec);
  id.resolved = (parent / absolute.filename()).string();
  return id;
}

std::string shown(const std::string& path) { return path == "-" ? "stdout" : path; }

bool write_fd(int fd, const char* data, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

// Paths written in place rather than replaced: other writers share them (GitHub's step summary and
// output files are appended to by every step), or they are not files at all.
bool is_append_target(const std::string& path) {
  const FileIdentity id = identify(path);
  for (const char* name : {"GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT", "GITHUB_ENV"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0' && identify(value) == id) return true;
  }
  return false;
}

mode_t default_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

std::vector<ProtectedFile> input_files(const std::vector<std::string>& inputs) {
  std::vector<ProtectedFile> files;
  for (const auto& input : inputs) files.push_back({input, "an input"});
  return files;
}

std::optional<std::string> check_outputs(const std::vector<std::string>& outputs,
                                         const std::vector<ProtectedFile>& protected_files) {
  std::vector<FileIdentity> seen;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const FileIdentity id = identify(outputs[i]);
    for (const auto& file : protected_files) {
      if (file.path.empty() || file.path == "-") continue;
      if (identify(file.path) == id) {
        return fmt::format("refusing to write {}: it is {} ({}); name another output file", shown(outputs[i]),
                           file.role, file.path);
      }
    }
    for (size_t j = 0; j < i; ++j) {
      if (seen[j] == id) {
        return fmt::format("refusing to write {} twice (-o {} and -o {} are the same file)", shown(outputs[i]),
                           outputs[j], outputs[i]);
      }
    }
    seen.push_back(id);
  }
  return std::nullopt;
}

OutputWriter::~OutputWriter() {
  for (const auto& s : staged_) {
    if (!s.temporary.empty()) ::unlink(s.temporary.c_str());
  }
}

bool OutputWriter::stage(const std::string& path, std::string text) {
  Staged s{.path = path};
  struct stat st {};
  const bool exists = path != "-" && ::stat(path.c_str(), &st) == 0;
  if (path == "-" || (exists && !S_ISREG(st.st_mode)) || is_append_target(path)) {
    s.text = std::move(text);  // stdout, a FIFO, a device, a shared file: written at commit
    s.append = path != "-" && exists && S_ISREG(st.st_mode);
    staged_.push_back(std::move(s));
    return true;
  }
  std::error_code ec;
  const fs::path target = exists ? fs::canonical(path, ec) : fs::weakly_canonical(fs::absolute(path), ec);
  if (ec) {
    error_ = fmt::format("cannot write {}: {}", path, ec.message());
    return false;
  }
  s.target = target.string();
  std::string temporary =
      (target.parent_path() / fmt::format(".{}.gpudiag-XXXXXX", target.filename().string())).string();
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) {
    error_ = fmt::format("cannot write {}: {}", path, os_reason());
    return false;
  }
  s.temporary = temporary;
  staged_.push_back(s);  // from here on, the destructor removes it on failure
  const mode_t mode = exists ? (st.st_mode & 07777) : default_file_mode();
  bool ok = write_fd(fd, text.data(), text.size()) && ::fchmod(fd, mode) == 0 && ::fsync(fd) == 0;
  if (ok && exists && (st.st_uid != ::geteuid() || st.st_gid != ::getegid())) {
    [[maybe_unused]] int ignored = ::fchown(fd, st.st_uid, st.st_gid);  // best effort: keep the owner
  }
  const std::string reason = ok ? "" : os_reason();
  if (::close(fd) != 0 && ok) {
    ok = false;
    error_ = fmt::format("cannot write {}: {}", path, os_reason());
    return false;
  }
  if (!ok) error_ = fmt::format("cannot write {}: {}", path, reason);
  return ok;
}

bool OutputWriter::commit() {
  for (auto& s : staged_) {
    if (!s.temporary.empty()) {
      if (::rename(s.temporary.c_str(), s.target.c_str()) != 0) {
        error_ = fmt::format("cannot write {}: {}", s.path, os_reason());
        return false;
      }
      s.temporary.clear();
      // The rename itself is durable once its folder is synced (best effort: not every filesystem can).
      if (const int dir = ::open(fs::path(s.target).parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
          dir >= 0) {
        ::fsync(dir);
        ::close(dir);
      }
      continue;
    }
    if (s.path == "-") {
      if (!write_stdout(s.text)) {
        error_ = fmt::format("cannot write to stdout: {}", flush_stdout());
        return false;
      }
      continue;
    }
    const int fd = ::open(s.path.c_str(), O_WRONLY | O_CLOEXEC | (s.append ? O_APPEND : 0));
    if (fd < 0 || !write_fd(fd, s.text.data(), s.text.size())) {
      error_ = fmt::format("cannot write {}: {}", s.path, os_reason());
      if (fd >= 0) ::close(fd);
      return false;
    }
    if (::close(fd) != 0) {
      error_ = fmt::format("cannot write {}: {}", s.path, os_reason());
      return false;
    }
  }
  return true;
}

bool write_stdout(const std::string& text) {
  std::cout << text;
  return flush_stdout().empty();
}

}  // namespace gpudiag::cli
