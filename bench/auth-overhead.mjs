/* global performance */
// What does MCP authorization cost per tools/call? The W1 workload (HTTP, 16 concurrent clients,
// one trivial tool; legacy sessions and 2026-07-28 requests) against `ours` without and with
// `authorization`: every request then carries a JWT access token that the server verifies (jose,
// RS256) against the issuer's JWKS, fetched once and cached. The issuer runs in this process (a
// discovery document and a JWKS on 127.0.0.1; tokens signed with jose), so its CPU is not counted.
// Each round starts both servers side by side and has them take turns in blocks of calls, so load from
// other work on the machine falls on both alike; the target is judged on the median of the rounds'
// paired ratios (server CPU from schedstat, ns), with medians of CPU-s per 1k calls and the user /
// system (kernel) split from /proc/<pid>/stat (utime, stime) beside it.
//   npm run build && node bench/auth-overhead.mjs [--rounds 5] [--calls 4000] [--blocks 10] [--warmup 1000]
import http from 'node:http';
import process from 'node:process';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { startChild } from './lib/children.mjs';
import { bodies, HttpDriver, legacyHeaders, modernHeaders } from './lib/http-driver.mjs';
import { median, num, ratio, runConcurrent, table } from './lib/stats.mjs';

const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const rounds = option('--rounds', 5);
const calls = option('--calls', 4_000);
const warmup = option('--warmup', 1_000);
const CLIENTS = 16;
const BLOCKS = option('--blocks', 10);
const AUDIENCE = 'https://bench.example/mcp';
const TARGET = 1.05;

