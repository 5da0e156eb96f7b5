// A pack file: a rule file without `id` (rules/lists.yaml, rules/policy.yaml) that holds what the
// whole pack shares — its policy (`families:`, `confidence:`) and its lists and macros.
// Lists and macros are fragments of patterns that several rules share, written `${name}` inside a
// rule's regexes.
// A list is literal alternatives (each quoted, joined with `|`), a macro a piece of RE2 regex; both
// expand in place, without a group around them, so write `(?:${name})` where the alternation must
// not leak. Internal to engine.
//
//   lists:
//     xid_application: ['13', '31', '43']       # ${xid_application} → 13|31|43
//   macros:
//     nvrm_xid: 'NVRM: Xid \((?:PCI:)?[^)]*\):\s*'
#pragma once

#include <map>
#include <string>
#include <vector>

#include "fact_catalog.h"
#include "gpudiag/rule_pack.h"
#include "rule_tree.h"

namespace gpudiag::detail {

struct Fragment {
  std::string expansion;  // what `${name}` becomes
  std::string file;       // where it is defined
  Position at;
  bool list = false;  // a list (else a macro)
};
using Fragments = std::map<std::string, Fragment, std::less<>>;

// A pack file: a mapping without `id` whose keys are pack-file keys (rule_keys.h, KeyPlace::kPackFile).
bool is_pack_file(const Node& root);

// Adds a pack file's lists and macros to `fragments`; a name defined twice in one group of files
// (`group`) is an error, a later group may redefine one.
// Its `families:` and `confidence:` go to `policy` (a later pack file sets what it names again), its
// `facts:` and `option_names:` to `catalog` (a later definition of a fact replaces the earlier one).
void read_pack_file(const RuleFile& file, const Node& root, Fragments& fragments, PackPolicy& policy,
                    FactCatalog& catalog, std::map<std::string, int>& group, Diagnostics& diags);

// `pattern` with every `${name}` replaced. `used` gets the names found; `undefined` the byte offset
// of each `${` whose name is not defined (the text keeps it).
struct Expanded {
  std::string text;
  std::vector<std::string> used;
  std::vector<size_t> undefined;
};
Expanded expand_fragments(const std::string& pattern, const Fragments& fragments);

}  // namespace gpudiag::detail
