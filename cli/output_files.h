// Writing reports without destroying anything: an -o that is an input, the history database, the
// baseline or another -o is refused before anything is read, and each output lands whole or not at
// all (a regular file is written to a temporary file beside it, fsynced, and renamed into place).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gpudiag::cli {

// A file the run reads or keeps, which no output may be: {path, what it is ("an input" …)}.
struct ProtectedFile {
  std::string path;
  std::string role;
};

// The inputs of a run as files no output may be ("-", stdin, is skipped by check_outputs).
std::vector<ProtectedFile> input_files(const std::vector<std::string>& inputs);

// Why these outputs cannot be written (an output that is, or resolves to, a protected file or
// another output), or nullopt. "-" is stdout.
std::optional<std::string> check_outputs(const std::vector<std::string>& outputs,
                                         const std::vector<ProtectedFile>& protected_files);

// Stages every output first, then puts them in place, so that a failure (a full disk, a missing
// folder) leaves no output half-written. Regular files (existing or new) are staged in a temporary
// file in their folder and renamed over the target, keeping its mode; stdout, FIFOs, devices and
// append targets ($GITHUB_STEP_SUMMARY, which other steps write too) are written directly at
// commit(), every write checked.
class OutputWriter {
 public:
  OutputWriter() = default;
  OutputWriter(const OutputWriter&) = delete;
  OutputWriter& operator=(const OutputWriter&) = delete;
  ~OutputWriter();  // removes staged files that were never committed

  // False (with error() set) when the output cannot be staged.
  bool stage(const std::string& path, std::string text);
  // Puts every staged output in place. False (with error() set) at the first that fails.
  bool commit();
  const std::string& error() const { return error_; }

 private:
  struct Staged {
    std::string path;       // as given
    std::string target;     // the file to replace (links resolved); empty: written directly
    std::string temporary;  // the staged copy beside target
    std::string text;       // for direct writes: written at commit
    bool append = false;
  };
  std::vector<Staged> staged_;
  std::string error_;
};

// Writes all of `text` to stdout through std::cout. False when stdout failed (see stdout_guard.h).
bool write_stdout(const std::string& text);

}  // namespace gpudiag::cli
