// RecordAnalysis: the same matching and reasoning as analyze(), for records handed over one by one.
#include "gpudiag/analyzer.h"
#include "judge/judge.h"
#include "record_pipeline.h"

namespace gpudiag {

struct RecordAnalysis::Impl {
  static constexpr size_t kBatch = 4096;

  Impl(const RulePack& pack, std::vector<std::string> names, JobSelection s)
      : accumulator(detail::compiled(pack), names, kDefaultMaxJobs),
        pipeline(detail::compiled(pack)),
        summaries(names.size()),
        select(std::move(s)) {
    for (size_t i = 0; i < names.size(); ++i) summaries[i].path = names[i];
    pipeline.start_chunk();
  }

  // Merges the batch as the record stream's merge step would (hits carry their own input and
  // line; add() keeps the per-input counts), with no duplicates.
  void flush() {
    if (batch_size == 0) return;
    accumulator.add_batch(std::move(seen), [](size_t) { return false; });
    seen = detail::ChunkObservations{};
    pipeline.start_chunk();
    batch_size = 0;
  }

  detail::ExportAccumulator accumulator;
  detail::RecordPipeline pipeline;
  detail::ChunkObservations seen;
  std::vector<InputSummary> summaries;
  JobSelection select;
  size_t batch_size = 0;
};

RecordAnalysis::RecordAnalysis(const RulePack& pack, std::vector<std::string> input_names, JobSelection select)
    : impl_(std::make_unique<Impl>(pack, std::move(input_names), std::move(select))) {}
RecordAnalysis::~RecordAnalysis() = default;

void RecordAnalysis::set_fact(const std::string& name, const std::string& value) {
  impl_->accumulator.given.set(name, value, detail::FactSource{"given"}, detail::kExamplePriority);
}

Status RecordAnalysis::load_job_file(const std::string& path) {
  return detail::apply_job_file(path, impl_->accumulator.pack.catalog, impl_->accumulator.given);
}

void RecordAnalysis::add(const LogRecord& record) {
  impl_->pipeline.record(record, impl_->batch_size++, impl_->seen);
  if (record.where.input < impl_->summaries.size()) {
    auto& s = impl_->summaries[record.where.input];
    ++s.entries;
    ++s.analysed;
  }
  if (impl_->batch_size == Impl::kBatch) impl_->flush();
}

Analysis RecordAnalysis::finish() {
  impl_->flush();
  impl_->accumulator.finish();
  Analysis d;
  for (const auto& s : impl_->summaries) {
    d.entries += s.entries;
    d.analysed += s.analysed;
  }
  d.inputs = impl_->summaries;
  for (auto& note : impl_->accumulator.caps_reached()) {
    if (!d.inputs.empty())
      d.inputs[0].add_problem(InputProblem{.line = 0, .offset = -1, .skipped_entry = false, .message = note});
  }
  detail::JobAnalyses(impl_->accumulator.pack, impl_->select).finish(impl_->accumulator, d);
  return d;
}

}  // namespace gpudiag
