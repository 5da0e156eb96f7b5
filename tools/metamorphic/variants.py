"""Variants of a corpus case: rewrites of its export that Dataflow or Cloud Logging really produce for
the same job, and so must not change the diagnosis (tools/metamorphic/README.md).

Each variant is a function (items, ctx) -> list of (file name, items, writer) or None when it does not
apply to the case (nothing to move, say). `items` are exports.Item; a variant deep-copies what it
changes. ctx holds the severity table and the original's evidence entries.
"""

import copy
import json
import random
import re

from exports import Item, set_log, short_log, write_array, write_ndjson

SEVERITY_ORDER = ["DEFAULT", "DEBUG", "INFO", "NOTICE", "WARNING", "ERROR", "CRITICAL", "ALERT", "EMERGENCY"]


def read_severity_table(doc_path):
    """The `varies` column of docs/log-severities.md: log name -> severities, lowest first."""
    with open(doc_path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"<!-- log-severities: begin -->\n(.*?)<!-- log-severities: end -->", text, re.S)
    if not m:
        raise SystemExit(f"{doc_path}: no <!-- log-severities: begin/end --> table")
    table = {}
    for row in m.group(1).splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) < 4 or cells[0] in ("log", "") or set(cells[0]) <= set("-"):
            continue
        varies = [s.strip() for s in cells[2].split(",") if s.strip()]
        for s in varies:
            if s not in SEVERITY_ORDER:
                raise SystemExit(f"{doc_path}: unknown severity {s!r} for log {cells[0]}")
        table[cells[0]] = sorted(varies, key=SEVERITY_ORDER.index)
    if not table:
        raise SystemExit(f"{doc_path}: the severity table is empty")
    return table


def _clone(items):
    return [Item(copy.deepcopy(i.entry), i.raw, i.file, i.line) for i in items]


def _payload(entry):
    p = entry.get("jsonPayload")
    return p if isinstance(p, dict) else None


def _one_file(items, name="export.json", writer=write_array):
    return [(name, items, writer)]


# --- field moves ------------------------------------------------------------------------------------


def exception_into_message(items, ctx):
    """A worker entry's jsonPayload.exception appended to its message: Python tracebacks reach the
    worker log either in `exception` (the SDK's FnApi `trace` field) or inside `message` (a traceback
    logged as text, "Error processing instruction … Original traceback is"), shared/reference §1.5."""
    out, moved = _clone(items), 0
    for i in out:
        if i.entry is None or short_log(i.entry) != "worker":
            continue
        p = _payload(i.entry)
        if p and isinstance(p.get("exception"), str) and p["exception"]:
            msg = p.get("message") if isinstance(p.get("message"), str) else ""
            p["message"] = (msg + "\n" + p["exception"]) if msg else p["exception"]
            del p["exception"]
            moved += 1
    return _one_file(out) if moved else None


TRACEBACK = "Traceback (most recent call last):"


def traceback_into_exception(items, ctx):
    """The reverse move: a traceback inside a worker entry's message split off into
    jsonPayload.exception, the message keeping the line before it."""
    out, moved = _clone(items), 0
    for i in out:
        if i.entry is None or short_log(i.entry) != "worker":
            continue
        p = _payload(i.entry)
        if not p or "exception" in p or not isinstance(p.get("message"), str):
            continue
        at = p["message"].find(TRACEBACK)
        if at < 0:
            continue
        p["message"], p["exception"] = p["message"][:at].rstrip("\n"), p["message"][at:]
        moved += 1
    return _one_file(out) if moved else None


# --- severities --------------------------------------------------------------------------------------


def _level_is_the_programs(entry, ctx):
    """In a job that succeeded, the level a program logged an error at in the `worker` log says
    whether it went on (docs/upgrading.md, "An error a succeeded job caught and logged as a warning"):
    the one log and outcome whose entries' levels are part of the diagnosis."""
    return ctx.get("outcome") == "succeeded" and short_log(entry) == "worker"


def _severity_variant(pick):
    def variant(items, ctx):
        out, changed = _clone(items), 0
        for i in out:
            if i.entry is None or _level_is_the_programs(i.entry, ctx):
                continue
            varies = ctx["severities"].get(short_log(i.entry))
            sev = i.entry.get("severity")
            if not varies or sev not in varies:
                continue
            new = pick(varies)
            if new != sev:
                i.entry["severity"] = new
                changed += 1
        return _one_file(out) if changed else None

    return variant


severity_lowest = _severity_variant(lambda v: v[0])
severity_highest = _severity_variant(lambda v: v[-1])

# --- the other copies of a failure -------------------------------------------------------------------

OTHER_COPY = {"worker": "docker", "docker": "worker"}


def evidence_in_other_log(items, ctx):
    """Each evidence entry of the worker log moved to the docker log and back: the SDK harness's
    logging and the SDK container's stderr carry the same framework lines (shared/reference §2b,
    "worker (SDK harness …) or docker", §2e e3). The docker log has no `exception` field, so a
    traceback there sits in the message."""
    out, moved = _clone(items), 0
    for i in out:
        if i.entry is None or (i.file, i.line) not in ctx["evidence"] or _level_is_the_programs(i.entry, ctx):
            continue
        log = short_log(i.entry)
        if log not in OTHER_COPY:
            continue
        set_log(i.entry, OTHER_COPY[log])
        p = _payload(i.entry)
        if OTHER_COPY[log] == "docker" and p and isinstance(p.get("exception"), str):
            msg = p.get("message") if isinstance(p.get("message"), str) else ""
            p["message"] = (msg + "\n" + p.pop("exception")) if msg else p.pop("exception")
        moved += 1
    return _one_file(out) if moved else None


