// The fact catalog (see fact_catalog.h).
#include "fact_catalog.h"

#include <algorithm>
#include <array>

namespace gpudiag::detail {

std::string_view fact_type_name(FactType type) {
  static constexpr std::array<std::string_view, 3> kNames = {"bool", "string", "number"};
  return kNames[static_cast<size_t>(type)];
}

bool valid_fact_value(FactType type, std::string_view value) {
  switch (type) {
    case FactType::kBool:
      return value == "true" || value == "false";
    case FactType::kNumber:
      return !value.empty() && std::count(value.begin(), value.end(), '.') <= 1 && value.front() != '.' &&
             std::all_of(value.begin(), value.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
    case FactType::kString:
      return !value.empty();
  }
  return false;
}

void FactCatalog::add(FactDef def) {
  for (auto& f : facts_) {
    if (f.name == def.name) {
      f = std::move(def);
      return;
    }
  }
  facts_.push_back(std::move(def));
}

const FactDef* FactCatalog::find(std::string_view name) const {
  for (const auto& f : facts_) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::vector<std::string_view> FactCatalog::names() const {
  std::vector<std::string_view> out;
  for (const auto& f : facts_) out.push_back(f.name);
  return out;
}

const GpuPlatform* GpuPlatformTable::find(std::string_view type) const {
  for (const auto& g : gpus) {
    if (g.type == type) return &g;
  }
  return nullptr;
}

const std::vector<std::string>& FactCatalog::option_names(std::string_view fact) const {
  static const std::vector<std::string> kNone;
  auto it = options_.find(fact);
  return it == options_.end() ? kNone : it->second;
}

}  // namespace gpudiag::detail
