/* global process, setTimeout, clearTimeout, URL, fetch, AbortSignal */
// Runs the official MCP conformance suite (npm @modelcontextprotocol/conformance) against the
// toolkit's fixture server (examples/conformance-server.ts) and prints a per-scenario table.
//
//   npm run conformance [-- --run <id>[,<id>...]] [--markdown <file>] [--keep-results <dir>]
//
// Runs (ids): 0.1.16-all             stable suite, --suite all (2025-11-25 wire); every scenario required
//             alpha.12-2025-11-25    prerelease suite, --requirements 2025-11-25
//             alpha.12-2026-07-28    prerelease suite, --requirements 2026-07-28
// In a requirements run only the scenarios the revision requires are required; the suite's
// `not_scored` ones (extension, pending, added-after-release) are run and reported.
// Exit code: 0 when every required scenario passes, 1 otherwise (or when a run fails to complete).
//
// The suite's CLI needs Node 22: it runs through `npx -p node@22 -p @modelcontextprotocol/conformance@V`
// (pinned versions, fetched from the npm registry). The fixture is compiled from TypeScript with the
// project's own tsc and started on a free port on 127.0.0.1, once per run. Every step is time-bounded
// and every child process is killed on exit.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const BUILD_DIR = path.join(ROOT, 'node_modules', '.cache', 'mcp-toolkit-conformance');
const FIXTURE = path.join(BUILD_DIR, 'examples', 'conformance-server.js');
const NODE_FOR_SUITE = 'node@22';

/** The three runs the project tracks (issue 6). */
const RUNS = [
  {
    id: '0.1.16-all',
    title: '@modelcontextprotocol/conformance 0.1.16, --suite all (2025-11-25)',
    version: '0.1.16',
    args: ['--suite', 'all'],
    timeoutMs: 10 * 60_000,
  },
  {
    id: 'alpha.12-2025-11-25',
    title: '@modelcontextprotocol/conformance 0.2.0-alpha.12, --requirements 2025-11-25',
    version: '0.2.0-alpha.12',
    args: ['--requirements', '2025-11-25'],
    timeoutMs: 10 * 60_000,
  },
  {
    id: 'alpha.12-2026-07-28',
    title: '@modelcontextprotocol/conformance 0.2.0-alpha.12, --requirements 2026-07-28',
    version: '0.2.0-alpha.12',
    args: ['--requirements', '2026-07-28'],
    timeoutMs: 10 * 60_000,
  },
];
/**
 * Every fixture the suites' server scenarios call by name (from the scenario sources of both pinned
 * versions). The fixture must advertise each one: a missing tool can pass a lenient check by accident.
 */
const EXPECTED_FIXTURES = {
  tools: [
    'test_simple_text',
    'test_image_content',
    'test_audio_content',
    'test_embedded_resource',
    'test_multiple_content_types',
    'test_tool_with_logging',
    'test_tool_with_progress',
    'test_error_handling',
    'test_sampling',
    'test_elicitation',
    'test_elicitation_sep1034_defaults',
    'test_elicitation_sep1330_enums',
    'json_schema_2020_12_tool',
    'test_reconnection',
    'test_input_required_result_elicitation',
    'test_input_required_result_sampling',
    'test_input_required_result_list_roots',
    'test_input_required_result_request_state',
    'test_input_required_result_multiple_inputs',
    'test_input_required_result_multi_round',
    'test_input_required_result_tampered_state',
    'test_input_required_result_capabilities',
    'test_missing_capability',
    'test_streaming_elicitation',
    'test_logging_tool',
    'test_trigger_tool_change',
    'test_trigger_prompt_change',
    'test_param_headers',
    // tasks extension (SEP-2663) scenarios
    'greet',
    'slow_compute',
    'failing_job',
    'protocol_error_job',
    'confirm_delete',
    'multi_input',
    'test_tool_with_task',
  ],
  resources: ['test://static-text', 'test://static-binary', 'test://watched-resource'],
  resourceTemplates: ['test://template/{id}/data'],
  prompts: [
    'test_simple_prompt',
    'test_prompt_with_arguments',
    'test_prompt_with_embedded_resource',
    'test_prompt_with_image',
    'test_input_required_result_prompt',
  ],
};
const TOTAL_TIMEOUT_MS = 40 * 60_000;
const COMPILE_TIMEOUT_MS = 5 * 60_000;
const FIXTURE_START_TIMEOUT_MS = 30_000;

