/* global performance */
// W4 tool-count scaling: 1, 100 and 1000 registered tools with small 3-field schemas.
// Legacy session creation, tools/list p50 and tools/call p50 on both eras.
import { startChild } from '../lib/children.mjs';
import { bodies, HttpDriver, legacyHeaders, messagesOf, modernHeaders } from '../lib/http-driver.mjs';
import { median, num, ratio, rotate, table } from '../lib/stats.mjs';

const SYSTEMS = ['ours', 'raw-v2', 'raw-v1', 'fastmcp'];
const MODERN = new Set(['ours', 'raw-v2']);
const TOOL_COUNTS = [1, 100, 1000];

/** p50 (ms) of `count` sequential runs of `task` after `warmup` unmeasured ones. */
async function p50(count, warmup, task) {
  for (let i = 0; i < warmup; i += 1) await task();
  const times = [];
  for (let i = 0; i < count; i += 1) {
    const start = performance.now();
    await task();
    times.push(performance.now() - start);
  }
  return median(times);
}

async function measure(system, tools, n) {
  const child = await startChild(system, 'http', { tools }, { hardTimeoutMs: 180_000 });
  const driver = new HttpDriver(child.port, 4);
  try {
    // Timed to the last byte of the response; the body is parsed and checked outside the timing.
    const checked = (text) => {
      const listed = messagesOf('text/event-stream', text.startsWith('{') ? `data: ${text}` : text)[0];
      if (listed?.result?.tools?.length !== tools) throw new Error(`${system}: tools/list did not list ${tools} tools`);
    };
    const timedList = (body, headers) => async () => {
      const response = await driver.post(body(), headers);
      if (response.status !== 200) throw new Error(`${system}: tools/list answered HTTP ${response.status}`);
      return response.text;
    };
    // fastmcp answers initialize only after polling ~1 s for the client's capabilities: fewer samples.
    const slow = system === 'fastmcp';
    const session = await p50(slow ? 5 : n.sessions, slow ? 1 : 5, () => driver.openSession());
    const sid = await driver.openSession();
    const legacyList = timedList(() => bodies.list(driver.nextId++), legacyHeaders(sid));
    checked(await legacyList());
    const cpu0 = child.cpu();
    const list = await p50(n.lists, 3, legacyList);
    const out = {
      session,
      list,
      listCpu: ((child.cpu() - cpu0) / (n.lists + 3)) * 1000,
      call: await p50(n.calls, 20, () => driver.rpc(bodies.call(driver.nextId++), legacyHeaders(sid))),
    };
    if (MODERN.has(system)) {
      const modernList = timedList(() => bodies.modernList(driver.nextId++), modernHeaders('tools/list'));
      checked(await modernList());
      out.modernList = await p50(n.lists, 3, modernList);
      // raw SDK v2 rebuilds every tool per 2026-07-28 request (~0.1 s at 1000 tools): fewer samples.
      out.modernCall = await p50(Math.min(n.calls, 40), 10, () =>
        driver.rpc(bodies.modernCall(driver.nextId++), modernHeaders('tools/call', 'echo')),
      );
    }
    return out;
  } finally {
    driver.close();
    await child.kill();
  }
}

export async function run({ quick, rounds, log }) {
  const n = quick ? { sessions: 20, lists: 20, calls: 60 } : { sessions: 50, lists: 50, calls: 200 };
  const results = {};
  for (let round = 0; round < rounds; round += 1) {
    for (const tools of TOOL_COUNTS) {
      for (const system of rotate(SYSTEMS, round)) {
        const key = `${tools}:${system}`;
        (results[key] ??= []).push(await measure(system, tools, n));
        log(`W4 round ${round + 1}/${rounds} ${key}: tools/list p50 ${num(results[key].at(-1).list, 2)} ms`);
      }
    }
  }
  const med = (key, field) => median(results[key].map((r) => r[field]).filter((v) => v !== undefined));
  const rows = [];
  for (const tools of TOOL_COUNTS) {
    for (const system of SYSTEMS) {
      const key = `${tools}:${system}`;
      const ref = `${tools}:raw-v2`;
      const cell = (field) => (MODERN.has(system) || !field.startsWith('modern') ? num(med(key, field), 2) : '—');
      rows.push([
        `${system}, ${tools}`,
        cell('session'),
        cell('list'),
        ratio(med(key, 'list'), med(ref, 'list')),
        num(med(key, 'listCpu'), 2),
        cell('call'),
        cell('modernList'),
        cell('modernCall'),
      ]);
    }
  }
  const list1000 = med('1000:ours', 'list');
  const rawList = med('1000:raw-v2', 'list');
  const fastList = med('1000:fastmcp', 'list');
  const session = [med('1:ours', 'session'), med('1000:ours', 'session')];
  const modernCall = [med('1:ours', 'modernCall'), med('1000:ours', 'modernCall')];
  return {
    id: 'W4',
    headline: [
      { metric: 'tools/list ms (1000 tools)', value: list1000, better: 'lower' },
      { metric: 'server CPU ms / list (1000 tools)', value: med('1000:ours', 'listCpu'), better: 'lower' },
      { metric: '2026 tools/call ms (1 tool)', value: modernCall[0], better: 'lower' },
    ],
    title: 'W4 tool-count scaling',
    markdown:
      `p50 in ms, sequential requests from one client (${n.sessions} session creations, ${n.lists} lists, ${n.calls} calls per run); ` +
      'tools/list is timed to the last byte of the response (the client-side JSON parse, the same for every system, is left out); ' +
      `"session" = initialize + notifications/initialized; "2026" columns are the 2026-07-28 era (per-request views)\n\n` +
      table(
        [
          'system, tools',
          'session ms',
          'tools/list ms',
          'list vs raw v2',
          'server CPU ms / list',
          'tools/call ms',
          '2026 tools/list ms',
          '2026 tools/call ms',
        ],
        rows,
      ),
    targets: [
      { target: 'tools/list at 1000 tools at most 4 ms p50', measured: `${num(list1000, 2)} ms`, met: list1000 <= 4 },
      {
        target: 'tools/list at 1000 tools 10x faster than raw SDK v2',
        measured: `${num(list1000, 2)} vs ${num(rawList, 2)} ms = ${num(rawList / list1000)}x faster`,
        met: rawList >= 10 * list1000,
      },
      {
        target: 'tools/list at 1000 tools 2x faster than fastmcp',
        measured: `${num(list1000, 2)} vs ${num(fastList, 2)} ms = ${num(fastList / list1000)}x faster`,
        met: fastList >= 2 * list1000,
      },
      {
        target: 'session creation at 1000 tools within 1.25x of 1 tool',
        measured: `${num(session[1], 2)} vs ${num(session[0], 2)} ms = ${ratio(session[1], session[0])}`,
        met: session[1] <= 1.25 * session[0],
      },
      {
        target: '2026-07-28 tools/call at 1000 tools within 1.25x of 1 tool',
        measured: `${num(modernCall[1], 2)} vs ${num(modernCall[0], 2)} ms = ${ratio(modernCall[1], modernCall[0])}`,
        met: modernCall[1] <= 1.25 * modernCall[0],
      },
    ],
  };
}
