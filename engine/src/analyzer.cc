// analyze(): reads the inputs as ingest's record stream — a MatchingSink per worker thread matches
// each batch of records and gathers the context of its evidence; the batches are merged strictly
// in input order, so the Analysis is the same for any thread count.
#include "gpudiag/analyzer.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "gpudiag/diagnostic_codes.h"
#include "judge/judge.h"
#include "pack/pack.h"
#include "record_pipeline.h"

namespace gpudiag {
namespace {

using detail::ChunkObservations;
using detail::ExportAccumulator;
using detail::LongTextMatcher;
using detail::RecordPipeline;

// What matching made of one batch, on its way to the merge.
struct MatchedBatch : BatchOutput {
  ChunkObservations seen;
};

// Matches the records of batch after batch on one worker thread of the record stream.
class MatchingSink : public RecordSink {
 public:
  explicit MatchingSink(const detail::CompiledRulePack& pack) : pipeline_(pack) { pipeline_.start_chunk(); }

  void record(const LogRecord& r, size_t entry, const LongTextFindings* long_text) override {
    pipeline_.set_long_text(dynamic_cast<const detail::LongTextMatches*>(long_text));
    pipeline_.record(r, entry, out_->seen);
  }

  void summary(const JobSummary& summary, size_t) override { pipeline_.summary(summary, out_->seen); }

  std::unique_ptr<BatchOutput> end_batch(Neighbours& neighbours) override {
    pipeline_.set_long_text(nullptr);
    keep_possible_evidence(out_->seen.hits);
    add_context(neighbours, out_->seen.hits);
    pipeline_.start_chunk();
    return std::exchange(out_, std::make_unique<MatchedBatch>());
  }

 private:
  // The entries around each piece of evidence, for reports that show it in context. Bounded per
  // batch: a rule that matches everything must not copy everything.
  static void add_context(Neighbours& neighbours, std::vector<detail::Hit>& hits) {
    constexpr size_t kMaxPerBatch = 64;
    size_t done = 0;
    const detail::Hit* previous = nullptr;  // the last hit given context
    for (auto& hit : hits) {
      if (!hit.evidence || !hit.record || done++ >= kMaxPerBatch) continue;
      if (previous != nullptr && previous->entry_index == hit.entry_index) {  // several rules, one entry
        hit.before = previous->before;
        hit.after = previous->after;
        continue;
      }
      previous = &hit;
      // An export of several jobs interleaves them: the context is the hit's own job's entries, the
      // nearest of a few on each side (a line of another job beside a stockout reads as its cause).
      const std::string_view job = hit.record->record().job_id;
      hit.before = same_job(neighbours.before(hit.entry_index, kLookAround, detail::kContextTextBytes), job, true);
      hit.after = same_job(neighbours.after(hit.entry_index, kLookAround, detail::kContextTextBytes), job, false);
    }
  }

  static constexpr size_t kNeighbours = 2;
  static constexpr size_t kLookAround = 8;

  // Of `around` (file order), the kNeighbours nearest the hit that belong to `job`: the last ones
  // when they come before it, the first ones after.
  static std::vector<KeptRecord> same_job(std::vector<KeptRecord> around, std::string_view job, bool before) {
    std::erase_if(around, [&](const KeptRecord& k) { return k.record().job_id != job; });
    if (around.size() > kNeighbours) {
      if (before)
        around.erase(around.begin(), around.end() - static_cast<ptrdiff_t>(kNeighbours));
      else
        around.resize(kNeighbours);
    }
    return around;
  }

  // Only the hits that can still be among their signal's kept evidence (its earliest and latest,
  // see SignalHits) keep their copy of the entry: a rule that matches every entry must not carry a
  // copy of each through the merge. Twice as many as are kept, since duplicate entries are only
  // recognised (and dropped) when batches are merged.
  static void keep_possible_evidence(std::vector<detail::Hit>& hits) {
    constexpr size_t kEarliest = 2 * detail::SignalHits::kEarliest;
    constexpr size_t kLatest = 2 * detail::SignalHits::kLatest;
    std::map<int, std::vector<detail::Hit*>> by_signal;
    for (auto& hit : hits) {
      if (hit.signal >= 0 && hit.record) by_signal[hit.signal].push_back(&hit);
    }
    for (auto& entry : by_signal) {
      auto& list = entry.second;
      if (list.size() <= kEarliest + kLatest) continue;
      std::stable_sort(list.begin(), list.end(), [](const detail::Hit* a, const detail::Hit* b) {
        return a->at != b->at ? a->at < b->at : a->where.offset < b->where.offset;  // as earlier() orders refs
      });
      for (size_t i = kEarliest; i + kLatest < list.size(); ++i) {
        list[i]->record.reset();
        std::string().swap(list[i]->matched_line);
      }
    }
  }

