#include <utility>

#include "gpudiag/ingest.h"

namespace gpudiag {
namespace {

class KeepingSink : public RecordSink {
 public:
  void record(const LogRecord& record, size_t entry, const LongTextFindings*) override {
    out_->records.emplace_back(entry, KeptRecord(record));
  }
  void summary(const JobSummary& summary, size_t) override { out_->summaries.push_back(summary); }
  std::unique_ptr<BatchOutput> end_batch(Neighbours&) override {
    return std::exchange(out_, std::make_unique<KeptBatch>());
  }

 private:
  std::unique_ptr<KeptBatch> out_ = std::make_unique<KeptBatch>();
};

}  // namespace

std::unique_ptr<RecordSink> keeping_sink() { return std::make_unique<KeepingSink>(); }

Result<InputSummary> read_export(const std::string& path, const std::function<void(const LogRecord&)>& on_record,
                                 const ReadLimits& limits) {
  StreamSummary summary = read_exports({path}, StreamOptions{.threads = 1, .limits = limits, .long_text = nullptr},
                                       keeping_sink, [&](RecordBatch&& batch) {
                                         for (const auto& kept : static_cast<KeptBatch&>(*batch.output).records) {
                                           if (!batch.is_duplicate(kept.first)) on_record(kept.second.record());
                                         }
                                       });
  return std::move(summary.inputs.front());
}

}  // namespace gpudiag
