// WF the floor (issue #30): server CPU per tools/call of ours and the raw SDK v2 as multiples of a
// server with no framework at all (bench/servers/floor.mjs), over HTTP (2026-07-28 and legacy
// sessions, W1's 16 clients) and stdio (W2's one sequential client), interleaved in each round.
import { median, num, rotate, table } from '../lib/stats.mjs';
import { measure as httpMeasure } from './w1-http-calls.mjs';
import { measure as stdioMeasure } from './w2-stdio-calls.mjs';

// WF_SYSTEMS=a,b,... measures other systems of bench/servers/ (e.g. another build of ours); the floor is always one.
const SYSTEMS = [...new Set([...(process.env.WF_SYSTEMS?.split(',') ?? ['ours', 'raw-v2']), 'floor'])];
const LEGS = {
  'HTTP 2026-07-28': (system, sizes) => httpMeasure(system, 'modern', sizes),
  'HTTP 2025-11-25 sessions': (system, sizes) => httpMeasure(system, 'legacy', sizes),
  stdio: (system, sizes) => stdioMeasure(system, sizes),
};
/** Targets of #30: at most 3x the floor over HTTP and 1.5x over stdio. */
const TARGET = { 'HTTP 2026-07-28': 3, 'HTTP 2025-11-25 sessions': 3, stdio: 1.5 };

export async function run({ quick, rounds, log }) {
  const sizes = {
    http: quick ? { warmup: 500, calls: 1_200 } : { warmup: 1_000, calls: 4_000 },
    stdio: quick ? { warmup: 1_000, calls: 2_000 } : { warmup: 2_000, calls: 6_000 },
  };
  const results = {};
  for (let round = 0; round < rounds; round += 1) {
    for (const [leg, measure] of Object.entries(LEGS)) {
      for (const system of rotate(SYSTEMS, round)) {
        const key = `${leg}:${system}`;
        const figures = await measure(system, leg === 'stdio' ? sizes.stdio : sizes.http);
        (results[key] ??= []).push(figures);
        log(`WF round ${round + 1}/${rounds} ${key}: ${num(figures.cpuPer1k, 3)} ms CPU per call`);
      }
    }
  }
  // cpuPer1k (server CPU-s per 1,000 calls) is numerically ms per call.
  const med = (key, field) => median(results[key].map((r) => r[field]));
  const rows = [];
  const targets = [];
  for (const leg of Object.keys(LEGS)) {
    const floor = med(`${leg}:floor`, 'cpuPer1k');
    for (const system of SYSTEMS) {
      const cpu = med(`${leg}:${system}`, 'cpuPer1k');
      rows.push([
        leg,
        system,
        num(cpu, 3),
        `${(cpu / floor).toFixed(2)}x`,
        num(med(`${leg}:${system}`, 'callsPerSecond'), 0),
      ]);
    }
    const ours = med(`${leg}:ours`, 'cpuPer1k');
    targets.push({
      target: `${leg} server CPU per tools/call at most ${TARGET[leg]}x the floor`,
      measured: `${num(ours, 3)} vs ${num(floor, 3)} ms = ${(ours / floor).toFixed(2)}x`,
      met: ours <= TARGET[leg] * floor,
    });
  }
  return {
    id: 'WF',
    title: 'WF distance from the floor',
    markdown:
      'Server CPU ms per `tools/call` (from /proc/<pid>/stat over the measured calls), medians over interleaved ' +
      `rounds; the floor is node:http / a readline loop that parses each message and answers a canned result. HTTP: ` +
      `16 concurrent clients, ${sizes.http.calls} calls per run; stdio: one sequential client, ${sizes.stdio.calls} calls per run\n\n` +
      table(['leg', 'system', 'server CPU ms / call', 'vs floor', 'calls/s'], rows),
    targets,
  };
}