// ── child processes: every one is tracked and killed (its whole group) on exit ──
const children = new Set();

function killTree(child, signal = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal); // detached: the child leads its own process group
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

/** A temporary results folder to remove on exit (unless --keep-results named one). */
let tempResults;

function killAll() {
  for (const child of children) killTree(child, 'SIGKILL');
  if (tempResults) rmSync(tempResults, { recursive: true, force: true });
  tempResults = undefined;
}

process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    process.stderr.write(`conformance: ${signal}, stopping\n`);
    killAll();
    process.exit(130);
  });
}
const overall = setTimeout(() => {
  process.stderr.write(`conformance: gave up after ${TOTAL_TIMEOUT_MS / 60_000} min\n`);
  killAll();
  process.exit(1);
}, TOTAL_TIMEOUT_MS);
overall.unref();

/** Runs a command to completion within `timeoutMs`; resolves { code, output } (output: stdout+stderr). */
function run(command, args, { timeoutMs, cwd = ROOT, env = process.env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killTree(child, 'SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => (output += `\n${error.message}\n`));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code: timedOut ? null : code, signal, timedOut, output });
    });
  });
}

/** Compiles the fixture (and the toolkit sources it imports) with the project's TypeScript. */
async function compileFixture() {
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  if (!existsSync(tsc)) throw new Error('TypeScript is not installed: run `npm ci` first.');
  rmSync(BUILD_DIR, { recursive: true, force: true });
  const args = [
    tsc,
    '--ignoreConfig',
    ...['--outDir', BUILD_DIR, '--rootDir', ROOT],
    ...['--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2023'],
    ...['--types', 'node', '--strict', '--skipLibCheck', '--verbatimModuleSyntax', '--esModuleInterop'],
    path.join(ROOT, 'examples', 'conformance-server.ts'),
  ];
  const result = await run(process.execPath, args, { timeoutMs: COMPILE_TIMEOUT_MS });
  if (result.code !== 0 || !existsSync(FIXTURE)) {
    throw new Error(`compiling examples/conformance-server.ts failed:\n${result.output}`);
  }
}

/** Starts the fixture on a free port; resolves { url, stop } once it prints `listening <url>`. */
function startFixture() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FIXTURE, '--port', '0'], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.add(child);
    let log = '';
    const timer = setTimeout(() => {
      killTree(child, 'SIGKILL');
      reject(new Error(`fixture did not start within ${FIXTURE_START_TIMEOUT_MS} ms:\n${log}`));
    }, FIXTURE_START_TIMEOUT_MS);
    const stop = () =>
      new Promise((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done(log);
        const force = setTimeout(() => killTree(child, 'SIGKILL'), 5_000);
        child.once('close', () => {
          clearTimeout(force);
          done(log);
        });
        killTree(child, 'SIGTERM');
      });
    child.stderr.on('data', (chunk) => {
      log += chunk;
      const match = /^listening (http:\/\/\S+)$/m.exec(log);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1], stop, log: () => log });
      }
    });
    child.on('close', (code) => {
      children.delete(child);
      clearTimeout(timer);
      reject(new Error(`fixture exited (code ${code}) before listening:\n${log}`));
    });
  });
}

/**
 * Lists what the fixture advertises (a 2025-11-25 session: tools/list, resources/list,
 * resources/templates/list, prompts/list) and the expected fixtures it lacks.
 */
