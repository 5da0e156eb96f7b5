#include "rule_tree.h"

#include <fmt/format.h>
#include <simdjson.h>
#include <yaml-cpp/yaml.h>

#include <optional>

#include "gpudiag/diagnostic_codes.h"
#include "gpudiag/json_writer.h"

namespace gpudiag::detail {
namespace {

constexpr size_t kMaxNodes = 200'000;  // a real rule file has a few hundred
constexpr int kMaxDepth = 64;

Position position_of(const YAML::Mark& m) {
  return Position{static_cast<uint64_t>(m.line) + 1, static_cast<uint64_t>(m.column) + 1};
}

// yaml-cpp expands aliases into shared nodes; counting nodes as we copy stops alias bombs.
class TreeBuilder {
 public:
  Node build(const YAML::Node& y, int depth) {
    if (++nodes_ > kMaxNodes) throw std::length_error("too many nodes");
    if (depth > kMaxDepth) throw std::length_error("nested too deeply");
    Node n;
    n.at = position_of(y.Mark());
    switch (y.Type()) {
      case YAML::NodeType::Scalar:
        n.kind = Node::Kind::kScalar;
        n.scalar = y.Scalar();
        n.quoted = y.Tag() == "!";
        break;
      case YAML::NodeType::Sequence:
        n.kind = Node::Kind::kSequence;
        for (const auto& item : y) n.items.push_back(build(item, depth + 1));
        break;
      case YAML::NodeType::Map:
        n.kind = Node::Kind::kMap;
        for (const auto& kv : y)
          n.entries.push_back(Node::Entry{build(kv.first, depth + 1), build(kv.second, depth + 1)});
        break;
      default:
        n.kind = Node::Kind::kNull;
        break;
    }
    return n;
  }

 private:
  size_t nodes_ = 0;
};

// yaml-cpp's parser recurses on flow collections; refuse absurd nesting before it sees the text.
std::optional<Position> too_deep(const std::string& text) {
  int depth = 0;
  uint64_t line = 1, column = 0;
  char quote = 0;
  for (char c : text) {
    ++column;
    if (c == '\n') {
      ++line;
      column = 0;
      quote = 0;  // flow scalars in rules never span lines; good enough for a guard
      continue;
    }
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"')
      quote = c;
    else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) return Position{line, column};
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

}  // namespace

const Node* Node::get(std::string_view key) const {
  for (const auto& [k, v] : entries) {
    if (k.scalar == key) return &v;
  }
  return nullptr;
}

std::string source_line(const std::string& text, uint64_t line) {
  size_t start = 0;
  for (uint64_t l = 1; l < line; ++l) {
    start = text.find('\n', start);
    if (start == std::string::npos) return {};
    ++start;
  }
  const size_t end = text.find('\n', start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

Result<Node> parse_yaml(const std::string& text, const std::string& path) {
  if (auto at = too_deep(text)) {
    return Diagnostic{.code = code_name(DiagnosticCode::kRuleYaml),
                      .message = fmt::format("nested more than {} levels deep", kMaxDepth),
                      .file = path,
                      .line = at->line,
                      .column = at->column,
                      .source_line = source_line(text, at->line)};
  }
  try {
    YAML::Node root = YAML::Load(text);
    return TreeBuilder().build(root, 0);
  } catch (const YAML::Exception& e) {
    const Position at = position_of(e.mark);
    return Diagnostic{.code = code_name(DiagnosticCode::kRuleYaml),
                      .message = e.msg,
                      .file = path,
                      .line = at.line,
                      .column = at.column,
                      .source_line = source_line(text, at.line),
                      .help = "rule files are YAML (see docs/rules.md)"};
  } catch (const std::length_error& e) {
    return Diagnostic{.code = code_name(DiagnosticCode::kRuleYaml),
                      .message = fmt::format("the YAML expands to {} (aliases?)", e.what()),
                      .file = path,
                      .line = 1,
                      .column = 1,
                      .help = "rule files need no YAML aliases; write each rule out in full"};
  } catch (const std::exception& e) {
    return Diagnostic{.code = code_name(DiagnosticCode::kRuleYaml), .message = e.what(), .file = path};
  }
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
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  Node n;
  auto err = parser.parse(simdjson::padded_string(json)).get(root);
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
