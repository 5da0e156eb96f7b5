#!/usr/bin/env python3
"""Every command gpudiag prints pastes into a shell as one command (issue 41, item 3).

    python3 tests/commands_paste.py --gpudiag build/cli/gpudiag

For every corpus case and every preflight case, the fixes' `command` fields of the JSON report are
tokenised as a POSIX shell does (shlex, with `;`, `|`, `&`, `(`, `)` as the operators they are): no
operator may stand outside quotes, and `bash -n` must accept the command. The text, Markdown and HTML
reports must print each command whole (text on one line after "run:" / "launch with:", Markdown in a
code span, HTML in <code class="cmd">), and no fix's action may hold a launch option whose `;`
would split it (`--dataflow_service_options=worker_accelerator=type:…;count:…` unquoted).
"""

import argparse
import glob
import html
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPERATORS = set(";|&()")
# A launch option in prose whose value holds an unquoted `;`: pasted, the shell splits it there.
SPLIT_OPTION = re.compile(r"(?<![\"'`\w])--[a-z_]+=[^\s\"'`]*;")


def inputs_of_case(case_dir):
    exports = sorted(f for f in glob.glob(os.path.join(case_dir, "export*")))
    args = list(exports)
    job = os.path.join(case_dir, "job.json")
    if os.path.exists(job):
        args += ["--job", job]
    return args


def fix_texts(report, key):
    """Every fix's `key` ("command", "action") in a JSON report: job-wide, per finding, not
    applicable, per job, translations included (any object with an `action` is a fix)."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            if "action" in node and isinstance(node.get(key), str):
                found.append(node[key])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(report)
    return found


def shell_problem(command):
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError as e:
        return f"shlex: {e}"
    ops = [t for t in tokens if t and set(t) <= OPERATORS]
    if ops:
        return f"unquoted shell operator(s) {ops}"
    if not tokens:
        return "empty"
    check = subprocess.run(["bash", "-n"], input=command + "\n", capture_output=True, text=True)
    if check.returncode != 0:
        return f"bash -n: {check.stderr.strip()}"
    return None


def run(gpudiag, args):
    r = subprocess.run([gpudiag, *args], capture_output=True, text=True, env={**os.environ, "COLUMNS": "100"})
    # 2 with a report: input not read in full (a cut corpus export), analysed up to the cut
    if r.returncode not in (0, 1) and not (r.returncode == 2 and r.stdout.startswith("{")):
        raise SystemExit(f"gpudiag {' '.join(args)} exited {r.returncode}: {r.stderr}")
    return r.stdout


def check_formats(gpudiag, label, base_args, failures, stats):
    """base_args: the subcommand and its inputs; JSON on stdout, the other formats through -o."""
    with tempfile.TemporaryDirectory() as out:
        paths = {ext: os.path.join(out, f"report.{ext}") for ext in ("txt", "md", "html")}
        outputs = [a for ext in paths for a in ("-o", paths[ext])]
        report = json.loads(run(gpudiag, [*base_args, "--format", "json", "-o", "-", *outputs]))
        text, markdown, page = (open(paths[ext], encoding="utf-8").read() for ext in ("txt", "md", "html"))
    commands = sorted(set(fix_texts(report, "command")))
    stats["commands"] += len(commands)
    for c in commands:
        problem = shell_problem(c)
        if problem:
            failures.append(f"{label}: {c!r}: {problem}")
    text_lines = [line.strip() for line in text.splitlines()]
    # Text lists the fixes of root causes (a symptom's wait in the other formats); the others list all.
    roots = {f["rule_id"] for f in report.get("findings", [])
             if f.get("caused_by") is None and "caused_by_unexplained" not in f}
    top_level = {f["command"]: bool(roots & set(f.get("for", []))) for f in report.get("fixes", []) if f.get("command")}
    for c, in_text in sorted(top_level.items()):
        stats["rendered"] += 1
        if in_text and f"run: {c}" not in text_lines and f"launch with: {c}" not in text_lines:
            failures.append(f"{label}: text does not print {c!r} whole on one line")
        if f"`{c}`" not in markdown and f"`` {c} ``" not in markdown:
            failures.append(f"{label}: Markdown does not hold {c!r} in a code span")
        if f'<code class="cmd">{html.escape(c, quote=False)}</code>' not in page.replace("&quot;", '"').replace(
                "&#39;", "'").replace("&#x27;", "'"):
            failures.append(f"{label}: HTML does not hold {c!r} in <code class=\"cmd\">")
    # The fixes' prose: evidence shows what the user wrote, as written; a fix's action is what we tell
    # them to do, and must not hold a launch option that splits when pasted.
    for action in fix_texts(report, "action"):
        for m in SPLIT_OPTION.finditer(action):
            failures.append(f"{label}: a fix's action holds a launch option a shell splits: {m.group(0)!r}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpudiag", required=True)
    args = ap.parse_args()
    failures = []
    stats = {"commands": 0, "rendered": 0, "reports": 0}
    for case in sorted(glob.glob(os.path.join(ROOT, "corpus", "*", "labels.yaml"))):
        case_dir = os.path.dirname(case)
        check_formats(args.gpudiag, os.path.relpath(case_dir, ROOT), ["report", *inputs_of_case(case_dir)], failures,
                      stats)
        stats["reports"] += 1
    for case in sorted(glob.glob(os.path.join(ROOT, "tests", "fixtures", "preflight", "cases", "*", "case.yaml"))):
        case_dir = os.path.dirname(case)
        import yaml  # Debian's python3-yaml, as tools/corpus uses
        spec = yaml.safe_load(open(case))
        # as tests/preflight_cases_test.cc runs them
        flag = "--options" if spec["input"].endswith((".json", ".yaml")) else "--script"
        extra = [os.path.join(case_dir, "job.json") if a == "job.json" else a for a in spec.get("args") or []]
        check_formats(args.gpudiag, os.path.relpath(case_dir, ROOT),
                      ["preflight", "--no-launch-env", flag, os.path.join(case_dir, spec["input"]), *extra], failures,
                      stats)
        stats["reports"] += 1
    print(f"{stats['reports']} reports, {stats['commands']} distinct commands per report checked, "
          f"{stats['rendered']} checked in text, Markdown and HTML")
    # The check cannot pass by finding nothing: the corpus has fixes with commands.
    if stats["commands"] < 20 or stats["rendered"] < 20:
        failures.append(f"too few commands found ({stats['commands']}, {stats['rendered']} rendered): "
                        "is `command` still in the JSON report?")
    for f in failures:
        print(f"FAIL {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