async function inventory(url) {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  const call = async (id, method, params = {}) => {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    const line = text.split('\n').find((l) => l.startsWith('data: {')) ?? text;
    const message = JSON.parse(line.replace(/^data: /, ''));
    if (message.error) throw new Error(`${method}: ${message.error.message}`);
    return { result: message.result, session: response.headers.get('mcp-session-id') };
  };
  const init = await call(0, 'initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'conformance-inventory', version: '1.0.0' },
  });
  Object.assign(headers, { 'Mcp-Session-Id': init.session, 'MCP-Protocol-Version': '2025-11-25' });
  await fetch(url, { method: 'POST', headers, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
  const advertised = {
    tools: (await call(1, 'tools/list')).result.tools.map((tool) => tool.name),
    resources: (await call(2, 'resources/list')).result.resources.map((resource) => resource.uri),
    resourceTemplates: (await call(3, 'resources/templates/list')).result.resourceTemplates.map((t) => t.uriTemplate),
    prompts: (await call(4, 'prompts/list')).result.prompts.map((prompt) => prompt.name),
  };
  await fetch(url, { method: 'DELETE', headers, signal: AbortSignal.timeout(10_000) });
  const missing = Object.entries(EXPECTED_FIXTURES).flatMap(([kind, names]) =>
    names.filter((name) => !advertised[kind].includes(name)).map((name) => `${kind}: ${name}`),
  );
  return { advertised, missing };
}

/** Reads `server-<scenario>-<timestamp>/checks.json` result folders. */
function readResults(dir) {
  const results = new Map();
  for (const entry of readdirSync(dir)) {
    const match = /^server-(.+)-(\d{4}-\d{2}-\d{2}T[\d-]+Z)$/.exec(entry);
    const file = path.join(dir, entry, 'checks.json');
    if (!match || !existsSync(file)) continue;
    const checks = JSON.parse(readFileSync(file, 'utf8'));
    const count = (status) => checks.filter((check) => check.status === status).length;
    results.set(match[1], {
      passed: count('SUCCESS'),
      failed: count('FAILURE'),
      warnings: count('WARNING'),
      failures: checks
        .filter((check) => check.status === 'FAILURE')
        .map((check) => `${check.id}: ${check.errorMessage ?? ''}`),
      warningList: checks
        .filter((check) => check.status === 'WARNING')
        .map((check) => `${check.id}: ${check.errorMessage ?? ''}`),
    });
  }
  return results;
}

/** Scenarios the CLI printed (in order), and the `not_scored` ones of a requirements run with their reason. */
function parseOutput(output) {
  const order = [...output.matchAll(/^=== Running scenario: (\S+) ===$/gm)].map((m) => m[1]);
  const notScored = new Map();
  const section = /^Not scored for \S+:.*$([\s\S]*)/m.exec(output);
  if (section) {
    for (const m of section[1].matchAll(/^\s+[✓✗]\s+(\S+)\s+\(([^)]+)\)\s*$/gm)) notScored.set(m[1], m[2]);
  }
  return { order, notScored };
}

async function runSuite(spec, resultsRoot) {
  const outDir = path.join(resultsRoot, spec.id);
  mkdirSync(outDir, { recursive: true });
  const fixture = await startFixture();
  let result;
  try {
    const args = ['-y', '-p', NODE_FOR_SUITE, '-p', `@modelcontextprotocol/conformance@${spec.version}`, '--'];
    args.push('conformance', 'server', '--url', fixture.url, ...spec.args, '-o', outDir);
    const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' };
    result = await run('npx', args, { timeoutMs: spec.timeoutMs, env });
  } finally {
    await fixture.stop();
  }
  writeFileSync(path.join(outDir, 'cli-output.txt'), result.output);
  writeFileSync(path.join(outDir, 'fixture-stderr.txt'), fixture.log());
  const results = readResults(outDir);
  const { order, notScored } = parseOutput(result.output);
  const names = [...new Set([...order, ...results.keys()])];
  const rows = names.map((name) => {
    const r = results.get(name);
    const reason = notScored.get(name);
    return {
      scenario: name,
      required: reason === undefined,
      note: reason ?? 'required',
      ...(r ?? { passed: 0, failed: 0, warnings: 0, failures: ['no results written'], warningList: [] }),
      ok: r !== undefined && r.failed === 0,
    };
  });
  const problems = [];
  if (result.timedOut) problems.push(`timed out after ${spec.timeoutMs / 60_000} min`);
  else if (rows.length === 0) problems.push(`no scenario ran (exit ${result.code})`);
  const requiredFailures = rows.filter((row) => row.required && !row.ok);
  if (result.code !== 0 && requiredFailures.length === 0 && !result.timedOut) {
    problems.push(`the suite exited with code ${result.code}`);
  }
  return { spec, rows, problems, output: result.output, outDir };
}

function pad(text, width) {
  return String(text).padEnd(width);
}

