// The grouping key of errors no rule explains (docs/unexplained.md, "Grouping"): what makes two
// errors one group. Run histories, baselines and SARIF keep its fingerprint, so what a key holds is
// a contract: a change of it is a new kVersion, and the key is written and read only here.
//
//   exception: kVersion "|exc|" TYPE "|" FRAME "|" first 8 tokens of the masked message
//   cut copy:  kVersion "|cut|" FRAME        (a traceback cut before its exception)
//   line:      kVersion "|line|" TEMPLATE    (the template miner's, `<*>` for variables)
//   FRAME:     USER_FILE_BASENAME ":" USER_FUNCTION, or "-" without a user frame (its line number
//              is left out: it moves with every edit of the file, the failure does not)
//   fingerprint = "unexplained-error/" + 16 lowercase hex digits of XXH3-64 (seed 0) of the key
//
//   GroupKey key{.kind = GroupKey::Kind::kCut, .frame = "main.py:run"};
//   key.str();                           // "g1|cut|main.py:run"
//   GroupKey::parse("g1|cut|main.py:run")->frame;   // "main.py:run"
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpudiag::detail {

struct GroupKey {
  static constexpr std::string_view kVersion = "g1";
  enum class Kind : uint8_t { kException, kCut, kLine };

  Kind kind = Kind::kLine;
  std::string type;   // kException: the exception's type
  std::string frame;  // kException, kCut: FRAME
  std::string text;   // kException: the masked message's first tokens; kLine: the template

  std::string str() const;
  // nullopt: not a key of this version. An exception key's FRAME ends at the first '|' after its
  // ':' (a basename may hold a '|', a function name cannot).
  static std::optional<GroupKey> parse(std::string_view key);
};

}  // namespace gpudiag::detail