# --- order, copies, shape ----------------------------------------------------------------------------


def newest_first(items, ctx):
    """gcloud logging read's order: newest first (corpus/README.md, "Envelopes")."""
    parsed = [i for i in items if i.entry is not None]
    raw = [i for i in items if i.entry is None]
    ordered = sorted(parsed, key=lambda i: str(i.entry.get("timestamp", "")), reverse=True)
    if [id(i) for i in ordered] == [id(i) for i in parsed]:
        ordered = list(reversed(parsed))
    return _one_file(ordered + raw)


def duplicated(items, ctx):
    """Every entry twice, the copy right after it: overlapping sinks and re-downloads. Cloud Logging
    "there are no guarantees of de-duplication in the export of logs" (shared/reference §1.1).
    Only entries with an insertId are copied: Cloud Logging's identity of an entry is
    (insertId, timestamp), and an export without insertIds (a projection) cannot be de-duplicated by
    anyone."""
    out, copied = [], 0
    for i in items:
        out.append(i)
        if i.entry is not None and i.entry.get("insertId"):
            out.append(Item(copy.deepcopy(i.entry), None, i.file, i.line))
            copied += 1
    return _one_file(out) if copied else None


def sorted_keys(items, ctx):
    """Every object's keys in sorted order, as `gcloud --format=json` prints them."""
    return [("export.json", items, lambda path, its: write_array(path, its, sort_keys=True))]


def ndjson_shards(items, ctx):
    """A Cloud Storage sink: one NDJSON object per log, entries in no particular order."""
    if not items:
        return None  # an empty export has no shard to write
    shards = {}
    for i in items:
        log = short_log(i.entry) if i.entry is not None else ""
        shards.setdefault(re.sub(r"[^A-Za-z0-9_-]", "_", log) or "other", []).append(i)
    rnd = random.Random(ctx["case"])
    files = []
    for log, its in sorted(shards.items()):
        its = list(its)
        rnd.shuffle(its)
        files.append((f"export-{log}.ndjson", its, write_ndjson))
    return files


# --- another launch ----------------------------------------------------------------------------------


def another_launch(items, ctx):
    """The same failure in another launch of the pipeline: other job id, worker VM names, SDK harness
    ids, image digests, UUIDs and pids, each replaced the same way wherever it appears (so that
    distinct values stay distinct). Findings keep their fingerprints (docs/json-schema.md,
    "Fingerprints"). Not for a case with a job file, which names the job id."""
    if ctx.get("job"):
        return None
    rnd = random.Random("launch:" + ctx["case"])
    seen = {}

    def fresh(kind, old, make):
        if (kind, old) not in seen:
            seen[(kind, old)] = make()
        return seen[(kind, old)]

    def digits(n):
        return "".join(rnd.choice("0123456789") for _ in range(n))

    def letters(n, alphabet="abcdefghijklmnopqrstuvwxyz0123456789"):
        return "".join(rnd.choice(alphabet) for _ in range(n))

    replacements = [
        (r"\d{4}-\d\d-\d\d_\d\d_\d\d_\d\d-\d+",
         lambda m: fresh("job", m.group(0), lambda: f"2031-02-03_04_05_06-1{digits(18)}")),
        (r"-harness-[a-z0-9]{4}\b", lambda m: fresh("vm", m.group(0), lambda: "-harness-" + letters(4))),
        (r"sha256:[0-9a-f]{64}", lambda m: fresh("digest", m.group(0), lambda: "sha256:" + letters(64, "0123456789abcdef"))),
        (r"\bsdk-(\d+)-(\d+)\b", lambda m: f"sdk-{int(m.group(1)) + 5}-{int(m.group(2)) + 5}"),
        (r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
         lambda m: fresh("uuid", m.group(0), lambda: "-".join(letters(n, "0123456789abcdef") for n in (8, 4, 4, 4, 12)))),
        (r"\b(pid[ =:]+|[Kk]illed process )(\d+)", lambda m: f"{m.group(1)}{int(m.group(2)) + 1000}"),
    ]
    out, changed = [], 0
    for i in items:
        if i.entry is None:
            out.append(i)
            continue
        text = dump(i.entry)
        new = text
        for pattern, replace in replacements:
            new = re.sub(pattern, replace, new)
        if new != text:
            changed += 1
            out.append(Item(json.loads(new), None, i.file, i.line))
        else:
            out.append(i)
    return _one_file(out) if changed else None


# Variants that must leave the diagnosis as it was, in the order they are reported.
INVARIANT = [
    ("exception-into-message", exception_into_message),
    ("traceback-into-exception", traceback_into_exception),
    ("severity-lowest", severity_lowest),
    ("severity-highest", severity_highest),
    ("evidence-in-other-log", evidence_in_other_log),
    ("newest-first", newest_first),
    ("duplicated", duplicated),
    ("sorted-keys", sorted_keys),
    ("ndjson-shards", ndjson_shards),
]


def without(items, drop):
    """The export without the items at the (file, line) places in `drop`."""
    return [i for i in items if (i.file, i.line) not in drop]


def dump(entry):
    return json.dumps(entry, sort_keys=True)
