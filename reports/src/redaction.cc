#include "gpudiag/redaction.h"

#include <re2/re2.h>

#include <algorithm>
#include <functional>

namespace gpudiag {
namespace {

bool is_word(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

// Replaces every match of `re` in `text` with what `rewrite` makes of its groups (group 0 first).
// RE2 has no look-around, so the checks a look-around would make are in `rewrite`.
std::string replace_each(std::string_view text, const RE2& re,
                         const std::function<std::string(const std::vector<std::string_view>&)>& rewrite) {
  const int n = re.NumberOfCapturingGroups() + 1;
  std::vector<re2::StringPiece> pieces(n);
  std::vector<std::string_view> groups(n);
  std::string out;
  size_t pos = 0;
  size_t copied = 0;
  while (pos <= text.size() && re.Match(text, pos, text.size(), RE2::UNANCHORED, pieces.data(), n)) {
    for (int i = 0; i < n; ++i) groups[i] = std::string_view(pieces[i].data(), pieces[i].size());
    const size_t start = static_cast<size_t>(groups[0].data() - text.data());
    const size_t end = start + groups[0].size();
    out.append(text.substr(copied, start - copied));
    out += rewrite(groups);
    copied = end;
    pos = end > start ? end : end + 1;
  }
  if (copied == 0) return std::string(text);
  out.append(text.substr(copied));
  return out;
}

// Keeps group 1, masks the rest of the match.
std::string keep_prefix(const std::vector<std::string_view>& g, std::string_view mask) {
  return std::string(g[1]) + std::string(mask);
}

const RE2& email_re() {
  static const RE2 re(R"([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})");
  return re;
}
// Query parameters that carry a credential: ?key= &token= &access_token= &sig= &X-Goog-Signature= …
const RE2& query_token_re() {
  static const RE2 re(
      R"((?i)([?&;](?:key|api_?key|token|access_token|id_token|refresh_token|sig|signature|x-goog-signature|)"
      R"(x-goog-credential|x-amz-signature|x-amz-credential|password|passwd|secret|client_secret)=)[^&\s'"<>]+)");
  return re;
}
const RE2& bearer_re() {
  static const RE2 re(R"((?i)(\b(?:bearer|basic)\s+)[A-Za-z0-9._~+/=-]{8,})");
  return re;
}
// --hf_token=… --api_key=… aws_secret_access_key=…: options and settings that hold a secret.
const RE2& option_token_re() {
  static const RE2 re(R"((?i)(\b[A-Za-z0-9_-]*(?:key|token|secret|password|passwd)=)[^\s&'",;]+)");
  return re;
}
// Credentials with a known shape: Google OAuth access tokens, API keys, GitHub and AWS keys.
const RE2& known_secret_re() {
  static const RE2 re(
      R"(\b(?:ya29\.[A-Za-z0-9._-]{20,}|AIza[0-9A-Za-z_-]{35}|gh[pousr]_[A-Za-z0-9]{36,}|AKIA[0-9A-Z]{16}|)"
      R"(xox[abprs]-[A-Za-z0-9-]{10,}))");
  return re;
}
// A long run of base64 or hex: a secret when it mixes letters and digits (checked in code).
const RE2& long_secret_re() {
  static const RE2 re(R"([A-Za-z0-9+_-]{40,}={0,2})");
  return re;
}
const RE2& gcs_bucket_re() {
  static const RE2 re(R"((gs://)[A-Za-z0-9][A-Za-z0-9._-]*)");
  return re;
}
// https://storage.googleapis.com/BUCKET/…, …/storage/v1/b/BUCKET/o/…, projects/_/buckets/BUCKET
const RE2& gcs_url_bucket_re() {
  static const RE2 re(
      R"(((?:storage\.googleapis\.com/(?:(?:upload/|download/)?storage/v1/b/)?)|(?:\bbuckets/))[A-Za-z0-9][A-Za-z0-9._-]*)");
  return re;
}
const RE2& project_path_re() {
  static const RE2 re(R"((\bprojects/)[a-z0-9][a-z0-9-]*[a-z0-9])");
  return re;
}
const RE2& exception_prefix_re() {
  static const RE2 re(R"((?:Error|Exception|Exit|Fault|Warning|Failure)(?:\s*\([^)]*\))?: )");
  return re;
}
const RE2& code_like_re() {
  static const RE2 re(R"([A-Za-z_][A-Za-z0-9_.]*|/[^\s]*|<[a-z]+>)");
  return re;
}

std::string mask_long_secrets(std::string_view text) {
  return replace_each(text, long_secret_re(), [&](const std::vector<std::string_view>& g) {
    const std::string_view s = g[0];
    const size_t start = static_cast<size_t>(s.data() - text.data());
    // Part of a longer word or path segment (a file name, a worker name): not a secret on its own.
    if (start > 0 && (text[start - 1] == '/' || text[start - 1] == '.' || text[start - 1] == ':')) {
      return std::string(s);
    }
    const bool digit = std::any_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    const bool upper = std::any_of(s.begin(), s.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
    const bool lower = std::any_of(s.begin(), s.end(), [](char c) { return c >= 'a' && c <= 'z'; });
    const bool hex = std::all_of(s.begin(), s.end(), [](char c) {
      return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    });
    if ((digit && upper && lower) || (hex && digit && (upper || lower))) return std::string("<token>");
    return std::string(s);
  });
}

bool is_name_char(char c) { return is_word(c) || c == '-' || c == '.'; }

// Whole-word occurrences of each name (a project id or number, a bucket) → `mask`.
std::string mask_names(std::string text, const std::vector<std::string>& names, std::string_view mask) {
  for (const auto& p : names) {
    if (p.size() < 4) continue;  // too short to tell from other words
    std::string out;
    size_t copied = 0;
    for (size_t at = text.find(p); at != std::string::npos; at = text.find(p, at + 1)) {
      const size_t end = at + p.size();
      const bool left = at == 0 || !is_name_char(text[at - 1]);
      // A trailing dot ends a sentence, not the name.
      const bool right = end >= text.size() || !is_name_char(text[end]) ||
                         (text[end] == '.' && (end + 1 >= text.size() || !is_name_char(text[end + 1])));
      if (!left || !right || at < copied) continue;
      out.append(text, copied, at - copied);
      out += mask;
      copied = end;
    }
    if (copied > 0) text = out + text.substr(copied);
  }
  return text;
}

// The buckets named in `text` (gs://BUCKET, storage URLs), added to `buckets`.
void collect_buckets(std::string_view text, std::vector<std::string>& buckets) {
  for (const RE2* re : {&gcs_bucket_re(), &gcs_url_bucket_re()}) {
    replace_each(text, *re, [&](const std::vector<std::string_view>& g) {
      const std::string_view bucket = g[0].substr(g[1].size());
      if (!bucket.empty() && std::find(buckets.begin(), buckets.end(), bucket) == buckets.end()) {
        buckets.emplace_back(bucket);
      }
      return std::string();
    });
  }
}

// A quoted span that reads as code, not data: a type name in `'NoneType' object`, an argument of a
// call such as `dtype('float32')`, an identifier or dotted name, a path, a placeholder, or a short word.
bool quoted_is_code(std::string_view line, size_t open, size_t close) {
  const std::string_view inside = line.substr(open + 1, close - open - 1);
  if (inside.size() <= 3) return true;
  if (open >= 2 && line[open - 1] == '(' && is_word(line[open - 2])) return true;
  if (line.substr(close + 1, 7) == " object") return true;
  // Beam's " [while running 'STEP']": the step is how the user finds the failing transform.
  if (line.substr(0, open).ends_with("[while running ")) return true;
  return RE2::FullMatch(inside, code_like_re());
}

std::string mask_quoted_line(std::string_view line) {
  re2::StringPiece prefix;
  if (!exception_prefix_re().Match(line, 0, line.size(), RE2::UNANCHORED, &prefix, 1)) return std::string(line);
  std::string out;
  size_t copied = 0;
  size_t i = static_cast<size_t>(prefix.data() - line.data()) + prefix.size();
  while (i < line.size()) {
    const char q = line[i];
    if ((q != '\'' && q != '"') || (i > 0 && is_word(line[i - 1]))) {
      ++i;
      continue;
    }
    size_t close = i + 1;
    while (close < line.size() && !(line[close] == q && (close + 1 >= line.size() || !is_word(line[close + 1])))) {
      ++close;
    }
    if (close >= line.size()) break;  // unbalanced: leave the rest
    if (!quoted_is_code(line, i, close)) {
      out.append(line.substr(copied, i + 1 - copied));
      out += "<redacted>";
      copied = close;
    }
    i = close + 1;
  }
  out.append(line.substr(copied));
  return out;
}

std::string mask_quoted(std::string_view text) {
  std::string out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t nl = text.find('\n', start);
    const size_t end = nl == std::string_view::npos ? text.size() : nl;
    out += mask_quoted_line(text.substr(start, end - start));
    if (nl == std::string_view::npos) break;
    out += '\n';
    start = nl + 1;
  }
  return out;
}

void add_project(RedactionTerms& terms, std::string_view p) {
  if (p.empty() || p.front() == '<') return;
  if (std::find(terms.projects.begin(), terms.projects.end(), p) == terms.projects.end()) {
    terms.projects.emplace_back(p);
  }
}

void collect(const Analysis& a, RedactionTerms& terms) {
  add_project(terms, a.job.project);
  for (const auto& f : a.facts) {
    if (f.name != "project" && f.name != "project_id" && f.name != "project_number") continue;
    add_project(terms, f.value);
    for (const auto& s : f.sources) add_project(terms, s.value);
  }
  for (const auto& f : a.facts) collect_buckets(f.value, terms.buckets);
  const auto from_entry = [&](const Evidence& e) {
    add_project(terms, e.entry->project);
    collect_buckets(e.entry->message, terms.buckets);
    collect_buckets(e.entry->exception, terms.buckets);
  };
  for (const auto& f : a.findings) {
    for (const auto& e : f.evidence) from_entry(e);
  }
  for (const auto& g : a.unexplained) from_entry(g.exemplar);
  for (const auto& j : a.jobs) collect(j, terms);
}

class Redactor {
 public:
  explicit Redactor(const RedactionTerms& terms) : terms_(terms) {}

