/* global console, performance, process, setTimeout */
// Composition overhead (issue 27), all measured with the official v2 client in this process:
//  1. tools/call latency: the client calls a stdio upstream directly, and the same tool forwarded by
//     a gateway (an in-process server, reached over the in-memory transport) to the same kind of
//     upstream, taking turns call by call. Median and p95 in ms; the target is forwarded <= 1.3x
//     direct. A third path, the same tool local to an in-process server, is the hop's own cost; the
//     last two call the upstream directly on the era the gateway negotiates, the second of them with the
//     gateway's own request (its capabilities, log level and progress token): forwarded >= that + the hop.
//  2. tools/list: a gateway with U upstreams of T tools each against one server with the same U*T
//     tools registered locally; median ms per full listing; target forwarded <= 1.2x local.
//
//   npm run build && node bench/composition.mjs [calls=500] [upstreams=5] [tools=200] [lists=50]
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { fileURLToPath } from 'node:url';
import { StdioMcpServer, defineTool } from '../dist/index.js';
import { connectInMemory } from '../dist/testing/index.js';
import { median, num, percentile, ratio, table } from './lib/stats.mjs';

const [CALLS = 500, UPSTREAMS = 5, TOOLS = 200, LISTS = 50] = process.argv.slice(2).map(Number);
const TIME_LIMIT_MS = 300_000;
const MANY = fileURLToPath(new URL('./servers/many-tools.mjs', import.meta.url));
const quietLogger = { debug() {}, info() {}, warn() {}, error: console.error, child: () => quietLogger };

const limit = setTimeout(() => {
  console.error(`bench/composition: gave up after ${TIME_LIMIT_MS / 1000} s`);
  process.exit(1);
}, TIME_LIMIT_MS);
limit.unref();

/**
 * Times each of `runs` `count` times, taking turns call by call (after 10% warm-up of each), so that
 * a noisy neighbour on the machine slows every path alike; returns the durations in ms, per run.
 */
async function interleaved(count, runs) {
  for (let i = 0; i < Math.ceil(count / 10); i += 1) for (const run of runs) await run(i);
  const durations = runs.map(() => []);
  const order = runs.map((_, index) => index);
  for (let i = 0; i < count; i += 1) {
    // Every other turn in reverse, so that no path always pays for the garbage of the one before it.
    for (const index of i % 2 ? [...order].reverse() : order) {
      const started = performance.now();
      await runs[index](i);
      durations[index].push(performance.now() - started);
    }
  }
  return durations;
}

/** The tool bench/servers/many-tools.mjs serves, registered here. */
const echoTool = (name, i) =>
  defineTool({
    name,
    description: `Tool number ${i}: echoes its text.`,
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    execute: ({ text }) => text,
  });
// No health pings: on a loaded machine a late pong would drop the upstream mid-run.
const upstreamConfig = (name, tools) => ({
  name,
  command: process.execPath,
  args: [MANY, String(tools)],
  pingIntervalMs: 0,
});

