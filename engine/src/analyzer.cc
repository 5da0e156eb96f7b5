// analyze(): reads inputs chunk by chunk, parses and matches chunks on worker threads, and merges
// the results strictly in input order, so the Diagnosis is the same for any thread count.
#include "gpudiag/analyzer.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "evaluator.h"
#include "fact_catalog.h"
#include "gpudiag/diagnostic_codes.h"
#include "job_accumulator.h"
#include "record_matcher.h"

namespace gpudiag {
namespace {

using detail::ChunkObservations;
using detail::JobAccumulator;
using detail::LongTextMatcher;
using detail::RecordMatcher;

struct ParsedChunk {
  Chunk chunk;
  ChunkReport report;
  ChunkObservations seen;
};

// Parses and matches one chunk. One per thread.
class ChunkWorker {
 public:
  explicit ChunkWorker(const detail::CompiledRulePack& pack) : matcher_(pack) {}

  // The entries around each piece of evidence, for reports that show it in context. Bounded per
  // chunk: a rule that matches everything must not copy everything.
  void add_context(const Chunk& chunk, ParsedChunk& out) {
    constexpr size_t kMaxPerChunk = 64;
    constexpr size_t kNeighbours = 2;
    size_t done = 0;
    const detail::Hit* previous = nullptr;  // the last hit given context
    for (auto& hit : out.seen.hits) {
      if (!hit.evidence || !hit.record || done++ >= kMaxPerChunk) continue;
      if (previous != nullptr && previous->entry_index == hit.entry_index) {  // several rules, one entry
        hit.before = previous->before;
        hit.after = previous->after;
        continue;
      }
      previous = &hit;
      for (size_t k = kNeighbours; k >= 1; --k) {
        if (hit.entry_index >= k) {
          if (auto r = parser_.reparse(chunk, hit.entry_index - k, detail::kContextTextBytes))
            hit.before.push_back(std::move(*r));
        }
      }
      for (size_t k = 1; k <= kNeighbours; ++k) {
        if (auto r = parser_.reparse(chunk, hit.entry_index + k, detail::kContextTextBytes))
          hit.after.push_back(std::move(*r));
      }
    }
  }

  // Only the hits that can still be among their signal's kept evidence (its earliest and latest,
  // see SignalHits) keep their copy of the entry: a rule that matches every entry must not carry a
  // copy of each through the merge. Twice as many as are kept, since duplicate entries are only
  // recognised (and dropped) when chunks are merged.
  static void keep_possible_evidence(std::vector<detail::Hit>& hits) {
    constexpr size_t kEarliest = 2 * detail::SignalHits::kEarliest;
    constexpr size_t kLatest = 2 * detail::SignalHits::kLatest;
    std::map<int, std::vector<detail::Hit*>> by_signal;
    for (auto& hit : hits) {
      if (hit.signal >= 0 && hit.record) by_signal[hit.signal].push_back(&hit);
    }
    for (auto& [signal, list] : by_signal) {
      if (list.size() <= kEarliest + kLatest) continue;
      std::stable_sort(list.begin(), list.end(), [](const detail::Hit* a, const detail::Hit* b) {
        return a->at != b->at ? a->at < b->at : a->where.line < b->where.line;  // as earlier() orders refs
      });
      for (size_t i = kEarliest; i + kLatest < list.size(); ++i) {
        list[i]->record.reset();
        std::string().swap(list[i]->matched_line);
      }
    }
  }

  ParsedChunk run(Chunk chunk) {
    ParsedChunk out;
    matcher_.start_chunk();
    matcher_.set_long_text(dynamic_cast<const detail::LongTextMatches*>(chunk.long_text.get()));
    out.report = parser_.parse(chunk, [&](const LogRecord& r, size_t entry) { matcher_.match(r, entry, out.seen); });
    matcher_.set_long_text(nullptr);
    keep_possible_evidence(out.seen.hits);
    add_context(chunk, out);
    out.chunk = std::move(chunk);
    out.chunk.buffer.reset();  // the bytes are no longer needed; only the position is
    return out;
  }

 private:
  ChunkParser parser_;
  RecordMatcher matcher_;
};

// A fixed pool that takes chunks in order and hands results back in the same order.
class OrderedPool {
 public:
  OrderedPool(const detail::CompiledRulePack& pack, unsigned threads) : max_in_flight_(threads * 2) {
    for (unsigned i = 0; i < threads; ++i) {
      threads_.emplace_back([this, &pack] {
        ChunkWorker worker(pack);
        for (;;) {
          std::pair<uint64_t, Chunk> task;
          {
            std::unique_lock lock(mutex_);
            task_cv_.wait(lock, [&] { return closing_ || !tasks_.empty(); });
            if (tasks_.empty()) return;
            task = std::move(tasks_.front());
            tasks_.pop_front();
          }
          ParsedChunk result = worker.run(std::move(task.second));
          {
            std::lock_guard lock(mutex_);
            done_.emplace(task.first, std::move(result));
          }
          done_cv_.notify_all();
        }
      });
    }
  }
  ~OrderedPool() {
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
    }
    task_cv_.notify_all();
    for (auto& t : threads_) t.join();
  }
  OrderedPool(const OrderedPool&) = delete;
  OrderedPool& operator=(const OrderedPool&) = delete;

