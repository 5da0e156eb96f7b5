// The corrected worker_accelerator value (see accelerator_form.h).
#include "accelerator_form.h"

#include <re2/re2.h>

namespace gpudiag::detail {

void derive_accelerator_corrected(JobFacts& facts) {
  const FactValue* type = facts.get("gpu_type");
  const FactValue* count = facts.get("gpu_count");
  if (type == nullptr || count == nullptr || type->value.rfind("tpu-", 0) == 0) return;
  const auto is_true = [&](std::string_view name) {
    const FactValue* f = facts.get(name);
    return f != nullptr && f->value == "true";
  };
  std::string out = "type:" + type->value + ";count:" + count->value + ";install-nvidia-driver";
  if (const FactValue* raw = facts.get("accelerator")) {
    // The version the option asked for (install-nvidia-driver:5xx, or a misspelled token's).
    static const RE2 version(R"((?i)install[-_]nvidia[-_]drivers?:([A-Za-z0-9._-]+))");
    std::string v;
    if (RE2::PartialMatch(raw->value, version, &v)) out += ":" + v;
  }
  if (is_true("mps")) out += ";use_nvidia_mps";
  if (is_true("flex_start")) out += ";provisioning_model:FLEX_START";
  facts.set("accelerator_corrected", std::move(out), FactSource{"derived from the accelerator facts"},
            kLogLinePriority);
}

}  // namespace gpudiag::detail
