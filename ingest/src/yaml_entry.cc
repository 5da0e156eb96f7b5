// YAML document → JSON object, through yaml-cpp's event parser; yaml-cpp stays in this file.
#include "yaml_entry.h"

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <istream>
#include <new>
#include <streambuf>
#include <vector>

#include "gpudiag/json_writer.h"

namespace gpudiag::detail {
namespace {

// JSON nesting deeper than this is no LogEntry (simdjson's own limit is 1024; yaml-cpp's 2000).
constexpr size_t kMaxDepth = 256;

// The document's bytes as a stream, without a copy.
class ViewBuffer final : public std::streambuf {
 public:
  explicit ViewBuffer(std::string_view text) {
    char* begin = const_cast<char*>(text.data());  // only ever read
    setg(begin, begin, begin + text.size());
  }
};

// A problem the converter itself finds (yaml-cpp's own come as YAML::ParserException).
struct Refused {
  YAML::Mark mark;
  std::string message;
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// `digits` without the underscores YAML allows between them.
std::string without_underscores(std::string_view digits) {
  std::string out;
  for (char c : digits) {
    if (c != '_') out += c;
  }
  return out;
}

// A run of decimal digits without its leading zeros ("" stays "").
std::string_view strip_zeros(std::string_view digits) {
  while (digits.size() > 1 && digits[0] == '0') digits.remove_prefix(1);
  return digits;
}

// 0b…, 0o…, 0x… as a decimal JSON integer; "" when it is not one or does not fit 64 bits.
std::string radix_integer(std::string_view sign, std::string_view digits, unsigned base) {
  const std::string clean = without_underscores(digits);
  if (clean.empty()) return {};
  uint64_t value = 0;
  for (char c : clean) {
    unsigned d = 0;
    if (is_digit(c)) {
      d = static_cast<unsigned>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      d = static_cast<unsigned>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      d = static_cast<unsigned>(c - 'A' + 10);
    } else {
      return {};
    }
    if (d >= base || value > (UINT64_MAX - d) / base) return {};
    value = value * base + d;
  }
  return fmt::format("{}{}", sign == "-" && value != 0 ? "-" : "", value);
}

// YAML 1.2's float forms (ruamel's resolver) as a JSON number: [-+]?(D.D*|D(e)|.D)(e)? with D a
// digit run that may hold underscores.
std::string float_json(std::string_view sign, std::string_view body) {
  const size_t e = body.find_first_of("eE");
  const std::string_view mantissa = body.substr(0, e);
  const std::string_view exponent = e == std::string_view::npos ? std::string_view() : body.substr(e + 1);
  const size_t dot = mantissa.find('.');
  const std::string_view whole = mantissa.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? std::string_view() : mantissa.substr(dot + 1);
  const auto digits_or_underscores = [](std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return is_digit(c) || c == '_'; });
  };
  if (!digits_or_underscores(whole) || !digits_or_underscores(fraction)) return {};
  if (fraction.find('.') != std::string_view::npos) return {};
  const std::string w = without_underscores(whole), f = without_underscores(fraction);
  if (dot == std::string_view::npos && e == std::string_view::npos) return {};  // an integer
  if (w.empty() && f.empty()) return {};
  if (!whole.empty() && !is_digit(whole[0])) return {};  // "_1.5" is a string
  if (whole.empty() && (dot == std::string_view::npos || f.empty())) return {};
  std::string out(sign == "-" ? "-" : "");
  out += w.empty() ? "0" : std::string(strip_zeros(w));
  if (dot != std::string_view::npos) out += "." + (f.empty() ? std::string("0") : f);
  if (e != std::string_view::npos) {
    std::string_view ex = exponent;
    std::string_view ex_sign;
    if (!ex.empty() && (ex[0] == '+' || ex[0] == '-')) {
      ex_sign = ex.substr(0, 1);
      ex.remove_prefix(1);
    } else if (whole.empty()) {
      return {};  // ".5e3": the leading-dot form needs the exponent's sign
    }
    if (ex.empty() || !std::all_of(ex.begin(), ex.end(), is_digit)) return {};
    out += "e";
    out += ex_sign;
    out += ex;
  }
  return out;
}

class JsonEvents final : public YAML::EventHandler {
 public:
  explicit JsonEvents(std::string& out) : out_(out) {}

