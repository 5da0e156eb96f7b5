"""Re-shapes a Cloud Logging export into the rows `bq query` prints, for tests and the parity harness.

    tools/bq-rows --shape query-analytics corpus/gpu-quota-exceeded-t4/export.json > rows.json
    tools/bq-rows --shape sink-table --format prettyjson --gzip EXPORT > rows.json.gz

Shapes (docs/formats.md, "BigQuery results"):
  query-analytics  what `gpudiag sql --source analytics:…` returns (issue 18's contract): snake_case
                   columns, resource.labels, labels and json_payload as JSON columns, gpudiag_summary
  query-sink       the same for `--source sink:…`: resource.labels, labels and json_payload as RECORDs of
                   the fixed fields, labels under a sink's column names
  analytics-view   a row selected straight from the Log Analytics view `_AllLogs` (severity_number, …)
  sink-table       a row selected straight from a sink table (camelCase, as the sink writes it)

How bq prints them, from its source (tests/fixtures/bq/SOURCES.md): `--format=json` is
json.dumps(rows, separators=(',', ':'), sort_keys=True, ensure_ascii=False) on one line,
`--format=prettyjson` the same with indent=2 and separators (', ', ': '); INT64 and JSON columns come
as the API sends them, strings; a TIMESTAMP is printed "YYYY-MM-DD HH:MM:SS", whole seconds, UTC
(frontend TablePrinter._NormalizeTimestamp drops the microseconds); NULL is null. --timestamps keeps
more: `cast` is CAST(ts AS STRING) ("2023-05-04 18:35:55.500905+00"), `utc` the console's
("… 18:35:55.500905 UTC"). BigQuery keeps microseconds, so nanoseconds are cut to them first.
"""

import argparse
import datetime
import gzip
import json
import os
import re
import sys

# The entry labels ingest reads, as ingest/src/entry_labels.cc lists them (their sink columns are
# sink_key() of these); the resource labels every Dataflow resource has.
ENTRY_LABELS = [
    "compute.googleapis.com/resource_name",
    "dataflow.googleapis.com/job_id",
    "dataflow.googleapis.com/job_name",
    "dataflow.googleapis.com/region",
]
RESOURCE_LABELS = ["job_id", "job_name", "project_id", "region", "step_id"]
# The jsonPayload fields of the fixed sink column set: issue 18's contract lists the first eight;
# portability_worker_id is ingest's LogRecord::sdk_worker, which multiple-processes-per-gpu needs.
SINK_PAYLOAD_FIELDS = ["message", "exception", "logger", "thread", "worker", "job", "step", "work",
                       "portability_worker_id"]


def sink_key(key):
    """A BigQuery sink's column name for a label or field: unsupported characters become '_'."""
    return re.sub(r"[^A-Za-z0-9_]", "_", key).lstrip("_")


def read_entries(path):
    data = sys.stdin.buffer.read() if path == "-" else open(path, "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    text = data.decode("utf-8", errors="surrogateescape").lstrip("\ufeff")
    # Entries that do not parse are left out, as no BigQuery row can be one (ingest skips them too).
    decoder = json.JSONDecoder()
    entries, pos = [], 0
    stripped = text.lstrip()
    in_array = stripped.startswith("[")
    if in_array:
        pos = text.index("[") + 1
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or (in_array and text[pos] == "]"):
            return entries
        try:
            entry, pos = decoder.raw_decode(text, pos)
            entries.append(entry)
        except json.JSONDecodeError:
            if in_array:
                return entries  # a cut-off array: the rest is lost
            newline = text.find("\n", pos)
            pos = len(text) if newline < 0 else newline + 1


def lower_keys(value):
    """A sink's field names: "normalized to the lowercase" (cloud.google.com/logging/docs/export/bigquery)."""
    if isinstance(value, dict):
        return {sink_key(k.lower()): lower_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [lower_keys(v) for v in value]
    return value


def parse_time(text):
    """RFC 3339 → (datetime to the microsecond, UTC)."""
    m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)", text)
    if not m:
        return None
    base = datetime.datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S")
    micros = int((m.group(2) or "0")[:6].ljust(6, "0"))
    zone = m.group(3)
    offset = datetime.timedelta(0)
    if zone != "Z":
        sign = -1 if zone[0] == "-" else 1
        offset = sign * datetime.timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))
    return base.replace(microsecond=micros) - offset


def bq_timestamp(value, style):
    if value is None:
        return None
    t = parse_time(value) if isinstance(value, str) else None
    if t is None:
        return value  # not a time BigQuery would have kept; passed on as it was
    if style == "seconds":
        return t.replace(microsecond=0).isoformat(" ")
    frac = ".%06d" % t.microsecond if t.microsecond else ""
    whole = t.replace(microsecond=0).isoformat(" ") + frac
    return whole + ("+00" if style == "cast" else " UTC")


def json_column(value):
    """A JSON column as the REST API and bq print it: the value's JSON text, or NULL."""
    if value is None:
        return None
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


SEVERITY_NUMBERS = {"DEFAULT": 0, "DEBUG": 100, "INFO": 200, "NOTICE": 300, "WARNING": 400, "ERROR": 500,
                    "CRITICAL": 600, "ALERT": 700, "EMERGENCY": 800}


