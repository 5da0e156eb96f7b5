#include "repo_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "gpudiag/name_suggestions.h"
#include "gpudiag/report.h"
#include "gpudiag/yaml_tree.h"
#include "stdout_guard.h"

namespace gpudiag::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kFileName = ".gpudiag.yaml";
constexpr std::string_view kHelp = "see the README, \"A config file per repository\"";

struct Key {
  std::string_view name;
  bool path;  // resolved against the config file's directory
  bool list;  // may hold several values (a YAML list), like the repeatable option
};
constexpr std::array<Key, 5> kKeys{{
    {"rules", true, true},
    {"baseline", true, false},
    {"fail-on", false, false},
    {"db", true, false},
    {"pipeline", false, false},
}};

std::string option_name(std::string_view key) { return fmt::format("--{}", key); }

Diagnostic problem(DiagnosticCode code, const std::string& file, std::string_view text, yaml::Position at,
                   std::string message, std::string help = std::string(kHelp)) {
  return Diagnostic{.code = std::string(code_name(code)),
                    .message = std::move(message),
                    .file = file,
                    .line = at.line,
                    .column = at.column,
                    .source_line = yaml::source_line(text, at.line),
                    .help = std::move(help)};
}

// `path` as the user would type it from the working directory.
std::string resolved(const fs::path& dir, const std::string& value) {
  const fs::path p = fs::path(value).is_absolute() ? fs::path(value) : (dir / value).lexically_normal();
  std::error_code ec;
  const fs::path shown = fs::proximate(p, ec);
  return ec || shown.empty() ? p.string() : shown.string();
}

void read_settings(RepoConfig& config, std::string_view text) {
  const fs::path dir = fs::path(config.path).parent_path();
  Result<yaml::Node> doc = yaml::parse(text, config.path, {DiagnosticCode::kConfigYaml, kHelp});
  if (!doc) {
    config.problem = doc.error();
    return;
  }
  if (doc->is_null()) return;  // an empty file sets nothing
  if (!doc->is_map()) {
    config.problem = problem(DiagnosticCode::kConfigType, config.path, text, doc->at,
                             "the config file is a mapping of settings (`baseline: ci/gpudiag-baseline.yaml`)");
    return;
  }
  std::vector<std::string> names;
  for (const auto& k : kKeys) names.emplace_back(k.name);
  for (const yaml::Node::Entry& entry : doc->entries) {
    const std::string name = entry.first.is_scalar() ? entry.first.scalar : "";
    const auto key = std::find_if(kKeys.begin(), kKeys.end(), [&](const Key& k) { return k.name == name; });
    if (key == kKeys.end()) {
      config.problem = problem(DiagnosticCode::kConfigUnknownKey, config.path, text, entry.first.at,
                               fmt::format("unknown key `{}`", name), [&] {
                                 const std::string hint = did_you_mean(name, names);
                                 return hint.empty()
                                            ? fmt::format("the keys are {}", fmt::join(names, ", "))
                                            : fmt::format("{} (the keys are {})", hint, fmt::join(names, ", "));
                               }());
      return;
    }
    ConfigSetting setting{.key = name, .values = {}, .line = entry.first.at.line};
    const yaml::Node& value = entry.second;
    std::vector<const yaml::Node*> items;
    if (value.is_seq() && key->list) {
      for (const auto& item : value.items) items.push_back(&item);
    } else {
      items.push_back(&value);
    }
    for (const yaml::Node* item : items) {
      if (!item->is_scalar() || item->scalar.empty()) {
        config.problem =
            problem(DiagnosticCode::kConfigType, config.path, text, item->at,
                    fmt::format("`{}` takes {}", name, key->list ? "a text or a list of texts" : "a text"));
        return;
      }
      setting.values.push_back(key->path ? resolved(dir, item->scalar) : item->scalar);
    }
    if (config.find(name) != nullptr) {
      config.problem = problem(DiagnosticCode::kConfigType, config.path, text, entry.first.at,
                               fmt::format("`{}` is set twice", name));
      return;
    }
    config.settings.push_back(std::move(setting));
  }
}

// The chosen command: the deepest subcommand parsed.
CLI::App* chosen(CLI::App& app) {
  CLI::App* at = &app;
  for (;;) {
    const auto subs = at->get_subcommands();
    if (subs.empty()) return at;
    at = subs.front();
  }
}

void for_each_command(CLI::App& app, const std::function<void(CLI::App&)>& fn) {
  fn(app);
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) for_each_command(*sub, fn);
}

std::string where(const RepoConfig& config, const ConfigSetting& s) {
  return fmt::format("{}:{}", config.path, s.line);
}

