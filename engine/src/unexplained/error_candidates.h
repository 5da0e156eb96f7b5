// Error candidates: the entries no rule claimed that may still say why a job failed — an entry at
// ERROR or above (read through the pack's line formats: stderr carries glog/absl, TensorFlow and
// Python logging lines at ERROR whatever their own level), a relayed line whose own level is ERROR,
// a Python traceback or a Java `Caused by:` chain at any severity, a job-message error. Taken on the matching thread,
// after the record's signals, and parsed there (error_text.h) so that grouping in input order is cheap. The stage's one
// cache is here: the short texts read last, with what was found of them (LineVerdict). Internal to engine.
#pragma once

#include <re2/re2.h>

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "error_text.h"
#include "evidence/evidence.h"
#include "gpudiag/log_record.h"
#include "gpudiag/severity.h"
#include "match/match.h"
#include "pack/pack.h"

namespace gpudiag::detail {

// What screen() reads, as data: pack_selection() hands the same strings to `gpudiag sql`. (A line's
// own level is the pack's: rules/line-formats.yaml.)
// A traceback inside one entry's text (with a line break: a one-line header is a fragment).
inline constexpr std::array<std::string_view, 2> kTracebackMarkers = {"Traceback (most recent call last)",
                                                                      "\nCaused by: "};
// The logs that print a program's output one entry a line below ERROR (below_error_fragment).
inline constexpr std::array<std::string_view, 2> kFragmentLogs = {"launcher", "job-message"};
// A one-line piece of a traceback starts so (is_traceback_fragment), or is indented, or is an
// exception line (kExceptionLine).
inline constexpr std::array<std::string_view, 6> kFragmentStarts = {
    "Traceback (most recent call last)",        "File \"",     "During handling of the above exception",
    "The above exception was the direct cause", "Caused by: ", "Exception in thread "};
inline constexpr std::string_view kExceptionLine =
    R"(^[A-Za-z_][\w.$]*(?:Error|Exception|Exit|Interrupt|Fault|Warning|Failure)(?::|$))";

// Whether one line, logged alone, is a piece of a traceback (its header, a frame, a source line
// under a frame, a chaining line, an exception line, a Java `at`/`Caused by:`/`... N more` line).
bool is_traceback_fragment(std::string_view line);
// Whether `line` matches kExceptionLine (read by hand; the same answer: tests/error_candidates_test.cc).
bool is_exception_line(std::string_view line);

// One per matching thread: it remembers the short texts it has read (below), so it is not shared.
class ErrorCandidates {
 public:
  explicit ErrorCandidates(const CompiledRulePack& pack);