  std::string text(std::string_view s) const { return redact_text(s, terms_); }
  void in_place(std::string& s) const { s = text(s); }

  KeptRecord record(const KeptRecord& kept) const {
    LogRecord r = kept.record();
    const std::string message = text(r.message);
    const std::string exception = text(r.exception);
    const std::string project = r.project.empty() ? std::string() : std::string("<project>");
    r.message = message;
    r.exception = exception;
    r.project = project;
    r.label_count = 0;  // labels may hold anything; no report shows them
    return KeptRecord(r);
  }

  // Redacts `line` and keeps the match span pointing at the redacted match.
  void spanned(std::string& line, size_t& at, size_t& length) const {
    if (at == std::string::npos || at > line.size()) {
      in_place(line);
      return;
    }
    const size_t len = std::min(length, line.size() - at);
    const std::string before = text(std::string_view(line).substr(0, at));
    const std::string match = text(std::string_view(line).substr(at, len));
    const std::string after = text(std::string_view(line).substr(at + len));
    const std::string whole = text(line);
    if (before + match + after == whole) {
      at = before.size();
      length = match.size();
    } else {  // a mask crosses the match's edge: the whole line's masks win, the span is lost
      at = std::string::npos;
      length = 0;
    }
    line = whole;
  }

  void evidence(Evidence& e) const {
    e.entry = record(e.entry);
    for (auto& k : e.before) k = record(k);
    for (auto& k : e.after) k = record(k);
    spanned(e.matched_line, e.match_at, e.match_length);
    for (auto& c : e.captured) in_place(c);
    for (auto& x : e.excerpt) spanned(x.text, x.match_at, x.match_length);
  }

