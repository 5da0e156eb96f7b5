// Fix commands as one shell command (shell_command.h). The grammar is POSIX's token recognition
// (XCU 2.3) reduced to what a pasted command needs: quotes, backslashes, and the characters that
// end a simple command or start a substitution.
#include "shell_command.h"

#include <fmt/format.h>

#include <algorithm>

#include "placeholders.h"

namespace gpudiag::detail {
namespace {

bool splits(char c) { return c == ';' || c == '|' || c == '&' || c == '<' || c == '>' || c == '(' || c == ')'; }

// Characters a bare word may hold and mean only themselves (Python's shlex.quote keeps the same set).
bool plain(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '@' ||
         c == '%' || c == '+' || c == '=' || c == ':' || c == ',' || c == '.' || c == '/' || c == '-';
}

std::string shown(char c) { return c == '\n' ? "a line break" : fmt::format("`{}`", c); }

}  // namespace

std::string shell_command_problem(std::string_view text) {
  if (std::all_of(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\t'; }))
    return "the command is empty";
  enum { kNone, kSingle, kDouble } quote = kNone;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote == kSingle) {
      if (c == '\'') quote = kNone;
      continue;
    }
    if (c == '\\') {
      if (i + 1 == text.size()) return "the command ends in a backslash";
      ++i;  // inside "…" a backslash escapes only $ ` " \ and a line break, but skipping is safe for a check
      continue;
    }
    if (c == '`' || (c == '$' && i + 1 < text.size() && text[i + 1] == '('))
      return fmt::format("it runs a command substitution at byte {}", i + 1);
    if (quote == kDouble) {
      if (c == '"') quote = kNone;
      continue;
    }
    if (c == '\'') {
      quote = kSingle;
    } else if (c == '"') {
      quote = kDouble;
    } else if (splits(c) || c == '\n') {
      return fmt::format(
          "a shell splits it at {} (byte {}): quote the value, as the Dataflow docs do "
          "(--dataflow_service_options=\"worker_accelerator=type:…;count:1;install-nvidia-driver\")",
          shown(c), i + 1);
    }
  }
  if (quote != kNone) return fmt::format("a {} quote is not closed", quote == kSingle ? "single" : "double");
  return {};
}

std::string shell_template_problem(std::string_view command) {
  // A placeholder fills as literal text whatever its value, so one plain word stands in.
  ShellFiller filled;
  size_t pos = 0;
  for (const Placeholder& p : placeholders_in(command)) {
    filled.text(command.substr(pos, p.begin - pos));
    filled.value("VALUE");
    pos = p.end;
  }
  filled.text(command.substr(pos));
  return shell_command_problem(filled.result());
}

void ShellFiller::text(std::string_view t) {
  out_.append(t);
  for (const char c : t) {
    if (escaped_) {
      escaped_ = false;
      continue;
    }
    switch (quote_) {
      case Quote::kSingle:
        if (c == '\'') quote_ = Quote::kNone;
        break;
      case Quote::kDouble:
        if (c == '\\') escaped_ = true;
        if (c == '"') quote_ = Quote::kNone;
        break;
      case Quote::kNone:
        if (c == '\\') escaped_ = true;
        if (c == '\'') quote_ = Quote::kSingle;
        if (c == '"') quote_ = Quote::kDouble;
        break;
    }
  }
}

void ShellFiller::value(std::string_view v) {
  switch (quote_) {
    case Quote::kSingle:
      for (const char c : v) out_ += c == '\'' ? std::string_view("'\\''") : std::string_view(&c, 1);
      break;
    case Quote::kDouble:
      for (const char c : v) {
        if (c == '"' || c == '\\' || c == '$' || c == '`') out_ += '\\';
        out_ += c;
      }
      break;
    case Quote::kNone:
      if (!v.empty() && std::all_of(v.begin(), v.end(), plain)) {
        out_.append(v);
      } else {
        out_ += '\'';
        for (const char c : v) out_ += c == '\'' ? std::string_view("'\\''") : std::string_view(&c, 1);
        out_ += '\'';
      }
      break;
  }
}

}  // namespace gpudiag::detail
