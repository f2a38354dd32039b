/* global performance */
// W5 toggle fan-out: one toggle in the server; time until every client has its
// notifications/tools/list_changed, and whether each got exactly one. Two shapes:
//   - 200 legacy sessions, each with a GET stream (issue #30's shape), plus the synchronous part
//     of the toggle (`disableTool` for ours; the loop of handle.disable() over sessions for the raw SDKs);
//   - 1,000 legacy GET streams plus 2026-07-28 listen streams where the system speaks that era.
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
    return { ...figures, p50Ms: percentile(times, 50), syncMs: await child.call('lastToggleMs') };
  } finally {
    for (const close of closers) close();
    driver.close();
    await child.kill();
  }
}

const SHAPES = (quick) => [
  { key: 'small', legacy: 200, modern: 0 },
  { key: 'large', legacy: 1_000, modern: quick ? 100 : 200 },
];

export async function run({ quick, rounds, log }) {
  const shapes = SHAPES(quick);
  const results = {};
  for (let round = 0; round < rounds; round += 1) {
    for (const shape of shapes) {
      for (const system of rotate(SYSTEMS, round)) {
        const key = `${shape.key}:${system}`;
        (results[key] ??= []).push(await measure(system, shape.legacy, shape.modern));
        const last = results[key].at(-1);
        log(
          `W5 round ${round + 1}/${rounds} ${shape.legacy}+${MODERN.has(system) ? shape.modern : 0} ${system}: ` +
            `${num(last.lastMs)} ms (sync ${num(last.syncMs, 2)} ms), ${last.exactlyOnce}/${last.clients} once`,
        );
      }
    }
  }
  const med = (key, field) => median(results[key].map((r) => r[field]));
  const worst = (key, field) => Math.min(...results[key].map((r) => r[field]));
  const sections = [];
  const targets = [];
  const headline = [];
  for (const shape of shapes) {
    const ref = `${shape.key}:raw-v2`;
    const rows = SYSTEMS.map((system) => {
      const key = `${shape.key}:${system}`;
      return [
        system,
        `${shape.legacy} + ${MODERN.has(system) ? shape.modern : 0}`,
        num(med(key, 'p50Ms'), 1),
        num(med(key, 'lastMs'), 1),
        ratio(med(key, 'lastMs'), med(ref, 'lastMs')),
        num(med(key, 'syncMs'), 2),
        ratio(med(key, 'syncMs'), med(ref, 'syncMs')),
        `${worst(key, 'notified')} / ${results[key][0].clients}`,
        `${worst(key, 'exactlyOnce')} / ${results[key][0].clients}`,
      ];
    });
    sections.push(
      `**${shape.legacy} legacy sessions (GET stream)${shape.modern ? ` + ${shape.modern} 2026-07-28 listen streams` : ''}**\n\n` +
        table(
          [
            'system',
            'clients (legacy + 2026)',
            'p50 ms',
            'all notified ms',
            'vs raw v2',
            'toggle sync ms',
            'vs raw v2',
            'notified',
            'exactly once',
          ],
          rows,
        ),
    );
    const ours = med(`${shape.key}:ours`, 'lastMs');
    headline.push({ metric: `all notified ms (${shape.key})`, value: ours, better: 'lower' });
    const raw = med(ref, 'lastMs');
    const clients = results[`${shape.key}:ours`][0].clients;
    targets.push({
      target: `all ${clients} clients notified exactly once (${shape.legacy} legacy + ${shape.modern})`,
      measured: `${Math.min(...results[`${shape.key}:ours`].map((r) => r.exactlyOnce))} / ${clients} in the worst run`,
      met: results[`${shape.key}:ours`].every((r) => r.exactlyOnce === r.clients),
    });
    if (shape.modern) {
      targets.push({
        target: `time until all ${clients} notified at most 2x raw SDK v2`,
        measured: `${num(ours, 1)} vs ${num(raw, 1)} ms = ${ratio(ours, raw)}`,
        met: ours <= 2 * raw,
      });
    } else {
      const sync = med(`${shape.key}:ours`, 'syncMs');
      const rawSync = med(ref, 'syncMs');
      targets.push({
        target: `time until all ${shape.legacy} legacy GET streams notified at most raw SDK v2 (#30)`,
        measured: `${num(ours, 1)} vs ${num(raw, 1)} ms = ${ratio(ours, raw)}; sync part ${num(sync, 2)} vs ${num(rawSync, 2)} ms = ${ratio(sync, rawSync)}`,
        met: ours <= raw,
      });
    }
  }
  return {
    id: 'W5',
    headline,
    title: 'W5 toggle fan-out',
    markdown:
      "One toggle (disable `echo`); times from the toggle command to each client's " +
      '`notifications/tools/list_changed`; "toggle sync ms" is how long the toggle call itself ran in the server ' +
      `(ours: \`disableTool\`; raw SDKs: \`disable()\` on each session's tool handle); counts checked ${QUIET_MS} ms after the last one (worst run)\n\n` +
      sections.join('\n\n'),
    targets,
  };
}
