#!/usr/bin/env python3
"""Every corpus case, re-written as gcloud's default YAML output (tools/gcloud-yaml), diagnoses as its export.

    python3 tests/ingest_yaml_corpus.py --gpudiag build/cli/gpudiag [--case NAME]
    python3 tests/ingest_yaml_corpus.py --fixtures [--update]   # tests/fixtures/yaml/ is what the tool renders
    python3 tests/ingest_yaml_corpus.py --against-gcloud        # the tool writes what gcloud's printer writes

Compared: the exit code, the verdict and summary, each job's outcome, verdict and facts, every finding's
rule, fingerprint, count and captures, the inconclusive checks, the unexplained groups' fingerprints,
and the entries analysed. Evidence lines differ (they point into the YAML file).

--against-gcloud renders every corpus export with the Cloud SDK's own YAML printer
(googlecloudsdk/core/resource/yaml_printer.py, through resource_printer.Print as `gcloud logging read`
prints a list) and checks that tools/gcloud-yaml wrote the same bytes; it exits 77 (skipped) where no
Cloud SDK is installed.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import gcloud_yaml  # noqa: E402  (tools/gcloud-yaml, called in-process)

# tests/fixtures/yaml/: the cases tests/ingest_yaml_test.cc diagnoses from their YAML form (the
# README's case, whose job messages run over several lines; Python tracebacks in job messages; one
# in jsonPayload.exception).
FIXTURE_CASES = [
    "gpu-oom-then-sdk-disconnected-work-item-failed",
    "job-message-traceback-cut",
    "cuda-arch-unsupported",
]


def exports_of(case):
    folder = os.path.join(ROOT, "corpus", case)
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.startswith("export"))


def check_fixtures(update):
    folder = os.path.join(ROOT, "tests", "fixtures", "yaml")
    stale = 0
    for case in FIXTURE_CASES:
        for n, export in enumerate(exports_of(case)):
            path = os.path.join(folder, f"{case}.{n}.yaml" if n else f"{case}.yaml")
            want = gcloud_yaml.rendered(export)
            if update:
                os.makedirs(folder, exist_ok=True)
                with open(path, "wb") as f:
                    f.write(want)
            elif not os.path.exists(path) or open(path, "rb").read() != want:
                stale += 1
                print(f"{path} is not what tools/gcloud-yaml {os.path.relpath(export, ROOT)} renders "
                      f"(python3 tests/ingest_yaml_corpus.py --fixtures --update)")
    return 1 if stale else 0


def cloud_sdk():
    """(python, lib) of the installed Cloud SDK, or None."""
    gcloud = shutil.which("gcloud")
    if not gcloud:
        return None
    root = os.path.dirname(os.path.dirname(os.path.realpath(gcloud)))
    lib = os.path.join(root, "lib")
    if not os.path.exists(os.path.join(lib, "googlecloudsdk", "core", "resource", "yaml_printer.py")):
        return None
    python = os.environ.get("CLOUDSDK_PYTHON") or os.path.join(root, "platform", "bundledpythonunix", "bin", "python3")
    if not os.path.exists(python):
        python = shutil.which("python3")
    return python, lib


# Run by the Cloud SDK's Python: prints each JSON file of entries (argv[2:]) as `gcloud logging read`
# prints its list, into the file beside it with .yaml appended.
GCLOUD_PRINT = """
import json, sys
sys.path[:0] = [sys.argv[1], sys.argv[1] + '/third_party']
from googlecloudsdk.core.resource import resource_printer
for path in sys.argv[2:]:
    with open(path) as f:
        entries = json.load(f)
    with open(path + '.yaml', 'w', encoding='utf-8') as out:
        resource_printer.Print(entries, 'yaml', out=out)
