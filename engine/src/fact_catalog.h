// The fact catalog: the job facts rules can test and fact extractors can set, read from the rule
// pack's `facts:` pack-file key (rules/facts/catalog.yaml), with the option spellings the options
// decoders read (`option_names:`). A name outside the catalog is an error at load time. Internal to
// engine.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gpudiag::detail {

enum class FactType : uint8_t { kBool, kString, kNumber };
std::string_view fact_type_name(FactType type);
// Whether `value` is one a fact of `type` can take ("true"/"false", digits with at most one dot).
bool valid_fact_value(FactType type, std::string_view value);

struct FactDef {
  std::string name;
  FactType type = FactType::kString;
  std::string meaning;
  std::string from;  // what sets it besides the extractors (the options, job.json, the entries)
  std::string file;  // where it is defined
  uint32_t line = 0;
};

class FactCatalog {
 public:
  // Adds a fact, or replaces the one of the same name (a later pack file redefines it).
  void add(FactDef def);
  const FactDef* find(std::string_view name) const;
  const std::vector<FactDef>& facts() const { return facts_; }
  std::vector<std::string_view> names() const;

  // The option spellings the decoders read for `fact`, first match wins; empty when none are listed.
  const std::vector<std::string>& option_names(std::string_view fact) const;
  void set_option_names(const std::string& fact, std::vector<std::string> names) { options_[fact] = std::move(names); }
  const std::map<std::string, std::vector<std::string>, std::less<>>& all_option_names() const { return options_; }

 private:
  std::vector<FactDef> facts_;  // in the order they were defined
  std::map<std::string, std::vector<std::string>, std::less<>> options_;
};

}  // namespace gpudiag::detail
