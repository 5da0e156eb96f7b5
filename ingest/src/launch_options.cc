// Launch options from a command's words (a pipeline's own command line or gcloud), a launch script
// and an options file, read as Beam's argparse reads them (beam_options_table.h).
#include "gpudiag/launch_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <sstream>

#include "beam_options_table.h"
#include "gpudiag/diagnostic_codes.h"
#include "gpudiag/name_suggestions.h"
#include "gpudiag/yaml_tree.h"

namespace gpudiag {
namespace {

using detail::beam_option_table;
using detail::BeamOption;

// Beam's _CommaSeparatedListAction._smart_split: commas split, except inside a `k=v=…` item, which
// keeps the rest ('a,b,master_key=k1=v1,k2=v2' → a, b, master_key=k1=v1,k2=v2).
std::vector<std::string> smart_split(std::string_view values) {
  std::vector<std::string> out;
  std::string current;
  int equals = 0;
  const auto flush = [&] {
    while (!current.empty() && current.back() == ' ') current.pop_back();
    if (!current.empty()) out.push_back(current);
    current.clear();
  };
  for (const char c : values) {
    if (c == '=') {
      ++equals;
      current += c;
    } else if (c == ',' && equals <= 1) {
      flush();
      equals = 0;
    } else if (c == ' ' && current.empty()) {
    } else {
      current += c;
    }
  }
  flush();
  return out;
}

std::string_view substitution_in(std::string_view value) {
  const size_t at = value.find('$');
  if (at == std::string_view::npos) return {};
  size_t end = at + 1;
  if (end < value.size() && (value[end] == '{' || value[end] == '(')) {
    const char close = value[end] == '{' ? '}' : ')';
    const size_t c = value.find(close, end);
    end = c == std::string_view::npos ? value.size() : c + 1;
  } else {
    while (end < value.size() && (std::isalnum(static_cast<unsigned char>(value[end])) || value[end] == '_')) ++end;
  }
  return value.substr(at, end - at);
}

// Appends the option `written` = `value` as Beam would store it: a list option's items one by one.
void add_option(std::vector<LaunchOption>& out, std::string written, std::optional<std::string> value,
                const std::string& file, uint64_t line, bool substitution) {
  const auto& table = beam_option_table();
  const auto it = table.by_spelling.find(written);
  LaunchOption o;
  o.name = it != table.by_spelling.end() ? it->second.name : written;
  o.written = std::move(written);
  o.file = file;
  o.line = line;
  o.list = it != table.by_spelling.end() && it->second.list != BeamOption::List::kNone;
  if (!value) {
    o.flag = true;
    out.push_back(std::move(o));
    return;
  }
  std::vector<std::string> items{*value};
  if (it != table.by_spelling.end() && it->second.list == BeamOption::List::kSplit) items = smart_split(*value);
  for (auto& item : items) {
    LaunchOption one = o;
    if (substitution) one.unknown = std::string(substitution_in(item));
    one.value = std::move(item);
    out.push_back(std::move(one));
  }
}

bool takes_no_value(std::string_view written) {
  const auto& table = beam_option_table();
  const auto it = table.by_spelling.find(written);
  return it != table.by_spelling.end() && it->second.flag;
}

std::string basename(std::string_view path) {
  const size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// A pipeline's command line after its program: `--k=v`, `--k v`, `--flag`; words before the first
// `--k` are the program and its arguments; `--` ends the options (argparse).
std::vector<LaunchOption> pipeline_options(const std::vector<ShellWord>& words, size_t from, const std::string& file) {
  std::vector<LaunchOption> out;
  for (size_t i = from; i < words.size(); ++i) {
    const std::string& w = words[i].text;
    if (w == "--") break;
    if (w.size() < 3 || w.rfind("--", 0) != 0) continue;  // positional, or a single-dash flag Beam drops
    const size_t eq = w.find('=');
    if (eq != std::string::npos) {
      add_option(out, w.substr(2, eq - 2), w.substr(eq + 1), file, words[i].line, words[i].substitution);
      continue;
    }
    std::string name = w.substr(2);
    if (!takes_no_value(name) && i + 1 < words.size() && words[i + 1].text.rfind('-', 0) != 0) {
      add_option(out, std::move(name), words[i + 1].text, file, words[i].line, words[i + 1].substitution);
      ++i;
    } else {
      add_option(out, std::move(name), std::nullopt, file, words[i].line, false);
    }
  }
  return out;
}

// gcloud's flags of `dataflow flex-template run` and `dataflow jobs run` that set pipeline options
// (https://cloud.google.com/sdk/gcloud/reference/dataflow/flex-template/run, …/jobs/run): the
// option each sets; "" for gcloud's own (the template's location …), `*` for a k=v list of options.
struct GcloudFlag {
  std::string_view flag;
  std::string_view option;
};
constexpr std::array<GcloudFlag, 26> kGcloudFlags{{
    {"parameters", "*"},
    {"additional-pipeline-options", "*"},
    {"additional-experiments", "experiments"},
    {"worker-machine-type", "machine_type"},
    {"num-workers", "num_workers"},
    {"max-workers", "max_num_workers"},
    {"region", "region"},
    {"worker-region", "worker_region"},
    {"worker-zone", "worker_zone"},
    {"zone", "zone"},
    {"network", "network"},
    {"subnetwork", "subnetwork"},
    {"service-account-email", "service_account_email"},
    {"staging-location", "staging_location"},
    {"temp-location", "temp_location"},
    {"dataflow-kms-key", "dataflow_kms_key"},
    {"flexrs-goal", "flexrs_goal"},
    {"enable-streaming-engine", "enable_streaming_engine"},
    {"disable-public-ips", ""},
    {"template-file-gcs-location", ""},
    {"gcs-location", ""},
    {"launcher-machine-type", ""},
    {"launcher-vm-timeout-secs", ""},
    {"additional-user-labels", ""},
    {"update", ""},
    {"transform-name-mappings", ""},
}};
constexpr std::array<std::string_view, 4> kGcloudNoValue{"enable-streaming-engine", "disable-public-ips", "update",
                                                         "no-update"};

// gcloud's dict flags: `k=v,k2=v2`, or `^D^k=v1Dk2=v2` with the delimiter D of the user's choice
// (`gcloud topic escaping`).
std::vector<std::string> gcloud_items(std::string_view value) {
  char delimiter = ',';
  if (value.size() >= 3 && value[0] == '^') {
    const size_t close = value.find('^', 1);
    if (close == 2) {
      delimiter = value[1];
      value.remove_prefix(3);
    }
  }
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= value.size()) {
    const size_t end = std::min(value.find(delimiter, start), value.size());
    if (end > start) items.emplace_back(value.substr(start, end - start));
    start = end + 1;
  }
  return items;
}

std::vector<LaunchOption> gcloud_options(const std::vector<ShellWord>& words, size_t from, const std::string& file) {
  std::vector<LaunchOption> out;
  for (size_t i = from; i < words.size(); ++i) {
    const std::string& w = words[i].text;
    if (w.size() < 3 || w.rfind("--", 0) != 0) continue;  // JOB_NAME
    const uint64_t line = words[i].line;                  // the flag's line, also when its value is on the next one
    const size_t eq = w.find('=');
    const std::string flag = w.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    std::string value;
    bool substitution = words[i].substitution;
    const bool no_value = std::find(kGcloudNoValue.begin(), kGcloudNoValue.end(), flag) != kGcloudNoValue.end();
    if (eq != std::string::npos) {
      value = w.substr(eq + 1);
    } else if (!no_value && i + 1 < words.size() && words[i + 1].text.rfind("--", 0) != 0) {
      // (a flag the table does not know, such as --async, takes no value from the next flag)
      value = words[++i].text;
      substitution = words[i].substitution;
    }
    const auto* known =
        std::find_if(kGcloudFlags.begin(), kGcloudFlags.end(), [&](const GcloudFlag& f) { return f.flag == flag; });
    if (known == kGcloudFlags.end()) {
      // Not a flag of these commands (a gcloud-wide one such as --project, or a typo): kept under
      // its own name, so that the report lists it.
      add_option(out, "gcloud " + std::string(flag), no_value ? std::nullopt : std::optional(value), file, line,
                 substitution);
      continue;
    }
    if (known->option.empty()) continue;
    if (known->option == "*") {
      for (const auto& item : gcloud_items(value)) {
        const size_t e = item.find('=');
        if (e == std::string::npos) {
          add_option(out, item, std::nullopt, file, line, false);
        } else {
          add_option(out, item.substr(0, e), item.substr(e + 1), file, line, substitution);
        }
      }
    } else if (no_value) {
      add_option(out, std::string(known->option), std::nullopt, file, line, false);
    } else {
      add_option(out, std::string(known->option), value, file, line, substitution);
    }
  }
  return out;
}

Diagnostic launch_error(const std::string& path, uint64_t line, uint64_t column, std::string message, std::string help,
                        std::string source_line = "") {
  return Diagnostic{.code = code_name(DiagnosticCode::kLaunchOptions),
                    .message = std::move(message),
                    .file = path,
                    .line = line,
                    .column = column,
                    .source_line = std::move(source_line),
                    .help = std::move(help)};
}

Result<std::string> read_whole(const std::string& path, std::string_view what) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad()) {
    return launch_error(path, 0, 0, fmt::format("cannot read the {}", what), "check the path");
  }
  return text.str();
}

