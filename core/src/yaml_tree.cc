// Reads YAML with yaml-cpp and copies it into a yaml::Node tree; yaml-cpp stays in this file.
#include "gpudiag/yaml_tree.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <optional>
#include <stdexcept>

#include "gpudiag/diagnostic_codes.h"

namespace gpudiag::yaml {
namespace {

constexpr size_t kMaxNodes = 200'000;  // a real rule or baseline file has a few hundred
constexpr int kMaxDepth = 64;

// yaml-cpp counts from 0 and marks "no position" with -1; ours count from 1 and use 0.
Position position_of(const YAML::Mark& m) {
  return Position{m.line >= 0 ? static_cast<uint64_t>(m.line) + 1 : 0,
                  m.column >= 0 ? static_cast<uint64_t>(m.column) + 1 : 0};
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
std::optional<Position> too_deep(std::string_view text) {
  int depth = 0;
  uint64_t line = 1, column = 0;
  char quote = 0;
  for (char c : text) {
    ++column;
    if (c == '\n') {
      ++line;
      column = 0;
      quote = 0;  // quoted scalars in rule and baseline files stay on one line; good enough for a guard
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

std::string source_line(std::string_view text, uint64_t line) {
  if (line == 0) return {};
  size_t start = 0;
  for (uint64_t l = 1; l < line; ++l) {
    start = text.find('\n', start);
    if (start == std::string_view::npos) return {};
    ++start;
  }
  std::string_view rest = text.substr(start);
  rest = rest.substr(0, rest.find('\n'));
  if (!rest.empty() && rest.back() == '\r') rest.remove_suffix(1);
  return std::string(rest);
}

Result<Node> parse(std::string_view text, std::string_view path, const ParseErrors& errors) {
  const auto problem = [&](std::string message, Position at, std::string_view help) {
    return Diagnostic{.code = code_name(errors.code),
                      .message = std::move(message),
                      .file = std::string(path),
                      .line = at.line,
                      .column = at.column,
                      .source_line = source_line(text, at.line),
                      .help = std::string(help)};
  };
  if (auto at = too_deep(text)) {
    return problem(fmt::format("nested more than {} levels deep", kMaxDepth), *at, errors.help);
  }
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    return TreeBuilder().build(root, 0);
  } catch (const YAML::Exception& e) {
    return problem(e.msg, position_of(e.mark), errors.help);
  } catch (const std::length_error& e) {
    return problem(fmt::format("the YAML expands to {} (aliases?)", e.what()), Position{1, 1},
                   "no YAML aliases are needed; write each entry out in full");
  } catch (const std::exception& e) {
    return problem(e.what(), Position{}, errors.help);
  }
}

}  // namespace gpudiag::yaml
