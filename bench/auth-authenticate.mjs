/* global console, process */
// CPU of `ResourceServer.authenticate` per request on its hot path (issue #25): a valid, already
// verified (cached) RS256 JWT, the same every call, as one client sends on each request. Fixed
// iterations, CPU time of this process; with `--baseline <checkout>` the same loop also runs the
// baseline build's ResourceServer, alternating in the same process, and prints after/before.
//   npm run build && node bench/auth-authenticate.mjs [--calls 50000] [--rounds 5] [--baseline /work/wt/base]
import http from 'node:http';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const calls = Number(option('--calls', 50_000));
const rounds = Number(option('--rounds', 5));
const baseline = option('--baseline');
const AUDIENCE = 'https://bench.example/mcp';

/** The ResourceServer class of the build in `dist` (an internal module: found among its chunks). */
async function resourceServerOf(dist) {
  for (const file of readdirSync(path.join(dist, 'chunks')).filter((name) => name.endsWith('.js'))) {
    const module = await import(pathToFileURL(path.join(dist, 'chunks', file)).href);
    const found = Object.values(module).find((value) => typeof value === 'function' && value.name === 'ResourceServer');
    if (found) return found;
  }
  throw new Error(`no ResourceServer in ${dist}`);
}

const { privateKey, publicKey } = await generateKeyPair('RS256');
const jwk = { ...(await exportJWK(publicKey)), kid: 'k', alg: 'RS256', use: 'sig' };
const jwks = http.createServer((req, res) => res.end(JSON.stringify({ keys: [jwk] })));
await new Promise((resolve) => jwks.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${jwks.address().port}`;
const token = await new SignJWT({ scope: 'tools:read tools:call', client_id: 'bench' })
  .setProtectedHeader({ alg: 'RS256', kid: 'k' })
  .setIssuer(issuer)
  .setAudience(AUDIENCE)
  .setSubject('user-1')
  .setIssuedAt()
  .setExpirationTime('2h')
  .sign(privateKey);
const options = { issuer, jwksUri: `${issuer}/jwks`, audience: AUDIENCE, requiredScopes: ['tools:read'] };
const request = { authorization: `Bearer ${token}`, url: '/mcp' };

const builds = { 'this tree': fileURLToPath(new URL('../dist', import.meta.url)) };
if (baseline) builds.baseline = path.resolve(baseline, 'dist');
const servers = {};
for (const [label, dist] of Object.entries(builds)) {
  const ResourceServer = await resourceServerOf(dist);
  servers[label] = new ResourceServer(options, 'bench');
  for (let i = 0; i < 2_000; i += 1) await servers[label].authenticate(request, AUDIENCE);
}
const samples = Object.fromEntries(Object.keys(servers).map((label) => [label, []]));
for (let round = 0; round < rounds; round += 1) {
  for (const label of Object.keys(servers)) {
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < calls; i += 1) await servers[label].authenticate(request, AUDIENCE);
    const cpu = process.cpuUsage(cpu0);
    samples[label].push(((cpu.user + cpu.system) / calls) * 1000); // ns per call
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
for (const [label, values] of Object.entries(samples)) {
  console.log(`${label}: ${median(values).toFixed(0)} ns CPU per authenticate (median of ${rounds} x ${calls})`);
}
if (baseline) console.log(`after/before: ${(median(samples['this tree']) / median(samples.baseline)).toFixed(2)}x`);
jwks.close();
