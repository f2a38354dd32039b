// mcp-toolkit from another checkout's build (BENCH_BASELINE_DIST=<checkout>/dist), through the same
// bench server code as `ours`: lets one bench run both builds side by side (bench/baseline-ab.mjs).
import process from 'node:process';

if (!process.env.BENCH_BASELINE_DIST) throw new Error('ours-baseline needs BENCH_BASELINE_DIST=<checkout>/dist');
process.env.MCP_TOOLKIT_DIST = process.env.BENCH_BASELINE_DIST; // read by lib/dist.mjs, loaded below
const ours = await import('./ours.mjs');

export const { register, startHttp, startStdio } = ours;