// 1. tools/call: direct against forwarded, interleaved; and a local tool over the same in-memory hop,
// the part of a forward that is the caller's client and our request pipeline (forwarded >= direct + local).
const direct = new Client({ name: 'bench-direct', version: '1' });
await direct.connect(new StdioClientTransport({ command: process.execPath, args: [MANY, '1'] }));
// The gateway's own client negotiates the era, so it reaches this upstream on 2026-07-28: the same
// call made directly on that era shows what the upstream itself spends more there.
const directModern = new Client(
  { name: 'bench-direct-modern', version: '1' },
  { versionNegotiation: { mode: 'auto' } },
);
await directModern.connect(new StdioClientTransport({ command: process.execPath, args: [MANY, '1'] }));
// ... and as the gateway asks on that era: declaring the elicitation and sampling it relays, asking for
// every log message and for progress (src/composition/upstream.ts). forwarded >= this + the hop.
const directAsGateway = new Client(
  { name: 'bench-direct-as-gateway', version: '1' },
  { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} }, sampling: {} } },
);
await directAsGateway.connect(new StdioClientTransport({ command: process.execPath, args: [MANY, '1'] }));
const gatewayMeta = (i) => ({ 'io.modelcontextprotocol/logLevel': 'debug', progressToken: `fwd-${i}` });
const gateway = new StdioMcpServer({ name: 'bench-gateway', version: '1' }, { logger: quietLogger });
const one = gateway.addUpstream(upstreamConfig('up', 1));
await one.whenConnected();
const viaGateway = await connectInMemory(gateway);
const localOne = new StdioMcpServer({ name: 'bench-local-one', version: '1' }, { logger: quietLogger });
localOne.registerTool(echoTool('up_t0', 0));
const viaLocal = await connectInMemory(localOne);
const [directMs, forwardedMs, localCallMs, directModernMs, directAsGatewayMs] = await interleaved(CALLS, [
  (i) => direct.callTool({ name: 't0', arguments: { text: `x${i}` } }),
  (i) => viaGateway.client.callTool({ name: 'up_t0', arguments: { text: `x${i}` } }),
  (i) => viaLocal.client.callTool({ name: 'up_t0', arguments: { text: `x${i}` } }),
  (i) => directModern.callTool({ name: 't0', arguments: { text: `x${i}` } }),
  (i) => directAsGateway.callTool({ name: 't0', arguments: { text: `x${i}` }, _meta: gatewayMeta(i) }),
]);
await Promise.all([
  direct.close(),
  directModern.close(),
  directAsGateway.close(),
  viaGateway.close(),
  viaLocal.close(),
]);
await localOne.stop();

// 2. tools/list: U upstreams x T tools against the same tools registered locally.
const names = Array.from({ length: UPSTREAMS }, (_, i) => `u${i}`);
const handles = names.map((name) => gateway.addUpstream(upstreamConfig(name, TOOLS)));
await Promise.all(handles.map((handle) => handle.whenConnected()));
const local = new StdioMcpServer({ name: 'bench-local', version: '1' }, { logger: quietLogger });
for (const name of names) {
  for (let i = 0; i < TOOLS; i += 1) local.registerTool(echoTool(`${name}_t${i}`, i));
}
const [gatewayClient, localClient] = await Promise.all([connectInMemory(gateway), connectInMemory(local)]);
const listed = (await gatewayClient.client.listTools()).tools.length;
const [gatewayListMs, localListMs] = await interleaved(LISTS, [
  () => gatewayClient.client.listTools(),
  () => localClient.client.listTools(),
]);
await Promise.all([gatewayClient.close(), localClient.close()]);
await gateway.stop();
await local.stop();

const row = (label, values, reference) => [
  label,
  num(median(values), 3),
  num(percentile(values, 95), 3),
  reference ? ratio(median(values), median(reference)) : '1.00x',
];
console.log(`\ntools/call, ${CALLS} sequential calls of each path, interleaved (ms)\n`);
console.log(
  table(
    ['path', 'median', 'p95', 'vs direct'],
    [
      row('direct (stdio)', directMs),
      row('forwarded (gateway -> stdio)', forwardedMs, directMs),
      row('local tool (in-memory, the hop alone)', localCallMs, directMs),
      row('direct (stdio), 2026-07-28 as the gateway speaks it', directModernMs, directMs),
      row('direct (stdio), 2026-07-28 with the gateway envelope', directAsGatewayMs, directMs),
    ],
  ),
);
console.log(`\ntools/list of ${listed} tools (${UPSTREAMS} upstreams x ${TOOLS}), ${LISTS} listings (ms)\n`);
console.log(
  table(
    ['server', 'median', 'p95', 'vs local'],
    [row('local tools', localListMs), row('gateway', gatewayListMs, localListMs)],
  ),
);
process.exit(0);