/** A minimal authorization server: RFC 8414 metadata and a JWKS; `token()` signs an RS256 access token. */
async function startIssuer() {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench-key', alg: 'RS256', use: 'sig' };
  let jwksFetches = 0;
  const server = http.createServer((req, res) => {
    const body =
      req.url === '/jwks'
        ? (jwksFetches++, { keys: [jwk] })
        : { issuer, jwks_uri: `${issuer}/jwks`, token_endpoint: `${issuer}/token` };
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  return {
    issuer,
    jwksFetches: () => jwksFetches,
    token: (client) =>
      new SignJWT({ scope: 'tools:read', client_id: `bench-${client}` })
        .setProtectedHeader({ alg: 'RS256', kid: 'bench-key', typ: 'at+jwt' })
        .setIssuer(issuer)
        .setAudience(AUDIENCE)
        .setSubject(`user-${client}`)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** One server (`ours`, one tool), with or without authorization, its sessions opened: `send(worker)` calls the tool. */
async function serverFor(issuer, era, authorized) {
  const config = {
    tools: 1,
    ...(authorized && { authorization: { issuer: issuer.issuer, audience: AUDIENCE, requiredScopes: ['tools:read'] } }),
  };
  const child = await startChild('ours', 'http', config, { hardTimeoutMs: 600_000 });
  const driver = new HttpDriver(child.port, CLIENTS);
  const auth = authorized
    ? await Promise.all(
        Array.from({ length: CLIENTS }, async (_, i) => ({ Authorization: `Bearer ${await issuer.token(i)}` })),
      )
    : Array.from({ length: CLIENTS }, () => ({}));
  // Sessions are opened with each client's token (the session is bound to it).
  const sessions = [];
  if (era === 'legacy') {
    for (let i = 0; i < CLIENTS; i += 1) {
      const opened = await driver.post(bodies.initialize(1_000 + i), auth[i]);
      const id = opened.headers['mcp-session-id'];
      if (opened.status !== 200 || !id)
        throw new Error(`initialize: HTTP ${opened.status} ${opened.text.slice(0, 200)}`);
      await driver.post(bodies.initialized(), { ...legacyHeaders(id), ...auth[i] });
      sessions.push(id);
    }
  }
  let id = 100;
  const send = async (worker) => {
    const result = await (era === 'legacy'
      ? driver.rpc(bodies.call(id++), { ...legacyHeaders(sessions[worker]), ...auth[worker] })
      : driver.rpc(bodies.modernCall(id++), { ...modernHeaders('tools/call', 'echo'), ...auth[worker] }));
    if (result?.content?.[0]?.text !== 'hello') throw new Error('unexpected result');
  };
  return {
    child,
    send,
    totals: { calls: 0, seconds: 0, cpu: 0, user: 0, system: 0 },
    close: async () => {
      driver.close();
      await child.kill();
    },
  };
}

/**
 * One round of one era: both servers run side by side and take turns in blocks of calls (the order
 * flipped every block), so a change in the machine's load during the round falls on both alike.
 * Server CPU comes from /proc/<pid>/task/<tid>/schedstat (ns); the user/system split from /proc/<pid>/stat.
 */
async function measureRound(issuer, era) {
  const servers = { off: await serverFor(issuer, era, false), on: await serverFor(issuer, era, true) };
  try {
    for (const server of Object.values(servers)) await runConcurrent(CLIENTS, warmup, server.send);
    const perBlock = Math.ceil(calls / BLOCKS);
    for (let block = 0; block < BLOCKS; block += 1) {
      for (const state of block % 2 === 0 ? ['off', 'on'] : ['on', 'off']) {
        const { child, send, totals } = servers[state];
        const [cpu0, times0, t0] = [child.cpu(), child.cpuTimes(), performance.now()];
        await runConcurrent(CLIENTS, perBlock, send);
        const [cpu1, times1] = [child.cpu(), child.cpuTimes()];
        totals.seconds += (performance.now() - t0) / 1000;
        totals.calls += perBlock;
        totals.cpu += cpu1 - cpu0;
        totals.user += times1.user - times0.user;
        totals.system += times1.system - times0.system;
      }
    }
    const result = {};
    for (const [state, { totals }] of Object.entries(servers)) {
      const per1k = (value) => (value / totals.calls) * 1000;
      result[state] = {
        callsPerSecond: totals.calls / totals.seconds,
        cpuPer1k: per1k(totals.cpu),
        userPer1k: per1k(totals.user),
        systemPer1k: per1k(totals.system),
      };
    }
    return result;
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.close()));
  }
}

const issuer = await startIssuer();
const results = {};
const roundRatios = { legacy: [], modern: [] };
try {
  for (let round = 0; round < rounds; round += 1) {
    for (const era of round % 2 === 0 ? ['legacy', 'modern'] : ['modern', 'legacy']) {
      const result = await measureRound(issuer, era);
      for (const state of ['off', 'on']) (results[`${era}|${state}`] ??= []).push(result[state]);
      roundRatios[era].push(result.on.cpuPer1k / result.off.cpuPer1k);
      process.stderr.write(
        `round ${round + 1}/${rounds} ${era}: CPU-s/1k off ${num(result.off.cpuPer1k, 3)}, on ${num(result.on.cpuPer1k, 3)} ` +
          `(${ratio(result.on.cpuPer1k, result.off.cpuPer1k)})\n`,
      );
    }
  }
} finally {
  await issuer.close();
}

const m = (key, field) => median(results[key].map((entry) => entry[field]));
const rows = ['legacy', 'modern'].map((era) => {
  const off = m(`${era}|off`, 'cpuPer1k');
  const on = m(`${era}|on`, 'cpuPer1k');
  const paired = median(roundRatios[era]);
  const [userOff, userOn, systemOff, systemOn] = ['userPer1k', 'systemPer1k'].flatMap((field) =>
    ['off', 'on'].map((state) => m(`${era}|${state}`, field)),
  );
  return [
    era === 'legacy' ? '2025-11-25 sessions' : '2026-07-28',
    num(m(`${era}|off`, 'callsPerSecond'), 0),
    num(m(`${era}|on`, 'callsPerSecond'), 0),
    `${num(off, 3)} / ${num(on, 3)}`,
    `${num(paired, 3)}x (${roundRatios[era].map((r) => num(r, 3)).join(', ')})`,
    `${num(userOff, 3)} / ${num(userOn, 3)}`,
    ratio(userOn, userOff),
    `${num(systemOff, 3)} / ${num(systemOn, 3)}`,
    ratio(systemOn, systemOff),
    paired <= TARGET ? 'met' : '**missed**',
  ];
});
process.stdout.write(
  `W1 tools/call with vs without authorization (JWT verified per request, cached JWKS: ${issuer.jwksFetches()} JWKS fetches in all), ` +
    `${CLIENTS} clients, ${calls} calls per server per round in ${BLOCKS} alternating blocks, ${rounds} rounds, medians; target: server CPU with <= ${TARGET}x without\n\n` +
    table(
      [
        'era',
        'calls/s off',
        'calls/s on',
        'CPU-s / 1k off / on',
        'CPU on / off, median of rounds (each round)',
        'user off / on',
        'user on / off',
        'system off / on',
        'system on / off',
        'target',
      ],
      rows,
    ) +
    '\n',
);
