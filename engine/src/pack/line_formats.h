// The pack's line formats compiled (rules/line-formats.yaml, docs/rules.md "Line formats"): what
// another program's line says of its own level, and where its own text starts after the prefix it
// was printed with. The reader of errors no rule explains asks it of relayed output (a model
// server's lines that Beam re-logs at INFO) and of stderr lines (TensorRT's `[TRT] [W]`, which
// Dataflow stores at ERROR). Internal to engine.
//
//   if (auto read = pack.line_formats.read("(EngineCore_DP0 pid=7) ERROR 09-28 15:47:24 [core.py:718] x"))
//     read->level;   // Severity::kError
//     read->text;    // "x"
#pragma once

#include <re2/re2.h>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/rule_pack.h"
#include "gpudiag/severity.h"

namespace gpudiag::detail {

class LineFormats {
 public:
  // The capturing groups a format's pattern may have (the loader refuses more).
  static constexpr int kMaxGroups = 15;

  LineFormats() = default;
  explicit LineFormats(const std::vector<LineFormat>& formats);

  struct Read {
    std::optional<Severity> level;  // none: the format names no level (a bare process prefix)
    std::string_view text;          // within the line read
    std::string_view process;       // the group `process` (`EngineCore_DP0 pid=402`), "" without one
  };
  // How far into a line a format's `contains` is looked for.
  static constexpr size_t kContainsWindow = 160;

  // Whether some format may read `line`: one of its `starts` begins it, or (`at_error`: the entry is
  // at ERROR, stderr's level) the pack has a format that `contains` screens. A few compares, asked
  // before any RE2.
  bool may_read(std::string_view line, bool at_error = false) const {
    // Every record below ERROR asks: most are answered by their first byte (a loop over every
    // start cost some 120 instructions a record, 1.5 % of `analyze` on bench's healthy export).
    if (line.empty()) return false;
    if (at_error && !contains_.empty()) return true;
    for (const auto& s : starts_by_byte_[static_cast<unsigned char>(line.front())]) {
      if (line.starts_with(s.text)) return true;
    }
    return false;
  }
  // The first format (in the pack's order) whose `starts` (or, `at_error`, `contains`) and pattern
  // read `line`.
  std::optional<Read> read(std::string_view line, bool at_error = false) const;
  // A format as a screen of the lines it reads at some levels (`below_error`: below ERROR, else
  // ERROR and above or none): its pattern, anchored, with the group `level` narrowed to the tokens
  // (its `levels` and the severity names) that the group reads and that name such a level, named
  // groups plain. A format without a `level` group reads lines without a level: the whole pattern,
  // or none when `below_error`. None too when no token of the group names such a level. `gpudiag sql`
  // compiles the same (pack_selection.h).
  static std::optional<std::string> screen_of(const LineFormat& f, bool below_error);
  bool empty() const { return formats_.empty(); }

 private:
  struct Compiled {
    LineFormat format;
    // The pattern, or when it ends in `(?P<text>.*)` (most do) only what comes before: the text is
    // then the rest of the line. RE2 finds a match's end with its DFA, then runs its capturing
    // engine over the match; over a whole line that cost some 30,000 instructions a line, over the
    // prefix a tenth of it.
    std::unique_ptr<const RE2> re;
    bool text_is_rest = false;
    int text_group = 0;
    int level_group = -1;
    int process_group = -1;
  };
  struct Start {
    std::string text;
    size_t format = 0;  // its index in formats_
  };
  std::vector<Compiled> formats_;
  // Every format's `starts` by their first byte, in the pack's order; every `contains`, in order.
  std::array<std::vector<Start>, 256> starts_by_byte_;
  std::vector<Start> contains_;
  std::optional<Read> read_with(const Compiled& f, std::string_view line) const;
};

}  // namespace gpudiag::detail
