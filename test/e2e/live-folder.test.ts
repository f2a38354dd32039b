/**
 * Live folders end to end: a StdioMcpServer with a `DocumentStore` (watching by default) in a real child
 * process per client (test/fixtures/watch-fixture.mjs), a v1 SDK client (legacy handshake,
 * `resources/subscribe`) and a v2 client pinned to 2026-07-28 (`subscriptions/listen`), while the
 * test adds, removes and edits files in the served folder.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, writeFile } from '../fixtures/document-builders.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/watch-fixture.mjs', import.meta.url));
const WAIT_MS = 10_000;
/**
 * The servers' watch debounce. The default (100 ms) already merges the burst below, but a loaded CI
 * machine can stretch the gaps between chokidar's events past it; 300 ms keeps the test deterministic.
 */
const DEBOUNCE_MS = 300;
/** How long to keep listening after a notification to be sure no second one follows. */
const SETTLE_MS = 2 * DEBOUNCE_MS + 200;

type Resource = { uri: string; name: string };
type CallResult = { content: Array<{ type: string; text?: string }>; structuredContent?: unknown; isError?: boolean };

/** Notifications of one kind, counted; `waitFor(n)` resolves once n have arrived. */
class Seen {
  readonly items: string[] = [];
  #waiters: Array<() => void> = [];
  push(item: string): void {
    this.items.push(item);
    for (const wake of this.#waiters.splice(0)) wake();
  }
  async waitFor(count: number, what: string): Promise<void> {
    const deadline = Date.now() + WAIT_MS;
    while (this.items.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what} #${count} (got ${this.items.length})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }
}

/** One connected client, whatever its SDK, plus what it has been told. */
interface LiveClient {
  label: string;
  listChanged: Seen;
  updated: Seen;
  resources(): Promise<Resource[]>;
  read(uri: string): Promise<string | undefined>;
  callTool(name: string, args: Record<string, unknown>): Promise<CallResult>;
  close(): Promise<void>;
}

/** The requests the test makes, as both SDKs' clients spell them. */
interface SdkClient {
  listResources(params: { cursor?: string }): Promise<{ resources: Resource[]; nextCursor?: string }>;
  readResource(params: { uri: string }): Promise<{ contents: Array<{ text?: string } | { blob: string }> }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
}

/** `resources` (every page of resources/list), `read` (text of the first item) and `callTool` for either SDK. */
function requests(client: SdkClient): Pick<LiveClient, 'resources' | 'read' | 'callTool'> {
  return {
    resources: async () => {
      const all: Resource[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listResources(cursor === undefined ? {} : { cursor });
        all.push(...page.resources);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return all;
    },
    read: async (uri) => {
      const [item] = (await client.readResource({ uri })).contents;
      return item !== undefined && 'text' in item ? item.text : undefined;
    },
    callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as CallResult,
  };
}

/** The child's stderr, kept for failure messages (and drained so the pipe never fills). */
function drain(stream: Readable | null): () => string {
  let text = '';
  stream?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

async function connectV1(folder: string, subscribeTo: string): Promise<LiveClient> {
  const transport = new StdioV1({
    command: process.execPath,
    args: [FIXTURE, folder, String(DEBOUNCE_MS)],
    stderr: 'pipe',
  });
  const stderr = drain(transport.stderr as Readable | null);
  const client = new ClientV1({ name: 'live-v1', version: '1.0.0' });
  const listChanged = new Seen();
  const updated = new Seen();
  client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => listChanged.push('list'));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (note) => updated.push(note.params.uri));
  await client.connect(transport).catch((error: unknown) => {
    throw new Error(`v1 connect failed: ${String(error)}; stderr: ${stderr()}`);
  });
  await client.subscribeResource({ uri: subscribeTo });
  return {
    label: 'v1 (legacy, resources/subscribe)',
    listChanged,
    updated,
    ...requests(client),
    close: () => client.close(),
  };
}

async function connectV2Modern(folder: string, subscribeTo: string): Promise<LiveClient> {
  const transport = new StdioV2({
    command: process.execPath,
    args: [FIXTURE, folder, String(DEBOUNCE_MS)],
    stderr: 'pipe',
  });
  const stderr = drain(transport.stderr as Readable | null);
  const client = new ClientV2(
    { name: 'live-v2', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const listChanged = new Seen();
  const updated = new Seen();
  client.setNotificationHandler('notifications/resources/list_changed', async () => listChanged.push('list'));
  client.setNotificationHandler('notifications/resources/updated', async (note) => updated.push(note.params.uri));
  await client.connect(transport).catch((error: unknown) => {
    throw new Error(`v2 connect failed: ${String(error)}; stderr: ${stderr()}`);
  });
  const subscription = await client.listen({ resourcesListChanged: true, resourceSubscriptions: [subscribeTo] });
  return {
    label: 'v2 (2026-07-28, subscriptions/listen)',
    listChanged,
    updated,
    ...requests(client),
    close: async () => {
      await subscription.close();
      await client.close();
    },
  };
}

const names = async (client: LiveClient) => (await client.resources()).map((r) => r.name).sort();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const hitNames = (result: CallResult) =>
  (result.structuredContent as { hits: Array<{ name: string }> }).hits.map((hit) => hit.name);

describe('a watched folder served over stdio, with a v1 and a 2026-07-28 client connected', () => {
  let folder: string;
  let cleanup: () => Promise<void>;
  let watchedUri: string;
  let clients: LiveClient[] = [];

  beforeAll(async () => {
    ({ dir: folder, cleanup } = await makeTempDir('mcp-toolkit-live-'));
    await writeFile(folder, 'alpha.md', '# Alpha\n\nThe aardvark section.');
    const watched = await writeFile(folder, 'notes/watched.md', 'version one');
    watchedUri = pathToFileURL(watched).href;
    clients = await Promise.all([connectV1(folder, watchedUri), connectV2Modern(folder, watchedUri)]);
  });

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await cleanup?.();
  });

  it('starts with the folder listed and searchable', async () => {
    for (const client of clients) {
      expect(await names(client), client.label).toEqual(['alpha.md', 'notes/watched.md']);
      expect(hitNames(await client.callTool('search_documents', { query: 'aardvark' })), client.label).toEqual([
        'alpha.md',
      ]);
    }
  });

  it('adding files sends one list_changed per burst, and the list and the search index follow', async () => {
    await Promise.all([
      writeFile(folder, 'added.md', 'A zanzibar travel guide.'),
      writeFile(folder, 'notes/more.txt', 'more notes'),
      writeFile(folder, 'deep/er/third.md', 'third'),
    ]);
    for (const client of clients) await client.listChanged.waitFor(1, `${client.label} list_changed`);
    await sleep(SETTLE_MS);
    for (const client of clients) {
      expect(client.listChanged.items, client.label).toHaveLength(1);
      expect(await names(client), client.label).toEqual([
        'added.md',
        'alpha.md',
        'deep/er/third.md',
        'notes/more.txt',
        'notes/watched.md',
      ]);
      expect(hitNames(await client.callTool('search_documents', { query: 'zanzibar' })), client.label).toEqual([
        'added.md',
      ]);
    }
  });

  it('removing a file sends list_changed; the entry and its search hits are gone', async () => {
    await fs.rm(path.join(folder, 'alpha.md'));
    for (const client of clients) await client.listChanged.waitFor(2, `${client.label} list_changed`);
    for (const client of clients) {
      expect(await names(client), client.label).not.toContain('alpha.md');
      expect(hitNames(await client.callTool('search_documents', { query: 'aardvark' })), client.label).toEqual([]);
    }
  });

  it('an editor-style burst of writes to a subscribed file gives one resources/updated per client', async () => {
    const file = fileURLToPath(watchedUri);
    // Writes 20 ms apart, as an editor flushing a save in pieces: chokidar alone reports several changes.
    for (let i = 0; i < 5; i += 1) {
      await fs.writeFile(file, `draft ${i}`);
      await sleep(20);
    }
    await fs.appendFile(file, ' with the final quokka paragraph');
    for (const client of clients) await client.updated.waitFor(1, `${client.label} resources/updated`);
    await sleep(SETTLE_MS);
    for (const client of clients) {
      expect(client.updated.items, client.label).toEqual([watchedUri]);
      expect(client.listChanged.items, `${client.label}: an edit is not a list change`).toHaveLength(2);
      expect(await client.read(watchedUri), client.label).toBe('draft 4 with the final quokka paragraph');
      const search = await client.callTool('search_documents', { query: 'quokka' });
      expect(hitNames(search), client.label).toEqual(['notes/watched.md']);
    }
  });

  it('an edit to a file nobody subscribed to sends no resources/updated', async () => {
    await fs.writeFile(path.join(folder, 'added.md'), 'edited guide');
    await sleep(SETTLE_MS);
    for (const client of clients) expect(client.updated.items, client.label).toEqual([watchedUri]);
  });
});
