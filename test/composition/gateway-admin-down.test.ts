// An operator toggles a tool of an upstream that is down: the settings API still lists it (by its
// last listing, marked unavailable), the toggle is saved in the state file and applies when the
// upstream returns.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpMcpServer, defineTool } from '../../dist/index.js';
import { adminRouter } from '../../dist/public/admin.js';
import { FileToolStateStore } from '../../dist/public/state.js';
import { connectGatewayClient, recordingLogger, until, type GatewayClient } from './gateway-clients.js';

const TOKEN = 'admin-token-for-the-down-upstream-test';

function ownServer(port: number): HttpMcpServer {
  const own = new HttpMcpServer({ name: 'own', version: '1' }, { port, logger: recordingLogger([]) });
  own.registerTool(defineTool({ name: 'greet', execute: () => 'hello' }));
  own.registerTool(defineTool({ name: 'wave', execute: () => 'bye' }));
  return own;
}

describe('settings API: a tool of an upstream that is down', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-admin-down-'));
  const stateFile = path.join(dir, 'state.json');
  let own: HttpMcpServer | undefined;
  let gateway: HttpMcpServer | undefined;
  let client: GatewayClient | undefined;

  afterAll(async () => {
    await client?.close().catch(() => {});
    await gateway?.stop();
    await own?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is listed as unavailable, PATCH disables it (saved), and it returns disabled', async () => {
    own = ownServer(0);
    await own.start();
    const port = Number(new URL(own.address.url).port);
    gateway = new HttpMcpServer(
      { name: 'gateway', version: '1' },
      { port: 0, logger: recordingLogger([]), toolState: new FileToolStateStore(stateFile) },
    );
    gateway.app.use('/admin', adminRouter(gateway, { token: TOKEN }));
    const upstream = gateway.addUpstream({
      name: 'own',
      url: own.address.url,
      pingIntervalMs: 200,
      pingTimeoutMs: 5_000, // a loaded machine may answer a ping late; a stopped upstream refuses at once
      backoff: { initialMs: 100, maxMs: 200 },
    });
    await gateway.start();
    await upstream.whenConnected({ timeoutMs: 10_000 });
    const admin = (pathname: string, init: RequestInit = {}) =>
      fetch(new URL(`/admin/api${pathname}`, gateway!.address.url), {
        ...init,
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      });

    await own.stop();
    own = undefined;
    await until(() => upstream.status.state !== 'connected' && upstream.status.tools === 0, 'the upstream to be down');
    expect(upstream.status.knownTools).toEqual(['own_greet', 'own_wave']);

    const listing = (await (await admin('/tools')).json()) as { tools: Array<Record<string, unknown>> };
    expect(listing.tools).toEqual([
      expect.objectContaining({ name: 'own_greet', package: 'own', enabled: true, available: false }),
      expect.objectContaining({ name: 'own_wave', package: 'own', enabled: true, available: false }),
    ]);
    // Another open settings page hears of the toggle on the event stream.
    const events = new AbortController();
    const stream = await fetch(new URL('/admin/api/events', gateway.address.url), {
      headers: { Authorization: `Bearer ${TOKEN}`, Accept: 'text/event-stream' },
      signal: events.signal,
    });
    const heard = (async () => {
      const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      while (!text.includes('"name":"own_greet"')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
      return text;
    })();
    const patched = await admin('/tools/own_greet', { method: 'PATCH', body: JSON.stringify({ enabled: false }) });
    expect(await heard).toContain('event: toolToggled\ndata: {"name":"own_greet","enabled":false}');
    events.abort();
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ tool: { name: 'own_greet', enabled: false, available: false } });
    expect(JSON.parse(readFileSync(stateFile, 'utf8'))).toMatchObject({ disabled: ['own_greet'] });
    expect(await (await admin('/tools/own_greet')).json()).toMatchObject({ tool: { enabled: false } });
    // A name no upstream ever listed is still unknown.
    expect((await admin('/tools/own_nope', { method: 'PATCH', body: '{"enabled":false}' })).status).toBe(404);

    own = ownServer(port);
    await own.start();
    await upstream.whenConnected({ timeoutMs: 10_000 });
    client = await connectGatewayClient('v2-modern', gateway.address.url);
    expect(await client.names()).toEqual(['own_wave']);
    const back = (await (await admin('/tools')).json()) as { tools: Array<Record<string, unknown>> };
    expect(back.tools).toEqual([
      expect.objectContaining({ name: 'own_greet', enabled: false, available: true }),
      expect.objectContaining({ name: 'own_wave', enabled: true, available: true }),
    ]);
  }, 40_000);
});
