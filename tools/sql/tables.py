"""The source tables the parity harness loads into DuckDB: their columns and their rows, from an export
re-shaped by tools/bq-rows (docs/sql.md, "Parity"; issue 18's contract, "Table names the query reads").

analytics: the Log Analytics view (`PROJECT.DATASET._AllLogs`), its columns typed as the view types
them: TIMESTAMP, JSON for json_payload / labels / proto_payload, resource a STRUCT whose labels are JSON.
sink: one table per log, named by the log id with every character not [A-Za-z0-9_] made '_', its
RECORD columns of the fixed column set the query assumes (tools/bq-rows ENTRY_LABELS, RESOURCE_LABELS,
SINK_PAYLOAD_FIELDS, which bq-rows's docstring points at).
"""

import json
import re
import urllib.parse

TS = "TIMESTAMPTZ"  # BigQuery's TIMESTAMP is an instant; the session runs in UTC
ANALYTICS_COLUMNS = [
    ("timestamp", TS), ("receive_timestamp", TS), ("log_name", "VARCHAR"), ("log_id", "VARCHAR"),
    ("severity", "VARCHAR"), ("severity_number", "BIGINT"),
    ("resource", 'STRUCT("type" VARCHAR, labels JSON)'),
    ("json_payload", "JSON"), ("text_payload", "VARCHAR"), ("proto_payload", "JSON"), ("labels", "JSON"),
    ("insert_id", "VARCHAR"), ("trace", "VARCHAR"), ("span_id", "VARCHAR"), ("trace_sampled", "BOOLEAN"),
    ("operation", 'STRUCT(id VARCHAR, producer VARCHAR, "first" BOOLEAN, "last" BOOLEAN)'),
    ("source_location", 'STRUCT(file VARCHAR, line BIGINT, "function" VARCHAR)'),
    ("split", 'STRUCT(uid VARCHAR, "index" BIGINT, total_splits BIGINT)'),
]
ANALYTICS_JSON = ("json_payload", "proto_payload", "labels")


def sink_key(key):
    return re.sub(r"[^A-Za-z0-9_]", "_", key)


def sink_columns(bq_rows):
    """The fixed sink column set, from tools/bq-rows's own lists (so it is written once)."""
    def record(fields):
        return "STRUCT(" + ", ".join(f'"{f}" VARCHAR' for f in fields) + ")"
    labels = [bq_rows.sink_key(k) for k in bq_rows.ENTRY_LABELS]
    return [
        ("logName", "VARCHAR"),
        ("resource", f'STRUCT("type" VARCHAR, labels {record(bq_rows.RESOURCE_LABELS)})'),
        ("textPayload", "VARCHAR"), ("jsonPayload", record(bq_rows.SINK_PAYLOAD_FIELDS)),
        ("timestamp", TS), ("receiveTimestamp", TS), ("severity", "VARCHAR"), ("insertId", "VARCHAR"),
        ("labels", record(labels)),
    ], {"resource.labels": bq_rows.RESOURCE_LABELS, "jsonPayload": bq_rows.SINK_PAYLOAD_FIELDS,
        "labels": labels}


def log_id(log_name):
    """projects/P/logs/dataflow.googleapis.com%2Fworker → dataflow.googleapis.com/worker."""
    if not isinstance(log_name, str) or "/logs/" not in log_name:
        return None
    return urllib.parse.unquote(log_name.split("/logs/", 1)[1])


def sink_table_name(log_name):
    name = log_id(log_name)
    return None if name is None else sink_key(name)


def _time(value):
    # bq-rows --timestamps cast: "2023-05-04 18:35:55.500905+00"; it passes a time it cannot read on
    # as it was. BigQuery keeps no such row (Logging sets every timestamp): NULL here.
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?\+00", value):
        return value
    return None


def _text(value):
    """A STRING column: a value of another JSON type as its JSON text (a sink would type the column
    from it; the fixed column set says STRING)."""
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def analytics_row(row):
    out = {name: None for name, _ in ANALYTICS_COLUMNS}
    out.update({k: v for k, v in row.items() if k in out})
    for k in ANALYTICS_JSON:  # bq-rows prints JSON columns as their text; DuckDB loads the value
        out[k] = None if row.get(k) is None else json.loads(row[k])
    res = row.get("resource")
    if res is not None:
        out["resource"] = {"type": _text(res.get("type")),
                           "labels": None if res.get("labels") is None else json.loads(res["labels"])}
    out["timestamp"], out["receive_timestamp"] = _time(row.get("timestamp")), _time(row.get("receive_timestamp"))
    out["severity"] = _text(row.get("severity"))
    out["log_id"] = log_id(row.get("log_name"))
    return out


def sink_row(row, fields):
    def record(value, names):
        if not isinstance(value, dict):
            return None
        return {n: _text(value.get(n)) for n in names}
    res = row.get("resource")
    return {
        "logName": _text(row.get("logName")),
        "resource": None if res is None else {"type": _text(res.get("type")),
                                              "labels": record(res.get("labels"), fields["resource.labels"])},
        "textPayload": _text(row.get("textPayload")),
        "jsonPayload": record(row.get("jsonPayload"), fields["jsonPayload"]),
        "timestamp": _time(row.get("timestamp")), "receiveTimestamp": _time(row.get("receiveTimestamp")),
        "severity": _text(row.get("severity")), "insertId": _text(row.get("insertId")),
        "labels": record(row.get("labels"), fields["labels"]),
    }