  bool wrote_root() const { return root_done_; }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override {
    if (begin_node(mark, "an empty value")) out_ += "null";
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
    throw Refused{mark, "an alias (*name): a log export has none, so it is not read"};
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t, const std::string& value) override {
    if (stack_.empty()) {
      throw Refused{mark, fmt::format("the document is a text (`{}`), not a LogEntry mapping",
                                      std::string_view(value).substr(0, 40))};
    }
    Level& top = stack_.back();
    if (top.map && top.key_next) {
      if (!top.first) out_ += ',';
      top.first = false;
      top.key_next = false;
      append_json_string(out_, value);
      out_ += ':';
      return;
    }
    begin_node(mark, "a text");
    // "?" is a plain scalar's tag: typed by its text. Quoted and block scalars ("!") and any with
    // an explicit tag are strings.
    if (tag == "?") {
      if (std::string typed = plain_scalar_json(value); !typed.empty()) {
        out_ += typed;
        return;
      }
    }
    append_json_string(out_, value);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    if (stack_.empty()) throw Refused{mark, "the document is a list, not a LogEntry mapping"};
    begin_node(mark, "a list");
    open(mark, false);
  }
  void OnSequenceEnd() override { close(']'); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    if (stack_.empty()) {
      if (root_done_) throw Refused{mark, "a second document inside this one"};
    } else {
      begin_node(mark, "a mapping");
    }
    open(mark, true);
  }
  void OnMapEnd() override { close('}'); }

 private:
  struct Level {
    bool map;
    bool key_next;  // a mapping whose next node is a key
    bool first;     // nothing written inside it yet
  };

  // Writes what goes before a value node (a comma in a list) and updates the parent's state.
  // False at the document's root, where only a mapping may stand.
  bool begin_node(const YAML::Mark& mark, std::string_view what) {
    if (stack_.empty()) throw Refused{mark, fmt::format("the document is {}, not a LogEntry mapping", what)};
    Level& top = stack_.back();
    if (top.map) {
      if (top.key_next) throw Refused{mark, fmt::format("a mapping key that is {} (only text keys are read)", what)};
      top.key_next = true;
    } else {
      if (!top.first) out_ += ',';
      top.first = false;
    }
    return true;
  }

  void open(const YAML::Mark& mark, bool map) {
    if (stack_.size() >= kMaxDepth) throw Refused{mark, fmt::format("nested more than {} levels deep", kMaxDepth)};
    out_ += map ? '{' : '[';
    stack_.push_back(Level{map, map, true});
  }

  void close(char bracket) {
    out_ += bracket;
    stack_.pop_back();
    if (stack_.empty()) root_done_ = true;
  }

