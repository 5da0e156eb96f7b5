// pack/: the rule pack, from rules/*.yaml to what matching runs. Sources (files, directories) →
// reader (a file → RuleSpec, driven by the rule-key table, rule_keys.cc) → collector (overrides,
// disables, references) → compiler (signals and the RE2::Set) → CompiledRulePack, and its canonical
// dump. The fact catalog (the facts a rule may name) and fact tests (how a rule compares a value)
// are the pack's vocabulary, so they live here. The only header other folders include. Internal to
// engine.
#pragma once

#include "compiled_rule_pack.h"
#include "fact_catalog.h"
#include "fact_extractor.h"
#include "fact_test_runner.h"
#include "group_participation.h"
#include "parallel_for.h"
#include "placeholders.h"
#include "rule_collector.h"
#include "rule_compiler.h"
#include "rule_pack_dump.h"
#include "rule_source.h"
#include "rule_spec.h"
#include "shell_command.h"
