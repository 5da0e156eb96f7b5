// A rule file's tree: read from YAML by the shared reader (gpudiag/yaml_tree.h) with the rule
// loader's code and hint, or from the compact JSON form gpudiag-rulec embeds. Internal to engine.
#pragma once

#include <string>
#include <string_view>

#include "gpudiag/result.h"
#include "gpudiag/yaml_tree.h"

namespace gpudiag::detail {

using yaml::Node;
using yaml::Position;
using yaml::source_line;

// Parses a rule file's YAML; problems are rule-yaml diagnostics with the file, line and column.
Result<Node> parse_rule_yaml(const std::string& text, const std::string& path);

// The tree in the compact form gpudiag-rulec embeds (JSON arrays: [kind, line, column, payload…]),
// and back. Embedded rule files skip YAML parsing at start-up.
std::string tree_to_json(const Node& node);
Result<Node> tree_from_json(std::string_view json, const std::string& path);

}  // namespace gpudiag::detail
