// A fix's `command`: one POSIX shell command to paste, as the Dataflow docs write it (a value holding
// `;`, `|` or `&` in quotes: --dataflow_service_options="worker_accelerator=type:…;count:1;…").
// The loader checks that every command template is one simple command (shell_command_problem); the
// evaluator fills its placeholders with values that stay literal text whatever they hold
// (ShellFiller), so a bucket name or a captured path cannot split or run anything. Internal to engine.
#pragma once

#include <string>
#include <string_view>

namespace gpudiag::detail {

// Why `text` is not one simple shell command: an unquoted `;`, `|`, `&`, `<`, `>`, `(`, `)` or line
// break, a command substitution, a quote left open. "" when it is one.
std::string shell_command_problem(std::string_view text);

// The same for a command template of the pack: its {placeholders} stand for any value, filled as
// ShellFiller fills them.
std::string shell_template_problem(std::string_view command);

// Builds a command from template text and values: text is copied as it is, a value is made literal
// for the quotes it stands in (escaped inside "…" or '…', single-quoted when bare and not plain).
class ShellFiller {
 public:
  void text(std::string_view t);
  void value(std::string_view v);
  const std::string& result() const { return out_; }

 private:
  enum class Quote { kNone, kSingle, kDouble };
  std::string out_;
  Quote quote_ = Quote::kNone;
  bool escaped_ = false;  // the last character of text was an unquoted or double-quoted backslash
};

}  // namespace gpudiag::detail
