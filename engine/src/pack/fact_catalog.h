// The fact catalog: the job facts rules can test and fact extractors can set, read from the rule
// pack's `facts:` pack-file key (rules/facts/catalog.yaml), with the option spellings the options
// decoders read (`option_names:`). A name outside the catalog is an error at load time. Internal to
// engine.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpudiag::detail {

enum class FactType : uint8_t { kBool, kString, kNumber };
std::string_view fact_type_name(FactType type);
// Whether `value` is one a fact of `type` can take ("true"/"false", digits with at most one dot).
bool valid_fact_value(FactType type, std::string_view value);

struct FactDef {
  std::string name;
  FactType type = FactType::kString;
  std::string meaning;
  std::string from;  // what sets it besides the extractors (the options, job.json, the entries)
  std::string file;  // where it is defined
  uint32_t line = 0;
};

// One GPU type of the GPU platforms table (gpu_platforms: in rules/facts/gpu-platforms.yaml): the
// machine family that takes it, and either the counts an N1 machine may attach (`counts`) or, for an
// accelerator-optimized family, each machine type with the fixed number of GPUs it carries.
struct GpuPlatform {
  std::string type;                                   // nvidia-tesla-t4
  std::string family;                                 // n1, a2, g2 …
  std::vector<int> counts;                            // attachable counts (N1)
  std::vector<std::pair<std::string, int>> machines;  // machine type → its GPUs (accelerator-optimized)
  std::string min_driver;                             // the NVIDIA driver it needs, where the docs say ("525.0")
  std::string min_cuda;                               // the CUDA toolkit it needs, where the docs say ("12.0")
  std::string compute_capability;  // NVIDIA's compute capability ("7.5"): which dtypes and kernels run
  std::string memory_gb;           // memory of one GPU in GB ("16")
};
struct GpuPlatformTable {
  std::string read;    // the date the source was read, YYYY-MM-DD
  std::string source;  // the page the table comes from
  std::vector<GpuPlatform> gpus;
  const GpuPlatform* find(std::string_view type) const;
};

// One of Dataflow's service defaults (service_defaults: in rules/facts/service-defaults.yaml): the value
// a fact has when the launch options leave it out, when every `when` test holds on the facts known.
struct ServiceDefault {
  struct Test {
    std::string fact;
    std::string value;  // exact text, `known`, `unknown`, or `>=VERSION` (dotted numbers)
  };
  std::string fact;
  std::string value;
  std::vector<Test> when;
  std::string source;  // the page (and section) that says so
  std::string read;    // the date it was read
  std::string file;
  uint32_t line = 0;
};

class FactCatalog {
 public:
  // Adds a fact, or replaces the one of the same name (a later pack file redefines it).
  void add(FactDef def);
  const FactDef* find(std::string_view name) const;
  const std::vector<FactDef>& facts() const { return facts_; }
  std::vector<std::string_view> names() const;

  // The option spellings the decoders read for `fact`, first match wins; empty when none are listed.
  const std::vector<std::string>& option_names(std::string_view fact) const;
  void set_option_names(const std::string& fact, std::vector<std::string> names) { options_[fact] = std::move(names); }
  const std::map<std::string, std::vector<std::string>, std::less<>>& all_option_names() const { return options_; }

  // The data tables: a later pack file that names one replaces it.
  const GpuPlatformTable& gpu_platforms() const { return gpu_platforms_; }
  void set_gpu_platforms(GpuPlatformTable table) { gpu_platforms_ = std::move(table); }
  const std::vector<ServiceDefault>& service_defaults() const { return service_defaults_; }
  void set_service_defaults(std::vector<ServiceDefault> defaults) { service_defaults_ = std::move(defaults); }

 private:
  std::vector<FactDef> facts_;  // in the order they were defined
  std::map<std::string, std::vector<std::string>, std::less<>> options_;
  GpuPlatformTable gpu_platforms_;
  std::vector<ServiceDefault> service_defaults_;
};

}  // namespace gpudiag::detail
