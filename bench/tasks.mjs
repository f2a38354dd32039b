/* global console, performance, process, setTimeout */
// MCP tasks overhead and memory (issue 13):
//  1. per-call cost of a tool call run as a 2025-11-25 task (tools/call with `task`, then
//     tasks/result) against the same call made directly, N concurrent calls at once, through the
//     v1 SDK client on the in-memory transport (no network noise; both sides in this process, so
//     CPU is client + server). The tool awaits WORK_MS of simulated I/O.
//  2. the same for the 2026-07-28 extension is not measured here (HTTP-only in this toolkit's
//     tests; the task path after the handle is the same TaskManager code).
//  3. memory per finished task kept in the MemoryTaskStore (post-GC heap / tasks), with a
//     small text result.
//
//   npm run bench:tasks                  (builds, then: node --expose-gc bench/tasks.mjs)
//   node --expose-gc bench/tasks.mjs [concurrent=1000] [rounds=5] [retained=10000] [toolMs=5]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { BaseMcpServer, defineTool } from '../dist/index.js';
import { MemoryTaskStore, TaskManager } from '../dist/public/tasks.js';
import { serverLifecycleOf } from '../dist/public/transports.js';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const [N = 1000, ROUNDS = 5, RETAINED = 10_000, WORK_MS = 5] = process.argv.slice(2).map(Number);
const TIME_LIMIT_MS = 240_000;
const gc = typeof globalThis.gc === 'function' ? () => globalThis.gc() : () => undefined;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

const limit = setTimeout(() => {
  console.error(`bench/tasks: gave up after ${TIME_LIMIT_MS / 1000} s`);
  process.exit(1);
}, TIME_LIMIT_MS);
limit.unref();

class BenchServer extends BaseMcpServer {
  async start() {
    await serverLifecycleOf(this).start('BenchServer.start()', () => undefined);
  }
  view(ctx) {
    return this.createFreshMcpServer(ctx);
  }
}

const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };

async function setup() {
  const server = new BenchServer(
    { name: 'bench', version: '1.0.0' },
    { logger: silent, tasks: { maxTasksPerPrincipal: N * 2, maxTasks: N * 4, pollIntervalMs: 1000 } },
  );
  server.registerTool(
    defineTool({
      name: 'work',
      taskSupport: 'optional',
      inputSchema: z.object({ i: z.number() }),
      execute: async ({ i }) => {
        await sleep(WORK_MS);
        return `done ${i}`;
      },
    }),
  );
  await server.start();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio((ctx) => server.view(ctx), { transport: serverSide });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await handle.close();
      await server.stop();
    },
  };
}

const AnyResult = z.looseObject({});

async function direct(client) {
  await Promise.all(
    Array.from({ length: N }, (_, i) => client.callTool({ name: 'work', arguments: { i } }, CallToolResultSchema)),
  );
}

async function asTasks(client) {
  await Promise.all(
    Array.from({ length: N }, async (_, i) => {
      const created = await client.request(
        { method: 'tools/call', params: { name: 'work', arguments: { i }, task: {} } },
        AnyResult,
      );
      const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
      if (result.content[0].text !== `done ${i}`) throw new Error(`wrong result for ${i}`);
    }),
  );
}

async function measure(run, client) {
  gc();
  const cpu = process.cpuUsage();
  const start = performance.now();
  await run(client);
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

async function overhead() {
  const { client, close } = await setup();
  try {
    await direct(client); // warm-up
    await asTasks(client);
    const rows = { direct: [], task: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // Interleaved, so drift (other processes, JIT) hits both sides alike.
      rows.direct.push(await measure(direct, client));
      rows.task.push(await measure(asTasks, client));
    }
    const summary = (list) => ({
      wall: median(list.map((r) => r.wall)),
      cpu: median(list.map((r) => r.cpu)),
    });
    return { direct: summary(rows.direct), task: summary(rows.task) };
  } finally {
    await close();
  }
}

async function retainedMemory() {
  const store = new MemoryTaskStore();
  const manager = new TaskManager(store, { maxTasksPerPrincipal: RETAINED + 1, maxTasks: RETAINED + 1 });
  gc();
  await sleep(50);
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < RETAINED; i++) {
    const { running } = await manager.create({ owner: `client:c${i % 10}`, toolName: 'work', wire: 'legacy' });
    manager.run(running, async () => ({
      status: 'completed',
      result: { content: [{ type: 'text', text: `done ${i}` }] },
    }));
  }
  while (manager.runningCount > 0) await sleep(10);
  gc();
  await sleep(50);
  gc();
  const after = process.memoryUsage().heapUsed;
  const size = store.size;
  await manager.stop();
  return { perTaskKB: (after - before) / size / 1024, tasks: size };
}

const fmt = (value, digits = 3) => value.toFixed(digits);
const o = await overhead();
const m = await retainedMemory();
const perCall = (total) => total / N;
console.log(
  `# MCP tasks benchmark (node ${process.version}, ${N} concurrent calls, ${ROUNDS} interleaved rounds, medians)`,
);
console.log('');
console.log('| measure | direct call | as a task (create + tasks/result) | ratio | target |');
console.log('| --- | --- | --- | --- | --- |');
const wallRatio = o.task.wall / o.direct.wall;
const cpuRatio = o.task.cpu / o.direct.cpu;
console.log(
  `| wall time of the batch, ms (${N} calls at once, tool awaits ${WORK_MS} ms) | ${fmt(o.direct.wall, 0)} | ${fmt(o.task.wall, 0)} | ${fmt(wallRatio, 2)}x | <= 1.5x ${wallRatio <= 1.5 ? 'met' : '**missed**'} |`,
);
console.log(
  `| CPU ms per call (client + server) | ${fmt(perCall(o.direct.cpu))} | ${fmt(perCall(o.task.cpu))} | ${fmt(cpuRatio, 2)}x | <= 1.5x ${cpuRatio <= 1.5 ? 'met' : '**missed**'} |`,
);
console.log('');
console.log(
  `Memory per finished task retained in MemoryTaskStore: ${fmt(m.perTaskKB, 2)} KB (${m.tasks} tasks, small text result, post-GC heap).`,
);
if (typeof globalThis.gc !== 'function') console.log('(run with --expose-gc for exact memory figures)');
