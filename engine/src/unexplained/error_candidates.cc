#include "error_candidates.h"

#include <re2/re2.h>

#include <algorithm>
#include <cstdint>

#include "error_text.h"
#include "evidence/evidence.h"
#include "gpudiag/patterns.h"
#include "gpudiag/stable_hash.h"
#include "sampled_words_hash.h"
#include "unexplained_key.h"

namespace gpudiag::detail {
namespace {

// What is kept of a candidate entry (its exemplar) and of a fragment's line.
constexpr size_t kCandidateTextBytes = 16u << 10;
constexpr size_t kFragmentBytes = 2u << 10;
// The texts remembered per matching thread, and the longest one remembered: under 1 MiB with what
// is read from them. A power of two (sets of two ways): a new text replaces the older of its set's
// two (a real export's chatter comes back soon, while lines that carry their own timestamp never
// repeat).
constexpr size_t kRememberedLines = 256;
static_assert((kRememberedLines & (kRememberedLines - 1)) == 0);
constexpr size_t kRememberedLineBytes = 512;

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string_view trim_left(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

}  // namespace

bool is_traceback_fragment(std::string_view line) {
  for (std::string_view start : kFragmentStarts) {
    if (!starts_with(line, start)) continue;
    // A frame line whose indentation the logger dropped (the Flex Template launcher's entries).
    if (start == "File \"") {
      PyFrameParts parts;
      return read_python_frame(line, parts) != PyFrameRead::kNo;
    }
    return true;
  }
  const std::string_view body = trim_left(line);
  if (body.size() < line.size()) {  // indented: a frame, its source line, `at …`, `... N more`
    return !body.empty();
  }
  // An exception line: a dotted name ending in Error/Exception/… then ":" or the end.
  return is_exception_line(line);
}

bool is_exception_line(std::string_view line) {
  // kExceptionLine read by hand (RE2 cost ~900 instructions a call here, on every unindented INFO
  // line of the launcher's and the job messages' logs): its name, then ':' or the end of the text.
  const size_t name = exception_name_length(line, /*dollar=*/true, /*warning=*/true);
  return name > 0 && (name == line.size() || line[name] == ':');
}

ErrorCandidates::ErrorCandidates(const CompiledRulePack& pack)
    : reading_{*pack.frameworks, pack.wrappers, pack.causes},
      formats_(pack.line_formats),
      benign_(*pack.benign),
      lines_(kRememberedLines),
      newer_way_(kRememberedLines / 2, 1) {}

// The length and six words of the text: its first 32 bytes (where chatter lines differ: a
// timestamp, an id) and its last 16 (how the message ends). XXH3 of 56 sampled bytes cost more than
// the look-up it serves (every ERROR entry asks one); the table compares whole texts, so two that
// share those bytes only share a set. Never stored: no stable algorithm is needed.
uint64_t ErrorCandidates::text_hash(std::string_view s) {
  if (s.size() < 32) return stable_hash(s);
  const size_t end = s.size();
  return detail::sampled_words_hash(s, std::array<size_t, 6>{0, 8, 16, 24, end - 16, end - 8});
}

ErrorCandidates::LineVerdict* ErrorCandidates::verdict_of(const LogRecord& r) {
  if (!r.exception.empty() || r.message.size() > kRememberedLineBytes) return nullptr;
  const uint64_t h = text_hash(r.message);
  const size_t set = h & (kRememberedLines / 2 - 1);
  RememberedLine* ways = &lines_[2 * set];
  for (uint8_t way = 0; way < 2; ++way) {
    RememberedLine& line = ways[way];
    if (line.used && line.hash == h && line.text == r.message) {
      newer_way_[set] = way;
      return &line.verdict;
    }
  }
  const uint8_t way = newer_way_[set] ^ 1;  // the one read longer ago makes room
  RememberedLine& line = ways[way];
  newer_way_[set] = way;
  line.used = true;
  line.hash = h;
  line.text.assign(r.message);
  line.verdict = LineVerdict{};
  return &line.verdict;
}

// Inlined into screen(): every record asks it.
[[gnu::always_inline]] inline bool ErrorCandidates::holds_traceback(const LogRecord& r) {
  // Every record asks this. A traceback has lines (a one-line header alone is a docker fragment,
  // which is logged at ERROR and taken as an error): the search for its header only in texts that
  // have a line break.
  const auto holds = [](std::string_view text, std::string_view unescaped) {
    if (!has_line_break(text, unescaped)) return false;
    return text.find(kTracebackMarkers[0]) != std::string_view::npos ||
           text.find(kTracebackMarkers[1]) != std::string_view::npos;
  };
  return holds(r.message, r.unescaped_message) || holds(r.exception, r.unescaped_exception);
}

bool ErrorCandidates::benign(std::string_view message) {
  return benign_.matches(message.substr(0, message.find('\n')), lowered_, found_);
}

// Inlined into screen(): every record below ERROR asks it, and few come from these logs.
[[gnu::always_inline]] inline bool ErrorCandidates::below_error_fragment(const LogRecord& r) {
  // Only the logs that print a program's output one entry a line below ERROR: the Flex Template
  // launcher's (python-docs-samples#4891: every line of the launcher container is an INFO entry)
  // and the job messages. A worker's INFO lines are its own logging, never a split traceback.
  return (r.log == kFragmentLogs[0] || r.log == kFragmentLogs[1]) && below_error_line_fragment(r);
}

std::optional<LineFormats::Read> ErrorCandidates::own_line(const LogRecord& r) const {
  const bool at_error = r.severity >= Severity::kError;
  if (!r.exception.empty() || !formats_.may_read(r.message, at_error) || r.message.find('\n') != std::string_view::npos)
    return std::nullopt;
  return formats_.read(r.message, at_error);
}

std::optional<Severity> ErrorCandidates::first_line_level(const LogRecord& r) const {
  const bool at_error = r.severity >= Severity::kError;
  if (!formats_.may_read(r.message, at_error)) return std::nullopt;
  const auto read = formats_.read(r.message.substr(0, r.message.find('\n')), at_error);
  return read ? read->level : std::nullopt;
}

ErrorCandidates::Screened ErrorCandidates::screen(const LogRecord& r) {
  Screened s;
  s.own = own_line(r);
  const auto& own = s.own;
  if (r.severity >= Severity::kError) {
    // A line that says its own level below ERROR: stderr arrives at ERROR whatever it carries
    // (absl/glog's `I`/`W` lines, TensorFlow's, Python's `WARNING:absl:`, TensorRT's `[TRT] [W]`).
    // Read before the memo: most such lines carry their own timestamp and would only fill it.
    const auto level = own ? own->level : first_line_level(r);
    if (level && *level < Severity::kError && !holds_traceback(r)) return s;
    s.line = verdict_of(r);
    if (s.line != nullptr) {
      if (s.line->benign < 0) s.line->benign = benign(own ? own->text : r.message);
      s.candidate = s.line->benign == 0;
      return s;
    }
  } else if (!holds_traceback(r)) {
    s.below_error = s.candidate = below_error_fragment(r);
    // Relayed output (a model server's lines that Beam re-logs at INFO): a line whose own level is
    // ERROR is an error; one without a level that is a piece of a traceback is held as a fragment.
    if (!s.candidate && own) {
      if (own->level) {
        s.candidate = *own->level >= Severity::kError && !benign(own->text);
      } else {
        s.below_error = s.candidate = is_traceback_fragment(own->text);
      }
    }
    return s;
  }
  s.candidate = !benign(own ? own->text : r.message);
  return s;
}

bool ErrorCandidates::below_error_line_fragment(const LogRecord& r) {
  if (!r.exception.empty() || r.message.find('\n') != std::string_view::npos) return false;
  return is_traceback_fragment(r.message);
}

std::shared_ptr<const CandidateReading> ErrorCandidates::read_text(const LogRecord& r, const Screened& s) {
  auto c = std::make_shared<CandidateReading>();
  const bool below_error = s.below_error;
  const bool one_line = r.exception.empty() && r.message.find('\n') == std::string_view::npos;
  // Another program's line is read without the prefix it was printed with (screen() read it).
  const auto& own = s.own;
  const std::string_view message = own ? own->text : r.message;
  if (below_error || (one_line && is_traceback_fragment(message))) {
    c->fragment = true;
    c->text = crop_text(message, kFragmentBytes);
    if (own) c->process = std::string(own->process);
    return c;
  }
  // The message itself when it is all the text (most are): a copy only to join or crop.
  std::string copy;
  std::string_view text = message;
  if (!r.exception.empty()) {
    copy = std::string(r.message);
    if (!copy.empty()) copy += '\n';
    copy += r.exception;
    text = copy;
  }
  if (text.size() > kCandidateTextBytes) {
    copy = crop_text(text, kCandidateTextBytes);
    text = copy;
  }
  set_group_fields(parse_error_text(text, reading_, /*full=*/false), text, r.step, *c);
  return c;
}

void ErrorCandidates::take(const Screened& s, const LogRecord& r, uint32_t job, size_t entry_index,
                           const std::vector<int>& claimed_by, ChunkObservations& out) {
  ErrorCandidate c;
  c.entry_index = entry_index;
  c.at = r.timestamp;
  c.job = job;
  c.worker = std::string(r.worker);
  c.sdk_worker = std::string(r.sdk_worker);
  c.log = std::string(r.log);
  c.where = r.where;
  c.claimed_by = claimed_by;
  c.below_error = s.below_error;
  if (LineVerdict* v = s.line) {
    // A remembered text's reading is shared, not copied: only the entry's own fields are its own.
    if (!v->reading || v->step_field != r.step) {
      v->reading = read_text(r, s);
      v->step_field = std::string(r.step);
      v->kept_batch = 0;
    }
    c.reading = v->reading;
    // One reading is one group of its job, whose exemplar is its earliest copy (error_groups.h): a
    // copy of this batch and job no earlier than one whose record is kept can never be it, so its
    // record is not copied (green runs repeat their chatter thousands of times). A fragment's
    // record may still stand for the traceback it is reassembled into: kept.
    if (!c.reading->fragment) {
      c.record_left_out = v->kept_batch == batch_ && v->kept_job == job && r.timestamp >= v->kept_at;
      if (!c.record_left_out) {
        v->kept_batch = batch_;
        v->kept_job = job;
        v->kept_at = r.timestamp;
      }
    }
  } else {
    c.reading = read_text(r, s);
  }
  if (!c.record_left_out)
    c.record = std::make_unique<KeptRecord>(r, c.reading->fragment ? kFragmentBytes : kCandidateTextBytes);
  out.errors.push_back(std::move(c));
}

}  // namespace gpudiag::detail
