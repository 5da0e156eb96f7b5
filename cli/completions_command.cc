// gpudiag completions bash|zsh|fish: the shell's completion script, written from the command line
// itself (its subcommands, their options, the values an option takes), so that it never falls out
// of step with the binary. The Debian package installs each (packaging/CMakeLists.txt).
#include <fmt/format.h>

#include <iostream>
#include <map>

#include "commands.h"

namespace gpudiag::cli {
namespace {

struct Option {
  std::vector<std::string> names;  // --format, -o …
  std::string help;
  std::vector<std::string> values;  // a closed set ({text,json}), else empty
  bool takes_value = false;
};

struct Command {
  std::string path;  // "" for gpudiag itself, "rules", "rules list" …
  std::string help;
  std::vector<std::string> subcommands;
  std::vector<Option> options;
  bool takes_files = false;  // a positional argument (export files, ids …): complete file names
};

// The closed set an option's type name shows ("TEXT:{text,json,md}"), else empty.
std::vector<std::string> closed_set(const std::string& type_name) {
  const size_t open = type_name.find('{'), close = type_name.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close < open) return {};
  std::vector<std::string> out;
  std::string item;
  for (const char c : type_name.substr(open + 1, close - open - 1)) {
    if (c == ',') {
      out.push_back(item);
      item.clear();
    } else if (c != ' ') {
      item += c;
    }
  }
  if (!item.empty()) out.push_back(item);
  return out;
}

// `inherited`: the options of the commands above that pass theirs down (CLI11's fallthrough:
// `rules lint --rules DIR`).
void collect(const CLI::App& app, const std::string& path, std::vector<Command>& out,
             const std::vector<Option>& inherited = {}) {
  Command c{path, app.get_description(), {}, inherited, false};
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub->get_name().empty()) continue;
    c.subcommands.push_back(sub->get_name());
  }
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_positional()) {
      c.takes_files = true;
      continue;
    }
    Option opt;
    for (const auto& s : o->get_snames()) opt.names.push_back("-" + s);
    for (const auto& l : o->get_lnames()) opt.names.push_back("--" + l);
    if (opt.names.empty()) continue;
    opt.help = o->get_description();
    opt.takes_value = o->get_type_size() != 0 && o->get_expected_min() > 0;
    if (opt.takes_value) opt.values = closed_set(o->get_type_name());
    c.options.push_back(std::move(opt));
  }
  out.push_back(c);
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub->get_name().empty()) continue;
    const std::string sub_path = path.empty() ? sub->get_name() : path + " " + sub->get_name();
    // The root's own options (--help, --version) are not passed down.
    collect(*sub, sub_path, out, sub->get_fallthrough() && !path.empty() ? c.options : std::vector<Option>{});
  }
}

