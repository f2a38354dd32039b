// Resource subscriptions held to the resources/read access rule (requiredScopes, canAccess) on both eras,
// with real tokens from a real authorization server (oidc-provider) against HttpMcpServer({ authorization })
// on 127.0.0.1, over the in-memory (stdio-like) transport with connectInMemory's auth, and over the real
// stdio transport (no authentication: scoped resources are refused): a subscriptions/listen acknowledgement
// lists only URIs the caller may read, and a principal is never sent notifications/resources/updated for a
// resource it may not read, also when the resource (with its rule) is registered after the subscription;
// list_changed notifications carry nothing but the subscription id.
import { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { HttpMcpServer } from '../../src/mcp/http-server.js';
import type { BaseMcpServer } from '../../src/mcp/mcp-server.js';
import { connectInMemory } from '../../src/testing/connect-in-memory.js';
import { FetchMcpServer, toFetchHandler } from '../../src/mcp/fetch-server.js';
import { bearer, bearerTransport, connectWithToken, useAuthorizedServer } from '../support/bearer-clients.js';
import { post, readSse } from '../e2e/http-helpers.js';
import type { ClientKind } from '../support/clients.js';
import { MODERN_META, RawStdio, type RpcMessage } from '../support/raw-stdio.js';

/** Resources by URI with their rule: none, a scope, a `canAccess` no test client passes; and a scoped template. */
function registerItems(server: BaseMcpServer): void {
  const rules = {
    'notes://public': {},
    'notes://secret': { requiredScopes: ['tools:write'] },
    'notes://staff': { canAccess: (auth?: { clientId?: string }) => auth?.clientId === 'staff-app' },
  };
  for (const [uri, rule] of Object.entries(rules))
    server.registerResource({ uri, name: uri, read: () => uri, ...rule });
  server.registerResourceTemplate({
    uriTemplate: 'drafts://{id}',
    name: 'draft',
    requiredScopes: ['tools:write'],
    read: () => 'd',
  });
}

const WATCHED = ['notes://secret', 'notes://staff', 'drafts://7', 'late://one', 'notes://public'];

/** Sends an update for every watched URI, `notes://public` last (same stream: it arrives last). */
function updateAll(server: BaseMcpServer): void {
  for (const uri of WATCHED) server.sendResourceUpdated(uri);
}

describe('resource subscriptions and the access rule (OAuth resource server)', () => {
  const fixture = useAuthorizedServer(registerItems);
  let late = 0;
  /** Registers `late://one` anew (a rule registered after the subscription), returns its remover. */
  const registerLate = () => {
    late += 1;
    fixture.server.registerResource({
      uri: 'late://one',
      name: `late ${late}`,
      requiredScopes: ['tools:write'],
      read: () => 'late',
    });
    return () => fixture.server.removeResource('late://one');
  };

  it('2026-07-28 listen: refused URIs leave the honoured filter and their updates never arrive', async () => {
    const { as, url, server } = fixture;
    const seen = async (scopes: string[]) => {
      const client = new Client(
        { name: 'listener', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      const uris: string[] = [];
      client.setNotificationHandler('notifications/resources/updated', async (note) => void uris.push(note.params.uri));
      await client.connect(bearerTransport('v2-modern', url, await as.token(url, scopes)) as never);
      const subscription = await client.listen({ resourceSubscriptions: WATCHED });
      return { client, uris, subscription };
    };
    const reader = await seen(['tools:read']);
    const writer = await seen(['tools:read', 'tools:write']);
    // The acknowledgement names only what the caller may read (and URIs nothing serves yet).
    expect(reader.subscription.honoredFilter.resourceSubscriptions).toEqual(['late://one', 'notes://public']);
    expect(writer.subscription.honoredFilter.resourceSubscriptions).toEqual([
      'notes://secret',
      'drafts://7',
      'late://one',
      'notes://public',
    ]);
    // late://one gains a rule after the subscription: checked again when each update is sent.
    const removeLate = registerLate();
    updateAll(server);
    await until(() => reader.uris.includes('notes://public') && writer.uris.includes('notes://public'));
    expect(reader.uris).toEqual(['notes://public']);
    expect(writer.uris).toEqual(['notes://secret', 'drafts://7', 'late://one', 'notes://public']);
    for (const { client, subscription } of [reader, writer]) {
      await subscription.close();
      await client.close();
    }
    removeLate();
  });

  it.each<ClientKind>(['v1', 'v2-legacy'])(
    '%s: an update for a resource whose rule came after resources/subscribe is not sent',
    async (kind) => {
      const { as, url, server } = fixture;
      const reader = await connectWithToken(kind, url, await as.token(url, ['tools:read']));
      const writer = await connectWithToken(kind, url, await as.token(url, ['tools:read', 'tools:write']));
      for (const client of [reader, writer]) {
        await client.subscribe('late://one');
        await client.subscribe('notes://public');
      }
      await writer.subscribe('notes://secret');
      await expect(reader.subscribe('notes://secret')).rejects.toThrow(/not found/i);
      const removeLate = registerLate();
      updateAll(server);
      await reader.resourceUpdated.waitFor(1);
      await writer.resourceUpdated.waitFor(3);
      expect(reader.updatedUris).toEqual(['notes://public']);
      expect(writer.updatedUris).toEqual(['notes://secret', 'late://one', 'notes://public']);
      await reader.close();
      await writer.close();
      removeLate();
    },
  );

  it('2026-07-28 listen through toFetchHandler({ authorization }): the acknowledgement lists only readable URIs', async () => {
    const { as, url } = fixture;
    const server = new FetchMcpServer({ name: 'fetch-listen', version: '1.0.0' });
    registerItems(server);
    const handler = toFetchHandler(server, { authorization: { issuer: as.issuer, audience: url } });
    const listenBody = {
      jsonrpc: '2.0',
      id: 5,
      method: 'subscriptions/listen',
      params: {
        notifications: { resourceSubscriptions: WATCHED },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    };
    const response = await handler(
      new Request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': '2026-07-28',
          'Mcp-Method': 'subscriptions/listen',
          ...bearer(await as.token(url, ['tools:read'])),
        },
        body: JSON.stringify(listenBody),
      }),
    );
    expect(response.status).toBe(200);
    const [ack] = await readSse(response, (read) => read.length > 0);
    expect(ack?.message).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { resourceSubscriptions: ['late://one', 'notes://public'] } },
    });
    await server.stop();
  });

  it('2026-07-28 listen over raw HTTP: list_changed carries only the subscription id', async () => {
    const { as, url, server } = fixture;
    const token = await as.token(url, ['tools:read']);
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const response = await post(
      url,
      {
        jsonrpc: '2.0',
        id: 41,
        method: 'subscriptions/listen',
        params: {
          notifications: { toolsListChanged: true, resourcesListChanged: true, resourceSubscriptions: WATCHED },
          _meta: meta,
        },
      },
      { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'subscriptions/listen', ...bearer(token) },
    );
    expect(response.status).toBe(200);
    let sent = false;
    let removeLate = () => false;
    const events = await readSse(response, (read) => {
      if (!sent && read.length > 0) {
        sent = true;
        removeLate = registerLate(); // resources/list_changed
        updateAll(server);
      }
      return read.some((event) => (event.message?.params as { uri?: string } | undefined)?.uri === 'notes://public');
    });
    removeLate();
    const notes = events.map((event) => event.message!);
    expect(notes[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { resourceSubscriptions: ['late://one', 'notes://public'] } },
    });
    const updated = notes.filter((note) => note.method === 'notifications/resources/updated');
    expect(updated.map((note) => (note.params as { uri: string }).uri)).toEqual(['notes://public']);
    const listChanged = notes.filter((note) => note.method === 'notifications/resources/list_changed');
    expect(listChanged.length).toBeGreaterThan(0);
    for (const note of listChanged) {
      expect(note.params).toEqual({ _meta: { 'io.modelcontextprotocol/subscriptionId': 41 } });
    }
  });
});

