/* global performance */
// What does MCP authorization cost per tools/call? The W1 workload (HTTP, 16 concurrent clients,
// one trivial tool; legacy sessions and 2026-07-28 requests) against `ours` without and with
// `authorization`: every request then carries a JWT access token that the server verifies (jose,
// RS256) against the issuer's JWKS, fetched once and cached. The issuer runs in this process (a
// discovery document and a JWKS on 127.0.0.1; tokens signed with jose), so its CPU is not counted.
// Runs interleave over rounds; medians of server CPU-s per 1k calls are compared, in all and split
// into user and system (kernel) time from /proc/<pid>/stat (utime, stime).
//   npm run build && node bench/auth-overhead.mjs [--rounds 3] [--calls 4000]
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
const rounds = option('--rounds', 3);
const calls = option('--calls', 4_000);
const warmup = option('--warmup', 1_000);
const CLIENTS = 16;
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

async function measure(issuer, era, authorized) {
  const config = {
    tools: 1,
    ...(authorized && { authorization: { issuer: issuer.issuer, audience: AUDIENCE, requiredScopes: ['tools:read'] } }),
  };
  const child = await startChild('ours', 'http', config, { hardTimeoutMs: 300_000 });
  const driver = new HttpDriver(child.port, CLIENTS);
  try {
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
    const send = (worker) =>
      era === 'legacy'
        ? driver.rpc(bodies.call(id++), { ...legacyHeaders(sessions[worker]), ...auth[worker] })
        : driver.rpc(bodies.modernCall(id++), { ...modernHeaders('tools/call', 'echo'), ...auth[worker] });
    await runConcurrent(CLIENTS, warmup, send);
    const cpu0 = child.cpuTimes();
    const t0 = performance.now();
    await runConcurrent(CLIENTS, calls, async (worker) => {
      const result = await send(worker);
      if (result?.content?.[0]?.text !== 'hello') throw new Error('unexpected result');
    });
    const seconds = (performance.now() - t0) / 1000;
    const cpu1 = child.cpuTimes();
    const per1k = (field) => ((cpu1[field] - cpu0[field]) / calls) * 1000;
    return {
      callsPerSecond: calls / seconds,
      userPer1k: per1k('user'),
      systemPer1k: per1k('system'),
      cpuPer1k: per1k('user') + per1k('system'),
    };
  } finally {
    driver.close();
    await child.kill();
  }
}

const issuer = await startIssuer();
const results = {};
try {
  for (let round = 0; round < rounds; round += 1) {
    for (const era of ['legacy', 'modern']) {
      const order = round % 2 === 0 ? [false, true] : [true, false];
      for (const authorized of order) {
        const key = `${era}|${authorized ? 'on' : 'off'}`;
        const result = await measure(issuer, era, authorized);
        (results[key] ??= []).push(result);
        process.stderr.write(
          `round ${round + 1}/${rounds} ${key}: ${num(result.cpuPer1k, 3)} CPU-s/1k ` +
            `(user ${num(result.userPer1k, 3)}, system ${num(result.systemPer1k, 3)})\n`,
        );
      }
    }
  }
} finally {
  await issuer.close();
}

const m = (key, field) => median(results[key].map((entry) => entry[field]));
const rows = ['legacy', 'modern'].map((era) => {
  const off = m(`${era}|off`, 'cpuPer1k');
  const on = m(`${era}|on`, 'cpuPer1k');
  const [userOff, userOn, systemOff, systemOn] = ['userPer1k', 'systemPer1k'].flatMap((field) =>
    ['off', 'on'].map((state) => m(`${era}|${state}`, field)),
  );
  return [
    era === 'legacy' ? '2025-11-25 sessions' : '2026-07-28',
    num(m(`${era}|off`, 'callsPerSecond'), 0),
    num(m(`${era}|on`, 'callsPerSecond'), 0),
    `${num(off, 3)} / ${num(on, 3)}`,
    ratio(on, off),
    `${num(userOff, 3)} / ${num(userOn, 3)}`,
    ratio(userOn, userOff),
    `${num(systemOff, 3)} / ${num(systemOn, 3)}`,
    ratio(systemOn, systemOff),
    on <= TARGET * off ? 'met' : '**missed**',
  ];
});
process.stdout.write(
  `W1 tools/call with vs without authorization (JWT verified per request, cached JWKS: ${issuer.jwksFetches()} JWKS fetches in all), ` +
    `${CLIENTS} clients, ${calls} calls per run, ${rounds} rounds, medians; target: server CPU with <= ${TARGET}x without\n\n` +
    table(
      [
        'era',
        'calls/s off',
        'calls/s on',
        'CPU-s / 1k off / on',
        'CPU on / off',
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
