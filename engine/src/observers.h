// Built-in observers: log lines that tell gpudiag about the job as a whole (its options, its Python
// and Beam versions, its phases and worker counts). They are matched in the same pass as the rules;
// job_facts.cc turns what they see into JobFacts. Internal to engine.
#pragma once

#include <array>
#include <string_view>

namespace gpudiag::detail {

enum class ObserverKind : uint8_t {
  kNone,
  kPipelineOptions,      // Python sdk harness started with pipeline_options: {…}
  kWorkerConfiguration,  // Worker configuration: n1-standard-4 in europe-west1-d.
  kFlexStartEnabled,     // FLEX_START is enabled for job …
  kPythonPath,           // /usr/local/lib/python3.8/site-packages/… in worker tracebacks
  kSdkImage,             // apache/beam_python3.8_sdk:2.50.0 pulled or run by the worker
  kEnvironmentMismatch,  // Beam's "Submission environment: … Runtime environment: …"
  kGpuDevice,            // a framework created a GPU device
  kDriverInstalled,      // Installing GPU driver version 535.104.05
  kWorkerCount,          // Starting 5 workers / Autoscaling: Raised the number of workers to 3
  kPhase,                // job lifecycle messages for timelines
};

struct ObserverDef {
  ObserverKind kind;
  std::string_view field;  // "message" or "text"
  std::string_view regex;
};

// RE2 syntax; named groups are read by the handlers in job_facts.cc.
inline constexpr std::array kObservers = {
    ObserverDef{ObserverKind::kPipelineOptions, "message", R"(pipeline_options: \{)"},
    ObserverDef{ObserverKind::kWorkerConfiguration, "message",
                R"(Worker configuration: (?P<machine_type>[a-z0-9-]+) in (?P<zone>[a-z]+-[a-z]+[0-9]+-[a-z]))"},
    ObserverDef{ObserverKind::kFlexStartEnabled, "message", R"((?i)FLEX_START (?:is )?enabled)"},
    ObserverDef{ObserverKind::kPythonPath, "text",
                R"((?:lib|beam-venv[^ ]*/lib)/python(?P<python>[23]\.[0-9]+)/(?:site|dist)-packages/)"},
    ObserverDef{ObserverKind::kSdkImage, "text",
                R"(beam_python(?P<python>[23]\.[0-9]+)_sdk:(?P<beam>[0-9]+\.[0-9]+\.[0-9]+))"},
    ObserverDef{ObserverKind::kEnvironmentMismatch, "text",
                R"(Submission environment: (?P<launch>[^ ]+?)\.? Runtime environment: (?P<runtime>[^ ]+?)\.?(?:\s|$))"},
    ObserverDef{
        ObserverKind::kGpuDevice, "text",
        R"(Created (?:TensorFlow )?device [^ ]*GPU:[0-9]|Found device [0-9]+ with properties|physical_device:GPU:[0-9])"},
    ObserverDef{
        ObserverKind::kDriverInstalled, "text",
        R"((?i)Installing GPU driver version (?P<version>[0-9][0-9.]*)|DRIVER_VERSION:(?P<version2>[0-9][0-9.]*))"},
    ObserverDef{
        ObserverKind::kWorkerCount, "message",
        R"(Starting (?P<start>[0-9]+) workers|Autoscaling: (?:Raised|Reduced|Resized) the number of workers to (?P<to>[0-9]+)|Autoscaling: Resized worker pool from [0-9]+ to (?P<resized>[0-9]+))"},
    ObserverDef{
        ObserverKind::kPhase, "message",
        R"(Starting [0-9]+ workers|Workers have started successfully|Executing operation|Workflow failed|Worker pool stopped|Stopping worker pool|Cleaning up\.|Cancel request is committed|Finished draining)"},
};

}  // namespace gpudiag::detail