// What is in force for `cmd` (the program itself when no command was named), and where from.
std::string show(const RepoConfig& config, CLI::App* cmd) {
  std::string out = config.path.empty() ? fmt::format("config: no {} found ({})\n", kFileName, config.searched)
                                        : fmt::format("config: {} ({})\n", config.path, config.searched);
  for (const Key& key : kKeys) {
    const CLI::Option* opt = cmd == nullptr ? nullptr : cmd->get_option_no_throw(option_name(key.name));
    const ConfigSetting* set = config.find(std::string(key.name));
    std::string value;
    std::string source;
    if (cmd != nullptr && opt == nullptr) {
      value = "-";
      source = fmt::format("not an option of `{}`", cmd->get_name());
    } else if (opt != nullptr && opt->count() > 0) {
      value = fmt::format("{}", fmt::join(opt->results(), ", "));
      source = "flag " + option_name(key.name);
    } else if (set != nullptr) {
      value = fmt::format("{}", fmt::join(set->values, ", "));
      source = where(config, *set);
    } else {
      value = opt == nullptr ? "-" : opt->get_default_str();
      if (value.empty()) value = "(none)";
      source = opt == nullptr ? "default (each command's own)" : "default";
    }
    out += fmt::format("  {:<9} {:<32} {}\n", key.name, value, source);
  }
  return terminal_safe_lines(out);
}

}  // namespace

const ConfigSetting* RepoConfig::find(const std::string& key) const {
  const auto it = std::find_if(settings.begin(), settings.end(), [&](const ConfigSetting& s) { return s.key == key; });
  return it == settings.end() ? nullptr : &*it;
}

RepoConfig load_repo_config(const std::string& start) {
  RepoConfig config;
  std::error_code ec;
  fs::path dir = fs::absolute(start, ec);
  const fs::path from = dir;
  for (;;) {
    const fs::path candidate = dir / kFileName;
    if (fs::is_regular_file(candidate, ec)) {
      config.path = resolved(fs::current_path(ec), candidate.string());
      config.searched = fmt::format("found searching up from {}", from.string());
      break;
    }
    if (fs::exists(dir / ".git", ec)) {
      config.searched =
          fmt::format("searched from {} up to the repository root {} (.git)", from.string(), dir.string());
      return config;
    }
    if (!dir.has_parent_path() || dir.parent_path() == dir) {
      config.searched = fmt::format("searched from {} up to /", from.string());
      return config;
    }
    dir = dir.parent_path();
  }
  std::ifstream in(config.path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    config.problem = Diagnostic{.code = std::string(code_name(DiagnosticCode::kConfigYaml)),
                                .message = "cannot read the config file",
                                .file = config.path,
                                .help = std::string(kHelp)};
    return config;
  }
  read_settings(config, text.str());
  if (config.problem) config.settings.clear();
  return config;
}

RepoConfig prepare_repo_config(CLI::App& app) {
  std::error_code ec;
  RepoConfig config = load_repo_config(fs::current_path(ec).string());
  auto shared = std::make_shared<RepoConfig>(config);
  const auto add_show = [shared](CLI::App& cmd, bool top) {
    CLI::App* target = top ? nullptr : &cmd;
    cmd.add_flag_callback(
        "--show-config",
        [shared, target] {
          if (shared->problem) {
            std::cerr << terminal_safe_lines(render_with_source(*shared->problem));
            throw CLI::RuntimeError(2);
          }
          // CLI11 prints a CallForVersion's text and ends with its code, before checking what is
          // required: so --show-config works without the command's inputs, as --version does.
          std::string text = show(*shared, target);
          if (!text.empty() && text.back() == '\n') text.pop_back();
          throw CLI::CallForVersion(text, 0);
        },
        fmt::format("Print the settings in force{} and where each comes from (flag, {}:LINE, default)",
                    top ? "" : " for this command", kFileName));
  };
  add_show(app, true);
  for_each_command(app, [&](CLI::App& cmd) {
    if (&cmd == &app) return;
    bool takes_one = false;
    for (const Key& key : kKeys) {
      CLI::Option* opt = cmd.get_option_no_throw(option_name(key.name));
      if (opt == nullptr) continue;
      takes_one = true;
      if (config.find(std::string(key.name)) == nullptr) continue;
      opt->required(false);  // the config supplies it
      for (CLI::Option* other : cmd.get_options()) other->remove_needs(opt);
    }
    if (takes_one) add_show(cmd, false);
  });
  return config;
}

bool apply_repo_config(CLI::App& app, const RepoConfig& config) {
  CLI::App* cmd = chosen(app);
  bool reads_config = false;
  for (const Key& key : kKeys)
    reads_config = reads_config || cmd->get_option_no_throw(option_name(key.name)) != nullptr;
  if (!reads_config) return true;
  if (config.problem) {
    std::cerr << terminal_safe_lines(render_with_source(*config.problem));
    return false;
  }
  for (const ConfigSetting& setting : config.settings) {
    CLI::Option* opt = cmd->get_option_no_throw(option_name(setting.key));
    if (opt == nullptr || opt->count() > 0) continue;  // not this command's, or the flag overrides it
    try {
      for (const auto& v : setting.values) opt->add_result(v);
      opt->run_callback();
    } catch (const CLI::Error& e) {
      std::cerr << terminal_safe(fmt::format("gpudiag: {}: `{}`: {}\n", where(config, setting), setting.key, e.what()));
      return false;
    }
  }
  return true;
}

}  // namespace gpudiag::cli
