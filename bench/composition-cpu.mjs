/* global console, performance, process */
// CPU per tools/call (#27), of this process and of the stdio upstream child (/proc/<pid>/stat, 10 ms
// ticks: use blocks of 2,000+ calls), for each path of bench/composition.mjs, taking turns block by
// block: direct (the SDK default era), direct on 2026-07-28, direct on 2026-07-28 as the gateway asks
// (its capabilities, log level and progress token), forwarded through an in-process gateway, and a
// local tool over the in-memory hop (its "upstream" is this process: that column repeats "self").
// On a loaded machine latency follows the CPU of both processes; this shows whose it is.
//   npm run build && node bench/composition-cpu.mjs [calls per block=2000] [rounds=5]
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineTool, StdioMcpServer } from '../dist/index.js';
import { connectInMemory } from '../dist/testing/index.js';
import { median } from './lib/stats.mjs';

const MANY = fileURLToPath(new URL('./servers/many-tools.mjs', import.meta.url));
const quiet = { debug() {}, info() {}, warn() {}, error: console.error, child: () => quiet };
const [CALLS = 2000, ROUNDS = 5] = process.argv.slice(2).map(Number);
const TICK_US = 10_000;
const childCpu = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
};
const selfCpu = () => process.cpuUsage();

async function direct(negotiation, asGateway = false) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [MANY, '1'] });
  const options = negotiation && {
    versionNegotiation: { mode: negotiation },
    ...(asGateway && { capabilities: { elicitation: { form: {} }, sampling: {} } }),
  };
  const client = new Client({ name: 'cpu-direct', version: '1' }, options || undefined);
  await client.connect(transport);
  const meta = (i) => ({ 'io.modelcontextprotocol/logLevel': 'debug', progressToken: `fwd-${i}` });
  const call = (i) =>
    client.callTool({ name: 't0', arguments: { text: `x${i}` }, ...(asGateway && { _meta: meta(i) }) });
  return { pid: transport.pid, call, close: () => client.close() };
}

const gateway = new StdioMcpServer({ name: 'cpu-gateway', version: '1' }, { logger: quiet });
await gateway
  .addUpstream({ name: 'up', command: process.execPath, args: [MANY, '1'], pingIntervalMs: 0 })
  .whenConnected();
const viaGateway = await connectInMemory(gateway);
const localServer = new StdioMcpServer({ name: 'cpu-local', version: '1' }, { logger: quiet });
const inputSchema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
localServer.registerTool(defineTool({ name: 'up_t0', inputSchema, execute: ({ text }) => text }));
const viaLocal = await connectInMemory(localServer);
const paths = {
  direct: await direct(),
  'direct 2026-07-28': await direct('auto'),
  'direct as gateway': await direct('auto', true),
  forwarded: {
    pid: gateway.upstreams[0].pid,
    call: (i) => viaGateway.client.callTool({ name: 'up_t0', arguments: { text: `x${i}` } }),
    close: () => viaGateway.close(),
  },
  local: {
    pid: process.pid,
    call: (i) => viaLocal.client.callTool({ name: 'up_t0', arguments: { text: `x${i}` } }),
    close: () => viaLocal.close(),
  },
};
const results = Object.fromEntries(
  Object.keys(paths).map((name) => [name, { self: [], sys: [], child: [], wall: [] }]),
);
for (let round = 0; round <= ROUNDS; round += 1) {
  for (const [name, path] of Object.entries(paths)) {
    const [self, child, started] = [selfCpu(), childCpu(path.pid), performance.now()];
    for (let i = 0; i < CALLS; i += 1) await path.call(i);
    if (round === 0) continue; // warm-up
    const used = process.cpuUsage(self);
    results[name].self.push((used.user + used.system) / CALLS);
    results[name].sys.push(used.system / CALLS);
    results[name].child.push((childCpu(path.pid) - child) / CALLS);
    results[name].wall.push(((performance.now() - started) * 1000) / CALLS);
  }
}
console.log(`µs per tools/call, medians of ${ROUNDS} blocks of ${CALLS} calls`);
for (const [name, r] of Object.entries(results)) {
  const [self, sys, child, wall] = [r.self, r.sys, r.child, r.wall].map((values) => median(values));
  const cells = [`this process ${self.toFixed(0)} (system ${sys.toFixed(0)})`, `upstream ${child.toFixed(0)}`];
  console.log(`${name.padEnd(18)} ${cells.join(', ')}, sum ${(self + child).toFixed(0)}, wall ${wall.toFixed(0)}`);
}
await Promise.all(Object.values(paths).map((path) => path.close()));
await Promise.all([gateway.stop(), localServer.stop()]);
process.exit(0);
