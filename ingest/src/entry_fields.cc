#include "gpudiag/entry_fields.h"

namespace gpudiag {

std::span<const RecordFieldSources> record_field_sources() { return kRecordFieldSources; }

const RecordFieldSources* record_field(std::string_view field) {
  for (const auto& row : kRecordFieldSources) {
    if (row.field == field) return &row;
  }
  return nullptr;
}

}  // namespace gpudiag
