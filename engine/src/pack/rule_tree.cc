#include "rule_tree.h"

#include <fmt/format.h>
#include <simdjson.h>

#include "gpudiag/diagnostic_codes.h"
#include "gpudiag/json_writer.h"

namespace gpudiag::detail {

Result<Node> parse_rule_yaml(const std::string& text, const std::string& path) {
  return yaml::parse(text, path, {DiagnosticCode::kRuleYaml, "rule files are YAML (see docs/rules.md)"});
}

namespace {

void write_tree(const Node& n, std::string& out) {
  out += fmt::format("[{},{},{}", static_cast<int>(n.kind), n.at.line, n.at.column);
  switch (n.kind) {
    case Node::Kind::kScalar:
      out += ',';
      append_json_string(out, n.scalar);
      out += n.quoted ? ",1" : ",0";
      break;
    case Node::Kind::kSequence:
      out += ",[";
      for (size_t i = 0; i < n.items.size(); ++i) {
        if (i) out += ',';
        write_tree(n.items[i], out);
      }
      out += ']';
      break;
    case Node::Kind::kMap:
      out += ",[";
      for (size_t i = 0; i < n.entries.size(); ++i) {
        if (i) out += ',';
        out += '[';
        write_tree(n.entries[i].first, out);
        out += ',';
        write_tree(n.entries[i].second, out);
        out += ']';
      }
      out += ']';
      break;
    case Node::Kind::kNull:
      break;
  }
  out += ']';
}

simdjson::error_code read_tree(simdjson::dom::element e, Node& n, int depth) {
  if (depth > 64) return simdjson::DEPTH_ERROR;
  simdjson::dom::array a;
  if (auto err = e.get_array().get(a)) return err;
  int64_t kind = 0, line = 0, column = 0;
  if (auto err = a.at(0).get_int64().get(kind)) return err;
  if (auto err = a.at(1).get_int64().get(line)) return err;
  if (auto err = a.at(2).get_int64().get(column)) return err;
  n.kind = static_cast<Node::Kind>(kind);
  n.at = Position{static_cast<uint64_t>(line), static_cast<uint64_t>(column)};
  if (n.kind == Node::Kind::kScalar) {
    std::string_view s;
    int64_t quoted = 0;
    if (auto err = a.at(3).get_string().get(s)) return err;
    if (auto err = a.at(4).get_int64().get(quoted)) return err;
    n.scalar = std::string(s);
    n.quoted = quoted != 0;
  } else if (n.kind == Node::Kind::kSequence || n.kind == Node::Kind::kMap) {
    simdjson::dom::array children;
    if (auto err = a.at(3).get_array().get(children)) return err;
    // One allocation per node, not a vector's growth steps (12,000 reallocations at each start-up).
    if (n.kind == Node::Kind::kSequence) {
      n.items.reserve(children.size());
    } else {
      n.entries.reserve(children.size());
    }
    for (auto child : children) {
      if (n.kind == Node::Kind::kSequence) {
        n.items.emplace_back();
        if (auto err = read_tree(child, n.items.back(), depth + 1)) return err;
      } else {
        simdjson::dom::array kv;
        if (auto err = child.get_array().get(kv)) return err;
        n.entries.emplace_back();
        if (auto err = read_tree(kv.at(0), n.entries.back().first, depth + 1)) return err;
        if (auto err = read_tree(kv.at(1), n.entries.back().second, depth + 1)) return err;
      }
    }
  }
  return simdjson::SUCCESS;
}

}  // namespace

std::string tree_to_json(const Node& node) {
  std::string out;
  write_tree(node, out);
  return out;
}

Result<Node> tree_from_json(std::string_view json, const std::string& path) {
  // One parser per thread, kept: a parser sized for each file, and a padded copy of it, were
  // 23 MB of allocation at every start (16 times the text), most of the time a start-up takes
  // under the sanitizers. A kept parser copies into, and parses with, the buffers it already has.
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element root;
  Node n;
  auto err = parser.parse(json.data(), json.size(), /*realloc_if_needed=*/true).get(root);
  if (!err) err = read_tree(root, n, 0);
  if (err) {
    return Diagnostic{.code = code_name(DiagnosticCode::kRuleEmbedded),
                      .message = fmt::format("embedded rule tree is damaged: {}", simdjson::error_message(err)),
                      .file = path,
                      .help = "rebuild gpudiag"};
  }
  return n;
}

}  // namespace gpudiag::detail