// A YAML/JSON scalar as Beam's from_dictionary would pass it: true → a flag, false → left out.
void add_value(std::vector<LaunchOption>& out, const std::string& key, const yaml::Node& v, const std::string& path) {
  if (v.is_null()) return;
  if (v.is_scalar()) {
    if (!v.quoted && (v.scalar == "true" || v.scalar == "True")) {
      add_option(out, key, std::nullopt, path, v.at.line, false);
    } else if (!v.quoted && (v.scalar == "false" || v.scalar == "False")) {
      if (!takes_no_value(key)) add_option(out, key, v.scalar, path, v.at.line, false);
    } else {
      add_option(out, key, v.scalar, path, v.at.line, v.scalar.find('$') != std::string::npos);
    }
    return;
  }
  if (v.is_seq()) {
    for (const auto& item : v.items) add_value(out, key, item, path);
  }
}

}  // namespace

std::optional<std::vector<LaunchOption>> launch_options_of(const std::vector<ShellWord>& words,
                                                           const std::string& file) {
  size_t program = 0;  // past `VAR=value` assignments and wrappers
  while (program < words.size()) {
    const std::string& w = words[program].text;
    const bool assignment =
        w.find('=') != std::string::npos && w.rfind('-', 0) != 0 && std::isalpha(static_cast<unsigned char>(w[0]));
    if (!assignment && w != "exec" && w != "env" && w != "time") break;
    ++program;
  }
  if (program >= words.size()) return std::nullopt;
  const std::string name = basename(words[program].text);
  if (name == "gcloud") {
    // gcloud [beta] dataflow flex-template run | jobs run
    std::vector<std::string> verbs;
    size_t i = program + 1;
    for (; i < words.size() && verbs.size() < 4 && words[i].text.rfind("--", 0) != 0; ++i) {
      verbs.push_back(words[i].text);
    }
    if (!verbs.empty() && verbs.front() == "beta") verbs.erase(verbs.begin());
    if (verbs.size() < 3 || verbs[0] != "dataflow" || verbs[2] != "run" ||
        (verbs[1] != "flex-template" && verbs[1] != "jobs")) {
      return std::nullopt;
    }
    return gcloud_options(words, program + 3, file);
  }
  const bool python = name.rfind("python", 0) == 0 || (name.size() > 3 && name.substr(name.size() - 3) == ".py");
  const bool java = name == "java";
  bool runner = false;
  for (size_t i = program; i < words.size(); ++i) runner = runner || words[i].text.rfind("--runner", 0) == 0;
  if (!python && !java && !runner) return std::nullopt;
  return pipeline_options(words, program + 1, file);
}

