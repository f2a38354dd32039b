/* global console, performance, process */
// A forwarded tools/call (#27) through this tree's gateway and through a baseline checkout's, in one
// process, taking turns block by block: CPU of this process (the caller's v2 client, the in-memory hop,
// the gateway and its upstream client; not the upstream) per call, medians over the rounds, and
// after/before (< 1 is better). Both gateways forward to their own bench/servers/many-tools.mjs
// (this tree's build). For differences of a few percent that callgrind's windows cannot settle.
//   npm run build && node bench/composition-ab.mjs <baseline checkout, built> [rounds=15] [calls=1000]
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, num } from './lib/stats.mjs';

const [baseline, ROUNDS = 15, CALLS = 1000] = process.argv.slice(2);
if (!baseline) throw new Error('usage: node bench/composition-ab.mjs <baseline checkout> [rounds] [calls]');
const MANY = fileURLToPath(new URL('./servers/many-tools.mjs', import.meta.url));
const quiet = { debug() {}, info() {}, warn() {}, error: console.error, child: () => quiet };

async function gateway(dist) {
  const { StdioMcpServer } = await import(pathToFileURL(path.join(dist, 'index.js')).href);
  const { connectInMemory } = await import(pathToFileURL(path.join(dist, 'testing/index.js')).href);
  const server = new StdioMcpServer({ name: 'ab', version: '1' }, { logger: quiet });
  const upstream = { name: 'up', command: process.execPath, args: [MANY, '1'], pingIntervalMs: 0 };
  await server.addUpstream(upstream).whenConnected();
  const { client, close } = await connectInMemory(server);
  const call = (i) => client.callTool({ name: 'up_t0', arguments: { text: `x${i}` } });
  return { call, stop: async () => (await close(), await server.stop()) };
}

const paths = {
  before: await gateway(path.resolve(baseline, 'dist')),
  after: await gateway(fileURLToPath(new URL('../dist', import.meta.url))),
};
const cpu = { before: [], after: [] };
const wall = { before: [], after: [] };
for (let round = 0; round <= ROUNDS; round += 1) {
  for (const name of round % 2 ? ['after', 'before'] : ['before', 'after']) {
    const { call } = paths[name];
    const [started, startedCpu] = [performance.now(), process.cpuUsage()];
    for (let i = 0; i < CALLS; i += 1) await call(i);
    const used = process.cpuUsage(startedCpu);
    if (round === 0) continue; // warm-up
    cpu[name].push((used.user + used.system) / CALLS);
    wall[name].push(((performance.now() - started) * 1000) / CALLS);
  }
}
await Promise.all(Object.values(paths).map((p) => p.stop()));
const line = (label, m) =>
  `${label}: before ${num(median(m.before), 1)} µs, after ${num(median(m.after), 1)} µs, after/before ${num(median(m.after) / median(m.before), 3)}`;
console.log(`forwarded tools/call, ${ROUNDS} rounds x ${CALLS} calls per gateway`);
console.log(line('CPU of this process per call', cpu));
console.log(line('wall per call', wall));
process.exit(0);