  // A command stays one shell command: a redacted value reads as the docs' placeholders do
  // (`<bucket>` → BUCKET), not as a redirection.
  void command(std::string& c) const {
    const std::string before = c;
    in_place(c);
    if (c == before) return;
    static const RE2 kMarker("<([a-z]+)>");
    std::string out;
    size_t pos = 0;
    const std::string_view text(c);
    re2::StringPiece m[2];
    while (pos <= text.size() && kMarker.Match(text, pos, text.size(), RE2::UNANCHORED, m, 2)) {
      const size_t at = static_cast<size_t>(m[0].data() - text.data());
      out.append(text.substr(pos, at - pos));
      for (const char ch : m[1]) out += static_cast<char>(ch - 'a' + 'A');
      pos = at + m[0].size();
    }
    out.append(text.substr(pos));
    c = std::move(out);
  }

  void finding(Finding& f) const {
    in_place(f.title);
    in_place(f.description);
    in_place(f.confidence_note);
    for (auto& e : f.evidence) evidence(e);
    for (auto& [name, values] : f.captures) {
      for (auto& v : values) in_place(v);
    }
    for (auto& fix : f.fixes) {
      in_place(fix.action);
      in_place(fix.why);
      command(fix.command);
    }
    // identity and the fingerprints stay: they were computed from the raw text, and baselines and
    // run histories name findings by them.
  }

