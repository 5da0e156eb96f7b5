// One record through the matching stages, on a matching thread: the job tally (job_tally.h), the
// rule matcher (record_matcher.h), then the unexplained-errors stage (unexplained_stage.h), each
// adding to the chunk's observations. analyze() and RecordAnalysis feed their records through one
// per thread. Internal to engine.
//
//   RecordPipeline pipeline(pack);
//   pipeline.start_chunk();
//   for (…) pipeline.record(record, entry_index, observations);
#pragma once

#include "match/match.h"
#include "pack/pack.h"
#include "unexplained/unexplained.h"

namespace gpudiag::detail {

class RecordPipeline {
 public:
  explicit RecordPipeline(const CompiledRulePack& pack) : tally_(pack), matcher_(pack), unexplained_(pack) {}

  // What the whole text of the chunk's oversized entry matched (nullptr: none); set per chunk.
  void set_long_text(const LongTextMatches* matches) { matcher_.set_long_text(matches); }
  // Call before the first record of each chunk (with a fresh or cleared ChunkObservations).
  void start_chunk() {
    unexplained_.start_chunk();
    matcher_.start_chunk();
    tally_.start_chunk();
  }
  void record(const LogRecord& r, size_t entry_index, ChunkObservations& out) {
    JobSeen& job = tally_.note(r, out);
    matcher_.match(r, entry_index, job, out);
    unexplained_.note(r, entry_index, job.ordinal, matcher_, out);
  }
  // A summary row of `gpudiag sql`'s result (JobTally::note_summary).
  void summary(const JobSummary& summary, ChunkObservations& out) { tally_.note_summary(summary, out); }

 private:
  JobTally tally_;
  RecordMatcher matcher_;
  UnexplainedStage unexplained_;
};

}  // namespace gpudiag::detail
