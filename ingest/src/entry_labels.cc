#include "gpudiag/entry_labels.h"

namespace gpudiag {

std::span<const EntryLabelField> entry_label_fields() { return kEntryLabelFields; }
std::span<const ResourceLabelField> resource_label_fields() { return kResourceLabelFields; }

std::string sink_label_key(std::string_view key) {
  std::string out;
  out.reserve(key.size());
  for (char c : key) {
    const bool kept = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!kept) c = '_';
    if (c == '_' && out.empty()) continue;
    out += c;
  }
  return out;
}

}  // namespace gpudiag
