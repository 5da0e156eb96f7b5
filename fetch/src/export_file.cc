#include "export_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace gpudiag::fetch_detail {

ExportFile::~ExportFile() {
  if (gz_ != nullptr) gzclose(static_cast<gzFile>(gz_));
  if (fd_ >= 0) close(fd_);
  if (!temp_.empty()) unlink(temp_.c_str());
}

std::optional<std::string> ExportFile::open(const std::string& target) {
  target_ = target;
  std::string pattern = target + ".gpudiag-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  fd_ = mkostemp(name.data(), O_CLOEXEC);
  if (fd_ < 0) return std::string(std::strerror(errno));
  temp_ = name.data();
  fchmod(
      fd_, 0644 & ~[] {
        const mode_t mask = umask(0);
        umask(mask);
        return mask;
      }());
  if (target.ends_with(".gz")) {
    const int dup_fd = dup(fd_);
    gz_ = dup_fd < 0 ? nullptr : gzdopen(dup_fd, "wb6");
    if (gz_ == nullptr) return std::string("cannot start the gzip stream");
  }
  return std::nullopt;
}

bool ExportFile::write(std::string_view bytes) {
  if (failed_) return false;
  if (gz_ != nullptr) {
    while (!bytes.empty()) {
      const unsigned n = static_cast<unsigned>(std::min<size_t>(bytes.size(), 1u << 30));
      if (gzwrite(static_cast<gzFile>(gz_), bytes.data(), n) != static_cast<int>(n)) return !(failed_ = true);
      bytes.remove_prefix(n);
    }
    return true;
  }
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return !(failed_ = true);
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

std::optional<std::string> ExportFile::commit() {
  if (gz_ != nullptr) {
    const int closed = gzclose(static_cast<gzFile>(gz_));
    gz_ = nullptr;
    if (closed != Z_OK) failed_ = true;
  }
  if (failed_) return std::string("a write failed (is the disk full?)");
  if (fsync(fd_) != 0 || close(fd_) != 0) {
    fd_ = -1;
    return std::string(std::strerror(errno));
  }
  fd_ = -1;
  if (std::rename(temp_.c_str(), target_.c_str()) != 0) return std::string(std::strerror(errno));
  temp_.clear();
  return std::nullopt;
}

}  // namespace gpudiag::fetch_detail