  RecordPipeline pipeline_;
  std::unique_ptr<MatchedBatch> out_ = std::make_unique<MatchedBatch>();
};

}  // namespace

Result<Analysis> analyze(const RulePack& pack, const std::vector<std::string>& inputs, const AnalysisOptions& options) {
  Analysis d;
  ExportAccumulator acc(detail::compiled(pack), inputs, options.max_jobs);
  detail::JobAnalyses jobs(detail::compiled(pack), options.select);
  acc.on_finish_early = [&](detail::JobAccumulator& job) { jobs.add(job, true); };
  if (auto status = detail::apply_job_files(options.job_files, acc.pack.catalog, acc.given, &acc.given_by_job);
      !status) {
    return status.error();
  }
  unsigned threads = options.threads;
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());

  const auto start = std::chrono::steady_clock::now();
  auto last_progress = start;
  uint64_t bytes_done = 0, entries_done = 0;  // bytes: of the inputs before the current one
  uint32_t progress_input = 0;
  uint64_t progress_bytes = 0;
  const auto merge = [&](RecordBatch&& batch) {
    entries_done += batch.entries;
    auto& matched = static_cast<MatchedBatch&>(*batch.output);
    acc.add_batch(std::move(matched.seen), [&](size_t entry) { return batch.is_duplicate(entry); });
    if (!options.progress) return;
    if (batch.input != progress_input) {
      bytes_done += progress_bytes;
      progress_input = batch.input;
    }
    progress_bytes = batch.bytes_read;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_progress < std::chrono::milliseconds(250)) return;
    last_progress = now;
    options.progress(
        Progress{bytes_done + progress_bytes, entries_done, std::chrono::duration<double>(now - start).count()});
  };

  detail::LongTextMatcher long_text(detail::compiled(pack));
  StreamSummary read = read_exports(
      inputs,
      StreamOptions{
          .threads = threads, .limits = options.limits, .long_text = &long_text, .interrupt = options.interrupt},
      [&] { return std::make_unique<MatchingSink>(detail::compiled(pack)); }, merge);

  std::vector<InputSummary> summaries;
  for (uint32_t i = 0; i < inputs.size(); ++i) {
    if (!read.inputs[i]) {
      d.input_errors.push_back(read.inputs[i].error());
      summaries.push_back(InputSummary{.path = inputs[i]});
      continue;
    }
    summaries.push_back(std::move(read.inputs[i].value()));
  }
  for (const auto& s : summaries) {
    if (s.not_read_in_full) d.input_errors.push_back(*s.not_read_in_full);
  }
  acc.finish();
  if (!summaries.empty()) {
    for (auto& note : acc.caps_reached()) {
      summaries[0].add_problem(InputProblem{.line = 0, .offset = -1, .skipped_entry = false, .message = note});
    }
  }
  for (auto& s : summaries) {
    d.entries += s.entries;
    d.analysed += s.analysed;
    d.skipped += s.skipped;
    d.duplicates += s.duplicates;
  }
  d.duplicates_windowed = read.duplicates_windowed;
  d.inputs = std::move(summaries);
  jobs.finish(acc, d);
#if defined(__GLIBC__)
  // The jobs' state, the chunks and the duplicate tables are freed by now, much of it in the worker
  // threads' malloc arenas, which glibc keeps resident: given back before the report is rendered
  // on top of it (the render is the peak of a many-job export; docs/performance.md).
  malloc_trim(0);
#endif
  return d;
}

std::vector<std::string> fact_names(const RulePack& pack) {
  std::vector<std::string> out;
  for (const auto& name : detail::compiled(pack).catalog.names()) out.emplace_back(name);
  return out;
}

}  // namespace gpudiag
