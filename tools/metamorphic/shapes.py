"""Embedded-match shapes: every rule's `examples.match` text quoted inside text that is not a failure.

A rule's match example is the failure line itself; the same words also turn up in places that say
nothing about the job: the `--help` text of a pipeline option that names an error, a Beam pipeline
options dump that carries it as a value, a DEBUG line of the worker. One export per shape holds one
entry per example text; no rule may fire on any of them (tools/metamorphic/README.md).
"""

import glob
import os

import yaml

JOB_ID = "2026-03-02_01_00_00-1234567890123456789"
JOB_NAME = "embedded-shapes"
WORKER = "embedded-shapes-03020100-ab12-harness-cd34"


def example_texts(rules_dir):
    """(rule id, text) for every single-entry `examples.match` example of every rule file. Examples
    with `records` are sequences and facts, not one quotable line; they are left out."""
    out = []
    for path in sorted(glob.glob(os.path.join(rules_dir, "**", "*.yaml"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            doc = yaml.safe_load(f)
        if not isinstance(doc, dict) or "id" not in doc:
            continue  # a pack file (lists, macros, policy)
        for ex in (doc.get("examples") or {}).get("match") or []:
            if isinstance(ex, str):
                out.append((doc["id"], ex))
            elif isinstance(ex, dict) and "records" not in ex:
                for key in ("message", "exception"):
                    if isinstance(ex.get(key), str):
                        out.append((doc["id"], ex[key]))
    return out


def _first_line(text):
    return text.split("\n", 1)[0]


def help_text(text):
    # argparse's layout: an option whose help string names the text (a resubmit-on-error wrapper).
    return (
        "usage: run_inference.py [-h] [--resubmit_on PATTERN] [--max_resubmits N]\n\n"
        "options:\n"
        "  -h, --help            show this help message and exit\n"
        "  --resubmit_on PATTERN\n"
        f"                        resubmit the job when a job message contains this text, e.g. '{_first_line(text)}'\n"
        "  --max_resubmits N     give up after N resubmissions (default: 3)")


def options_dump(text):
    # The Python SDK harness's start-up line (sdk_worker_main.py), the text as an option value, in
    # the dict's repr as the harness prints it.
    options = {"runner": "DataflowRunner", "project": "embedded-shapes", "resubmit_on": text,
               "experiments": ["use_runner_v2"], "save_main_session": True}
    return f"Python sdk harness started with pipeline_options: {options!r}"


def debug_line(text):
    return text


SHAPES = [
    # name, log, severity, message builder
    ("help-text", "worker", "INFO", help_text),
    ("options-dump", "worker", "INFO", options_dump),
    ("debug-line", "worker", "DEBUG", debug_line),
]


def entry(index, log, severity, message):
    seconds = index
    return {
        "insertId": f"shape{index:06d}",
        "jsonPayload": {"message": message, "logger": "root:main.py:42", "thread": "MainThread",
                        "job": JOB_ID, "worker": WORKER},
        "resource": {"type": "dataflow_step",
                     "labels": {"job_id": JOB_ID, "job_name": JOB_NAME, "project_id": "embedded-shapes",
                                "region": "us-central1", "step_id": ""}},
        "timestamp": f"2026-03-02T09:{seconds // 60 % 60:02d}:{seconds % 60:02d}.{index % 1000:03d}Z",
        "severity": severity,
        "labels": {"compute.googleapis.com/resource_name": WORKER,
                   "compute.googleapis.com/resource_type": "instance",
                   "dataflow.googleapis.com/job_id": JOB_ID},
        "logName": f"projects/embedded-shapes/logs/dataflow.googleapis.com%2F{log}",
    }
