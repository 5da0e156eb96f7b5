// A file that lands whole or not at all: written to a temporary file beside its target (gzip when
// the target ends in .gz), fsynced, and renamed into place by commit(). Dropped uncommitted, the
// temporary file is removed.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpudiag::fetch_detail {

class ExportFile {
 public:
  ExportFile() = default;
  ExportFile(const ExportFile&) = delete;
  ExportFile& operator=(const ExportFile&) = delete;
  ~ExportFile();

  // Why the temporary file cannot be made, or nullopt.
  std::optional<std::string> open(const std::string& target);
  bool write(std::string_view bytes);
  // Why it could not be put in place, or nullopt.
  std::optional<std::string> commit();

 private:
  std::string target_;
  std::string temp_;
  int fd_ = -1;
  void* gz_ = nullptr;  // gzFile, when the target ends in .gz
  bool failed_ = false;
};

}  // namespace gpudiag::fetch_detail
