"""Reading and writing Cloud Logging exports the way gpudiag's corpus holds them.

An export is kept as a list of items: a parsed LogEntry (dict) or, for a line or tail the JSON parser
could not read, the raw text, so that messy cases keep their broken parts through every variant.
Each item remembers the file and line it started on in the original, which is how a finding's
evidence (file:line in the report) is traced back to the entries it names.
"""

import gzip
import json
import os


class Item:
    __slots__ = ("entry", "raw", "file", "line")

    def __init__(self, entry, raw, file, line):
        self.entry = entry  # dict, or None when the text did not parse
        self.raw = raw  # the original text when it did not parse
        self.file = file
        self.line = line


def read_text(path):
    if path.endswith(".gz"):
        with gzip.open(path, "rb") as f:
            return f.read().decode("utf-8", "surrogateescape")
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "surrogateescape")


def _line_at(text, pos, cache):
    # Line numbers of many offsets, in increasing order: count newlines incrementally.
    last_pos, last_line = cache
    line = last_line + text.count("\n", last_pos, pos)
    cache[0], cache[1] = pos, line
    return line


def parse_items(path, display):
    """The items of one export file: a JSON array (pretty or not) or NDJSON."""
    text = read_text(path)
    items = []
    stripped = text.lstrip()
    if stripped.startswith("["):
        decoder = json.JSONDecoder()
        pos = text.index("[") + 1
        cache = [0, 1]
        while True:
            while pos < len(text) and text[pos] in " \t\r\n,":
                pos += 1
            if pos >= len(text) or text[pos] == "]":
                break
            line = _line_at(text, pos, cache)
            try:
                obj, end = decoder.raw_decode(text, pos)
            except ValueError:
                items.append(Item(None, text[pos:], display, line))  # a truncated tail
                break
            items.append(Item(obj if isinstance(obj, dict) else None, None if isinstance(obj, dict) else json.dumps(obj),
                              display, line))
            pos = end
        return items, "array"
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            items.append(Item(obj if isinstance(obj, dict) else None, None if isinstance(obj, dict) else line,
                              display, number))
        except ValueError:
            items.append(Item(None, line, display, number))
    return items, "ndjson"


def write_array(path, items, sort_keys=False):
    """gcloud's shape: a pretty-printed array, 2-space indent. Unparsable items cannot sit in an
    array without breaking it, so a case holding them is written as NDJSON instead."""
    if any(i.entry is None for i in items):
        return write_ndjson(path, items, sort_keys)
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(json.dumps([i.entry for i in items], indent=2, ensure_ascii=False, sort_keys=sort_keys))
        f.write("\n")
    return path


def write_ndjson(path, items, sort_keys=False):
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        for i in items:
            if i.entry is None:
                f.write(i.raw.replace("\n", " ") + "\n")
            else:
                f.write(json.dumps(i.entry, ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys) + "\n")
    return path


def short_log(entry):
    name = entry.get("logName", "")
    for sep in ("%2F", "%2f", "/"):
        if sep in name:
            name = name.rsplit(sep, 1)[-1]
    return name


def set_log(entry, log):
    name = entry.get("logName")
    if not name:
        return
    for sep in ("%2F", "%2f"):
        if sep in name:
            entry["logName"] = name.rsplit(sep, 1)[0] + sep + log
            return
    entry["logName"] = name.rsplit("/", 1)[0] + "/" + log


def case_inputs(case_dir):
    """A case's input files, sorted, as golden_test.cc passes them (every name starting "export")."""
    return sorted(os.path.join(case_dir, n) for n in os.listdir(case_dir) if n.startswith("export"))
