/* global console, performance, process, setImmediate, setTimeout */
// Cost of an idle legacy (2025-11-25) HTTP session: post-GC heap per session (KB) and
// sessions created per second, for HttpMcpServer and, side by side, the raw SDK v2
// sessionful wiring (McpServer + NodeStreamableHTTPServerTransport per session, express).
// Then checks that our idle timeout reaps every abandoned session.
//
//   npm run build && node --expose-gc bench/http-session-cost.mjs [sessions=500] [tools=1] [rounds=3]
//
// Client and server share the process (one keep-alive agent, 8 concurrent initializes);
// the heap figure is (heap after N sessions - heap before) / N, both after forced GCs.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest, McpServer } from '@modelcontextprotocol/server';
import express from 'express';
import { z } from 'zod';
import { defineTool, HttpMcpServer } from '../dist/index.js';

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const [sessions = 500, tools = 1, rounds = 3] = process.argv.slice(2).map(Number);
const CONCURRENCY = 8;
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
});
const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });

function request(port, body, sessionId) {
  return new Promise((resolve, reject) => {
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    if (sessionId) Object.assign(headers, { 'Mcp-Session-Id': sessionId, 'Mcp-Protocol-Version': '2025-11-25' });
    const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers, agent }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode < 300 ? resolve(res.headers['mcp-session-id']) : reject(new Error(`HTTP ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function openSessions(port, count) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const id = await request(port, INIT);
      await request(port, INITIALIZED, id);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

async function heapAfterGc() {
  for (let i = 0; i < 4; i += 1) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

const echo = (i) =>
  defineTool({
    name: i === 0 ? 'echo' : `echo_${i}`,
    description: 'Echoes text back.',
    inputSchema: z.object({ text: z.string(), count: z.number().optional(), loud: z.boolean().optional() }),
    execute: ({ text }) => text,
  });

async function ours(idleTimeoutMs, onSessionEvent) {
  const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
  const server = new HttpMcpServer(
    { name: 'bench', version: '1' },
    { port: 0, logger: silent, sessionIdleTimeoutMs: idleTimeoutMs, maxSessions: 100_000, onSessionEvent },
  );
  for (let i = 0; i < tools; i += 1) server.registerTool(echo(i));
  await server.start();
  return { port: server.address.port, held: () => server.sessionCount, stop: () => server.stop() };
}

async function rawSdkV2() {
  const transports = new Map();
  const app = express();
  app.use(express.json({ limit: '4mb' }));
  app.all('/mcp', async (req, res) => {
    const id = req.headers['mcp-session-id'];
    const existing = id && transports.get(id);
    if (existing) return existing.handleRequest(req, res, req.body);
    if (id || !isInitializeRequest(req.body)) return res.status(400).end();
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sid) => transports.set(sid, transport),
    });
    const server = new McpServer({ name: 'bench', version: '1' });
    for (let i = 0; i < tools; i += 1) {
      server.registerTool(
        i === 0 ? 'echo' : `echo_${i}`,
        {
          description: 'Echoes text back.',
          inputSchema: z.object({ text: z.string(), count: z.number().optional(), loud: z.boolean().optional() }),
        },
        ({ text }) => ({ content: [{ type: 'text', text }] }),
      );
    }
    await server.connect(transport);
    return transport.handleRequest(req, res, req.body);
  });
  const listener = http.createServer(app);
  await new Promise((resolve) => listener.listen(0, '127.0.0.1', resolve));
  return {
    port: listener.address().port,
    held: () => transports.size,
    stop: () => new Promise((resolve) => (listener.close(resolve), listener.closeAllConnections())),
  };
}

async function measure(name, make) {
  const target = await make(0);
  await openSessions(target.port, 20); // warm up code paths and connections
  const before = await heapAfterGc();
  const started = performance.now();
  await openSessions(target.port, sessions);
  const seconds = (performance.now() - started) / 1000;
  const after = await heapAfterGc();
  await target.stop();
  return { name, kbPerSession: (after - before) / sessions / 1024, perSecond: sessions / seconds };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = { ours: [], raw: [] };
for (let round = 0; round < rounds; round += 1) {
  results.ours.push(await measure('HttpMcpServer', ours));
  results.raw.push(await measure('raw SDK v2', rawSdkV2));
}
console.log(
  `\n${sessions} idle legacy sessions, ${tools} tool(s), ${rounds} interleaved rounds (medians), Node ${process.version}\n`,
);
console.log('| server | post-GC heap per session (KB) | sessions/s |');
console.log('| --- | ---: | ---: |');
for (const [key, label] of [
  ['ours', 'HttpMcpServer'],
  ['raw', 'raw SDK v2 (McpServer + NodeStreamableHTTPServerTransport)'],
]) {
  const kb = median(results[key].map((r) => r.kbPerSession)).toFixed(1);
  const rate = median(results[key].map((r) => r.perSecond)).toFixed(0);
  console.log(`| ${label} | ${kb} | ${rate} |`);
}

// Reaping: abandon sessions under a short idle timeout; all must be gone after it.
const counts = { created: 0, idle: 0 };
const reaper = await ours(500, (event) => {
  if (event.type === 'created') counts.created += 1;
  else if (event.reason === 'idle') counts.idle += 1;
});
await openSessions(reaper.port, sessions);
await new Promise((resolve) => setTimeout(resolve, 1_500));
console.log(
  `\nidle timeout 500 ms: ${counts.created} sessions opened and abandoned, ${counts.idle} reaped as idle, ${reaper.held()} still held 1.5 s after the last one`,
);
await reaper.stop();
agent.destroy();
