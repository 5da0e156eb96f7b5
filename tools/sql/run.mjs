// Runs SQL in DuckDB and prints the last statement's result as `bq query --format=json` prints rows
// (tools/bq-rows docstring, tests/fixtures/bq/SOURCES.md), for the parity harness (docs/sql.md, Parity).
//   node tools/sql/run.mjs SPEC.json > rows.json
//   node tools/sql/run.mjs --serve      (SPEC paths on stdin, one a line; tools/sql/harness.py)
// SPEC: {"setup": ["CREATE …", …], "query": "SELECT …"}. With GPUDIAG_SQL_TIME=1 the query's wall
// time goes to stderr as "query_ms N" (the set-up, which loads the rows, is not counted).
// --serve runs each SPEC in a fresh in-memory database and answers with a JSON line, {"bytes": N,
// "query_ms": F} followed by the N bytes of rows, or {"error": "…"}: starting node and loading
// DuckDB took longer than a corpus case's query (0.3 s each, 2026-12-05), and the parity tests run
// 350 of them.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { DuckDBInstance, DuckDBTypeId } from '@duckdb/node-api';


// bq prints what the REST API sends: every scalar as a string, a TIMESTAMP as whole seconds UTC
// ("YYYY-MM-DD HH:MM:SS", the table printer drops the microseconds), a RECORD as an object, a
// repeated field as a list, NULL as null. JSON columns are their JSON text, which DuckDB already gives.
function bq(value, type) {
  if (value === null || value === undefined) return null;
  switch (type.typeId) {
    case DuckDBTypeId.STRUCT: {
      const out = {};
      type.entryNames.forEach((name, i) => { out[name] = bq(value[name], type.entryTypes[i]); });
      return out;
    }
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY:
      return value.map((v) => bq(v, type.valueType));
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ:
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
      return String(value).slice(0, 19);  // the session's time zone is UTC
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

// Python's json.dumps(rows, separators=(',', ':'), sort_keys=True, ensure_ascii=False).
function sortedJson(value) {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

// (rows text, query ms) of one SPEC, in a database of its own.
async function runSpec(spec) {
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  try {
    await db.run("SET TimeZone = 'UTC'");
    // BigQuery sorts NULL first in ascending order and last in descending order (DuckDB: last, first).
    await db.run("SET default_null_order = 'nulls_first_on_asc_last_on_desc'");
    for (const statement of spec.setup) await db.run(statement);
    const started = process.hrtime.bigint();
    const reader = await db.runAndReadAll(spec.query);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const names = reader.columnNames();
    const types = reader.columnTypes();
    const rows = reader.getRowObjectsJson().map((row) => {
      const out = {};
      names.forEach((name, i) => { out[name] = bq(row[name], types[i]); });
      return out;
    });
    return { text: `${sortedJson(rows)}\n`, ms };
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}

const readSpec = (path) => JSON.parse(readFileSync(path, 'utf8'));

if (process.argv[2] === '--serve') {
  for await (const path of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    try {
      const { text, ms } = await runSpec(readSpec(path));
      const rows = Buffer.from(text, 'utf8');
      process.stdout.write(`${JSON.stringify({ bytes: rows.length, query_ms: ms })}\n`);
      process.stdout.write(rows);
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ error: `duckdb: ${error.message}` })}\n`);
    }
  }
} else {
  try {
    const { text, ms } = await runSpec(readSpec(process.argv[2]));
    if (process.env.GPUDIAG_SQL_TIME) process.stderr.write(`query_ms ${ms.toFixed(1)}\n`);
    process.stdout.write(text);
  } catch (error) {
    process.stderr.write(`duckdb: ${error.message}\n`);
    process.exitCode = 1;
  }
}
