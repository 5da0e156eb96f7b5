// A YAML document as a plain tree with a 1-based line and column on every node, independent of the
// YAML library: rule files (engine) and baseline files (reports) are read through it, so both take
// the same YAML, CRLF line endings included, and point at the same place when it is wrong.
//
//   Result<yaml::Node> doc = yaml::parse(text, "gpudiag-baseline.yaml",
//                                        {DiagnosticCode::kBaselineYaml, "see docs/baseline.md"});
//   if (const yaml::Node* list = doc->get("suppress"); list && list->is_seq()) …
//   yaml::source_line(text, node.at.line)  // the line to show under a diagnostic
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/diagnostic_codes.h"
#include "gpudiag/result.h"

namespace gpudiag::yaml {

struct Position {
  uint64_t line = 0;    // 1-based (0: unknown)
  uint64_t column = 0;  // 1-based (0: unknown)
};

struct Node {
  enum class Kind : uint8_t { kNull, kScalar, kSequence, kMap };
  Kind kind = Kind::kNull;  // kNull: empty, `~` or `null`
  std::string scalar;       // kScalar
  bool quoted = false;      // a quoted scalar ('…' or "…"): never a boolean or number
  Position at;
  struct Entry;
  std::vector<Node> items;     // kSequence
  std::vector<Entry> entries;  // kMap: key node, value node (in file order)

  bool is_null() const { return kind == Kind::kNull; }
  bool is_map() const { return kind == Kind::kMap; }
  bool is_seq() const { return kind == Kind::kSequence; }
  bool is_scalar() const { return kind == Kind::kScalar; }
  // The value of the first entry whose key is the scalar `key`, or nullptr.
  const Node* get(std::string_view key) const;
};

struct Node::Entry {
  Node first;   // the key
  Node second;  // the value
};

// What a problem in the YAML itself is called, and the hint that goes with it: each kind of file
// has its own code (rule-yaml, baseline-yaml) and its own documentation.
struct ParseErrors {
  DiagnosticCode code;
  std::string_view help;
};

// Parses YAML text (YAML 1.2, so JSON too). Problems (syntax, alias bombs, absurd nesting) come back
// as a diagnostic with `errors.code`, the file, line and column and the offending line.
Result<Node> parse(std::string_view text, std::string_view path, const ParseErrors& errors);

// The 1-based line `line` of `text` without its line ending (LF or CRLF), for caret displays;
// "" when there is no such line.
std::string source_line(std::string_view text, uint64_t line);

}  // namespace gpudiag::yaml
