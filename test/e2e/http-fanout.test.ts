import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { connectClient, type ClientKind, type TestClient } from '../support/clients.js';
import { startServer, until } from './http-helpers.js';

const LEGACY_CLIENTS = 50;
const MODERN_CLIENTS = 5;
/** After every expected notification arrived, wait this long to prove no second one follows. */
const QUIET_MS = 300;

describe('HttpMcpServer toggle fan-out: 50 legacy sessions + 5 modern listen streams', () => {
  let server: HttpMcpServer;
  let clients: TestClient[] = [];

  beforeAll(async () => {
    server = await startServer();
    const url = new URL(server.address.url);
    const kinds: ClientKind[] = [
      ...Array.from({ length: LEGACY_CLIENTS }, (_, i): ClientKind => (i % 2 === 0 ? 'v1' : 'v2-legacy')),
      ...Array.from({ length: MODERN_CLIENTS }, (): ClientKind => 'v2-modern'),
    ];
    clients = await Promise.all(
      kinds.map((kind) => connectClient(kind, kind === 'v1' ? new HttpV1(url) : new HttpV2(url))),
    );
    // Legacy clients open their GET stream right after connect(); changes reach a client through it.
    await until(
      () => server.listSessions().filter((session) => session.openRequests > 0).length === LEGACY_CLIENTS,
      'every legacy client to open its GET stream',
      10_000,
    );
  });

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await server.stop();
  });

  it('one disableTool -> exactly one list_changed per client; list and call agree everywhere', async () => {
    expect(server.sessionCount).toBe(LEGACY_CLIENTS);
    server.disableTool('echo');
    await Promise.all(clients.map((client) => client.toolsChanged.waitFor(1, 10_000)));
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    expect(clients.map((client) => client.toolsChanged.count)).toEqual(clients.map(() => 1));

    const lists = await Promise.all(clients.map((client) => client.toolNames()));
    for (const names of lists) expect(names).toEqual(['whoami']);
    const calls = await Promise.allSettled(clients.map((client) => client.callTool('echo', { text: 'x' })));
    for (const call of calls) {
      expect(call.status).toBe('rejected');
      expect(String((call as PromiseRejectedResult).reason)).toMatch(/disabled/);
    }

    server.enableTool('echo');
    await Promise.all(clients.map((client) => client.toolsChanged.waitFor(2, 10_000)));
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    expect(clients.map((client) => client.toolsChanged.count)).toEqual(clients.map(() => 2));
    const results = await Promise.all(clients.map((client) => client.callTool('echo', { text: 'back' })));
    for (const result of results) expect(result.content[0]?.text).toBe('back');
  });
});