  std::string& out_;
  std::vector<Level> stack_;
  bool root_done_ = false;
};

// yaml-cpp counts from 0 and marks "no position" with -1.
uint64_t one_based(int n) { return n >= 0 ? static_cast<uint64_t>(n) + 1 : 0; }

// Counts the documents of what follows the first one (there should be none).
class CountingEvents final : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override { first = first.line >= 0 ? first : mark; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
  YAML::Mark first = YAML::Mark::null_mark();
};

// One past the quote `q` that closes a quoted scalar in `line` from `from` on (\" and '' escaped),
// or npos when the line does not close it.
size_t closing_quote(std::string_view line, size_t from, char q) {
  for (size_t i = from; i < line.size(); ++i) {
    if (q == '"' && line[i] == '\\') {
      ++i;
    } else if (line[i] == q) {
      if (q == '\'' && i + 1 < line.size() && line[i + 1] == '\'') {
        ++i;
      } else {
        return i + 1;
      }
    }
  }
  return std::string_view::npos;
}

// yaml-cpp reads a quoted scalar that is never closed to the end of its input, as if it were: a
// document cut inside one (a cut export) would pass for whole. Where such a scalar opens (1-based
// line and column), found by following gcloud's block layout: a value after `key: ` or `- `; the
// lines of a block or plain scalar, indented past its key or dash, are its text (a plain text's
// quote is no quote); flow collections, anchors and tags are left to yaml-cpp.
std::optional<YamlDocumentError> unclosed_quote(std::string_view document) {
  constexpr size_t npos = std::string_view::npos;
  char quote = 0;
  uint64_t opened_line = 0, opened_column = 0;
  size_t inside = npos;  // a block or plain scalar goes on while lines are indented past this column
  uint64_t number = 0;
  for (size_t pos = 0; pos < document.size();) {
    size_t end = document.find('\n', pos);
    if (end == npos) end = document.size();
    std::string_view line = document.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (quote != 0) {
      if (closing_quote(line, 0, quote) != npos) quote = 0;
      continue;
    }
    const auto next = [&](size_t from) { return std::min(line.find_first_not_of(' ', from), line.size()); };
    const size_t indent = next(0);
    if (inside != npos) {
      if (indent == line.size() || indent > inside) continue;
      inside = npos;
    }
    if (indent == line.size() || line[indent] == '#') continue;
    size_t i = indent, parent = indent;
    while (line.substr(i).starts_with("- ") || line.substr(i) == "-") {
      parent = i;
      i = next(i + 1);
    }
    size_t value = i;  // where the line's scalar starts
    if (i < line.size() && (line[i] == '"' || line[i] == '\'')) {
      const size_t close = closing_quote(line, i + 1, line[i]);
      if (close != npos) {
        const size_t colon = next(close);
        if (colon == line.size() || line[colon] != ':') continue;  // a quoted item, closed
        parent = i;
        value = next(colon + 1);
      }
    } else if (const size_t colon = line.find(": ", i); colon != npos) {
      parent = i;
      value = next(colon + 1);
    } else if (line.back() == ':') {
      continue;  // a key whose value is on the lines below
    }
    if (value == line.size()) continue;
    const char c = line[value];
    if (c == '"' || c == '\'') {
      if (closing_quote(line, value + 1, c) == npos) {
        quote = c;
        opened_line = number;
        opened_column = value + 1;
      }
    } else if (c != '[' && c != '{' && c != '&' && c != '*' && c != '!' && c != '#') {
      inside = parent;  // a block scalar, or a plain one: the lines indented past it are its text
    }
  }
  if (quote == 0) return std::nullopt;
  return YamlDocumentError{
      opened_line, opened_column,
      fmt::format("a {}-quoted text that opens here is never closed", quote == '"' ? "double" : "single")};
}

}  // namespace

std::string plain_scalar_json(std::string_view s) {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return "null";
  if (s == "true" || s == "True" || s == "TRUE") return "true";
  if (s == "false" || s == "False" || s == "FALSE") return "false";
  std::string_view sign;
  std::string_view body = s;
  if (body[0] == '-' || body[0] == '+') {
    sign = body.substr(0, 1);
    body.remove_prefix(1);
  }
  if (body.empty() || !(is_digit(body[0]) || body[0] == '.')) return {};
  if (body.size() > 2 && body[0] == '0' && (body[1] == 'b' || body[1] == 'o' || body[1] == 'x')) {
    return radix_integer(sign, body.substr(2), body[1] == 'b' ? 2 : body[1] == 'o' ? 8 : 16);
  }
  if (std::all_of(body.begin(), body.end(), [](char c) { return is_digit(c) || c == '_'; })) {
    if (!is_digit(body[0])) return {};
    return std::string(sign == "-" ? "-" : "") + std::string(strip_zeros(without_underscores(body)));
  }
  return float_json(sign, body);
}

std::optional<YamlDocumentError> yaml_document_to_json(std::string_view document, std::string& json) {
  json.clear();
  if (auto open = unclosed_quote(document)) return open;
  ViewBuffer buffer(document);
  std::istream stream(&buffer);
  try {
    YAML::Parser parser(stream);
    JsonEvents events(json);
    parser.HandleNextDocument(events);
    if (!events.wrote_root()) return YamlDocumentError{1, 1, "the document holds no LogEntry mapping"};
    CountingEvents rest;
    if (parser.HandleNextDocument(rest)) {
      return YamlDocumentError{one_based(rest.first.line), one_based(rest.first.column),
                               "a second YAML document starts here without a `---` line of its own"};
    }
    return std::nullopt;
  } catch (const Refused& r) {
    return YamlDocumentError{one_based(r.mark.line), one_based(r.mark.column), r.message};
  } catch (const YAML::Exception& e) {
    return YamlDocumentError{one_based(e.mark.line), one_based(e.mark.column), e.msg};
  } catch (const std::bad_alloc&) {
    return YamlDocumentError{0, 0, "out of memory reading the document"};
  }
}

}  // namespace gpudiag::detail
