// split_shell_script: a launch script's commands as words, with the line each starts on. Enough of
// the POSIX shell grammar for launch scripts (quotes, escapes, continuations, comments, command
// separators); substitutions are kept as written, never expanded.
#include <fmt/format.h>

#include "gpudiag/diagnostic_codes.h"
#include "gpudiag/launch_options.h"
#include "gpudiag/yaml_tree.h"

namespace gpudiag {

Result<std::vector<ShellCommand>> split_shell_script(std::string_view text, const std::string& path) {
  std::vector<ShellCommand> commands;
  ShellCommand command;
  ShellWord word;
  bool in_word = false;
  uint64_t line = 1, column = 1;
  const auto end_word = [&] {
    if (in_word) command.words.push_back(std::move(word));
    word = ShellWord{};
    in_word = false;
  };
  const auto end_command = [&] {
    end_word();
    if (!command.words.empty()) commands.push_back(std::move(command));
    command = ShellCommand{};
  };
  const auto start = [&] {
    if (!in_word) {
      in_word = true;
      word.line = line;
      if (command.words.empty()) command.line = line;
    }
  };
  const auto error = [&](uint64_t at_line, uint64_t at_column, std::string message) {
    return Diagnostic{.code = code_name(DiagnosticCode::kLaunchOptions),
                      .message = std::move(message),
                      .file = path,
                      .line = at_line,
                      .column = at_column,
                      .source_line = yaml::source_line(text, at_line).substr(0, 300),
                      .help = "preflight reads the script's words as the shell would split them; close the quote"};
  };
  for (size_t i = 0; i < text.size(); ++i, ++column) {
    const char c = text[i];
    if (c == '\n') {
      end_command();
      ++line;
      column = 0;
      continue;
    }
    if (c == '\\') {
      if (i + 1 < text.size() && text[i + 1] == '\n') {  // a continuation: the command goes on
        ++i;
        ++line;
        column = 0;
        continue;
      }
      if (i + 2 < text.size() && text[i + 1] == '\r' && text[i + 2] == '\n') {
        i += 2;
        ++line;
        column = 0;
        continue;
      }
      start();
      if (i + 1 < text.size()) word.text += text[++i], ++column;
      continue;
    }
    if (c == '#' && !in_word) {  // a comment, to the end of the line
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      end_word();
      continue;
    }
    if (c == ';' || c == '&' || c == '|') {
      end_command();
      continue;
    }
    if (c == '\'' || c == '"') {
      start();
      const uint64_t open_line = line, open_column = column;
      size_t j = i + 1;
      for (; j < text.size() && text[j] != c; ++j) {
        if (c == '"' && text[j] == '\\' && j + 1 < text.size() &&
            std::string_view("\"\\$`\n").find(text[j + 1]) != std::string_view::npos) {
          if (text[j + 1] == '\n')
            ++line;
          else
            word.text += text[j + 1];
          ++j;
          continue;
        }
        if (text[j] == '\n') ++line, column = 0;
        if (c == '"' && text[j] == '$') word.substitution = true;
        word.text += text[j];
      }
      if (j >= text.size()) {
        return error(open_line, open_column,
                     fmt::format("the {} quote opened here is never closed", c == '"' ? "double" : "single"));
      }
      column += j - i;
      i = j;
      continue;
    }
    start();
    if (c == '$') word.substitution = true;
    word.text += c;
  }
  end_command();
  return commands;
}

}  // namespace gpudiag
