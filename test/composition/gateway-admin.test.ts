// The settings page's API treats upstream tools like local ones: listed under their upstream's
// package, toggled (each client told once), persisted in the tool state file; no secret shown.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpMcpServer, defineTool } from '../../dist/index.js';
import { adminRouter } from '../../dist/public/admin.js';
import { FileToolStateStore } from '../../dist/public/state.js';
import { connectGatewayClient, quiet, recordingLogger, until, type GatewayClient } from './gateway-clients.js';

const TOKEN = 'admin-token-for-the-gateway-test';
const SECRET = 'upstream-header-secret-2718';

describe('gateway + settings API', () => {
  let dir: string;
  let own: HttpMcpServer;
  let gateway: HttpMcpServer;
  let clients: GatewayClient[] = [];
  const admin = (pathname: string, init: RequestInit = {}) =>
    fetch(new URL(`/admin/api${pathname}`, gateway.address.url), {
      ...init,
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', ...init.headers },
    });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-admin-'));
    own = new HttpMcpServer({ name: 'own', version: '1' }, { port: 0, logger: recordingLogger([]) });
    own.registerTool(defineTool({ name: 'greet', execute: () => 'hello' }));
    await own.start();
    gateway = new HttpMcpServer(
      { name: 'gateway', version: '1' },
      { port: 0, logger: recordingLogger([]), toolState: new FileToolStateStore(path.join(dir, 'state.json')) },
    );
    gateway.app.use('/admin', adminRouter(gateway, { token: TOKEN }));
    gateway.registerTool(defineTool({ name: 'local', execute: () => 'local' }));
    const upstream = gateway.addUpstream({ name: 'own', url: own.address.url, headers: { 'X-Api-Key': SECRET } });
    await gateway.start();
    await upstream.whenConnected();
    clients = await Promise.all(
      (['v1', 'v2-legacy', 'v2-modern'] as const).map((kind) => connectGatewayClient(kind, gateway.address.url)),
    );
  }, 30_000);

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await gateway?.stop();
    await own?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists upstream tools under their upstream, and a toggle reaches each client once and is saved', async () => {
    const listing = (await (await admin('/tools')).json()) as {
      tools: Array<{ name: string; package: string | null }>;
    };
    expect(listing.tools).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'local', package: null }),
        expect.objectContaining({ name: 'own_greet', package: 'own', enabled: true }),
      ]),
    );
    expect(JSON.stringify(listing)).not.toContain(SECRET);

    await quiet(200);
    const before = clients.map((client) => client.toolsChanged.count);
    const toggled = await admin('/tools/own_greet', { method: 'PATCH', body: JSON.stringify({ enabled: false }) });
    expect(toggled.status).toBe(200);
    await Promise.all(clients.map((client, i) => client.toolsChanged.waitFor(before[i]! + 1)));
    await quiet();
    expect(clients.map((client) => client.toolsChanged.count)).toEqual(before.map((count) => count + 1));
    for (const client of clients) expect(await client.names()).toEqual(['local']);
    const saved = JSON.parse(readFileSync(path.join(dir, 'state.json'), 'utf8')) as { disabled: string[] };
    expect(saved.disabled).toEqual(['own_greet']);
  });

  it('says that no documents are served (the page hides its Documents panel)', async () => {
    expect(await (await admin('/documents')).json()).toMatchObject({ served: false, count: 0, folders: [] });
  });

  it("the toggle survives the upstream's list change (the tool is re-listed, still disabled)", async () => {
    own.registerTool(defineTool({ name: 'extra', execute: () => 'extra' }));
    await until(async () => (await clients[0]!.names()).includes('own_extra'), 'own_extra to arrive');
    expect(await clients[2]!.names()).toEqual(['local', 'own_extra']); // own_greet still disabled
    expect(gateway.tools.isDisabled('own_greet')).toBe(true);
  });
});