"""


def against_gcloud():
    sdk = cloud_sdk()
    if sdk is None:
        print("no Cloud SDK installed (gcloud on PATH): skipped")
        return 77
    python, lib = sdk
    exports = [e for case in cases_in_corpus() for e in exports_of(case)]
    differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for n, export in enumerate(exports):
            path = os.path.join(tmp, f"{n}.json")
            with open(path, "w") as f:
                json.dump(gcloud_yaml.read_entries(export), f)
            files.append(path)
        subprocess.run([python, "-c", GCLOUD_PRINT, lib, *files], check=True)
        for export, path in zip(exports, files):
            theirs = open(path + ".yaml", "rb").read()
            ours = gcloud_yaml.rendered(export)
            if theirs != ours:
                differ += 1
                a, b = theirs.split(b"\n"), ours.split(b"\n")
                line = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                print(f"FAIL {os.path.relpath(export, ROOT)}: line {line + 1} differs from gcloud's printer")
    print(f"{len(exports)} exports: {differ} differ from gcloud's own YAML printer")
    return 1 if differ else 0


def cases_in_corpus():
    corpus = os.path.join(ROOT, "corpus")
    return sorted(c for c in os.listdir(corpus) if os.path.exists(os.path.join(corpus, c, "labels.yaml")))


def facts_of(report):
    return sorted((f["name"], f["value"]) for f in report.get("facts", []))


def diagnosis(report):
    summary = re.sub(r"entry at \S+:\d+", "entry at FILE:LINE", report["summary"])
    summary = re.sub(r"cut at byte \d+", "cut at byte N", summary)
    return {
        "verdict": report["verdict"],
        "summary": summary,
        "jobs": [(j["id"], j.get("outcome"), j.get("verdict"), facts_of(j)) for j in report["jobs"]],
        "facts": facts_of(report),
        "findings": [(f["rule_id"], f["fingerprint"], f["count"], f.get("captures")) for f in report["findings"]],
        "inconclusive": [i.get("rule_id") for i in report["inconclusive"]],
        "unexplained": sorted(u.get("fingerprint", "") for u in report.get("unexplained", [])),
        "analysed": sum(i["analysed"] for i in report["inputs"]),
        "duplicates": sum(i["duplicates"] for i in report["inputs"]),
    }


def analyze(gpudiag, paths, extra):
    r = subprocess.run([gpudiag, "analyze", "--deterministic", "--format", "json", *extra, *paths],
                       capture_output=True, text=True)
    if not r.stdout.strip():
        return {"exit": r.returncode, "stderr": r.stderr.strip()}
    return {"exit": r.returncode, **diagnosis(json.loads(r.stdout))}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpudiag")
    ap.add_argument("--fixtures", action="store_true", help="check tests/fixtures/yaml/ instead")
    ap.add_argument("--update", action="store_true", help="with --fixtures: write them")
    ap.add_argument("--against-gcloud", action="store_true", help="check tools/gcloud-yaml against gcloud's printer")
    ap.add_argument("--case", action="append")
    ap.add_argument("--every", type=int, default=1, metavar="N", help="only every Nth case (the sanitizer build)")
    args = ap.parse_args()
    if args.fixtures:
        return check_fixtures(args.update)
    if args.against_gcloud:
        return against_gcloud()
    if not args.gpudiag:
        ap.error("--gpudiag is needed")
    cases = (args.case or cases_in_corpus())[::max(args.every, 1)]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            folder = os.path.join(ROOT, "corpus", case)
            labels = yaml.safe_load(open(os.path.join(folder, "labels.yaml")))
            extra = []
            a = labels.get("args") or []
            for i in range(len(a) - 1):
                if a[i] == "--job":
                    extra += ["--job", os.path.join(folder, a[i + 1])]
            exports = exports_of(case)
            want = analyze(args.gpudiag, exports, extra)
            paths = []
            cut = want.get("exit") == 2 and "(input incomplete: export cut" in want.get("summary", "")
            empty = True
            for n, export in enumerate(exports):
                out = os.path.join(tmp, f"{case}.{n}.yaml")
                rendered = gcloud_yaml.rendered(export)
                empty = empty and not rendered
                if cut:
                    # The export was cut inside an entry, which gcloud_yaml leaves out: the YAML form
                    # is cut inside a document after the same entries.
                    rendered += b"---\ninsertId: cut-her"
                with open(out, "wb") as f:
                    f.write(rendered)
                paths.append(out)
            got = analyze(args.gpudiag, paths, extra)
            if empty:
                # gcloud prints nothing for no entries: an empty file, whose summary says so.
                want, got = ({k: d.get(k) for k in ("exit", "verdict")} for d in (want, got))
            if got != want:
                failures += 1
                print(f"FAIL {case}:")
                for key in sorted(set(want) | set(got)):
                    if want.get(key) != got.get(key):
                        print(f"  {key}: export {want.get(key)!r}\n  {' ' * len(key)}  yaml   {got.get(key)!r}")
    print(f"{len(cases)} cases as gcloud's YAML: {failures} differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