Result<std::vector<LaunchOption>> parse_launch_script(std::string_view text, const std::string& path) {
  auto commands = split_shell_script(text, path);
  if (!commands) return commands.error();
  std::vector<LaunchOption> out;
  bool any = false;
  for (const auto& command : *commands) {
    auto options = launch_options_of(command.words, path);
    if (!options) continue;
    any = true;
    for (auto& o : *options) out.push_back(std::move(o));
  }
  if (!any) {
    return launch_error(path, 0, 0, "the script holds no launch command",
                        "preflight reads `python … --runner DataflowRunner …`, `java … --runner=DataflowRunner …` "
                        "and `gcloud dataflow flex-template run` / `gcloud dataflow jobs run` commands");
  }
  return out;
}

Result<std::vector<LaunchOption>> read_launch_script(const std::string& path) {
  auto text = read_whole(path, "launch script");
  if (!text) return text.error();
  return parse_launch_script(*text, path);
}

Result<std::vector<LaunchOption>> parse_options_file(std::string_view text, const std::string& path) {
  constexpr std::string_view kHelp =
      "an options file is a JSON or YAML map of option names to values, a Flex Template's {\"parameters\": {…}}, "
      "or a job's {\"sdkPipelineOptions\": {\"options\": {…}}}";
  auto doc = yaml::parse(text, path, {DiagnosticCode::kLaunchOptions, kHelp});
  if (!doc) return doc.error();
  const yaml::Node* map = &*doc;
  if (!map->is_map()) {
    return launch_error(path, map->at.line, map->at.column, "the options file is not a map of options",
                        std::string(kHelp), yaml::source_line(text, map->at.line));
  }
  // A job description (`gcloud dataflow jobs describe`) holds them under `environment`.
  if (const yaml::Node* env = map->get("environment"); env && env->is_map() && env->get("sdkPipelineOptions")) {
    map = env;
  }
  // The shapes that nest the options: take the inner map.
  for (const std::string_view key : {"sdkPipelineOptions", "options", "parameters"}) {
    const yaml::Node* inner = map->get(key);
    if (inner == nullptr) continue;
    if (key == "sdkPipelineOptions" && inner->is_map() && inner->get("options")) inner = inner->get("options");
    if (!inner->is_map()) {
      return launch_error(path, inner->at.line, inner->at.column, fmt::format("`{}` is not a map of options", key),
                          std::string(kHelp), yaml::source_line(text, inner->at.line));
    }
    map = inner;
    break;
  }
  std::vector<LaunchOption> out;
  for (const auto& [key, value] : map->entries) {
    if (value.is_map()) {
      return launch_error(path, value.at.line, value.at.column,
                          fmt::format("the option `{}` holds a map; an option's value is a string, a number, a "
                                      "boolean or a list",
                                      key.scalar),
                          std::string(kHelp), yaml::source_line(text, value.at.line));
    }
    std::string name = key.scalar;
    while (name.rfind('-', 0) == 0) name.erase(0, 1);  // "--runner": as on a command line
    add_value(out, name, value, path);
  }
  return out;
}

