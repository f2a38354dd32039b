/* global performance */
// W5 toggle fan-out: 1,000 legacy sessions with open GET streams plus 2026-07-28 listen
// streams; one toggle in the server; time until every client has its
// notifications/tools/list_changed, and whether each got exactly one.
import { startChild } from '../lib/children.mjs';
import { FanoutCounter, openListeners } from '../lib/fanout.mjs';
import { HttpDriver } from '../lib/http-driver.mjs';
import { median, num, percentile, ratio, rotate, sleep, table } from '../lib/stats.mjs';

const SYSTEMS = ['ours', 'raw-v2', 'raw-v1', 'fastmcp'];
const MODERN = new Set(['ours', 'raw-v2']);
const QUIET_MS = 500;

async function measure(system, legacyClients, modernClients) {
  const child = await startChild(system, 'http', { tools: 2 }, { hardTimeoutMs: 180_000 });
  const driver = new HttpDriver(child.port, 100);
  const closers = [];
  try {
    const modern = MODERN.has(system) ? modernClients : 0;
    const counter = new FanoutCounter(legacyClients + modern);
    closers.push(...(await openListeners(driver, counter, { first: 0, legacy: legacyClients, modern })));
    await sleep(300);
    const t0 = performance.now();
    await child.call('toggle');
    const { times, ...figures } = await counter.result(t0, QUIET_MS);
    return { ...figures, p50Ms: percentile(times, 50) };
  } finally {
    for (const close of closers) close();
    driver.close();
    await child.kill();
  }
}

export async function run({ quick, rounds, log }) {
  const legacyClients = 1_000;
  const modernClients = quick ? 100 : 200;
  const results = {};
  for (let round = 0; round < rounds; round += 1) {
    for (const system of rotate(SYSTEMS, round)) {
      (results[system] ??= []).push(await measure(system, legacyClients, modernClients));
      const last = results[system].at(-1);
      log(
        `W5 round ${round + 1}/${rounds} ${system}: ${num(last.lastMs)} ms, ${last.exactlyOnce}/${last.clients} once`,
      );
    }
  }
  const med = (system, field) => median(results[system].map((r) => r[field]));
  const worst = (system, field) => Math.min(...results[system].map((r) => r[field]));
  const rows = SYSTEMS.map((system) => [
    system,
    `${legacyClients} + ${MODERN.has(system) ? modernClients : 0}`,
    num(med(system, 'p50Ms'), 1),
    num(med(system, 'lastMs'), 1),
    ratio(med(system, 'lastMs'), med('raw-v2', 'lastMs')),
    `${worst(system, 'notified')} / ${results[system][0].clients}`,
    `${worst(system, 'exactlyOnce')} / ${results[system][0].clients}`,
  ]);
  const ours = med('ours', 'lastMs');
  const raw = med('raw-v2', 'lastMs');
  const clients = results.ours[0].clients;
  const allOnce = results.ours.every((r) => r.exactlyOnce === r.clients);
  return {
    id: 'W5',
    title: 'W5 toggle fan-out',
    markdown:
      `One toggle (disable \`echo\`) with ${legacyClients} legacy sessions holding a GET stream plus 2026-07-28 ` +
      `\`subscriptions/listen\` streams where the system speaks that era; times from the toggle command to each client's ` +
      `\`notifications/tools/list_changed\`, counts checked ${QUIET_MS} ms after the last one (worst run)\n\n` +
      table(
        ['system', 'clients (legacy + 2026)', 'p50 ms', 'all notified ms', 'vs raw v2', 'notified', 'exactly once'],
        rows,
      ),
    targets: [
      {
        target: `all ${clients} clients notified exactly once`,
        measured: `${Math.min(...results.ours.map((r) => r.exactlyOnce))} / ${clients} in the worst run`,
        met: allOnce,
      },
      {
        target: 'time until all notified at most 2x raw SDK v2',
        measured: `${num(ours, 1)} vs ${num(raw, 1)} ms = ${ratio(ours, raw)}`,
        met: ours <= 2 * raw,
      },
    ],
  };
}