// Text inside single quotes, for every shell here.
std::string single_quoted(std::string_view s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string joined(const std::vector<std::string>& words) { return fmt::format("{}", fmt::join(words, " ")); }

std::string bash(const std::vector<Command>& commands) {
  std::string out =
      "# bash completion for gpudiag (written by `gpudiag completions bash`)\n"
      "_gpudiag() {\n"
      "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} path='' i w\n"
      "  # The command path: each word that names a subcommand of the path so far.\n"
      "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      "    w=${COMP_WORDS[i]}\n"
      "    case \"$path:$w\" in\n";
  for (const auto& c : commands) {
    for (const auto& s : c.subcommands) {
      out += fmt::format("      {}) path={} ;;\n", single_quoted(c.path + ":" + s),
                         single_quoted(c.path.empty() ? s : c.path + " " + s));
    }
  }
  out +=
      "    esac\n"
      "  done\n"
      "  local words='' values='' files=0\n"
      "  case \"$path\" in\n";
  for (const auto& c : commands) {
    std::vector<std::string> words = c.subcommands;
    for (const auto& o : c.options) words.insert(words.end(), o.names.begin(), o.names.end());
    out += fmt::format("    {})\n      words={}\n      files={}\n", single_quoted(c.path), single_quoted(joined(words)),
                       c.takes_files ? 1 : 0);
    std::string cases;
    for (const auto& o : c.options) {
      if (!o.takes_value) continue;
      const std::string pattern = fmt::format("{}", fmt::join(o.names, "|"));
      cases += fmt::format("        {}) values={} ;;\n", pattern,
                           o.values.empty() ? std::string("FILE") : single_quoted(joined(o.values)));
    }
    if (!cases.empty()) out += "      case \"$prev\" in\n" + cases + "      esac\n";
    out += "      ;;\n";
  }
  out +=
      "  esac\n"
      "  if [[ $values == FILE ]]; then\n"
      "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
      "  elif [[ -n $values ]]; then\n"
      "    COMPREPLY=($(compgen -W \"$values\" -- \"$cur\"))\n"
      "  else\n"
      "    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
      "    if [[ $files == 1 && $cur != -* ]]; then COMPREPLY+=($(compgen -f -- \"$cur\")); fi\n"
      "  fi\n"
      "}\n"
      "complete -o filenames -F _gpudiag gpudiag\n";
  return out;
}

std::string fish(const std::vector<Command>& commands) {
  std::string out = "# fish completion for gpudiag (written by `gpudiag completions fish`)\ncomplete -c gpudiag -f\n";
  std::vector<std::string> top;
  for (const auto& c : commands) {
    if (c.path.empty()) top = c.subcommands;
  }
  for (const auto& c : commands) {
    // Where these completions apply: the subcommands on the line are exactly c.path.
    std::string when;
    if (c.path.empty()) {
      when = fmt::format("__fish_use_subcommand");
    } else {
      const size_t space = c.path.find(' ');
      const std::string first = c.path.substr(0, space);
      when = fmt::format("__fish_seen_subcommand_from {}", first);
      if (space != std::string::npos) {
        when += fmt::format("; and __fish_seen_subcommand_from {}", c.path.substr(space + 1));
      } else if (!c.subcommands.empty()) {
        when += fmt::format("; and not __fish_seen_subcommand_from {}", joined(c.subcommands));
      }
    }
    for (const auto& s : c.subcommands) {
      const Command* sub = nullptr;
      for (const auto& x : commands) {
        if (x.path == (c.path.empty() ? s : c.path + " " + s)) sub = &x;
      }
      out += fmt::format("complete -c gpudiag -n {} -a {} -d {}\n", single_quoted(when), single_quoted(s),
                         single_quoted(sub ? sub->help.substr(0, sub->help.find('\n')) : ""));
    }
    for (const auto& o : c.options) {
      std::string flags;
      for (const auto& n : o.names) {
        flags += n.rfind("--", 0) == 0 ? fmt::format(" -l {}", single_quoted(n.substr(2)))
                                       : fmt::format(" -s {}", single_quoted(n.substr(1)));
      }
      std::string value;
      if (o.takes_value)
        value = o.values.empty() ? " -r -F" : fmt::format(" -x -a {}", single_quoted(joined(o.values)));
      out += fmt::format("complete -c gpudiag -n {}{}{} -d {}\n", single_quoted(when), flags, value,
                         single_quoted(o.help.substr(0, o.help.find('\n')).substr(0, 80)));
    }
    if (c.takes_files && !c.path.empty()) out += fmt::format("complete -c gpudiag -n {} -F\n", single_quoted(when));
  }
  return out;
}

std::string zsh(const std::vector<Command>& commands) {
  // The bash script through zsh's bashcompinit: one grammar to keep in step, and zsh's own menus.
  return "#compdef gpudiag\n# zsh completion for gpudiag (written by `gpudiag completions zsh`)\n"
         "autoload -U +X bashcompinit && bashcompinit\n" +
         bash(commands);
}

}  // namespace

void add_completions_command(CLI::App& app, std::function<int()>& run) {
  auto shell = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("completions", "Print the completion script for bash, zsh or fish");
  cmd->add_option("shell", *shell, "The shell")->required()->check(CLI::IsMember({"bash", "zsh", "fish"}));
  cmd->footer(
      "The Debian package installs all three. By hand:\n"
      "  bash: gpudiag completions bash > ~/.local/share/bash-completion/completions/gpudiag\n"
      "  zsh:  gpudiag completions zsh > \"${fpath[1]}/_gpudiag\"\n"
      "  fish: gpudiag completions fish > ~/.config/fish/completions/gpudiag.fish");
  cmd->callback([&run, &app, shell] {
    run = [&app, shell] {
      std::vector<Command> commands;
      collect(app, "", commands);
      std::cout << (*shell == "bash" ? bash(commands) : *shell == "zsh" ? zsh(commands) : fish(commands));
      return kExitOk;
    };
  });
}

}  // namespace gpudiag::cli
