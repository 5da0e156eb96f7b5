#include "job_facts.h"

#include <fmt/format.h>
#include <re2/re2.h>
#include <simdjson.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "gpudiag/diagnostic_codes.h"

namespace gpudiag::detail {
namespace {

constexpr int kMaxDepth = 32;

class PythonReprReader {
 public:
  explicit PythonReprReader(std::string_view s) : s_(s) {}

  std::map<std::string, PythonValue> read_dict() {
    std::map<std::string, PythonValue> out;
    skip_ws();
    if (!eat('{')) return out;
    for (;;) {
      skip_ws();
      if (eat('}') || at_end()) return out;
      std::string key;
      if (!read_string(key)) return out;
      skip_ws();
      if (!eat(':')) return out;
      skip_ws();
      PythonValue value;
      if (!read_value(value, 1)) return out;
      out[key] = std::move(value);
      skip_ws();
      if (!eat(',')) return out;
    }
  }

 private:
  bool at_end() const { return i_ >= s_.size(); }
  bool eat(char c) {
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  void skip_ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
  }

  bool read_string(std::string& out) {
    if (at_end() || (s_[i_] != '\'' && s_[i_] != '"')) return false;
    const char quote = s_[i_++];
    while (i_ < s_.size()) {
      const char c = s_[i_++];
      if (c == quote) return true;
      if (c == '\\' && i_ < s_.size()) {
        const char e = s_[i_++];
        out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
      } else {
        out += c;
      }
    }
    return false;  // unterminated: a cropped line
  }

  // Skips a nested value, returning its raw text.
  bool read_raw(std::string& out, int depth) {
    const size_t start = i_;
    PythonValue ignored;
    if (!read_value(ignored, depth)) return false;
    out = std::string(s_.substr(start, i_ - start));
    return true;
  }

  bool read_value(PythonValue& out, int depth) {
    if (depth > kMaxDepth || at_end()) return false;
    const char c = s_[i_];
    if (c == '\'' || c == '"') return read_string(out.text);
    if (c == '[' || c == '(') {
      const char close = c == '[' ? ']' : ')';
      ++i_;
      out.is_list = true;
      for (;;) {
        skip_ws();
        if (eat(close)) return true;
        if (at_end()) return false;
        PythonValue item;
        const size_t start = i_;
        if (!read_value(item, depth + 1)) return false;
        out.items.push_back(item.is_list ? std::string(s_.substr(start, i_ - start)) : item.text);
        skip_ws();
        if (eat(close)) return true;
        if (!eat(',')) return false;
      }
    }
    if (c == '{') {
      ++i_;
      for (;;) {
        skip_ws();
        if (eat('}')) return true;
        if (at_end()) return false;
        std::string ignored;
        if (!read_raw(ignored, depth + 1)) return false;
        skip_ws();
        if (!eat(':')) return false;
        skip_ws();
        if (!read_raw(ignored, depth + 1)) return false;
        skip_ws();
        if (eat('}')) return true;
        if (!eat(',')) return false;
      }
    }
    if (c == '<') {  // <apache_beam.options.value_provider.StaticValueProvider object at 0x7fa38a661520>
      int nesting = 0;
      const size_t start = i_;
      while (i_ < s_.size()) {
        if (s_[i_] == '<') ++nesting;
        if (s_[i_] == '>' && --nesting == 0) {
          ++i_;
          out.text = std::string(s_.substr(start, i_ - start));
          return true;
        }
        ++i_;
      }
      return false;
    }
    const size_t start = i_;  // a bare word: True, None, 4, 1.5
    while (i_ < s_.size() && s_[i_] != ',' && s_[i_] != ']' && s_[i_] != ')' && s_[i_] != '}' && s_[i_] != ' ') ++i_;
    out.text = std::string(s_.substr(start, i_ - start));
    return i_ > start;
  }

  std::string_view s_;
  size_t i_ = 0;
};

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ",") + i;
  return out;
}

bool is_true(std::string_view v) { return v == "True" || v == "true" || v == "1"; }
bool is_false(std::string_view v) { return v == "False" || v == "false" || v == "0"; }
bool is_number(std::string_view v) {
  return !v.empty() && std::all_of(v.begin(), v.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
}

}  // namespace

