/* global console, performance, process, URL */
/* eslint-disable no-console -- a benchmark prints its results table on stdout */
// Server CPU per 1,000 legacy `tools/call` over HTTP (16 concurrent sessions, keep-alive),
// HttpMcpServer (dual-era router) next to the raw SDK v2 and v1 sessionful wirings, each
// server in its own child process (bench/http-call-server.mjs), interleaved rounds.
//
//   npm run build && node bench/http-call-cost.mjs [calls=4000] [rounds=3]
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const [calls = 4000, rounds = 3] = process.argv.slice(2).map(Number);
const SESSIONS = 16;
const KINDS = ['ours', 'raw-v2', 'raw-v1'];
const SERVER = fileURLToPath(new URL('./http-call-server.mjs', import.meta.url));
const agent = new http.Agent({ keepAlive: true, maxSockets: SESSIONS });

function post(port, body, sessionId) {
  return new Promise((resolve, reject) => {
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    if (sessionId) Object.assign(headers, { 'Mcp-Session-Id': sessionId, 'Mcp-Protocol-Version': '2025-11-25' });
    const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () =>
        res.statusCode < 300 ? resolve({ id: res.headers['mcp-session-id'], text }) : reject(new Error(text)),
      );
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

function ask(child, message) {
  return new Promise((resolve) => {
    child.once('message', resolve);
    child.send(message);
  });
}

async function run(kind) {
  const child = fork(SERVER, [kind], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  const { port } = await new Promise((resolve) => child.once('message', resolve));
  const init = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  };
  const ids = [];
  for (let i = 0; i < SESSIONS; i += 1) {
    const { id } = await post(port, init);
    await post(port, { jsonrpc: '2.0', method: 'notifications/initialized' }, id);
    ids.push(id);
  }
  const call = (id, n) =>
    post(
      port,
      { jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
      id,
    );
  await Promise.all(ids.map((id, n) => call(id, n))); // warm-up
  const before = (await ask(child, 'cpu')).cpu;
  const started = performance.now();
  let next = 0;
  await Promise.all(
    ids.map(async (id) => {
      while (next < calls) {
        next += 1;
        const { text } = await call(id, next);
        if (!text.includes('"hi"')) throw new Error(`unexpected answer: ${text}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const after = (await ask(child, 'cpu')).cpu;
  child.send('exit');
  const cpuSeconds = (after.user + after.system - before.user - before.system) / 1e6;
  return { callsPerSecond: calls / seconds, cpuPer1k: (cpuSeconds / calls) * 1000 };
}

const results = Object.fromEntries(KINDS.map((kind) => [kind, []]));
for (let round = 0; round < rounds; round += 1) {
  for (const kind of KINDS) results[kind].push(await run(kind));
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(
  `\n${calls} legacy tools/call, ${SESSIONS} sessions, ${rounds} interleaved rounds (medians), Node ${process.version}\n`,
);
console.log('| server | server CPU-s per 1k calls | calls/s | CPU vs raw v1 |');
console.log('| --- | ---: | ---: | ---: |');
const v1 = median(results['raw-v1'].map((r) => r.cpuPer1k));
for (const kind of KINDS) {
  const cpu = median(results[kind].map((r) => r.cpuPer1k));
  const rate = median(results[kind].map((r) => r.callsPerSecond));
  console.log(`| ${kind} | ${cpu.toFixed(3)} | ${rate.toFixed(0)} | ${(cpu / v1).toFixed(2)}x |`);
}
agent.destroy();
