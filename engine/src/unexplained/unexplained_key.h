// How an error's reading becomes its group (docs/unexplained.md, "Grouping"): the key (group_key.h,
// where it is spelled, with its version) and the fields shown for the group, from the parsed text.
#pragma once

#include <string>
#include <string_view>

#include "error_text.h"
#include "gpudiag/rule_pack.h"
#include "group_key.h"
#include "match/match.h"

namespace gpudiag::detail {

std::string line_group_key(std::string_view line_template);

// The first line of `text` that holds more than blanks: what a plain error's body is read for.
std::string_view first_nonblank_line(std::string_view text);

// A message's first line read as an exception line (`ValueError: …`, a launcher's stderr): what RE2
// captures of it with `^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Fault|Failure)): (.*)`
// (read by hand; the same answer: tests/unexplained_test.cc). False when it is none.
bool exception_line_parts(std::string_view line, std::string& type, std::string& message);
std::string group_fingerprint(std::string_view key);

// Sets the reading's key and shown fields from its parsed `text`; `step_field` is the entry's own
// step (jsonPayload.step), used when the text names none. Taken by value: a parse made for the
// reading is moved in, and its strings move on into the reading.
void set_group_fields(ParsedError parsed, std::string_view text, std::string_view step_field, CandidateReading& c);

}  // namespace gpudiag::detail
