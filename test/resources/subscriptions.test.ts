import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/documents/document-store.js';
import { CLIENT_KINDS, connectClient, type ClientKind, type TestClient } from '../support/clients.js';
import { InMemoryServer } from '../support/in-memory.js';

const QUIET_MS = 250;
const settle = () => new Promise((resolve) => setTimeout(resolve, QUIET_MS));

/** One server, many in-memory connections, each with a client of any kind (v1, v2 legacy, v2 2026-07-28). */
class SharedServer extends InMemoryServer {
  readonly #entries: Array<{ close(): Promise<void> }> = [];
  readonly clients: TestClient[] = [];

  async open(kind: ClientKind): Promise<TestClient> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    this.#entries.push(serveStdio((ctx) => this.createFreshMcpServer(ctx), { transport: serverSide }));
    const client = await connectClient(kind, clientSide);
    this.clients.push(client);
    return client;
  }

  protected override async onStop(): Promise<void> {
    await Promise.all(this.clients.map((client) => client.close()));
    await Promise.all(this.#entries.map((entry) => entry.close()));
    await super.onStop();
  }
}

describe.each(CLIENT_KINDS)('resource updates reach only subscribers (%s clients on one server)', (kind) => {
  let server: SharedServer;
  let dir: string | undefined;
  afterEach(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function setUp(options: { documents?: DocumentStore } = {}): Promise<SharedServer> {
    server = new SharedServer(undefined, options);
    let version = 1;
    server.registerResource({ uri: 'memo://status', name: 'status', read: () => `v${version++}` });
    server.registerResource({ uri: 'memo://other', name: 'other', read: () => 'other' });
    await server.start();
    return server;
  }

  it('sendResourceUpdated(uri) notifies the subscriber of that URI and nobody else', async () => {
    await setUp();
    const subscriber = await server.open(kind);
    const bystander = await server.open(kind);
    const otherUri = await server.open(kind);
    await subscriber.subscribe('memo://status');
    await otherUri.subscribe('memo://other');

    server.sendResourceUpdated('memo://status');
    await subscriber.resourceUpdated.waitFor(1);
    await settle();
    expect(subscriber.updatedUris).toEqual(['memo://status']);
    expect(bystander.updatedUris).toEqual([]);
    expect(otherUri.updatedUris).toEqual([]);

    server.sendResourceUpdated('memo://other');
    await otherUri.resourceUpdated.waitFor(1);
    await settle();
    expect(subscriber.updatedUris).toEqual(['memo://status']);
    expect(otherUri.updatedUris).toEqual(['memo://other']);
  });

  it('after unsubscribing, updates stop; subscribing twice still sends one notification per update', async () => {
    await setUp();
    const client = await server.open(kind);
    await client.subscribe('memo://status');
    if (kind !== 'v2-modern') await client.subscribe('memo://status'); // idempotent on the legacy era
    server.sendResourceUpdated('memo://status');
    await client.resourceUpdated.waitFor(1);
    await settle();
    expect(client.resourceUpdated.count).toBe(1);
    await client.unsubscribe('memo://status');
    await client.resources(); // a round trip: the unsubscription has been processed
    await settle();
    server.sendResourceUpdated('memo://status');
    await settle();
    expect(client.resourceUpdated.count).toBe(1);
  });

  it('an edited document is announced only to the clients subscribed to its URI', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'subscriptions-'));
    const file = path.join(dir, 'watched.txt');
    writeFileSync(file, 'first');
    await setUp({ documents: new DocumentStore({ watch: true }) });
    const { uri } = server.registerDocument(file);
    await server.documents.watchReady();
    const subscriber = await server.open(kind);
    const bystander = await server.open(kind);
    await subscriber.subscribe(uri);
    writeFileSync(file, 'second');
    await subscriber.resourceUpdated.waitFor(1, 10_000);
    await settle();
    expect(new Set(subscriber.updatedUris)).toEqual(new Set([uri]));
    expect(bystander.updatedUris).toEqual([]);
    expect((await subscriber.readResource(uri)).contents[0]?.text).toBe('second');
  });
});
