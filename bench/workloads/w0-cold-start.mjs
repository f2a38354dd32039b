/* global performance, setTimeout, clearTimeout, URL */
// W0 cold start: spawn -> first response, for a one-tool library StdioMcpServer and for the
// CLI's `serve --stdio docs/`, interleaved with the raw SDK v2 and v1 stdio servers. Two
// first messages: the 2025-11-25 `initialize` (every client today) and the 2026-07-28
// `server/discover` (clients such as the Vercel AI SDK give it about 1 s before falling back).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { distUrl } from '../lib/dist.mjs';
import { coldServer } from '../lib/cold-server.mjs';
import { cpuSeconds } from '../lib/children.mjs';
import { median, num, ratio, rotate, table } from '../lib/stats.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = fileURLToPath(distUrl('cli/main.js'));
const DOCS = fileURLToPath(new URL('../../docs', import.meta.url));

const SYSTEMS = {
  'ours (library, root import)': ['node', [coldServer('ours-root')]],

  'ours (CLI serve --stdio docs/)': ['node', [CLI, 'serve', '--stdio', '-q', DOCS]],
  'raw-v2': ['node', [coldServer('raw-v2')]],
  'raw-v1': ['node', [coldServer('raw-v1')]],
};

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'w0', version: '1' } },
};
const DISCOVER = {
  jsonrpc: '2.0',
  id: 1,
  method: 'server/discover',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'w0', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
};

/**
 * Spawns `system`, writes `message` at once, resolves with `{ wall, cpu }`: ms until a response with id 1
 * arrives, and the CPU ms (user + system) the server process had used by then. CPU time is the steadier
 * figure on a busy machine, where wall time also counts waiting for a core.
 */
function coldStart([command, args], message) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'ignore'] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no answer within 20 s from ${args.join(' ')}`));
    }, 20_000);
    let buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        if (!line.includes('"id":1')) continue;
        const wall = performance.now() - t0;
        const cpu = cpuSeconds(child.pid) * 1000;
        clearTimeout(timer);
        const answered = JSON.parse(line);
        child.kill('SIGKILL');
        if (answered.error) reject(new Error(`${args.join(' ')}: ${JSON.stringify(answered.error)}`));
        else resolve({ wall, cpu });
        return;
      }
    });
    child.stdin.write(`${JSON.stringify(message)}\n`);
  });
}

export async function run({ quick, rounds, log }) {
  const runs = rounds * (quick ? 4 : 8);
  const results = {};
  const names = Object.keys(SYSTEMS);
  for (let round = 0; round < runs; round += 1) {
    for (const name of rotate(names, round)) {
      const row = (results[name] ??= { initialize: [], initializeCpu: [], discover: [] });
      const first = await coldStart(SYSTEMS[name], INITIALIZE);
      row.initialize.push(first.wall);
      row.initializeCpu.push(first.cpu);
      // raw-v1 speaks only the handshake era; it has no server/discover.
      if (name !== 'raw-v1') row.discover.push((await coldStart(SYSTEMS[name], DISCOVER)).wall);
    }
    log(`W0 run ${round + 1}/${runs}`);
  }
  const med = (name, field) => median(results[name][field]);
  const raw = med('raw-v2', 'initialize');
  const rawDiscover = med('raw-v2', 'discover');
  const rawCpu = med('raw-v2', 'initializeCpu');
  const rows = names.map((name) => [
    name,
    num(med(name, 'initialize'), 0),
    ratio(med(name, 'initialize'), raw),
    num(med(name, 'initializeCpu'), 0),
    ratio(med(name, 'initializeCpu'), rawCpu),
    num(med(name, 'discover'), 0),
    ratio(med(name, 'discover'), rawDiscover),
  ]);
  const lib = med('ours (library, root import)', 'initialize');
  const cli = med('ours (CLI serve --stdio docs/)', 'initialize');
  return {
    id: 'W0',
    headline: [
      { metric: 'library initialize ms', value: lib, better: 'lower' },
      { metric: 'CLI initialize ms', value: cli, better: 'lower' },
    ],
    title: 'W0 cold start (stdio)',
    markdown:
      `Spawn -> first response, median of ${runs} interleaved spawns per system (one tool)\n\n` +
      table(
        [
          'system',
          'initialize ms',
          'vs raw v2',
          'CPU ms to initialize',
          'vs raw v2',
          'server/discover ms',
          'vs raw v2',
        ],
        rows,
      ),
    targets: [
      {
        target: 'library stdio server (root import) cold start <= 1.10x raw SDK v2 (#30)',
        measured: `${num(lib, 0)} vs ${num(raw, 0)} ms = ${ratio(lib, raw)}`,
        met: lib <= raw * 1.1,
      },
      {
        target: 'CLI serve --stdio cold start <= 1.10x raw SDK v2 (#30)',
        measured: `${num(cli, 0)} vs ${num(raw, 0)} ms = ${ratio(cli, raw)}`,
        met: cli <= raw * 1.1,
      },
    ],
  };
}