Result<std::vector<LaunchOption>> read_options_file(const std::string& path) {
  auto text = read_whole(path, "options file");
  if (!text) return text.error();
  return parse_options_file(*text, path);
}

OptionNameCheck check_option_name(std::string_view written) {
  const auto& table = beam_option_table();
  if (table.by_spelling.count(written) > 0) return {OptionNameCheck::Kind::kKnown, ""};
  if (written.rfind("gcloud ", 0) == 0) return {};
  // A near miss: the same name but for case, `-` and `_` (Beam's flags are spelt exactly), or one
  // or two edits away from a known one; a pipeline's own `--input` or `--model` is neither.
  const auto squash = [](std::string_view s) {
    std::string out;
    for (const char c : s) {
      if (c != '_' && c != '-') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
  };
  const std::string typed = squash(written);
  const size_t budget = typed.size() >= 12 ? 2 : typed.size() >= 5 ? 1 : 0;
  // Between the Python and the Java spelling of one option (the same once squashed), the one in the
  // style the user wrote: a Java pipeline's --workerMachinType means --workerMachineType.
  const auto camel = [](std::string_view s) {
    return s.find('_') == std::string_view::npos &&
           std::any_of(s.begin(), s.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; });
  };
  const bool typed_camel = camel(written);
  std::string best;
  size_t best_distance = SIZE_MAX;
  for (const auto& spelling : table.spellings) {
    const size_t d = edit_distance(typed, squash(spelling));
    if (d < best_distance || (d == best_distance && camel(spelling) == typed_camel && camel(best) != typed_camel)) {
      best_distance = d;
      best = spelling;
    }
  }
  if (best.empty() || best_distance > budget) return {};
  return {OptionNameCheck::Kind::kNearMiss, "--" + best};
}

std::string_view beam_options_source() { return beam_option_table().source; }

std::vector<std::string> placeholders_in_value(std::string_view value) {
  const auto& enums = beam_option_table().enum_values;
  std::vector<std::string> out;
  size_t i = 0;
  while (i < value.size()) {
    const auto word_char = [&](size_t k) {
      const auto c = static_cast<unsigned char>(value[k]);
      return std::isupper(c) || std::isdigit(c) || c == '_';
    };
    if (!word_char(i) || (i > 0 && std::isalnum(static_cast<unsigned char>(value[i - 1])))) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < value.size() && word_char(end)) ++end;
    const bool whole = end >= value.size() || !std::isalnum(static_cast<unsigned char>(value[end]));
    const std::string_view word = value.substr(i, end - i);
    const bool letters = std::count_if(word.begin(), word.end(),
                                       [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }) >= 3;
    if (whole && letters && std::isupper(static_cast<unsigned char>(word[0])) &&
        std::find(enums.begin(), enums.end(), word) == enums.end() &&
        std::find(out.begin(), out.end(), word) == out.end()) {
      out.emplace_back(word);
    }
    i = end;
  }
  return out;
}

}  // namespace gpudiag
