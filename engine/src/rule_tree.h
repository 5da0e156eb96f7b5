// A rule file as a plain tree with positions, independent of the YAML library. Internal to engine.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpudiag/result.h"

namespace gpudiag::detail {

struct Position {
  uint64_t line = 0;    // 1-based
  uint64_t column = 0;  // 1-based
};

struct Node {
  enum class Kind : uint8_t { kNull, kScalar, kSequence, kMap };
  Kind kind = Kind::kNull;
  std::string scalar;   // kScalar
  bool quoted = false;  // a quoted scalar ('…' or "…"): never a boolean or number
  Position at;
  struct Entry;
  std::vector<Node> items;     // kSequence
  std::vector<Entry> entries;  // kMap: key node, value node (in file order)

  bool is_map() const { return kind == Kind::kMap; }
  bool is_seq() const { return kind == Kind::kSequence; }
  bool is_scalar() const { return kind == Kind::kScalar; }
  const Node* get(std::string_view key) const;
};

struct Node::Entry {
  Node first;   // the key
  Node second;  // the value
};

// Parses YAML text. Problems (syntax, alias bombs, absurd nesting) come back as a diagnostic with
// the file, line and column.
Result<Node> parse_yaml(const std::string& text, const std::string& path);

// The tree in the compact form gpudiag-rulec embeds (JSON arrays: [kind, line, column, payload…]),
// and back. Embedded rule files skip YAML parsing at start-up.
std::string tree_to_json(const Node& node);
Result<Node> tree_from_json(std::string_view json, const std::string& path);

// The 1-based line `line` of `text`, for caret displays.
std::string source_line(const std::string& text, uint64_t line);

}  // namespace gpudiag::detail
