"""Re-writes a Cloud Logging export in the form `gcloud logging read` prints without --format=json.

    tools/gcloud-yaml corpus/gpu-oom-pytorch-runinference/export.json > logs.yaml

gcloud's default output for a list is its YAML printer
(googlecloudsdk/core/resource/yaml_printer.py): ruamel.yaml, YAML 1.2, one document per entry each
opened by a `---` line, block style with two-space indents, the keys of every mapping sorted,
`allow_unicode`, a string holding a line break forced to a literal block (`|-`, `|`, `|+`, with an
indentation indicator when its first line starts with a space), floats through TransformFloat
(six significant digits), None as `null`; other scalars in the style ruamel's emitter picks: plain
unless YAML 1.2 would read them as another type or they hold special characters, then single-quoted,
then double-quoted (tabs, control characters); long scalars folded at 80 columns.

This writes the same bytes with PyYAML's emitter (from which ruamel's descends) and a resolver with
ruamel's YAML 1.2 rules. tests/ingest_yaml_corpus.py --against-gcloud checks that claim against the
gcloud printer itself, where the Cloud SDK is installed.
"""

import argparse
import json
import re
import sys

import yaml

import bq_rows  # tools/bq_rows.py: the one reader of an export's entries in tools/


def read_entries(path):
    """The entries of an export (array, NDJSON, concatenated objects, gzip or not), read as bq_rows
    reads them; what does not parse, or is no object, is left out, as gcloud never prints one."""
    return [entry for entry in bq_rows.read_entries(path) if isinstance(entry, dict)]


class Resolver(yaml.resolver.BaseResolver):
    """The implicit types of YAML 1.2 as ruamel.yaml resolves them: a string that would read as one
    of them is quoted."""


for tag, regexp, first in [
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("tag:yaml.org,2002:float",
     r"^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)"
     r"|[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", "-+0123456789."),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?[0-9_]+|[-+]?0x[0-9a-fA-F_]+)$",
     "-+0123456789"),
    ("tag:yaml.org,2002:merge", r"^(?:<<)$", "<"),
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:timestamp",
     r"^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?"
     r"(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$",
     "0123456789"),
    ("tag:yaml.org,2002:value", r"^(?:=)$", "="),
    ("tag:yaml.org,2002:yaml", r"^(?:!|&|\*)$", "!&*"),
]:
    Resolver.add_implicit_resolver(tag, re.compile(regexp), list(first))


class Emitter(yaml.emitter.Emitter):
    """PyYAML's emitter with the two choices in which ruamel's differs: a literal block asked for is
    written even where PyYAML would find it not allowed (trailing spaces, tabs, control characters:
    written raw), and a string that cannot be plain and holds a single quote or a line break is
    double-quoted rather than single-quoted."""

    def choose_scalar_style(self):
        if self.analysis is None:
            self.analysis = self.analyze_scalar(self.event.value)
        if self.event.style == '"':
            return '"'
        if not self.event.style and self.event.implicit[0]:
            if not (self.simple_key_context and (self.analysis.empty or self.analysis.multiline)) and (
                    self.flow_level and self.analysis.allow_flow_plain
                    or (not self.flow_level and self.analysis.allow_block_plain)):
                return ""
        if self.event.style == "|" and not self.flow_level and not self.simple_key_context:
            return "|"
        if not self.event.style and self.analysis.allow_double_quoted and (
                "'" in self.event.value or "\n" in self.event.value):
            return '"'
        if self.analysis.allow_single_quoted and not (self.simple_key_context and self.analysis.multiline):
            return "'"
        return '"'


class Dumper(Emitter, yaml.serializer.Serializer, yaml.representer.SafeRepresenter, Resolver):
    def __init__(self, stream, **_dump_options):  # yaml.dump's own are replaced by gcloud's
        Emitter.__init__(self, stream, canonical=False, indent=2, width=80, allow_unicode=True,
                                      line_break="\n")
        yaml.serializer.Serializer.__init__(self, explicit_start=True, explicit_end=False)
        yaml.representer.SafeRepresenter.__init__(self, default_style=None, default_flow_style=False,
                                                  sort_keys=True)
        Resolver.__init__(self)


def transform_float(number):
    """resource_transform.TransformFloat: six significant digits, no exponent below 1e+09."""
    text = "{0:.6}".format(number)
    at = text.find("e+")
    if at >= 0 and int(text[at + 2:]) < 9:
        return "{0:.1f}".format(number)
    return text


def represent_str(dumper, data):
    style = "|" if "\n" in data else None  # yaml_printer._LiteralLines
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


Dumper.add_representer(str, represent_str)
Dumper.add_representer(float, lambda d, v: yaml.nodes.ScalarNode("tag:yaml.org,2002:float", transform_float(v)))
Dumper.add_representer(type(None), lambda d, v: d.represent_scalar("tag:yaml.org,2002:null", "null"))


def rendered(path):
    """The export at `path` as gcloud's YAML, bytes."""
    out = []
    for entry in read_entries(path):
        out.append(yaml.dump(entry, Dumper=Dumper))
    return "".join(out).encode("utf-8", errors="surrogateescape")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("export", help="a JSON export (array, NDJSON, gzip), or - for stdin")
    args = ap.parse_args()
    sys.stdout.buffer.write(rendered(args.export))


if __name__ == "__main__":
    main()
