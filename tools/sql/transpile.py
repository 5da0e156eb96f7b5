"""GoogleSQL → DuckDB, mechanically: sqlglot.transpile(read="bigquery", write="duckdb") plus the few
listed repairs sqlglot 10.6 (Debian 12's python3-sqlglot) needs; docs/sql.md "Parity" lists each gap.

    python3 tools/sql/transpile.py QUERY.sql      # prints the DuckDB text and, on stderr, the tables
"""

import sys

import sqlglot
from sqlglot import exp
from sqlglot.dialects.duckdb import DuckDB

# sqlglot parses and prints the compiled query recursively, and its nesting grows with the pack: the
# analytics query needed a recursion limit of 921 at 150 rules and 996 at 159 (Python's default is
# 1000, and the parity harness's own frames come on top). Python 3.11 runs Python-to-Python calls
# without the C stack, so a higher limit costs nothing until it is used.
sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))


def _struct_sql(self, expression):
    # Gap 1: BigQuery's STRUCT(x AS name) parses as Alias children, which sqlglot 10.6's DuckDB
    # generator prints as "{'name': }" (the value lost). Same output, read from the Alias.
    fields = []
    for e in expression.expressions:
        if isinstance(e, exp.Alias):
            fields.append(f"'{e.alias}': {self.sql(e, 'this')}")
        else:
            fields.append(f"'{e.name or e.this.name}': {self.sql(e, 'expression')}")
    return "{" + ", ".join(fields) + "}"


class Target(DuckDB):
    class Generator(DuckDB.Generator):
        # Gap 4: BigQuery's SELECT * EXCEPT (…) is DuckDB's * EXCLUDE (…); sqlglot 10.6 keeps EXCEPT.
        STAR_MAPPING = {**DuckDB.Generator.STAR_MAPPING, "except": "EXCLUDE"}
        TRANSFORMS = {**DuckDB.Generator.TRANSFORMS, exp.Struct: _struct_sql}


# Gap 3: BigQuery functions sqlglot passes through by name that DuckDB lacks: DuckDB macros of the
# same name and meaning, created before the query runs (not a rewrite of its text).
MACROS = [
    "CREATE MACRO to_json_string(x) AS CAST(to_json(x) AS VARCHAR)",
]


def _split_table_names(tree):
    """Gap 2: `project.dataset.table` in one pair of backticks is one identifier to sqlglot 10.6; DuckDB
    needs catalog, schema and table apart. Returns the (catalog, schema, table) names the query reads."""
    tables = set()
    ctes = {c.alias for c in tree.find_all(exp.CTE)}
    for table in tree.find_all(exp.Table):
        parts = []
        for key in ("catalog", "db", "this"):
            part = table.args.get(key)
            if part is not None:
                parts += part.name.split(".")
        if len(parts) == 1 and parts[0] in ctes:
            continue
        if len(parts) != 3:
            raise ValueError(f"table {'.'.join(parts)!r}: the harness takes project.dataset.table names only")
        for key, name in zip(("catalog", "db", "this"), parts):
            table.set(key, exp.Identifier(this=name, quoted=True))
        tables.add(tuple(parts))
    return sorted(tables)


def _json_value(node):
    """Gap 5: BigQuery's JSON_VALUE(json[, path]) is a STRING (a JSON string unquoted); sqlglot 10.6
    passes the name on, and DuckDB's json_value returns JSON (the string still quoted). DuckDB's
    json_extract_string is the same function as BigQuery's; the path defaults to '$' as in BigQuery."""
    if isinstance(node, exp.Anonymous) and node.name.upper() == "JSON_VALUE":
        args = list(node.expressions)
        if len(args) == 1:
            args.append(exp.Literal.string("$"))
        return exp.Anonymous(this="JSON_EXTRACT_STRING", expressions=args)
    return node


def transpile(text):
    """(DuckDB statements to run before, the DuckDB query, [(catalog, schema, table) it reads])."""
    trees = sqlglot.parse(text, read="bigquery")
    trees = [t for t in trees if t is not None]
    if len(trees) != 1:
        raise ValueError(f"expected one statement, got {len(trees)}")
    tree = trees[0]
    tables = _split_table_names(tree)
    tree = tree.transform(_json_value)
    return list(MACROS), tree.sql(dialect=Target), tables


if __name__ == "__main__":
    setup, query, tables = transpile(open(sys.argv[1]).read())
    print(query)
    for t in tables:
        print(".".join(t), file=sys.stderr)
