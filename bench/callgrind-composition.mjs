/* global console, process */
// Instructions per tools/call in the calling process (issue #27), repeatable on a loaded machine where
// latency is not: the official v2 client in this process calls
//   direct     a stdio upstream (bench/servers/many-tools.mjs) itself;
//   local      an in-process StdioMcpServer with the same tool, over the in-memory transport;
//   forwarded  the same tool through an in-process gateway (addUpstream) to that stdio upstream.
// Each mode runs twice under `valgrind --tool=callgrind` (the upstream child is not traced) with
// SHORT and LONG measured calls after the same warm-up; the difference / (LONG - SHORT) is the cost
// of one call, start-up and JIT warm-up cancelled out. "forwarded - direct" is what our hop adds;
// "local" is its share that is the v2 client plus our request pipeline, the same for any tool.
//
//   npm run build && node bench/callgrind-composition.mjs [direct,local,forwarded] [short=200] [long=700]
// (KEEP_CALLGRIND=1 keeps both profiles of each mode: `node bench/callgrind-split.mjs 1 <short> <long>`
// gives each one's compiler, GC and the rest; the rest's difference / (long - short) repeats best.)
// (With --run <mode> <calls> it is the measured process itself.)
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineTool, StdioMcpServer } from '../dist/index.js';
import { connectInMemory } from '../dist/testing/index.js';

const MANY = fileURLToPath(new URL('./servers/many-tools.mjs', import.meta.url));
const quiet = { debug() {}, info() {}, warn() {}, error: console.error, child: () => quiet };
const WARMUP = 300;

/** A connected caller for `mode`: `call(i)` makes one tools/call, `close()` ends everything. */
async function caller(mode) {
  if (mode === 'direct') {
    const client = new Client({ name: 'cg-direct', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MANY, '1'] }));
    return { call: (i) => client.callTool({ name: 't0', arguments: { text: `x${i}` } }), close: () => client.close() };
  }
  const server = new StdioMcpServer({ name: `cg-${mode}`, version: '1' }, { logger: quiet });
  if (mode === 'local') {
    server.registerTool(
      defineTool({
        name: 'up_t0',
        description: 'Tool number 0: echoes its text.',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        execute: ({ text }) => text,
      }),
    );
  } else {
    // No pings: under valgrind this process is ~50x slower and a ping could time out.
    const upstream = { name: 'up', command: process.execPath, args: [MANY, '1'], pingIntervalMs: 3_600_000 };
    await server.addUpstream(upstream).whenConnected();
  }
  const { client, close } = await connectInMemory(server);
  return {
    call: (i) => client.callTool({ name: 'up_t0', arguments: { text: `x${i}` } }),
    close: async () => {
      await close();
      await server.stop();
    },
  };
}

const args = process.argv.slice(2);
if (args[0] === '--run') {
  const { call, close } = await caller(args[1]);
  for (let i = 0; i < WARMUP + Number(args[2]); i += 1) {
    const result = await call(i);
    if (result.content?.[0]?.text !== `x${i}`) throw new Error(`${args[1]}: unexpected result`);
  }
  await close();
  process.exit(0);
} else {
  const modes = (args[0] ?? 'direct,local,forwarded').split(',');
  const [short, long] = [Number(args[1] ?? 200), Number(args[2] ?? 700)];
  const self = fileURLToPath(import.meta.url);
  const instructions = (mode, calls) => {
    const out = `${tmpdir()}/callgrind-composition-${mode}-${calls}-${process.pid}.out`;
    execFileSync(
      'valgrind',
      ['--tool=callgrind', `--callgrind-out-file=${out}`, 'node', self, '--run', mode, `${calls}`],
      {
        stdio: 'ignore',
        timeout: 1_800_000, // a loaded 2-core machine runs valgrind 5-10x slower still
      },
    );
    const total = Number(readFileSync(out, 'utf8').match(/^totals: (\d+)/m)?.[1]);
    // KEEP_CALLGRIND=1 keeps the profiles for bench/callgrind-split.mjs (compiler and GC apart from the rest).
    if (process.env.KEEP_CALLGRIND) console.error(`kept ${out}`);
    else rmSync(out, { force: true });
    return total;
  };
  const perCall = {};
  for (const mode of modes) {
    perCall[mode] = (instructions(mode, long) - instructions(mode, short)) / (long - short);
    console.log(`${mode}: ${(perCall[mode] / 1000).toFixed(0)} k instructions per tools/call (calling process)`);
  }
  if (perCall.direct && perCall.forwarded) {
    console.log(`forwarded - direct: ${((perCall.forwarded - perCall.direct) / 1000).toFixed(0)} k (our hop)`);
  }
}