describe('resource updates over connectInMemory with a principal (2026-07-28 and legacy)', () => {
  it.each(['2026-07-28', 'legacy'] as const)('%s: only resources the principal may read', async (era) => {
    const server = new HttpMcpServer({ name: 'mem', version: '1.0.0' });
    registerItems(server);
    const { client, close } = await connectInMemory(server, { era, auth: { subject: 'ann', scopes: ['tools:read'] } });
    const uris: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', async (note) => void uris.push(note.params.uri));
    if (era === '2026-07-28') {
      const { honoredFilter } = await client.listen({ resourceSubscriptions: WATCHED });
      expect(honoredFilter.resourceSubscriptions).toEqual(['late://one', 'notes://public']);
    } else for (const uri of ['late://one', 'notes://public']) await client.subscribeResource({ uri });
    server.registerResource({ uri: 'late://one', name: 'late', requiredScopes: ['tools:write'], read: () => 'x' });
    updateAll(server);
    await until(() => uris.includes('notes://public'));
    expect(uris).toEqual(['notes://public']);
    await close();
    await server.stop();
  });
});

describe('2026-07-28 listen over stdio (unauthenticated: scoped and canAccess resources are refused)', () => {
  const listen = (id: number, notifications: Record<string, unknown>) => ({
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: { notifications, _meta: MODERN_META },
  });
  const isAck = (id: number) => (message: RpcMessage) =>
    message.method === 'notifications/subscriptions/acknowledged' &&
    (message.params as { _meta: Record<string, unknown> })._meta['io.modelcontextprotocol/subscriptionId'] === id;
  const updatedUri = (message: RpcMessage) =>
    message.method === 'notifications/resources/updated' ? (message.params as { uri: string }).uri : undefined;

  it('acknowledgements list only readable URIs (a listen opening the connection too); refused ones never arrive', async () => {
    const raw = new RawStdio();
    registerItems(raw.server);
    await raw.open('modern');
    raw.send(listen(7, { resourcesListChanged: true, resourceSubscriptions: WATCHED })); // the first message
    expect((await raw.next(isAck(7))).params).toMatchObject({
      notifications: { resourcesListChanged: true, resourceSubscriptions: ['late://one', 'notes://public'] },
    });
    raw.send(listen(8, { toolsListChanged: true, resourceSubscriptions: ['notes://secret', 'drafts://7'] }));
    const only = (await raw.next(isAck(8))).params as { notifications: unknown };
    expect(only.notifications).toEqual({ toolsListChanged: true });

    raw.server.registerResource({ uri: 'late://one', name: 'late', requiredScopes: ['tools:write'], read: () => 'x' });
    updateAll(raw.server);
    // A URI left out of an acknowledgement stays out when the rule changes (nothing serves notes://secret now).
    raw.server.removeResource('notes://secret');
    raw.server.sendResourceUpdated('notes://secret');
    raw.server.sendResourceUpdated('notes://public');
    await raw.next((message) => updatedUri(message) === 'notes://public');
    await raw.next((message) => updatedUri(message) === 'notes://public');
    expect(raw.received.map(updatedUri).filter(Boolean)).toEqual([]);
    await raw.close();
  });
});

async function until(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the updates');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
