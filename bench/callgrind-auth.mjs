// Instructions per HTTP tools/call with and without `authorization` (issue #25): `ours` (one tool)
// under `valgrind --tool=callgrind`, counting switched on after the warm-up, driven by 4 clients each
// sending its own RS256 JWT (signed by an issuer in this process, so its work is not counted).
// Repeatable on a loaded machine where CPU time is not. Needs valgrind.
//
//   npm run build && node bench/callgrind-auth.mjs [legacy|modern] [calls=600] [warmup=400] [variants=off,on]
// Variants: `off` (no authorization, no header), `on` (authorization, each client's bearer token), `header`
// (no authorization, but the same ~1 KB bearer header sent and ignored): `header` against `off` is what
// carrying the header costs the HTTP stack, `on` against `header` what verifying it costs.
// With a short warm-up V8's optimizing compiler is still busy and is counted too (TurboFan functions
// were ~15% of the count at 400): a larger warm-up gives a steadier figure at the price of time.
//
// (With --serve <issuer|-> it is the server itself: it prints its port and exits on SIGTERM.)
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { bodies, HttpDriver, legacyHeaders, modernHeaders } from './lib/http-driver.mjs';
import { runConcurrent } from './lib/stats.mjs';

const AUDIENCE = 'https://bench.example/mcp';
const CLIENTS = 4;
const args = process.argv.slice(2);

if (args[0] === '--serve') {
  const issuer = args[1] === '-' ? undefined : args[1];
  const authorization = issuer && { issuer, audience: AUDIENCE, requiredScopes: ['tools:read'] };
  const control = await (await import('./servers/ours.mjs')).startHttp({ tools: 1, authorization });
  process.on('SIGTERM', () => process.exit(0));
  process.stdout.write(`${control.port}\n`);
} else {
  const [era = 'modern', calls = '600', warmup = '400', variants = 'off,on'] = args;
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k', alg: 'RS256', use: 'sig' };
  const issuerServer = http.createServer((req, res) => {
    const body = req.url === '/jwks' ? { keys: [jwk] } : { issuer, jwks_uri: `${issuer}/jwks` };
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${issuerServer.address().port}`;
  const tokens = await Promise.all(
    Array.from({ length: CLIENTS }, (_, i) =>
      new SignJWT({ scope: 'tools:read', client_id: `bench-${i}` })
        .setProtectedHeader({ alg: 'RS256', kid: 'k', typ: 'at+jwt' })
        .setIssuer(issuer)
        .setAudience(AUDIENCE)
        .setSubject(`user-${i}`)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey),
    ),
  );
  const self = fileURLToPath(import.meta.url);
  for (const variant of variants.split(',')) {
    const authorized = variant === 'on';
    const out = `${tmpdir()}/callgrind-auth-${era}-${variant}-${process.pid}.out`;
    const child = spawn(
      'valgrind',
      [
        '--tool=callgrind',
        '--instr-atstart=no',
        `--callgrind-out-file=${out}`,
        'node',
        self,
        '--serve',
        authorized ? issuer : '-',
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let text = '';
    const port = await new Promise((resolve, reject) => {
      child.once('exit', () => reject(new Error('the server exited before it served (is valgrind installed?)')));
      child.stdout.on('data', (chunk) => {
        text += chunk;
        const match = text.match(/^(\d+)\n/);
        if (match) resolve(Number(match[1]));
      });
    });
    const auth = tokens.map((token) => (variant === 'off' ? {} : { Authorization: `Bearer ${token}` }));
    let driver = new HttpDriver(port, CLIENTS);
    const sessions = [];
    if (era === 'legacy') {
      for (let i = 0; i < CLIENTS; i += 1) {
        const opened = await driver.post(bodies.initialize(1_000 + i), auth[i]);
        sessions.push(opened.headers['mcp-session-id']);
        await driver.post(bodies.initialized(), { ...legacyHeaders(sessions[i]), ...auth[i] });
      }
    }
    let id = 100;
    // A keep-alive socket the slowed-down server closed while idle is reset: send that call again.
    const send = (worker) =>
      once(worker).catch((error) => (error.code === 'ECONNRESET' ? once(worker) : Promise.reject(error)));
    const once = (worker) =>
      era === 'legacy'
        ? driver.rpc(bodies.call(id++), { ...legacyHeaders(sessions[worker]), ...auth[worker] })
        : driver.rpc(bodies.modernCall(id++), { ...modernHeaders('tools/call', 'echo'), ...auth[worker] });
    await runConcurrent(CLIENTS, Number(warmup), send);
    execFileSync('callgrind_control', ['-i', 'on', String(child.pid)], { stdio: 'ignore' });
    driver.close();
    driver = new HttpDriver(port, CLIENTS);
    await runConcurrent(CLIENTS, Number(calls), send);
    execFileSync('callgrind_control', ['-i', 'off', String(child.pid)], { stdio: 'ignore' });
    driver.close();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    const totals = readFileSync(out, 'utf8').match(/^totals: (\d+)/m);
    if (process.env.KEEP_CALLGRIND) process.stderr.write(`kept ${out}\n`);
    else rmSync(out, { force: true });
    process.stdout.write(
      `${era} ${{ off: 'without authorization', on: 'with authorization', header: 'without authorization, bearer header sent' }[variant]}: ` +
        `${(Number(totals?.[1]) / Number(calls) / 1000).toFixed(0)} k instructions per tools/call\n`,
    );
  }
  issuerServer.close();
}