void JobFacts::set(std::string_view name, std::string value, const FactSource& source, int priority) {
  auto it = facts_.find(name);
  if (it == facts_.end()) {
    it = facts_.emplace(std::string(name), FactValue{}).first;
    ++version_;
  }
  FactValue& f = it->second;
  // The first sources that differ (what, extractor or value): every SDK process echoes the same
  // options, and five copies of one sighting would tell nothing more and cost a job's memory.
  const bool repeat = std::any_of(f.sightings.begin(), f.sightings.end(), [&](const JobFactSource& s) {
    return s.value == value && s.what == source.what && s.extractor == source.extractor;
  });
  if (!repeat && f.sightings.size() < FactValue::kMaxSightings) {
    f.sightings.push_back(JobFactSource{source.what, source.extractor, value, source.input, source.line});
  }
  if (recording_ != nullptr) recording_->emplace_back(name);
  const bool first = f.sightings_total++ == 0;
  if (!first && f.priority >= priority) return;
  f.value = std::move(value);
  f.source = source;
  f.priority = priority;
}

void JobFacts::absorb(const JobFacts& other) {
  ++version_;
  for (const auto& [name, theirs] : other.facts_) {
    auto [it, added] = facts_.try_emplace(name, theirs);
    if (added) continue;
    FactValue& ours = it->second;
    for (const auto& s : theirs.sightings) {
      if (ours.sightings.size() < FactValue::kMaxSightings) ours.sightings.push_back(s);
    }
    ours.sightings_total += theirs.sightings_total;
    if (theirs.priority > ours.priority) {
      ours.value = theirs.value;
      ours.source = theirs.source;
      ours.priority = theirs.priority;
    }
  }
}

void JobFacts::note_more(std::string_view name, uint64_t count) {
  if (auto it = facts_.find(name); it != facts_.end()) it->second.sightings_total += count;
}

const FactValue* JobFacts::get(std::string_view name) const {
  auto it = facts_.find(name);
  return it == facts_.end() ? nullptr : &it->second;
}

int JobFacts::small_number(std::string_view name) const {
  const FactValue* f = get(name);
  int n = 0;
  if (f == nullptr || f->value.empty() || f->value.size() > 4) return 0;
  const char* end = f->value.data() + f->value.size();
  return std::from_chars(f->value.data(), end, n).ptr == end ? n : 0;
}

std::vector<JobFact> JobFacts::list() const {
  std::vector<JobFact> out;
  for (const auto& [name, v] : facts_) {
    out.push_back(JobFact{name, v.value, v.source.what, v.source.input, v.source.line, v.source.extractor, v.sightings,
                          v.sightings_total});
  }
  return out;
}

Options parse_python_dict(std::string_view text) { return PythonReprReader(text).read_dict(); }

void apply_accelerator(std::string_view accelerator, JobFacts& facts, const FactSource& source, int priority) {
  facts.set("accelerator", std::string(accelerator), source, priority);
  facts.set("gpu_requested", "true", source, priority);
  bool driver = false, mps = false, flex = false;
  size_t pos = 0;
  while (pos <= accelerator.size()) {
    // A comma for a semicolon is read as a separator too, so that the tokens written that way are
    // known (accelerator-option-malformed reports the separators, with the corrected value).
    size_t end = accelerator.find_first_of(";,", pos);
    if (end == std::string_view::npos) end = accelerator.size();
    std::string_view token = accelerator.substr(pos, end - pos);
    while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
    while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
    const size_t colon = token.find(':');
    const std::string_view key = token.substr(0, colon);
    const std::string_view value = colon == std::string_view::npos ? std::string_view{} : token.substr(colon + 1);
    if (key == "type")
      facts.set("gpu_type", std::string(value), source, priority);
    else if (key == "count" && is_number(value))
      facts.set("gpu_count", std::string(value), source, priority);
    else if (key == "install-nvidia-driver") {
      driver = true;
      if (!value.empty()) facts.set("driver_version", std::string(value), source, priority);
    } else if (key == "use_nvidia_mps")
      mps = true;
    else if (key == "provisioning_model" && (value == "FLEX_START" || value == "flex_start" || value == "flex-start"))
      flex = true;
    pos = end + 1;
  }
  facts.set("driver_install_requested", driver ? "true" : "false", source, priority);
  facts.set("mps", mps ? "true" : "false", source, priority);
  facts.set("flex_start", flex ? "true" : "false", source, priority);
}

