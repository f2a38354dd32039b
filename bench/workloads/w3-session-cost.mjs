/* global performance */
// W3 session cost: legacy sessions opened and abandoned (no DELETE). Sessions/s,
// RSS and post-GC heap per idle session (1, 100 and 1000 tools), and how many are still
// held after the idle timeout (ours runs with a short one; the others have none).
import { startChild } from '../lib/children.mjs';
import { HttpDriver } from '../lib/http-driver.mjs';
import { median, num, ratio, rotate, runConcurrent, sleep, table } from '../lib/stats.mjs';

const SYSTEMS = ['ours', 'raw-v2', 'raw-v1', 'fastmcp'];
const CONCURRENCY = 8;
const IDLE_TIMEOUT_MS = 3_000;
/** Sessions opened per run, by tool count (fewer for big inventories: the references rebuild them per session). */
const SESSIONS = { 1: 500, 100: 200, 1000: 60 };
/**
 * fastmcp answers each initialize only after polling up to 1 s for the client's
 * capabilities (FastMCPSession.connect), so it opens ~8 sessions/s at this concurrency:
 * it gets fewer sessions to keep the run bounded (the per-session figures stay comparable).
 */
const sessionsFor = (system, tools, quick) =>
  Math.min(system === 'fastmcp' ? 60 : Infinity, quick ? Math.ceil(SESSIONS[tools] * 0.5) : SESSIONS[tools]);

async function openMany(driver, count, concurrency = CONCURRENCY) {
  const ids = [];
  await runConcurrent(concurrency, count, async () => ids.push(await driver.openSession()));
  return ids;
}

async function measure(system, tools, sessions) {
  const child = await startChild(system, 'http', { tools, idleTimeoutMs: 600_000 }, { hardTimeoutMs: 180_000 });
  const driver = new HttpDriver(child.port, CONCURRENCY);
  try {
    await openMany(driver, system === 'fastmcp' || tools > 1 ? 8 : 20); // warm up code paths and connections
    const before = await child.call('heap');
    const t0 = performance.now();
    await openMany(driver, sessions);
    const seconds = (performance.now() - t0) / 1000;
    const after = await child.call('heap');
    return {
      perSecond: sessions / seconds,
      heapKb: (after.heapUsed - before.heapUsed) / sessions / 1024,
      rssKb: (after.rss - before.rss) / sessions / 1024,
    };
  } finally {
    driver.close();
    await child.kill();
  }
}

/** Opens `count` sessions on every system at once, abandons them, waits past the idle timeout, counts who holds what. */
async function reaping(count) {
  const children = await Promise.all(
    SYSTEMS.map((system) => startChild(system, 'http', { tools: 1, idleTimeoutMs: IDLE_TIMEOUT_MS })),
  );
  try {
    const opened = [];
    for (const child of children) {
      const driver = new HttpDriver(child.port, 64);
      opened.push((await openMany(driver, count, 64)).length);
      driver.close();
    }
    await sleep(IDLE_TIMEOUT_MS + IDLE_TIMEOUT_MS / 2 + 1_000); // timeout + one sweep interval + margin
    const held = await Promise.all(children.map((child) => child.call('held')));
    return SYSTEMS.map((system, i) => ({ system, opened: opened[i], held: held[i] }));
  } finally {
    await Promise.all(children.map((child) => child.kill()));
  }
}

export async function run({ quick, rounds, log }) {
  const toolCounts = [1, 100, 1000];
  const results = {};
  for (let round = 0; round < rounds; round += 1) {
    for (const tools of toolCounts) {
      for (const system of rotate(SYSTEMS, round)) {
        const key = `${tools}:${system}`;
        (results[key] ??= []).push(await measure(system, tools, sessionsFor(system, tools, quick)));
        log(`W3 round ${round + 1}/${rounds} ${key}: ${num(results[key].at(-1).heapKb)} KB/session`);
      }
    }
  }
  const reaped = await reaping(quick ? 200 : 500);
  const med = (key, field) => median(results[key].map((r) => r[field]));
  const rows = [];
  for (const tools of toolCounts) {
    for (const system of SYSTEMS) {
      const key = `${tools}:${system}`;
      const ref = `${tools}:raw-v2`;
      rows.push([
        `${system}, ${tools} tool${tools > 1 ? 's' : ''}`,
        String(sessionsFor(system, tools, quick)),
        num(med(key, 'perSecond'), 0),
        ratio(med(key, 'perSecond'), med(ref, 'perSecond')),
        num(med(key, 'heapKb')),
        ratio(med(key, 'heapKb'), med(ref, 'heapKb')),
        num(med(key, 'rssKb')),
      ]);
    }
  }
  const reapRows = reaped.map(({ system, opened, held }) => [
    system,
    String(opened),
    String(held),
    `${num(((opened - held) / opened) * 100, 0)}%`,
  ]);
  const targets = [];
  for (const tools of toolCounts) {
    const ours = med(`${tools}:ours`, 'heapKb');
    const raw = med(`${tools}:raw-v2`, 'heapKb');
    targets.push({
      target: `post-GC heap per idle session at most raw SDK v2's (${tools} tool${tools > 1 ? 's' : ''})`,
      measured: `${num(ours)} vs ${num(raw)} KB = ${ratio(ours, raw)}`,
      met: ours <= raw,
    });
  }
  const oursRate = med('1:ours', 'perSecond');
  const rawRate = med('1:raw-v2', 'perSecond');
  targets.push({
    target: 'session creation rate at least raw SDK v2 (1 tool)',
    measured: `${num(oursRate, 0)} vs ${num(rawRate, 0)} sessions/s = ${ratio(oursRate, rawRate)}`,
    met: oursRate >= rawRate,
  });
  const ourReap = reaped.find((r) => r.system === 'ours');
  targets.push({
    target: '100% of abandoned sessions reaped after the idle timeout',
    measured: `${ourReap.opened - ourReap.held} of ${ourReap.opened} reaped`,
    met: ourReap.held === 0,
  });
  return {
    id: 'W3',
    headline: [
      { metric: 'sessions/s (1 tool)', value: oursRate, better: 'higher' },
      { metric: 'heap KB / session (1 tool)', value: med('1:ours', 'heapKb'), better: 'lower' },
    ],
    title: 'W3 session cost',
    markdown:
      `Idle 2025-11-25 sessions (initialize + initialized, ${CONCURRENCY} at a time, never deleted); heap and RSS are (after - before) / sessions, both after forced GCs in the server process\n\n` +
      table(
        [
          'system, tools',
          'sessions',
          'sessions/s',
          'rate vs raw v2',
          'post-GC heap KB / session',
          'heap vs raw v2',
          'RSS KB / session',
        ],
        rows,
      ) +
      `\n\nAbandoned sessions still held ${IDLE_TIMEOUT_MS + IDLE_TIMEOUT_MS / 2 + 1_000} ms after the last request (ours: sessionIdleTimeoutMs ${IDLE_TIMEOUT_MS}; the others have no idle timeout)\n\n` +
      table(['system', 'opened', 'still held', 'reaped'], reapRows),
    targets,
  };
}
