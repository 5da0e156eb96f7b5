// The pipeline options Beam and Dataflow know (ingest/data/beam-options.yaml), read once. Internal
// to ingest.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gpudiag::detail {

std::string_view beam_options_yaml();  // the embedded file (generated)

struct BeamOption {
  enum class List : uint8_t { kNone, kSplit, kAppend };
  std::string name;  // the option's `dest`
  List list = List::kNone;
  bool flag = false;  // store_true / store_false: takes no value
};

struct BeamOptionTable {
  std::map<std::string, BeamOption, std::less<>> by_spelling;  // every spelling (names, aliases, Java) → option
  std::vector<std::string> spellings;                          // … in the file's order, for suggestions
  std::vector<std::string> enum_values;
  std::string source;
};
// The table; a damaged embedded file is a build bug (tests load it), so it yields an empty table.
const BeamOptionTable& beam_option_table();

}  // namespace gpudiag::detail
