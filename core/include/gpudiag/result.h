// Errors as values: every public function of ingest, engine and reports that can fail on bad input
// returns a Result<T> carrying either the value or a Diagnostic that says what went wrong and where.
//
//   Result<RulePack> pack = RulePack::load(dirs);
//   if (!pack) { std::cerr << pack.error(); return 2; }
//   use(*pack);
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace gpudiag {

// A user-facing problem: what, where (1-based line and column, or a byte offset), and how to fix it.
struct Diagnostic {
  std::string code;         // short kebab-case kind, e.g. "rule-regex", "input-not-json"
  std::string message;      // what is wrong, one sentence
  std::string file;         // the file it is about ("" when none; "-" for stdin)
  uint64_t line = 0;        // 1-based; 0 = unknown
  uint64_t column = 0;      // 1-based; 0 = unknown
  int64_t byte = -1;        // byte offset in the (decompressed) input; -1 = unknown
  std::string source_line;  // the offending line, for a caret display ("" = none)
  std::string help;         // how to fix it ("" = none)
};

// Renders "file:line:col: message" (or "file: byte N: message") on one line.
std::string to_string(const Diagnostic& d);
// Renders the rustc-style multi-line form with the source line, a caret and the help line.
std::string render_with_source(const Diagnostic& d, std::string_view severity_word = "error");

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}           // NOLINT: implicit by design
  Result(Diagnostic error) : state_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Diagnostic& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Diagnostic> state_;
};

// For operations that return nothing but may fail.
struct Ok {};
using Status = Result<Ok>;

// Several problems collected instead of stopping at the first (rule lint, input problems).
using Diagnostics = std::vector<Diagnostic>;

}  // namespace gpudiag
