// `gpudiag mcp` driven by the official MCP TypeScript SDK's client (pinned in package-lock.json),
// the way Claude Code, Gemini CLI or VS Code drive it: handshake, tools/list, every tool on corpus
// cases, bad arguments, then a 100 MB export; and, below the SDK, the raw protocol: every revision
// the SDK supports, malformed JSON, unknown methods, ping and cancellation during a call, the time
// limit, end of input.
//
//   node tests/mcp/client_test.mjs --gpudiag build/cli/gpudiag [--big-export FILE | --big-export-generator
//        bench/generate.py] [--every N] [--sanitized]
//
// --big-export-generator writes a 100 MB export with bench/generate.py (deterministic, 3 s) into a
// temporary directory; --every N runs every Nth corpus case and --sanitized leaves the memory bounds
// unchecked (the sanitizer suite).
//
// Run from the repository root (the corpus paths are relative to it). Exit 1 on the first failure.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, existsSync, readdirSync, mkdtempSync, rmSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import assert from 'node:assert/strict';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SUPPORTED_PROTOCOL_VERSIONS, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

const { values: opts } = parseArgs({
  options: {
    gpudiag: { type: 'string' },
    'big-export': { type: 'string' },
    'big-export-generator': { type: 'string' },
    every: { type: 'string' },
    // Built with the sanitizers: their shadow memory makes every process larger than 64 MiB, so the
    // memory bounds are not checked (the Release suite checks them).
    sanitized: { type: 'boolean', default: false },
  },
});
assert.ok(opts.gpudiag, '--gpudiag PATH is required');
const gpudiag = opts.gpudiag;
const kMiB = 1024;  // ru_maxrss and VmHWM are in KiB
const kBudgetKiB = 64 * kMiB;

function log(line) {
  process.stdout.write(`${line}\n`);
}

