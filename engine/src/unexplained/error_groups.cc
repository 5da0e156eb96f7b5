#include "error_groups.h"

#include <algorithm>
#include <array>

#include "error_text.h"
#include "group_key.h"
#include "pack/pack.h"
#include "unexplained_key.h"

namespace gpudiag::detail {
namespace {

constexpr size_t kMaxWorkersCounted = 1000;  // distinct workers told apart per group
// The template miner of one job's plain error lines: a few hundred distinct lines is a lot for a job.
// The tree's prefix tokens as `gpudiag patterns` has them (chosen on Loghub-2k, bench/RESULTS-miner-loso.md).
constexpr MinerLimits kJobMinerLimits{.max_clusters = 1000, .max_bytes = 1u << 20, .prefix_tokens = 2};

// Time, then place: the byte offset, as a one-line JSON array holds every entry on line 1.
bool earlier(Timestamp at, const SourceLocation& w, Timestamp than_at, uint32_t than_input, uint64_t than_offset) {
  if (at != than_at) return at < than_at;
  if (w.input != than_input) return w.input < than_input;
  return w.offset < than_offset;
}

// Keeps the earliest copy of each log. try_emplace: emplace would build a node (and copy the name)
// for every copy of every group, to throw it away when the log is there already.
void note_log(std::map<std::string, std::pair<Timestamp, SourceLocation>>& logs, const std::string& log, Timestamp at,
              const SourceLocation& where) {
  auto [it, added] = logs.try_emplace(log, at, where);
  if (!added && earlier(at, where, it->second.first, it->second.second.input, it->second.second.offset)) {
    it->second = {at, where};
  }
}

}  // namespace

bool ErrorGroups::hold(uint64_t bytes) {
  if (budget_ != nullptr && !budget_->take(bytes)) {
    capped_ = true;
    return false;
  }
  bytes_held_ += bytes;
  return true;
}

namespace {

// What a kept record costs the budget: its text, and a little for the rest.
uint64_t kept_bytes(const KeptRecord& r) { return r->message.size() + r->exception.size() + 256; }

}  // namespace

void ErrorGroups::add(ErrorCandidate&& c) {
  const std::string& line = c.reading->text;
  if (!c.reading->fragment) {
    add_parsed(std::move(c));
    return;
  }
  if (fragment_count_ >= kMaxFragments || !hold(line.size() + (c.record ? kept_bytes(*c.record) : 0))) {
    capped_ = true;
    if (c.below_error) return;  // below ERROR, a line alone is no candidate
    // too many pending: this line stands alone (a reading of its own: readings are shared)
    auto alone = std::make_shared<CandidateReading>(*c.reading);
    alone->fragment = false;
    alone->matched_line = alone->text;
    alone->message_template = mask_message(alone->text);
    c.reading = std::move(alone);
    add_parsed(std::move(c));
    return;
  }
  ++fragment_count_;
  // The printing process within its SDK process: two SDK processes' servers may reuse a pid.
  fragments_[{c.worker, c.log, c.below_error, c.reading->process + '\x1f' + c.sdk_worker}].push_back(
      Fragment{c.at, c.where, std::move(c.sdk_worker), line, std::move(c.claimed_by), std::move(c.record)});
}

ErrorGroups::Group* ErrorGroups::group_for(const std::string& key, const std::string& message_template) {
  if (key.empty()) {
    if (!miner_) {
      // A job's miner may grow to its byte cap: reserved from the export's budget up front, so that
      // many jobs with plain error lines cannot hold a miner each past the memory cap.
      if (!hold(kJobMinerLimits.max_bytes)) return past_cap();
      miner_ = std::make_unique<TemplateMiner>(kJobMinerLimits);
    }
    const size_t template_id = miner_->add_masked(message_template);  // set_group_fields masked it
    if (auto it = by_template_.find(template_id); it != by_template_.end()) return &groups_[it->second];
    if (groups_.size() >= kMaxGroups) return past_cap();
    by_template_.emplace(template_id, groups_.size());
  } else {
    if (auto it = by_key_.find(key); it != by_key_.end()) return &groups_[it->second];
    if (groups_.size() >= kMaxGroups) return past_cap();
    by_key_.emplace(key, groups_.size());
  }
  Group g;
  g.shown.key = key;
  g.first_template = message_template;
  groups_.push_back(std::move(g));
  return &groups_.back();
}

ErrorGroups::Group* ErrorGroups::past_cap() {
  capped_ = true;
  ++entries_past_cap_;
  return nullptr;
}

void ErrorGroups::add_parsed(ErrorCandidate&& c) {
  const CandidateReading& read = *c.reading;
  Group* g = group_for(read.key, read.message_template);
  if (g == nullptr) return;
  UnexplainedGroup& s = g->shown;
  ++s.count;
  if (s.first_seen == kNoTime || (c.at != kNoTime && c.at < s.first_seen)) s.first_seen = c.at;
  if (c.at != kNoTime && (s.last_seen == kNoTime || c.at > s.last_seen)) s.last_seen = c.at;
  if (!c.worker.empty() && g->workers.size() < kMaxWorkersCounted) g->workers.insert(c.worker);
  if (!c.sdk_worker.empty() && g->processes.size() < kMaxWorkersCounted) {
    g->processes.insert(c.worker + '\x1f' + c.sdk_worker);
  }
  note_log(g->logs, c.log, c.at, c.where);
  g->claimed_by.insert(c.claimed_by.begin(), c.claimed_by.end());
  if (c.claimed_by.empty()) ++g->unclaimed;
  // The exemplar: the earliest whole copy (a cut copy only while no whole one was seen).
  bool better = !g->has_exemplar || (s.truncated && !read.truncated) ||
                (s.truncated == read.truncated &&
                 earlier(c.at, c.where, s.exemplar.entry->timestamp, g->exemplar_input, g->exemplar_offset));
  // A copy may name what the exemplar's copy does not (the job message names the step, the
  // docker lines do not).
  if (!better && s.step.empty() && !read.step.empty()) s.step = read.step;
  if (!better && !s.user_frame && read.user_frame) s.user_frame = read.user_frame;
  // Left out, it is not the earliest of its batch, better only when that one found the budget spent.
  if (better && c.record_left_out) better = false;
  if (better && c.record && !hold(kept_bytes(*c.record))) better = false;  // the export's budget is spent
  if (!better && !g->has_exemplar) ++entries_past_cap_;                    // … and the group has none
  if (better && c.record) {
    s.exemplar = Evidence{std::move(*c.record), read.matched_line, {}, {}};
    g->has_exemplar = true;
    g->exemplar_input = c.where.input;
    g->exemplar_offset = c.where.offset;
    s.truncated = read.truncated;
    s.exception = read.exception_line;
    s.exception_type = read.exception_type;
    s.template_text = read.message_template;
    s.chain = read.chain;
    s.generic = read.generic;
    s.cause = read.cause;
    if (read.user_frame) s.user_frame = read.user_frame;  // else the one another copy named
    if (!read.step.empty()) s.step = read.step;
  }
}

void ErrorGroups::absorb(ErrorGroups&& other) {
  // The unattributed entries are few (a launcher's lines): replayed as candidates of this job.
  for (auto& [where, lines] : other.fragments_) {
    for (auto& f : lines) fragments_[where].push_back(std::move(f));
    fragment_count_ += lines.size();
  }
  for (auto& g : other.groups_) {
    Group* mine = group_for(g.shown.key, g.first_template);
    if (mine == nullptr) continue;
    UnexplainedGroup& s = mine->shown;
    const bool empty = s.count == 0;
    s.count += g.shown.count;
    for (auto& w : g.workers) {
      if (mine->workers.size() < kMaxWorkersCounted) mine->workers.insert(w);
    }
    for (auto& p : g.processes) {
      if (mine->processes.size() < kMaxWorkersCounted) mine->processes.insert(p);
    }
    for (const auto& [log, at] : g.logs) note_log(mine->logs, log, at.first, at.second);
    mine->claimed_by.insert(g.claimed_by.begin(), g.claimed_by.end());
    mine->unclaimed += g.unclaimed;
    if (empty || (g.shown.first_seen != kNoTime && g.shown.first_seen < s.first_seen)) {
      const uint64_t count = s.count;
      const Timestamp last = std::max(s.last_seen, g.shown.last_seen);
      s = std::move(g.shown);
      s.count = count;
      s.last_seen = last;
      mine->has_exemplar = g.has_exemplar;
      mine->exemplar_input = g.exemplar_input;
      mine->exemplar_offset = g.exemplar_offset;
    } else {
      s.last_seen = std::max(s.last_seen, g.shown.last_seen);
    }
  }
  entries_past_cap_ += other.entries_past_cap_;
  bytes_held_ += other.bytes_held_;  // the same budget: what it held is now held here
  other.bytes_held_ = 0;
  capped_ = capped_ || other.capped_;
}

void ErrorGroups::reassemble(const ReadingRules& rules) {
  for (auto& [where, lines] : fragments_) {
    // Time order, whatever order the export holds them in (gcloud prints the newest first).
    std::stable_sort(lines.begin(), lines.end(), [](const Fragment& a, const Fragment& b) {
      return earlier(a.at, a.where, b.at, b.where.input, b.where.offset);
    });
    size_t i = 0;
    while (i < lines.size()) {
      size_t end = i + 1;
      while (end < lines.size() && lines[end].at - lines[end - 1].at <= kFragmentGap &&
             lines[end].text.rfind("Traceback (most recent call last)", 0) != 0) {
        ++end;
      }
      std::string text;
      std::vector<int> claimed_by;
      for (size_t k = i; k < end; ++k) {
        if (k > i) text += '\n';
        text += lines[k].text;
        claimed_by.insert(claimed_by.end(), lines[k].claimed_by.begin(), lines[k].claimed_by.end());
      }
      const Fragment& first = lines[i];
      const ParsedError parsed = parse_error_text(text, rules);
      // Lines logged below ERROR are a candidate only as a whole traceback: its header first and
      // an exception line. An INFO line that merely looks like a piece of one (a handled warning's
      // `File "…"` line, an `ImportError:` a library logs and recovers from) is left out.
      if (std::get<2>(where) &&
          (first.text.rfind("Traceback (most recent call last)", 0) != 0 || parsed.exception_type.empty())) {
        i = end;
        continue;
      }
      ErrorCandidate c;
      c.at = first.at;
      c.where = first.where;
      c.worker = std::get<0>(where);
      c.sdk_worker = first.sdk_worker;
      c.log = std::get<1>(where);
      c.claimed_by = std::move(claimed_by);
      auto reading = std::make_shared<CandidateReading>();
      set_group_fields(parsed, text, "", *reading);
      c.reading = std::move(reading);
      {
        // The exemplar is the reassembled traceback, in the first line's envelope.
        const Fragment* with_record = nullptr;
        for (size_t k = i; k < end && with_record == nullptr; ++k) {
          if (lines[k].record) with_record = &lines[k];
        }
        if (with_record != nullptr) {
          LogRecord r = with_record->record->record();
          r.message = text;
          r.timestamp = first.at;
          r.where = first.where;
          c.record = std::make_unique<KeptRecord>(r);
        }
      }
      add_parsed(std::move(c));
      i = end;
    }
  }
  fragments_.clear();
}

// The prelude of a generic error no line of its chain explains (docs/unexplained.md, "The cause
// chain"): what the same worker logged at error just before it — a library logs its reason, then
// the caller raises a generic error (TensorRT's `[TRT] [E] … Version tag does not match` before
// `'NoneType' object has no attribute 'create_execution_context'`; cuDNN's `Loaded runtime CuDNN
// library: 8.5.0 but source was compiled with: 8.6.0` before `DNN library initialization failed`).
// The latest such error of another group, neither generic nor advice, within kPreludeWindow before
// the generic error's first copy, names its cause.
namespace {

// The logs a worker's processes write to (the SDK harness's logging, their stderr, the runner
// harness): what a process logged before it raised is there, not in kubelet's or the VM's logs.
constexpr std::array<std::string_view, 3> kProcessLogs = {"worker", "docker", "harness"};
bool process_log(std::string_view log) {
  return std::find(kProcessLogs.begin(), kProcessLogs.end(), log) != kProcessLogs.end();
}

}  // namespace

void ErrorGroups::find_preludes(std::vector<UnexplainedGroup>& groups, const CauseLines& causes) {
  for (auto& g : groups) {  // a plain line's own (error_text.cc asks only of texts with a chain)
    if (!g.generic && g.exception.empty()) g.generic = causes.is_generic(g.exemplar.matched_line);
  }
  for (auto& g : groups) {
    if (!g.generic || !g.cause.empty() || g.first_seen == kNoTime) continue;
    const std::string_view worker = g.exemplar.entry->worker;
    if (worker.empty()) continue;  // a job message or a line of no worker: no process logged before it
    const UnexplainedGroup* prelude = nullptr;
    for (const auto& p : groups) {
      if (&p == &g || p.generic || p.first_seen == kNoTime) continue;
      // Strictly before: what was logged with it or after (a launcher's "Template launch failed")
      // reports the failure, it did not cause it.
      if (p.first_seen >= g.first_seen || g.first_seen - p.first_seen > kPreludeWindow) continue;
      if (p.exemplar.entry->worker != worker || !process_log(p.exemplar.entry->log)) continue;
      if (p.truncated && p.exception.empty()) continue;  // a cut copy, of this error or another
      const std::string_view line = p.exception.empty() ? std::string_view(p.exemplar.matched_line) : p.exception;
      if (line.empty() || causes.is_advice(line)) continue;
      if (prelude == nullptr || p.first_seen >= prelude->first_seen) prelude = &p;
    }
    if (prelude == nullptr) continue;
    g.cause = prelude->exception.empty() ? prelude->exemplar.matched_line : prelude->exception;
    if (g.cause.size() > kMaxChainLine) g.cause.resize(kMaxChainLine);
    g.cause_group = prelude->fingerprint;
  }
}

std::vector<UnexplainedGroup> ErrorGroups::finish(const ReadingRules& rules, const std::function<bool(int rule)>& fired,
                                                  const std::function<bool(int rule)>& symptom) {
  const auto explains = [&](int rule) { return fired(rule) && !(symptom && symptom(rule)); };
  reassemble(rules);
  // A cut copy (the job message's flattened traceback, cut before its exception) joins the whole
  // copy of the same user frame.
  for (auto& g : groups_) {
    if (g.shown.count == 0) continue;
    const auto cut = GroupKey::parse(g.shown.key);
    if (!cut || cut->kind != GroupKey::Kind::kCut) continue;
    for (auto& whole : groups_) {
      if (&whole == &g || whole.shown.count == 0) continue;
      const auto key = GroupKey::parse(whole.shown.key);
      if (!key || key->kind != GroupKey::Kind::kException || key->frame != cut->frame) continue;
      whole.shown.count += g.shown.count;
      for (const auto& [log, at] : g.logs) note_log(whole.logs, log, at.first, at.second);
      whole.claimed_by.insert(g.claimed_by.begin(), g.claimed_by.end());
      whole.unclaimed += g.unclaimed;
      for (auto& w : g.workers) {
        if (whole.workers.size() < kMaxWorkersCounted) whole.workers.insert(w);
      }
      for (auto& p : g.processes) {
        if (whole.processes.size() < kMaxWorkersCounted) whole.processes.insert(p);
      }
      whole.shown.first_seen = std::min(whole.shown.first_seen, g.shown.first_seen);
      whole.shown.last_seen = std::max(whole.shown.last_seen, g.shown.last_seen);
      g.shown.count = 0;
      break;
    }
  }
  std::vector<UnexplainedGroup> out;
  for (auto& [template_id, index] : by_template_) {
    Group& g = groups_[index];
    const std::string t = miner_->template_of(template_id);
    g.shown.key = line_group_key(t);
    g.shown.template_text = t;
  }
  for (auto& g : groups_) {
    UnexplainedGroup& s = g.shown;
    if (s.count == 0 || !g.has_exemplar) continue;
    if (std::any_of(g.claimed_by.begin(), g.claimed_by.end(), explains)) continue;  // a cause rule explains it
    // every entry of it is a fired symptom's evidence
    if (g.unclaimed == 0 && std::any_of(g.claimed_by.begin(), g.claimed_by.end(), fired)) continue;
    s.fingerprint = group_fingerprint(s.key);
    s.workers_total = g.workers.size();
    s.sdk_processes = g.processes.size();
    for (const auto& w : g.workers) {
      if (s.workers.size() < kMaxListedWorkers) s.workers.push_back(w);
    }
    const std::string own_log(s.exemplar.entry->log);
    for (const auto& [log, at] : g.logs) {
      if (log == own_log) continue;
      s.also_in.push_back(log);
      s.also_at.push_back(at.second);
    }
    out.push_back(std::move(s));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const UnexplainedGroup& a, const UnexplainedGroup& b) { return a.first_seen < b.first_seen; });
  find_preludes(out, rules.causes);
  groups_.clear();
  by_key_.clear();
  by_template_.clear();
  if (budget_ != nullptr) budget_->give_back(bytes_held_);  // the groups now belong to the job's Analysis
  bytes_held_ = 0;
  return out;
}

}  // namespace gpudiag::detail
