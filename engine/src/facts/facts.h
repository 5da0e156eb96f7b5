// facts/: what is known of a job besides its log lines' matches — the JobFacts model (job_facts.h:
// each fact with its strongest source and its sightings), facts from launch options and --job files,
// Dataflow's defaults for what the options leave out, and what follows from the GPU and machine
// chosen. The only header other folders include. Internal to engine.
#pragma once

#include "accelerator_form.h"
#include "gpu_machine_fit.h"
#include "job_facts.h"
#include "launch_facts.h"
#include "sdk_processes.h"
#include "service_defaults.h"