  // Queues a chunk; first hands every finished result that is next in order to `merge`, and waits
  // while too many chunks are in flight (that bounds memory).
  template <typename Merge>
  void submit(Chunk chunk, Merge&& merge) {
    std::unique_lock lock(mutex_);
    for (;;) {
      drain_ready(lock, merge);
      if (submitted_ - merged_ < max_in_flight_) break;
      done_cv_.wait(lock, [&] { return done_.count(merged_) > 0; });
    }
    tasks_.emplace_back(submitted_++, std::move(chunk));
    lock.unlock();
    task_cv_.notify_one();
  }

  template <typename Merge>
  void finish(Merge&& merge) {
    std::unique_lock lock(mutex_);
    while (merged_ < submitted_) {
      done_cv_.wait(lock, [&] { return done_.count(merged_) > 0; });
      drain_ready(lock, merge);
    }
  }

 private:
  template <typename Merge>
  void drain_ready(std::unique_lock<std::mutex>& lock, Merge& merge) {
    for (auto it = done_.find(merged_); it != done_.end(); it = done_.find(merged_)) {
      ParsedChunk result = std::move(it->second);
      done_.erase(it);
      ++merged_;
      lock.unlock();
      merge(std::move(result));
      lock.lock();
    }
  }

  size_t max_in_flight_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable task_cv_, done_cv_;
  std::deque<std::pair<uint64_t, Chunk>> tasks_;
  std::map<uint64_t, ParsedChunk> done_;
  uint64_t submitted_ = 0;
  uint64_t merged_ = 0;
  bool closing_ = false;
};

void merge_reader_summary(const InputSummary& from, InputSummary& into) {
  into.shape = from.shape;
  into.gzip = from.gzip;
  into.bytes = from.bytes;
  into.entries += from.entries;  // oversized entries the reader dropped
  into.skipped += from.skipped;
  for (const auto& p : from.problems) into.add_problem(p);
  into.problems_total += from.problems_total - from.problems.size();
  if (!from.aborted.empty()) into.aborted = from.aborted;  // else keep what parsing found
  std::stable_sort(into.problems.begin(), into.problems.end(), [](const InputProblem& a, const InputProblem& b) {
    if (a.line != b.line) return a.line < b.line;
    return a.offset < b.offset;
  });
}

}  // namespace

Result<Diagnosis> analyze(const RulePack& pack, const std::vector<std::string>& inputs,
                          const AnalysisOptions& options) {
  Diagnosis d;
  JobAccumulator acc(detail::compiled(pack), inputs);
  if (!options.job_file.empty()) {
    if (auto status = detail::apply_job_file(options.job_file, acc.facts); !status) return status.error();
  }
  unsigned threads = options.threads;
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());

  std::vector<InputSummary> summaries(inputs.size());         // what merging chunks found
  std::vector<InputSummary> reader_summaries(inputs.size());  // what splitting them found
  const auto start = std::chrono::steady_clock::now();
  auto last_progress = start;
  uint64_t bytes_done = 0, entries_done = 0;
  const auto merge = [&](ParsedChunk&& parsed) {
    entries_done += parsed.report.entries;
    acc.add_chunk(parsed.chunk, std::move(parsed.report), std::move(parsed.seen), summaries[parsed.chunk.input]);
  };
  const auto progress = [&](uint64_t bytes_now) {
    if (!options.progress) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_progress < std::chrono::milliseconds(250)) return;
    last_progress = now;
    options.progress(
        Progress{bytes_done + bytes_now, entries_done, std::chrono::duration<double>(now - start).count()});
  };

  std::optional<OrderedPool> pool;
  std::optional<ChunkWorker> inline_worker;
  if (threads > 1)
    pool.emplace(detail::compiled(pack), threads);
  else
    inline_worker.emplace(detail::compiled(pack));

  detail::LongTextMatcher long_text(detail::compiled(pack));
  for (uint32_t i = 0; i < inputs.size(); ++i) {
    summaries[i].path = inputs[i];
    auto reader = ExportReader::open(inputs[i], i, options.limits);
    if (!reader) {
      d.input_errors.push_back(reader.error());
      continue;
    }
    reader->set_long_text_observer(&long_text);
    while (auto chunk = reader->next_chunk()) {
      const uint64_t bytes_now = chunk->base_offset + chunk->size;
      if (pool) {
        pool->submit(std::move(*chunk), merge);
      } else {
        merge(inline_worker->run(std::move(*chunk)));
      }
      progress(bytes_now);
    }
    bytes_done += reader->summary().bytes;
    reader_summaries[i] = reader->summary();
  }
  if (pool) pool->finish(merge);
  pool.reset();
  for (uint32_t i = 0; i < inputs.size(); ++i) {
    merge_reader_summary(reader_summaries[i], summaries[i]);
    if (!summaries[i].aborted.empty()) {
      d.input_errors.push_back(Diagnostic{.code = code_name(DiagnosticCode::kInputAborted),
                                          .message = summaries[i].aborted,
                                          .file = inputs[i],
                                          .help = "the entries read before this point were analysed"});
    }
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
  d.duplicates_windowed = acc.dedup.windowed();
  d.inputs = std::move(summaries);
  detail::evaluate_rules(acc, d);
  return d;
}

std::vector<std::string> fact_names() {
  std::vector<std::string> out;
  for (const auto& f : detail::kFactCatalog) out.emplace_back(f.name);
  return out;
}

}  // namespace gpudiag