function printRun({ spec, rows, problems }) {
  const out = (line = '') => process.stdout.write(`${line}\n`);
  out();
  out(`## ${spec.title}`);
  const width = Math.max(...rows.map((row) => row.scenario.length), 8);
  out(`${pad('scenario', width)}  ${pad('result', 6)}  checks (pass/fail/warn)  scoring`);
  for (const row of rows) {
    const checks = `${row.passed}/${row.failed}/${row.warnings}`;
    out(`${pad(row.scenario, width)}  ${pad(row.ok ? 'PASS' : 'FAIL', 6)}  ${pad(checks, 23)}  ${row.note}`);
    for (const failure of row.failures) out(`${' '.repeat(width)}    ✗ ${failure.slice(0, 300)}`);
    for (const warning of row.warningList) out(`${' '.repeat(width)}    ! ${warning.slice(0, 300)}`);
  }
  const required = rows.filter((row) => row.required);
  const optional = rows.filter((row) => !row.required);
  out(
    `Total: required ${required.filter((row) => row.ok).length}/${required.length} passed` +
      (optional.length ? `; not scored ${optional.filter((row) => row.ok).length}/${optional.length} passed` : '') +
      `; checks ${sum(rows, 'passed')} passed, ${sum(rows, 'failed')} failed, ${sum(rows, 'warnings')} warnings`,
  );
  for (const problem of problems) out(`PROBLEM: ${problem}`);
}

function sum(rows, key) {
  return rows.reduce((total, row) => total + row[key], 0);
}

function markdown(reports) {
  const lines = [];
  for (const { spec, rows } of reports) {
    const required = rows.filter((row) => row.required);
    lines.push(`### ${spec.title}`, '');
    lines.push(
      `Required: **${required.filter((row) => row.ok).length}/${required.length}** scenarios pass` +
        ` (checks: ${sum(rows, 'passed')} passed, ${sum(rows, 'failed')} failed, ${sum(rows, 'warnings')} warnings).`,
      '',
    );
    lines.push('| scenario | result | checks pass/fail/warn | scoring |', '| --- | --- | --- | --- |');
    for (const row of rows) {
      lines.push(
        `| ${row.scenario} | ${row.ok ? 'pass' : '**FAIL**'} | ${row.passed}/${row.failed}/${row.warnings} | ${row.note} |`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}

function option(name) {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function main() {
  const wanted = option('--run')?.split(',');
  const specs = wanted ? RUNS.filter((spec) => wanted.includes(spec.id)) : RUNS;
  if (specs.length === 0) throw new Error(`unknown --run; choose from ${RUNS.map((spec) => spec.id).join(', ')}`);
  const keep = option('--keep-results');
  const resultsRoot = keep ? path.resolve(keep) : (tempResults = mkdtempSync(path.join(tmpdir(), 'mcp-conformance-')));

  process.stdout.write('Compiling the fixture (examples/conformance-server.ts)...\n');
  await compileFixture();
  const fixture = await startFixture();
  let listed;
  try {
    listed = await inventory(fixture.url);
  } finally {
    await fixture.stop();
  }
  process.stdout.write('\n## Fixtures the server advertises\n');
  for (const [kind, names] of Object.entries(listed.advertised)) {
    process.stdout.write(`${kind} (${names.length}): ${names.join(', ')}\n`);
  }
  if (listed.missing.length > 0) {
    process.stdout.write(`MISSING fixtures the suite calls: ${listed.missing.join('; ')}\n`);
    return 1;
  }
  const reports = [];
  for (const spec of specs) {
    process.stdout.write(`Running ${spec.title}...\n`);
    const report = await runSuite(spec, resultsRoot);
    reports.push(report);
    printRun(report);
    if (report.problems.length > 0)
      process.stdout.write(`--- suite output (tail) ---\n${report.output.slice(-4000)}\n`);
  }

  const failed = reports.filter(
    (report) => report.problems.length > 0 || report.rows.some((row) => row.required && !row.ok),
  );
  process.stdout.write('\n## Summary\n');
  for (const report of reports) {
    const required = report.rows.filter((row) => row.required);
    const optional = report.rows.filter((row) => !row.required);
    process.stdout.write(
      `${failed.includes(report) ? 'FAIL' : 'PASS'}  ${report.spec.id}: required ${required.filter((row) => row.ok).length}/${required.length}` +
        (optional.length ? `, not scored ${optional.filter((row) => row.ok).length}/${optional.length}` : '') +
        '\n',
    );
  }
  const md = option('--markdown');
  if (md) writeFileSync(md, markdown(reports));
  if (keep) process.stdout.write(`Results kept in ${resultsRoot}\n`);
  return failed.length === 0 ? 0 : 1;
}

main().then(
  (code) => {
    killAll();
    process.exit(code);
  },
  (error) => {
    process.stderr.write(`conformance: ${error instanceof Error ? error.stack : error}\n`);
    killAll();
    process.exit(1);
  },
);
