// Resource subscriptions to upstream resources: a gateway (HttpMcpServer) in front of the real
// @modelcontextprotocol/server-everything (stdio, handshake era: resources/subscribe) and one of our
// own servers (HTTP, 2026-07-28 era: a subscriptions/listen stream per URI). Clients of each era
// subscribe through the gateway; the upstream is subscribed once per URI, its updates reach the
// subscribers (each once), and it is unsubscribed when the last one leaves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HttpMcpServer, defineTool } from '../../dist/index.js';
import { connectInMemory } from '../../dist/testing/index.js';
import type { UpstreamHandle } from '../../dist/public/composition.js';
import { connectClient, type ClientKind, type TestClient } from '../support/clients.js';
import { quiet, recordingLogger, startGateway, until, type StartedGateway } from './gateway-clients.js';

const NOTE = 'note://own/a';
const ITEM = 'note://own/items/7';
const DYNAMIC = 'demo://resource/dynamic/text/1';

describe('gateway: subscriptions to upstream resources', () => {
  let started: StartedGateway;
  let gateway: StartedGateway['gateway'];
  let everything: UpstreamHandle;
  let ownUpstream: UpstreamHandle;
  const lines: string[] = [];
  const clients: TestClient[] = [];

  const sessions = new Map<TestClient, { terminateSession(): Promise<void> }>();
  const connect = async (kind: ClientKind) => {
    const url = new URL(gateway.address.url);
    const transport = kind === 'v1' ? new HttpV1(url) : new HttpV2(url);
    const client = await connectClient(kind, transport);
    clients.push(client);
    sessions.set(client, transport);
    return client;
  };
  /** Ends a client's legacy HTTP session (DELETE), as a client that leaves does. */
  const leave = async (client: TestClient) => {
    await sessions.get(client)!.terminateSession();
    await client.close();
  };
  /** Gateway log lines saying `what` (e.g. 'subscribed to an upstream resource') for `uri`. */
  const logged = (what: string, uri: string) =>
    lines.filter((line) => line.includes(`"${what}"`) && line.includes(JSON.stringify(uri))).length;
  /** server-everything's own log lines (relayed to the gateway's log) containing `text`. */
  const everythingSaid = (text: string) => lines.filter((line) => line.includes(text)).length;

  beforeAll(async () => {
    const setupOwn = (own: HttpMcpServer) => {
      own.registerResource({ uri: NOTE, name: 'note', read: () => 'a' });
      own.registerResourceTemplate({ uriTemplate: 'note://own/items/{id}', name: 'item', read: (uri) => uri });
      own.registerTool(
        defineTool({
          name: 'touch',
          inputSchema: z.object({ uri: z.string() }),
          execute: ({ uri }) => (own.sendResourceUpdated(uri), 'touched'),
        }),
      );
    };
    started = await startGateway(setupOwn, { lines, everything: { backoff: { initialMs: 50, maxMs: 200 } } });
    ({ gateway } = started);
    [everything, ownUpstream] = started.upstreams as [UpstreamHandle, UpstreamHandle];
  }, 30_000);

  afterAll(() => started?.stop(clients));

  it('subscribes a 2026-07-28 upstream once per URI for clients of every era, relays its updates once each, unsubscribes after the last', async () => {
    expect(ownUpstream.status.era).toBe('modern');
    const subscribers = await Promise.all((['v1', 'v2-legacy', 'v2-modern'] as const).map(connect));
    const bystander = await connect('v2-legacy');
    for (const client of subscribers) await client.subscribe(NOTE);
    await until(() => logged('subscribed to an upstream resource', NOTE) === 1, 'the upstream subscription');

    await bystander.callTool('own_touch', { uri: NOTE });
    await Promise.all(subscribers.map((client) => client.resourceUpdated.waitFor(1)));
    await quiet();
    for (const client of subscribers) expect(client.updatedUris).toEqual([NOTE]);
    expect(bystander.resourceUpdated.count).toBe(0);
    expect(logged('subscribed to an upstream resource', NOTE)).toBe(1);

    // Two leave (one by unsubscribing, one by closing its session): the upstream stays subscribed.
    await subscribers[0]!.unsubscribe(NOTE);
    await leave(subscribers[1]!);
    await quiet(200);
    expect(logged('unsubscribed from an upstream resource', NOTE)).toBe(0);
    // The last one's listen stream closes: unsubscribed upstream, and no update reaches anyone.
    await subscribers[2]!.unsubscribe(NOTE);
    await until(() => logged('unsubscribed from an upstream resource', NOTE) === 1, 'the upstream unsubscription');
    await bystander.callTool('own_touch', { uri: NOTE });
    await quiet();
    expect(subscribers[0]!.resourceUpdated.count).toBe(1);
    expect(subscribers[2]!.resourceUpdated.count).toBe(1);
  });

  it('subscribes a URI an upstream template serves, and nothing for a URI no upstream serves', async () => {
    const client = await connect('v2-legacy');
    await client.subscribe(ITEM);
    await client.subscribe('note://nobody/here');
    await until(() => logged('subscribed to an upstream resource', ITEM) === 1, 'the template URI subscription');
    await client.callTool('own_touch', { uri: ITEM });
    await client.resourceUpdated.waitFor(1);
    expect(client.updatedUris).toEqual([ITEM]);
    await quiet(200);
    expect(logged('subscribed to an upstream resource', 'note://nobody/here')).toBe(0);
    await leave(client);
    await until(() => logged('unsubscribed from an upstream resource', ITEM) === 1, 'unsubscribed when it left');
  });

  it('a stateless gateway (no session, no updates promised) subscribes nothing upstream', async () => {
    const statelessLines: string[] = [];
    const logger = recordingLogger(statelessLines);
    const stateless = new HttpMcpServer({ name: 'stateless', version: '1.0.0' }, { port: 0, stateless: true, logger });
    const upstream = stateless.addUpstream({ name: 'own', url: started.own.address.url });
    await stateless.start();
    try {
      await upstream.whenConnected();
      const client = await connectClient('v2-legacy', new HttpV2(new URL(stateless.address.url)));
      await client.subscribe(NOTE).catch(() => {}); // answered or refused: either way nothing may be held
      await client.close();
      await quiet(300);
      expect(statelessLines.filter((line) => line.includes('subscribed to an upstream resource'))).toEqual([]);
    } finally {
      await stateless.stop();
    }
  });

  it('holds a URI while a 2026-07-28 stdio-style connection listens for it (cancelled listen, closed connection)', async () => {
    const first = await connectInMemory(gateway, { era: '2026-07-28' });
    const second = await connectInMemory(gateway, { era: '2026-07-28' });
    const updated: string[] = [];
    first.client.setNotificationHandler('notifications/resources/updated', async (note) => {
      updated.push(note.params.uri);
    });
    const listen = await first.client.listen({ resourceSubscriptions: [NOTE] });
    await second.client.listen({ resourceSubscriptions: [NOTE] });
    const before = logged('subscribed to an upstream resource', NOTE);
    await until(() => logged('subscribed to an upstream resource', NOTE) === before + 1, 'subscribed');
    await first.client.callTool({ name: 'own_touch', arguments: { uri: NOTE } });
    await until(() => updated.length === 1, 'the relayed update');
    const unsubscribed = logged('unsubscribed from an upstream resource', NOTE);
    await listen.close();
    await second.close();
    await until(() => logged('unsubscribed from an upstream resource', NOTE) === unsubscribed + 1, 'released');
    await first.close();
  });

  it('subscribes a handshake-era upstream (server-everything) once, relays its updates, re-subscribes after a reconnection', async () => {
    expect(everything.status.era).toBe('legacy');
    const [first, second] = await Promise.all([connect('v1'), connect('v2-modern')]);
    await first!.subscribe(DYNAMIC);
    await second!.subscribe(DYNAMIC);
    const received = `Received Subscribe Resource request for URI: ${DYNAMIC}`;
    await until(() => everythingSaid(received) === 1, 'server-everything told of the subscription');

    // Its updates start (the first one at once) for the subscriptions of our one connection.
    const toggle = await first!.callTool('everything_toggle-subscriber-updates');
    expect(toggle.isError).toBeFalsy();
    await Promise.all([first!.resourceUpdated.waitFor(1), second!.resourceUpdated.waitFor(1)]);
    await first!.callTool('everything_toggle-subscriber-updates'); // off again
    expect(first!.updatedUris[0]).toBe(DYNAMIC);
    expect(second!.updatedUris[0]).toBe(DYNAMIC);
    expect(everythingSaid(received)).toBe(1);

    // The child dies: after the reconnection the URI is subscribed again on the new connection.
    const pid = everything.status.pid!;
    process.kill(pid, 'SIGKILL');
    await until(() => everything.status.state === 'connected' && everything.status.pid !== pid, 'the reconnection');
    await until(() => everythingSaid(received) === 2, 're-subscribed after the reconnection');

    await first!.unsubscribe(DYNAMIC);
    await quiet(200);
    expect(everythingSaid(`Received Unsubscribe Resource request: ${DYNAMIC}`)).toBe(0);
    await second!.unsubscribe(DYNAMIC);
    await until(() => everythingSaid(`Received Unsubscribe Resource request: ${DYNAMIC}`) === 1, 'the unsubscription');
  }, 30_000);
});