def row_for(entry, shape, style):
    get = entry.get
    resource = get("resource") or {}
    res_labels = resource.get("labels")
    labels = get("labels")
    payload = get("jsonPayload")
    ts = bq_timestamp(get("timestamp"), style)
    if shape in ("query-analytics", "analytics-view"):
        row = {
            "timestamp": ts,
            "severity": get("severity"),
            "log_name": get("logName"),
            "insert_id": get("insertId"),
            "resource": {"type": resource.get("type"), "labels": json_column(res_labels)} if resource else None,
            "labels": json_column(labels),
            "text_payload": get("textPayload"),
            "json_payload": json_column(payload),
        }
        if shape == "query-analytics":
            row["gpudiag_summary"] = None
        else:
            severity = get("severity")
            number = SEVERITY_NUMBERS.get(severity) if isinstance(severity, str) else severity
            row["severity_number"] = None if number is None else str(number)  # INT64: a string
            row["receive_timestamp"] = bq_timestamp(get("receiveTimestamp"), style)
            row["proto_payload"] = json_column(get("protoPayload"))
        return row
    # Sink shapes. The query's result has RECORDs of the fixed column set (docs/sql.md); a sink table
    # has every label and payload field it was ever sent, payload field names lowercased.
    fixed = shape == "query-sink"
    sink_labels = None
    if isinstance(labels, dict):
        keys = ENTRY_LABELS if fixed else list(labels)
        sink_labels = {sink_key(k): labels.get(k) for k in keys}
    sink_resource = None
    if resource:
        sink_resource = {"type": resource.get("type"), "labels": None}
        if isinstance(res_labels, dict):
            keys = RESOURCE_LABELS if fixed else list(res_labels)
            sink_resource["labels"] = {k: res_labels.get(k) for k in keys}
    sink_payload = None
    if isinstance(payload, dict):
        lowered = lower_keys(payload)
        sink_payload = {f: lowered.get(f) for f in SINK_PAYLOAD_FIELDS} if fixed else lowered
    if shape == "query-sink":
        return {
            "timestamp": ts,
            "severity": get("severity"),
            "log_name": get("logName"),
            "insert_id": get("insertId"),
            "resource": sink_resource,
            "labels": sink_labels,
            "text_payload": get("textPayload"),
            "json_payload": sink_payload,
            "gpudiag_summary": None,
        }
    return {  # sink-table
        "logName": get("logName"),
        "resource": sink_resource,
        "textPayload": get("textPayload"),
        "jsonPayload": sink_payload,
        "timestamp": ts,
        "receiveTimestamp": bq_timestamp(get("receiveTimestamp"), style),
        "severity": get("severity"),
        "insertId": get("insertId"),
        "labels": sink_labels,
    }


def query_order(entry):
    resource_labels = (entry.get("resource") or {}).get("labels") or {}
    labels = entry.get("labels") or {}
    job = resource_labels.get("job_id") or labels.get("dataflow.googleapis.com/job_id") or ""
    t = parse_time(entry.get("timestamp") or "") if isinstance(entry.get("timestamp"), str) else None
    return (job, t or datetime.datetime.min, entry.get("insertId") or "")


def render(rows, fmt):
    if fmt == "json":
        return json.dumps(rows, separators=(",", ":"), sort_keys=True, ensure_ascii=False) + "\n"
    return json.dumps(rows, separators=(", ", ": "), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def rows_of(export, shape, timestamps="seconds", order="query"):
    """The rows `tools/bq-rows` prints for these options (the tests call it in-process: a Python
    start per export was most of their time)."""
    entries = [e for e in read_entries(export) if isinstance(e, dict)]
    if order == "query":
        entries.sort(key=query_order)
    return [row_for(e, shape, timestamps) for e in entries]


def rendered(export, shape, fmt="json", timestamps="seconds", order="query", gzip_output=False):
    """What `tools/bq-rows` prints for these options, as bytes."""
    data = render(rows_of(export, shape, timestamps, order), fmt).encode("utf-8", errors="surrogateescape")
    return gzip.compress(data, mtime=0) if gzip_output else data


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("export", help="a Cloud Logging export (JSON array, NDJSON, gzip'd or not), or -")
    ap.add_argument("--shape", required=True, choices=["query-analytics", "query-sink", "analytics-view", "sink-table"])
    ap.add_argument("--format", default="json", choices=["json", "prettyjson"])
    ap.add_argument("--timestamps", default="seconds", choices=["seconds", "cast", "utc"])
    ap.add_argument("--order", default="query", choices=["query", "export"],
                    help="query: by job id, timestamp, insert_id, as `gpudiag sql` orders its rows (bq keeps the "
                         "order; it matters, as whole seconds cannot order entries within a second); export: as given")
    ap.add_argument("--gzip", action="store_true", help="gzip the output (mtime 0, so it is reproducible)")
    ap.add_argument("-o", "--output", default="-")
    args = ap.parse_args()
    if "-" not in (args.export, args.output) and os.path.exists(args.output) and os.path.samefile(args.export, args.output):
        ap.error(f"-o {args.output} is the export itself: the rows would overwrite it")
    data = rendered(args.export, args.shape, args.format, args.timestamps, args.order, args.gzip)
    if args.output == "-":
        sys.stdout.buffer.write(data)
    else:
        with open(args.output, "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