// A token of the worker_accelerator grammar after `type:` (count, the driver, MPS, the provisioning
// model), as it stands alone when Beam has split the option's value at commas.
static bool is_accelerator_token(std::string_view item) {
  static const RE2 token(
      R"((?i)(count:|install[-_]nvidia[-_]drivers?\b|use[-_]nvidia[-_]mps\b|provisioning[-_]model:).*)");
  return RE2::FullMatch(re2::StringPiece(item.data(), item.size()), token);
}

void apply_options(const Options& options, const FactCatalog& catalog, JobFacts& facts, const FactSource& source,
                   int priority) {
  // The option of `fact`, by the first of its spellings (catalog.yaml's option_names) that is set.
  const auto find = [&](std::string_view fact) -> const PythonValue* {
    for (const auto& name : catalog.option_names(fact)) {
      auto it = options.find(name);
      if (it != options.end() && it->second.text != "None") return &it->second;
    }
    return nullptr;
  };
  const auto items = [](const PythonValue* v) {
    if (v == nullptr) return std::vector<std::string>{};
    return v->is_list ? v->items : std::vector<std::string>{v->text};
  };
  std::vector<std::string> service = items(find("service_options"));
  std::vector<std::string> experiments = items(find("experiments"));
  facts.set("service_options", join(service), source, priority);
  facts.set("experiments", join(experiments), source, priority);
  bool accelerator = false;
  for (const auto* list : {&service, &experiments}) {
    for (size_t i = 0; i < list->size(); ++i) {
      const std::string& option = (*list)[i];
      if (option.rfind("worker_accelerator=", 0) == 0) {
        // Beam splits a list option's value at commas (_smart_split), so a worker_accelerator written
        // with commas arrives as `worker_accelerator=type:…` followed by its other tokens as items of
        // their own: join them back, as the user wrote the value.
        std::string value = option.substr(19);
        while (i + 1 < list->size() && is_accelerator_token((*list)[i + 1])) value += "," + (*list)[++i];
        apply_accelerator(value, facts, source, priority);
        accelerator = true;
      }
      if (option == "enable_prime") facts.set("prime", "true", source, priority);
    }
  }
  if (!accelerator) {
    facts.set("gpu_requested", "false", source, priority);
  }
  if (std::find(service.begin(), service.end(), "enable_prime") == service.end()) {
    facts.set("prime", "false", source, priority);
  }
  const auto has_experiment = [&](std::string_view e) {
    return std::find(experiments.begin(), experiments.end(), e) != experiments.end();
  };
  if (has_experiment("disable_runner_v2") || has_experiment("disable_prime_runner_v2")) {
    facts.set("runner_v2", "false", source, priority);
  } else if (has_experiment("use_runner_v2") || has_experiment("use_unified_worker") ||
             has_experiment("use_portable_job_submission")) {
    facts.set("runner_v2", "true", source, priority);
  }
  // Options whose value is the fact's value, as the catalog types it (a bool in Python's or JSON's
  // spelling: `'streaming': True`, `"usePublicIps": false`).
  for (const auto& [fact, names] : catalog.all_option_names()) {
    const FactDef* def = catalog.find(fact);
    if (def == nullptr) continue;
    if (fact == "service_options" || fact == "experiments" || fact == "accelerator_hint") continue;  // lists, above
    const PythonValue* v = find(fact);
    if (v == nullptr || v->is_list) continue;
    if (def->type == FactType::kBool) {
      if (is_true(v->text) || is_false(v->text)) facts.set(fact, is_true(v->text) ? "true" : "false", source, priority);
    } else if (valid_fact_value(def->type, v->text)) {
      facts.set(fact, v->text, source, priority);
    }
  }
  if (facts.get("sdk_container_image") != nullptr) facts.set("custom_container", "true", source, priority);
  if (facts.get("worker_zone") != nullptr) facts.set("zone_pinned", "true", source, priority);
  for (const auto& hint : items(find("accelerator_hint"))) {
    if (hint.rfind("accelerator=", 0) == 0) {
      facts.set("accelerator_hint", hint.substr(12), source, priority);
      facts.set("gpu_requested", "true", source, priority);
    }
  }
}

