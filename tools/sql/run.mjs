// Runs SQL in DuckDB and prints the last statement's result as `bq query --format=json` prints rows
// (tools/bq-rows docstring, tests/fixtures/bq/SOURCES.md), for the parity harness (docs/sql.md, Parity).
//   node tools/sql/run.mjs SPEC.json > rows.json
// SPEC: {"setup": ["CREATE …", …], "query": "SELECT …"}. With GPUDIAG_SQL_TIME=1 the query's wall
// time goes to stderr as "query_ms N" (the set-up, which loads the rows, is not counted).
import { readFileSync } from 'node:fs';
import { DuckDBInstance, DuckDBTypeId } from '@duckdb/node-api';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));

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
  if (process.env.GPUDIAG_SQL_TIME) process.stderr.write(`query_ms ${ms.toFixed(1)}\n`);
  const names = reader.columnNames();
  const types = reader.columnTypes();
  const rows = reader.getRowObjectsJson().map((row) => {
    const out = {};
    names.forEach((name, i) => { out[name] = bq(row[name], types[i]); });
    return out;
  });
  process.stdout.write(`${sortedJson(rows)}\n`);
} catch (error) {
  process.stderr.write(`duckdb: ${error.message}\n`);
  process.exitCode = 1;
}