// The command line's own report, the reference the tool's must equal.
function cliReport(args) {
  const run = spawnSync(gpudiag, ['analyze', '--format', 'json', '--redact', ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.ok(run.stdout.length > 0, `gpudiag analyze ${args.join(' ')} wrote no report: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

function corpusCases() {
  const cases = [];
  for (const name of readdirSync('corpus').sort()) {
    const dir = join('corpus', name);
    const exportPath = ['export.json', 'export.ndjson'].map((f) => join(dir, f)).find(existsSync);
    if (!exportPath) continue;
    const jobFile = join(dir, 'job.json');
    cases.push({ name, exportPath, jobFile: existsSync(jobFile) ? jobFile : undefined });
  }
  const every = Number(opts.every ?? 1);
  return cases.filter((_, i) => i % every === 0);
}

function peakRssKiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]);
}

async function withClient(serverArgs, body) {
  const transport = new StdioClientTransport({ command: gpudiag, args: ['mcp', ...serverArgs], stderr: 'pipe' });
  let stderr = '';
  transport.stderr.on('data', (chunk) => { stderr += chunk; });
  const client = new Client({ name: 'gpudiag-mcp-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    await body(client, transport);
  } catch (error) {
    process.stderr.write(`server stderr:\n${stderr}\n`);
    throw error;
  } finally {
    await client.close();
  }
}

async function sdkSession() {
  const cases = corpusCases();
  await withClient([], async (client, transport) => {
    assert.equal(client.getServerVersion().name, 'gpudiag');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['analyze', 'explain', 'history', 'preflight', 'rules']);
    for (const tool of tools) {
      assert.ok(tool.description.length > 80, `${tool.name}: a description a model can choose by`);
      assert.equal(tool.inputSchema.type, 'object');
    }
    const analyzeTool = tools.find((t) => t.name === 'analyze');
    assert.equal(analyzeTool.outputSchema.properties.schema.const, 'gpudiag.report/v1');

    // analyze: every corpus case, the same report as `gpudiag analyze --format json --redact`. The
    // SDK validates each structuredContent against the outputSchema (the report's JSON Schema).
    let findings = 0;
    for (const c of cases) {
      const args = { paths: [c.exportPath] };
      const cliArgs = [];
      if (c.jobFile) {
        args.job_file = c.jobFile;
        cliArgs.push('--job', c.jobFile);
      }
      const result = await client.callTool({ name: 'analyze', arguments: args });
      assert.equal(result.isError, false, `${c.name}: ${result.content[0].text}`);
      const expected = cliReport([...cliArgs, c.exportPath]);
      const got = result.structuredContent;
      const ids = (r) => r.findings.map((f) => `${f.rule_id} ${f.fingerprint}`);
      const groups = (r) => r.unexplained.map((u) => u.fingerprint);
      assert.deepEqual(ids(got), ids(expected), `${c.name}: rule ids and fingerprints`);
      assert.deepEqual(groups(got), groups(expected), `${c.name}: unexplained groups`);
      assert.deepEqual(got, expected, `${c.name}: the whole report`);
      const summary = result.content[0].text;
      assert.match(summary, new RegExp(`^gpudiag report \\(gpudiag.report/v1\\): ${expected.verdict.toUpperCase()}`), c.name);
      if (expected.findings.length > 0) assert.ok(summary.includes(expected.findings[0].rule_id), `${c.name}: the summary names the first cause`);
      if (expected.fixes.length > 0) assert.ok(summary.includes('Fix 1: '), `${c.name}: the summary gives the first fix`);
      assert.ok(summary.split('\n').length <= 45, `${c.name}: the summary fits a model's context`);
      if (!opts.sanitized) assert.ok(result._meta['dev.gpudiag/peak_rss_kib'] <= kBudgetKiB, `${c.name}: the call's peak RSS`);
      findings += got.findings.length;
    }
    log(`ok: analyze on ${cases.length} corpus cases, ${findings} findings, each report equal to the command line's`);

    // Redaction is the default; a call may turn it off.
    const secret = 'corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json';
    const redacted = await client.callTool({ name: 'analyze', arguments: { paths: [secret] } });
    const raw = await client.callTool({ name: 'analyze', arguments: { paths: [secret], redact: false } });
    assert.equal(redacted.structuredContent.job.project, '<project>');
    assert.equal(raw.structuredContent.job.project, 'traffic-cams-ai');
    log('ok: reports are redacted unless the call says redact: false');

    // explain, rules.
    const explained = await client.callTool({ name: 'explain', arguments: { rule_id: 'gpu-out-of-memory' } });
    assert.equal(explained.isError, false);
    assert.match(explained.content[0].text, /GPU ran out of memory/);
    assert.match(explained.content[0].text, /cloud\.google\.com\/dataflow\/docs/);
    const inJapanese = await client.callTool({ name: 'explain', arguments: { rule_id: 'gpu-out-of-memory', lang: 'ja' } });
    assert.equal(inJapanese.isError, false, inJapanese.content[0].text);
    assert.match(inJapanese.content[0].text, /hl=ja/);
    const english = spawnSync(gpudiag, ['explain', 'gpu-out-of-memory', '--lang', 'en'], { encoding: 'utf8' }).stdout;
    assert.ok(!english.includes('hl=ja'));
    const unknown = await client.callTool({ name: 'explain', arguments: { rule_id: 'gpu-oom-typo' } });
    assert.equal(unknown.isError, true);
    assert.match(unknown.content[0].text, /no rule `gpu-oom-typo`/);
    const rules = await client.callTool({ name: 'rules', arguments: {} });
    const listed = JSON.parse(spawnSync(gpudiag, ['rules', 'list', '--format', 'json'], { encoding: 'utf8' }).stdout);
    assert.deepEqual(rules.structuredContent, listed);
    assert.ok(listed.rules.some((r) => r.id === 'gpu-out-of-memory'));
    log(`ok: explain (in English and in Japanese; an unknown rule as a tool error), rules (${listed.rules.length})`);

    // history: a database of a recorded run; a fingerprint seen before, one that is new.
    const dir = mkdtempSync(join(tmpdir(), 'gpudiag-mcp-'));
    try {
      const db = join(dir, 'runs.db');
      spawnSync(gpudiag, ['analyze', '--db', db, '--format', 'json', secret]);
      const report = cliReport([secret]);
      const fingerprint = report.findings[0].fingerprint;
      const seen = await client.callTool({ name: 'history', arguments: { db, fingerprint } });
      assert.equal(seen.isError, false, seen.content[0].text);
      assert.match(seen.content[0].text, new RegExp(`${fingerprint} was seen before: 1 of 1 runs`));
      assert.equal(seen.structuredContent.schema, 'gpudiag.history/v1');
      const fresh = await client.callTool({ name: 'history', arguments: { db, fingerprint: 'gpu-out-of-memory/0000000000000000' } });
      assert.match(fresh.content[0].text, /is in no recorded run: it is new/);
      const missing = await client.callTool({ name: 'history', arguments: { db: join(dir, 'none.db') } });
      assert.equal(missing.isError, true);
      assert.match(missing.content[0].text, /db-missing/);
      log('ok: history (seen before, new, and a missing database as a tool error)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // preflight: a launch command that asks for a GPU without the driver.
    const preflight = await client.callTool({
      name: 'preflight',
      arguments: { command: ['python', 'main.py', '--runner', 'DataflowRunner', '--dataflow_service_options=worker_accelerator=type:nvidia-l4;count:1'] },
    });
    assert.equal(preflight.isError, false, preflight.content[0].text);
    assert.ok(preflight.structuredContent.preflight, 'a preflight report');
    assert.ok(preflight.structuredContent.findings.some((f) => f.rule_id === 'gpu-driver-not-requested'));
    log('ok: preflight');

    // Bad calls are tool errors; the server goes on serving.
    const badPath = await client.callTool({ name: 'analyze', arguments: { paths: ['no/such/export.json'] } });
    assert.equal(badPath.isError, true);
    assert.match(badPath.content[0].text, /no\/such\/export\.json/);
    const badArg = await client.callTool({ name: 'analyze', arguments: { path: 'x.json' } });
    assert.equal(badArg.isError, true);
    assert.match(badArg.content[0].text, /unknown argument `path`/);
    const stdinPath = await client.callTool({ name: 'analyze', arguments: { paths: ['-'] } });
    assert.equal(stdinPath.isError, true);
    await assert.rejects(client.callTool({ name: 'no-such-tool', arguments: {} }), /no tool `no-such-tool`/);
    await client.ping();
    const again = await client.callTool({ name: 'analyze', arguments: { paths: [cases[0].exportPath] } });
    assert.equal(again.isError, false);
    log('ok: a bad path, a bad argument, stdin and an unknown tool are errors, and the server still answers');

    // The 100 MB export: the call's child and the server each stay within 64 MiB.
    if (opts['big-export']) {
      const started = Date.now();
      const big = await client.callTool({ name: 'analyze', arguments: { paths: [opts['big-export']] } }, undefined, { timeout: 600000 });
      assert.equal(big.isError, false, big.content[0].text);
      const child = big._meta['dev.gpudiag/peak_rss_kib'];
      assert.ok(child <= kBudgetKiB, `the call's peak RSS ${child} KiB`);
      assert.ok(big.structuredContent.totals.entries > 90000);
      log(`ok: a ${opts['big-export']} call: ${big.structuredContent.totals.entries} entries in ${((Date.now() - started) / 1000).toFixed(1)} s, the call's peak RSS ${(child / kMiB).toFixed(1)} MiB`);
    }
    const server = peakRssKiB(transport.pid);
    assert.ok(opts.sanitized || server <= kBudgetKiB, `the server's peak RSS ${server} KiB`);
    log(`ok: the server's own peak RSS over the session: ${(server / kMiB).toFixed(1)} MiB${opts.sanitized ? ' (sanitizers: not checked)' : ''}`);
  });
}

// Below the SDK: a server process and its lines, for what the SDK's client does not do on its own.
class RawSession {
  constructor(args = []) {
    this.child = spawn(gpudiag, ['mcp', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.lines = [];
    this.waiters = [];
    this.stderr = '';
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
    let buffer = '';
    this.child.stdout.on('data', (chunk) => {
      buffer += chunk;
      for (let i; (i = buffer.indexOf('\n')) >= 0;) {
        this.lines.push(JSON.parse(buffer.slice(0, i)));  // every line must be one JSON message
        buffer = buffer.slice(i + 1);
      }
      this.waiters.splice(0).forEach((w) => w());
    });
    this.child.stderr.on('data', (chunk) => { this.stderr += chunk; });
  }
  send(message) {
    this.child.stdin.write(typeof message === 'string' ? `${message}\n` : `${JSON.stringify(message)}\n`);
  }
  async response(id, ms = 60000) {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.lines.find((m) => JSON.stringify(m.id) === JSON.stringify(id));
      if (found) return found;
      assert.ok(Date.now() < deadline, `no response to ${JSON.stringify(id)}; stderr:\n${this.stderr}`);
      await new Promise((resolve) => { this.waiters.push(resolve); setTimeout(resolve, 200); });
    }
  }
  async logged(pattern, ms = 20000) {
    const deadline = Date.now() + ms;
    while (!pattern.test(this.stderr)) {
      assert.ok(Date.now() < deadline, `the server did not log ${pattern}; stderr:\n${this.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  async initialize(version) {
    this.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const reply = await this.response(0);
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return reply;
  }
}

async function protocol() {
  // Every revision the SDK supports is spoken as asked; tools/list has what that revision defines.
  for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
    const s = new RawSession();
    const init = await s.initialize(version);
    assert.equal(init.result.protocolVersion, version);
    assert.deepEqual(init.result.capabilities, { tools: { listChanged: false } });
    s.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const { tools } = (await s.response(1)).result;
    const structured = version >= '2025-06-18';
    assert.equal(tools.find((t) => t.name === 'analyze').outputSchema !== undefined, structured, version);
    s.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'analyze', arguments: { paths: ['corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json'] } } });
    const result = (await s.response(2)).result;
    if (structured) {
      assert.equal(result.structuredContent.schema, 'gpudiag.report/v1');
    } else {
      assert.equal(result.structuredContent, undefined);
      assert.equal(JSON.parse(result.content[1].text).schema, 'gpudiag.report/v1');  // the report as text
    }
    s.child.stdin.end();
    assert.equal(await s.exited, 0, `${version}: exit 0 at end of input`);
  }
  const unknown = new RawSession();
  assert.equal((await unknown.initialize('1999-01-01')).result.protocolVersion, LATEST_PROTOCOL_VERSION);
  unknown.child.stdin.end();
  await unknown.exited;
  log(`ok: protocol revisions ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')} (and an unknown one gets ${LATEST_PROTOCOL_VERSION})`);

  // JSON-RPC errors; a batch (2025-03-26); responses only on stdout, one per line.
  const s = new RawSession();
  await s.initialize('2025-03-26');
  s.send('{"jsonrpc":"2.0","id":7,"method":');
  s.send({ jsonrpc: '2.0', id: 8, method: 'resources/list' });
  s.send([{ jsonrpc: '2.0', id: 9, method: 'ping' }, { jsonrpc: '2.0', id: 10, method: 'nope' }]);
  const parseError = await s.response(null);
  assert.equal(parseError.error.code, -32700);
  assert.equal((await s.response(8)).error.code, -32601);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const batch = s.lines.find(Array.isArray);
  assert.ok(batch, 'a batch gets an array of responses');
  assert.deepEqual(batch.map((r) => r.id), [9, 10]);
  assert.equal(batch[1].error.code, -32601);
  s.child.stdin.end();
  assert.equal(await s.exited, 0);
  log('ok: malformed JSON -32700, unknown methods -32601, a batch');

  // A call that does not end by itself: an export that is a FIFO the test holds open, with one real
  // entry in it (corpus/…/export.ndjson's first line) and no end.
  const dir = mkdtempSync(join(tmpdir(), 'gpudiag-mcp-fifo-'));
  const fifo = join(dir, 'export.ndjson');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
  const writer = openSync(fifo, 'r+');  // read-write: opens without a reader, and never sends EOF
  const ndjson = readdirSync('corpus').map((n) => join('corpus', n, 'export.ndjson')).find(existsSync);
  const entry = `${readFileSync(ndjson, 'utf8').split('\n')[0]}\n`;
  try {
    // While a call runs, ping is answered; a cancelled call is stopped and gets no response.
    writeSync(writer, entry);
    const c = new RawSession();
    await c.initialize(LATEST_PROTOCOL_VERSION);
    c.send({ jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: { name: 'analyze', arguments: { paths: [fifo] } } });
    c.send({ jsonrpc: '2.0', id: 'alive', method: 'ping' });
    assert.deepEqual((await c.response('alive', 10000)).result, {});
    // What waits for the call is bounded: past 1,024 requests, the server refuses them at once.
    for (let i = 0; i < 1030; i++) c.send({ jsonrpc: '2.0', id: `q${i}`, method: 'nope' });
    assert.equal((await c.response('q1029', 10000)).error.code, -32000);
    assert.equal(c.lines.find((m) => m.id === 'q0'), undefined, 'a waiting request is answered after the call');
    c.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'slow', reason: 'test' } });
    c.send({ jsonrpc: '2.0', id: 'after', method: 'ping' });
    await c.response('after', 20000);
    assert.equal(c.lines.find((m) => m.id === 'slow'), undefined, 'a cancelled request gets no response');
    assert.equal((await c.response('q1023', 20000)).error.code, -32601);  // the queue's last, answered in turn
    await c.logged(/analyze: (exit|signal) \d+ \(cancelled\)/);
    c.child.stdin.end();
    assert.equal(await c.exited, 0);
    log('ok: ping during a call, a bounded queue, cancellation');

    // The time limit: the call is stopped and returns the report of what was read, marked incomplete.
    writeSync(writer, entry);  // the cancelled call read the first one
    const t = new RawSession(['--call-timeout', '1']);
    await t.initialize(LATEST_PROTOCOL_VERSION);
    t.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'analyze', arguments: { paths: [fifo] } } });
    const timed = (await t.response(1, 30000)).result;
    assert.match(timed.content[0].text, /^stopped after 1 s/);
    assert.equal(timed.structuredContent.verdict, 'incomplete');
    assert.ok(timed.structuredContent.input_errors.some((e) => e.code === 'input-interrupted'), 'the report says what was not read');
    t.child.stdin.end();
    assert.equal(await t.exited, 0);
    log('ok: the time limit stops a call, which returns the report of what it read');
  } finally {
    closeSync(writer);
    rmSync(dir, { recursive: true, force: true });
  }
}

let bigDir;
if (opts['big-export-generator']) {
  bigDir = mkdtempSync(join(tmpdir(), 'gpudiag-mcp-big-'));
  opts['big-export'] = join(bigDir, '100M.ndjson');
  const made = spawnSync('python3', [opts['big-export-generator'], '--size', '100M', '--out', opts['big-export']], { encoding: 'utf8' });
  assert.equal(made.status, 0, `bench/generate.py: ${made.stderr}`);
}
try {
  await sdkSession();
  await protocol();
} finally {
  if (bigDir) rmSync(bigDir, { recursive: true, force: true });
}
log('gpudiag mcp: every check passed');