  // What was found of a short text (the message of an entry at ERROR by its effective severity or
  // holding a traceback, at most 512 bytes, without an exception): green runs log the same chatter thousands of times
  // (kubelet's and the guest agent's lines, TensorFlow's plugin registrations), so each text is read once. Keyed by the
  // whole text, so an answer is the one reading it again would give.
  struct LineVerdict {
    int8_t benign = -1;                               // benign_errors name it: -1 not asked yet, 0 no, 1 yes
    std::shared_ptr<const CandidateReading> reading;  // what take() reads from the text, shared
    std::string step_field;                           // the entry's own step `reading` was read with
    // The matcher's quiet shapes of the text at `quiet_severity` (they read only those two).
    std::optional<Severity> quiet_severity;
    uint32_t quiet = 0;
    // The earliest copy of the text whose record was kept in this batch, for this job: a later one
    // of the same batch can never be its group's exemplar (take()).
    uint64_t kept_batch = 0;
    uint32_t kept_job = 0;
    Timestamp kept_at = kNoTime;
  };
  struct Screened {
    bool candidate = false;
    // A one-line piece of a traceback logged below ERROR (the Flex Template launcher prints the
    // program's traceback one entry a line at INFO): held as a fragment that becomes a candidate
    // only when its lines reassemble into a whole traceback (error_groups.h).
    bool below_error = false;
    LineVerdict* line = nullptr;  // the record's remembered text, if it is one (valid until take)
    // What a line format read of the record (its own level and text, views into it): read once.
    std::optional<LineFormats::Read> own;
  };
  // Whether screen() can find the record a candidate at all: at ERROR or above, a text with a line
  // break (a traceback), or a log that prints a program's output one entry a line. Inline: every
  // record asks it, and most worker and docker lines below ERROR are none of these.
  bool may_be_candidate(const LogRecord& r) const {
    return r.severity >= Severity::kError || has_line_break(r.message, r.unescaped_message) ||
           has_line_break(r.exception, r.unescaped_exception) || r.log == kFragmentLogs[0] ||
           r.log == kFragmentLogs[1] || formats_.may_read(r.message);
  }
  // Whether the record is a candidate before the matcher's quiet shapes are asked: an error by its
  // effective severity or one holding a traceback, whose first line benign_errors do not name
  // (most ERROR chatter of green runs is benign, and one RE2 is cheaper than the quiet shapes).
  Screened screen(const LogRecord& r);
  // Takes a screened candidate, after its signals were evaluated (`claimed_by`: the rules that took
  // it as evidence) and known not to be quiet (help text, DEBUG chatter … are never candidates).
  // `job`: the entry's JobSeen::ordinal in `out`.
  void take(const Screened& s, const LogRecord& r, uint32_t job, size_t entry_index, const std::vector<int>& claimed_by,
            ChunkObservations& out);
  // A new batch begins (its job ordinals start again).
  void start_batch() { ++batch_; }

 private:
  // A remembered text: two ways a set, the one read longer ago replaced (a direct-mapped table of
  // a dozen chatter lines would often put two in one slot, and each would evict the other).
  struct RememberedLine {
    uint64_t hash = 0;
    std::string text;
    bool used = false;
    LineVerdict verdict;
  };
  static uint64_t text_hash(std::string_view s);
  // The verdict of an error's text, null when it is not a short text without an exception.
  LineVerdict* verdict_of(const LogRecord& r);
  bool benign(std::string_view message);  // its first line: another program's line without its prefix
  // Whether `text` holds a line break: none in a text the reader read without escapes (`unescaped`
  // is its note), else one memchr.
  static bool has_line_break(std::string_view text, std::string_view unescaped) {
    return !LogRecord::known_unescaped(text, unescaped) && text.find('\n') != std::string_view::npos;
  }
  static bool holds_traceback(const LogRecord& r);
  // A one-line traceback piece logged below ERROR in a log that prints tracebacks so (Screened).
  static bool below_error_fragment(const LogRecord& r);
  static bool below_error_line_fragment(const LogRecord& r);  // its line, once its log is one of those
  // What follows from the entry's text alone (its key, template, exception …); `below_error`: it is
  // taken as a fragment (Screened).
  std::shared_ptr<const CandidateReading> read_text(const LogRecord& r, const Screened& s);

  // A one-line entry another program printed (the pack's line_formats): its own level and its own
  // text, or nullopt.
  std::optional<LineFormats::Read> own_line(const LogRecord& r) const;
  // The level the first line of a message says of itself (a multi-line entry, or one with an
  // exception: absl/glog, TensorFlow and Python logging prefix the first line only).
  std::optional<Severity> first_line_level(const LogRecord& r) const;

  const ReadingRules reading_;         // the pack's frameworks and wrappers
  const LineFormats& formats_;         // the pack's line formats (rules/line-formats.yaml)
  const BenignErrors& benign_;         // the pack's benign_errors (rules/benign-errors.yaml)
  std::string lowered_;                // scratch: the line lowercased
  std::vector<int> found_;             // scratch: the atoms found
  std::vector<RememberedLine> lines_;  // kRememberedLines slots, in sets of two
  std::vector<uint8_t> newer_way_;     // per set: the way read last
  uint64_t batch_ = 1;                 // start_batch()'s count (LineVerdict::kept_batch 0: none)
};

}  // namespace gpudiag::detail