  void group(UnexplainedGroup& g) const {
    in_place(g.template_text);
    in_place(g.exception);
    in_place(g.cause);
    for (auto& line : g.chain) in_place(line);
    in_place(g.first_step.action);
    command(g.first_step.command);
    evidence(g.exemplar);
  }

  void analysis(Analysis& a) const {
    if (!a.job.project.empty()) a.job.project = "<project>";
    for (auto& f : a.findings) finding(f);
    for (auto& i : a.inconclusive) in_place(i.reason);
    for (auto& f : a.facts) {
      in_place(f.value);
      for (auto& s : f.sources) in_place(s.value);
    }
    for (auto& p : a.phases) in_place(p.message);
    for (auto& g : a.unexplained) group(g);
    for (auto& j : a.jobs) analysis(j);
  }

 private:
  const RedactionTerms& terms_;
};

}  // namespace

RedactionTerms redaction_terms(const Analysis& analysis) {
  RedactionTerms terms;
  collect(analysis, terms);
  // Longest first, so a project id that contains another is masked whole.
  const auto longest_first = [](const std::string& a, const std::string& b) { return a.size() > b.size(); };
  std::sort(terms.projects.begin(), terms.projects.end(), longest_first);
  std::sort(terms.buckets.begin(), terms.buckets.end(), longest_first);
  return terms;
}

std::string redact_text(std::string_view text, const RedactionTerms& terms) {
  if (text.empty()) return std::string();
  std::string s = replace_each(text, email_re(), [](const auto&) { return std::string("<email>"); });
  s = replace_each(s, query_token_re(), [](const auto& g) { return keep_prefix(g, "<token>"); });
  s = replace_each(s, bearer_re(), [](const auto& g) { return keep_prefix(g, "<token>"); });
  s = replace_each(s, option_token_re(), [](const auto& g) { return keep_prefix(g, "<token>"); });
  s = replace_each(s, known_secret_re(), [](const auto&) { return std::string("<token>"); });
  s = mask_long_secrets(s);
  std::vector<std::string> buckets = terms.buckets;  // … and those this text names
  collect_buckets(s, buckets);
  std::sort(buckets.begin(), buckets.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  s = replace_each(s, gcs_bucket_re(), [](const auto& g) { return keep_prefix(g, "<bucket>"); });
  s = replace_each(s, gcs_url_bucket_re(), [](const auto& g) { return keep_prefix(g, "<bucket>"); });
  s = replace_each(s, project_path_re(), [](const auto& g) { return keep_prefix(g, "<project>"); });
  s = mask_names(std::move(s), buckets, "<bucket>");
  s = mask_names(std::move(s), terms.projects, "<project>");
  return mask_quoted(s);
}

Analysis redacted(const Analysis& analysis, const RedactionTerms& terms) {
  Analysis out = analysis;
  Redactor(terms).analysis(out);
  return out;
}

Analysis redacted(const Analysis& analysis) { return redacted(analysis, redaction_terms(analysis)); }

}  // namespace gpudiag