// The length of the JSON object `text` starts with (strings and nesting respected), or all of it.
static size_t json_object_length(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      return i + 1;
    }
  }
  return text.size();
}

Options parse_json_options(std::string_view text) {
  Options out;
  text = text.substr(0, json_object_length(text));  // the object the decoder was pointed at, not what follows
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(text.data(), text.size()).get(root)) return out;
  simdjson::dom::object object;
  if (root["options"].get_object().get(object) && root.get_object().get(object)) return out;
  for (auto [key, value] : object) {
    PythonValue v;
    std::string_view s;
    int64_t n;
    bool b;
    simdjson::dom::array array;
    if (!value.get_string().get(s)) {
      v.text = std::string(s);
    } else if (!value.get_int64().get(n)) {
      v.text = std::to_string(n);
    } else if (!value.get_bool().get(b)) {
      v.text = b ? "True" : "False";
    } else if (!value.get_array().get(array)) {
      v.is_list = true;
      for (auto item : array) {
        if (!item.get_string().get(s)) v.items.emplace_back(s);
      }
    } else {
      continue;
    }
    out[std::string(key)] = std::move(v);
  }
  return out;
}

std::vector<std::string> apply_extraction(const FactExtractorSpec& extractor, const FactCatalog& catalog,
                                          const Hit& hit, JobFacts& facts, ObserverOutput& out, DecodeCache& cache) {
  const FactSource source{fmt::format("{} entry", hit.log.empty() ? "log" : hit.log), static_cast<int>(hit.where.input),
                          hit.where.line, extractor.id};
  std::vector<std::string> set;
  for (const auto& a : extractor.sets) {
    std::string value = expand_template(a.value, hit.captures);
    const FactDef* def = catalog.find(a.fact);
    if (def == nullptr || !valid_fact_value(def->type, value)) continue;  // a group that did not take part
    facts.set(a.fact, std::move(value), source, extractor.priority);
    set.push_back(a.fact);
  }
  if (extractor.decoder != Decoder::kNone && !hit.text.empty()) {
    if (cache.text != hit.text) {
      cache.options =
          extractor.decoder == Decoder::kPythonDict ? parse_python_dict(hit.text) : parse_json_options(hit.text);
      cache.text = hit.text;
    }
    const Options& options = cache.options;
    if (!options.empty()) {
      facts.record_names(&set);
      apply_options(options, catalog, facts, source, extractor.priority);
      facts.record_names(nullptr);
    }
  }
  if (!extractor.worker_count.empty() && hit.at != kNoTime) {
    const std::string n = expand_template(extractor.worker_count, hit.captures);
    if (!n.empty() && valid_fact_value(FactType::kNumber, n) && n.find('.') == std::string::npos) {
      if (out.worker_counts.size() >= ObserverOutput::kMaxWorkerCounts) {
        ++out.worker_counts_dropped;
      } else {
        out.worker_counts.push_back(WorkerCountPoint{hit.at, static_cast<uint32_t>(std::stoul(n.substr(0, 9)))});
      }
    }
  }
  if (!extractor.phase.empty()) {
    const std::string_view phase = extractor.phase;
    const auto same =
        std::count_if(out.phases.begin(), out.phases.end(), [&](const JobPhase& p) { return p.phase == phase; });
    if (static_cast<size_t>(same) >= ObserverOutput::kMaxPhasesPerKind) {
      ++out.phases_dropped;
    } else {
      out.phases.push_back(JobPhase{hit.at, extractor.phase, hit.text});
    }
  }
  return set;
}

}  // namespace gpudiag::detail
