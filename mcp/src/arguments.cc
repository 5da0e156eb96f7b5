#include "arguments.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace gpudiag::mcp_detail {
namespace {

enum class Kind { kString, kBoolean, kStrings };

struct Property {
  std::string name;
  Kind kind = Kind::kString;
  std::vector<std::string> choices;  // enum, when given
};

struct Schema {
  std::vector<Property> properties;
  std::vector<std::string> required;
};

// The schemas are the server's own constants: a schema that does not parse is a bug, found by the
// first call of each tool in the tests.
Schema parse_schema(std::string_view text) {
  Schema schema;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(text.data(), text.size()).get(root) != simdjson::SUCCESS) return schema;
  simdjson::dom::object properties;
  if (root["properties"].get(properties) == simdjson::SUCCESS) {
    for (auto [key, value] : properties) {
      Property p{std::string(key)};
      std::string_view type;
      if (value["type"].get(type) == simdjson::SUCCESS) {
        p.kind = type == "boolean" ? Kind::kBoolean : type == "array" ? Kind::kStrings : Kind::kString;
      }
      simdjson::dom::array choices;
      if (value["enum"].get(choices) == simdjson::SUCCESS) {
        for (auto c : choices) {
          std::string_view s;
          if (c.get(s) == simdjson::SUCCESS) p.choices.emplace_back(s);
        }
      }
      schema.properties.push_back(std::move(p));
    }
  }
  simdjson::dom::array required;
  if (root["required"].get(required) == simdjson::SUCCESS) {
    for (auto r : required) {
      std::string_view s;
      if (r.get(s) == simdjson::SUCCESS) schema.required.emplace_back(s);
    }
  }
  return schema;
}

std::string names(const Schema& schema) {
  std::vector<std::string> all;
  for (const auto& p : schema.properties) all.push_back(p.name);
  return all.empty() ? "none" : fmt::format("{}", fmt::join(all, ", "));
}

std::string read_value(const Property& p, simdjson::dom::element value, Argument& arg) {
  switch (p.kind) {
    case Kind::kBoolean:
      if (value.get(arg.flag) != simdjson::SUCCESS) return fmt::format("`{}` must be true or false", p.name);
      return "";
    case Kind::kStrings: {
      simdjson::dom::array items;
      if (value.get(items) != simdjson::SUCCESS) return fmt::format("`{}` must be an array of strings", p.name);
      for (auto item : items) {
        std::string_view s;
        if (item.get(s) != simdjson::SUCCESS) return fmt::format("`{}` must be an array of strings", p.name);
        if (s.empty()) return fmt::format("`{}` holds an empty string", p.name);
        arg.list.emplace_back(s);
      }
      if (arg.list.empty()) return fmt::format("`{}` is empty: leave it out, or give at least one", p.name);
      return "";
    }
    case Kind::kString: {
      std::string_view s;
      if (value.get(s) != simdjson::SUCCESS) return fmt::format("`{}` must be a string", p.name);
      if (s.empty()) return fmt::format("`{}` is empty", p.name);
      if (!p.choices.empty() && std::find(p.choices.begin(), p.choices.end(), s) == p.choices.end()) {
        return fmt::format("`{}` must be one of: {}", p.name, fmt::join(p.choices, ", "));
      }
      arg.text = std::string(s);
      return "";
    }
  }
  return "";
}

}  // namespace

std::string read_arguments(std::string_view input_schema, simdjson::dom::element arguments, bool present,
                           Arguments& out) {
  const Schema schema = parse_schema(input_schema);
  if (present) {
    simdjson::dom::object object;
    if (arguments.get(object) != simdjson::SUCCESS) return "`arguments` must be an object";
    for (auto [key, value] : object) {
      const auto p = std::find_if(schema.properties.begin(), schema.properties.end(),
                                  [&](const Property& prop) { return prop.name == key; });
      if (p == schema.properties.end()) {
        return fmt::format("unknown argument `{}`; the arguments are: {}", std::string_view(key), names(schema));
      }
      if (value.is_null()) continue;  // a model's way of leaving an optional argument out
      Argument arg;
      if (std::string why = read_value(*p, value, arg); !why.empty()) return why;
      out.insert_or_assign(p->name, std::move(arg));
    }
  }
  for (const auto& name : schema.required) {
    if (!out.contains(name)) return fmt::format("`{}` is required", name);
  }
  return "";
}

}  // namespace gpudiag::mcp_detail
