// gpudiag-rulec: the build step that turns rules/**/*.yaml into the binary's embedded rule pack.
// It checks the pack (every file linted, the whole pack loads, every rule's examples hold) and
// fails the build on any problem,
// then writes a C++ source holding each file's text and its parsed tree, so `gpudiag` starts
// without parsing YAML.
//
//   gpudiag-rulec OUTPUT.cc ROOT FILE.yaml...
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "gpudiag/analyzer.h"
#include "gpudiag/rule_pack.h"
#include "pack/rule_tree.h"

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A C++ raw string literal; the delimiter cannot occur in rule text (checked).
std::string raw(std::string_view text) { return fmt::format("R\"gpudiag_rule({})gpudiag_rule\"", text); }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: gpudiag-rulec OUTPUT.cc ROOT FILE.yaml...\n";
    return 2;
  }
  const std::string output = argv[1];
  const std::filesystem::path root = argv[2];
  std::vector<gpudiag::RuleFile> files;
  for (int i = 3; i < argc; ++i) {
    const std::string rel = std::filesystem::relative(argv[i], root).string();
    files.push_back(gpudiag::RuleFile{rel, read(argv[i]), {}});
  }
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });

  const auto problems = gpudiag::RulePack::lint(gpudiag::RuleSources{files, {}});
  for (const auto& d : problems) std::cerr << gpudiag::render_with_source(d);
  if (!problems.empty()) {
    std::cerr << fmt::format("gpudiag-rulec: {} problem(s) in the rule pack; see docs/rules.md\n", problems.size());
    return 1;
  }
  // Rules prove themselves: every embedded example must behave as it says.
  auto pack = gpudiag::RulePack::load(gpudiag::RuleSources{files, {}});
  if (!pack) {
    std::cerr << gpudiag::render_with_source(pack.error());
    return 1;
  }
  const gpudiag::ExampleReport examples = gpudiag::test_rule_examples(*pack);
  for (const auto& f : examples.failures)
    std::cerr << fmt::format("{}:{}: {}: {}\n", f.file, f.line, f.rule_id, f.message);
  if (!examples.failures.empty()) {
    std::cerr << fmt::format("gpudiag-rulec: {} rule example(s) fail; see docs/rules.md, Examples\n",
                             examples.failures.size());
    return 1;
  }

  std::string out = "// Generated from rules/**/*.yaml by gpudiag-rulec (engine/rulec). Do not edit.\n";
  out += "#include \"gpudiag/rule_pack.h\"\n\nnamespace gpudiag {\n\n";
  out += "const std::vector<RuleFile>& builtin_rule_files() {\n  static const std::vector<RuleFile> files = {\n";
  for (const auto& f : files) {
    auto tree = gpudiag::detail::parse_rule_yaml(f.text, f.path);
    if (!tree) {
      std::cerr << gpudiag::render_with_source(tree.error());
      return 1;
    }
    const std::string json = gpudiag::detail::tree_to_json(*tree);
    for (const auto* text : {&f.text, &json}) {
      if (text->find(")gpudiag_rule\"") != std::string::npos) {
        std::cerr << f.path << ": contains the raw-string delimiter )gpudiag_rule\"\n";
        return 1;
      }
    }
    out += fmt::format("      {{\"{}\",\n       {},\n       {}}},\n", f.path, raw(f.text), raw(json));
  }
  out += "  };\n  return files;\n}\n\n}  // namespace gpudiag\n";

  // Rewrite only on change, so an unchanged pack does not relink everything.
  if (std::filesystem::exists(output) && read(output) == out) return 0;
  std::ofstream(output, std::ios::binary) << out;
  return 0;
}
