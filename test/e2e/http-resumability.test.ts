import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { defineTool } from '../../src/registry/tool.js';
import { openSession, openStream, post, readSse, sessionHeaders, startServer, type SseEvent } from './http-helpers.js';

/** A plain in-memory event store, as an app would write one (sequential ids, one list for all streams). */
class ListEventStore implements EventStore {
  /** Makes the id of the n-th event of a stream (default: the counter alone). */
  constructor(
    withLookup: boolean,
    readonly makeId: (streamId: string, n: number) => string = (_stream, n) => String(n),
  ) {
    if (withLookup) this.getStreamIdForEventId = async (id) => this.events.find((event) => event.id === id)?.streamId;
  }
  readonly events: Array<{ id: string; streamId: string; message: JSONRPCMessage }> = [];
  getStreamIdForEventId?: (eventId: string) => Promise<string | undefined>;
  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = this.makeId(streamId, this.events.length + 1);
    this.events.push({ id, streamId, message });
    return id;
  }
  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const at = this.events.findIndex((event) => event.id === lastEventId);
    if (at < 0) throw new Error(`unknown event ${lastEventId}`);
    const { streamId } = this.events[at]!;
    for (const event of this.events.slice(at + 1)) {
      if (event.streamId === streamId && Object.keys(event.message).length > 0) await send(event.id, event.message);
    }
    return streamId;
  }
}

const updatedUri = (event: SseEvent) => (event.message?.params as { uri?: string } | undefined)?.uri;

async function subscribe(url: string, id: string, uri: string): Promise<void> {
  const response = await post(
    url,
    { jsonrpc: '2.0', id: 7, method: 'resources/subscribe', params: { uri } },
    sessionHeaders(id),
  );
  expect(response.status).toBe(200);
  await response.text();
}

describe.each([
  ['with getStreamIdForEventId', true],
  ['without getStreamIdForEventId', false],
])('legacy resumability (eventStore %s)', (_name, withLookup) => {
  let server: HttpMcpServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it("replays only the session's own events, never another session's (#17 item 1)", async () => {
    const store = new ListEventStore(withLookup);
    server = await startServer({ eventStore: store });
    for (const uri of ['memo://one', 'memo://two']) {
      server.registerResource({ uri, name: uri, read: () => ({ text: uri }) });
    }
    const { url } = server.address;
    const one = await openSession(url);
    const two = await openSession(url);
    await subscribe(url, one, 'memo://one');
    await subscribe(url, two, 'memo://two');

    const first = await openStream(url, one);
    const stream2 = await openStream(url, two);
    server.sendResourceUpdated('memo://one');
    const [seen] = await readSse(first, (events) => events.length >= 1);
    expect(updatedUri(seen!)).toBe('memo://one');
    // Session 1's stream drops; both resources change meanwhile.
    server.sendResourceUpdated('memo://two');
    server.sendResourceUpdated('memo://one');
    expect(updatedUri((await readSse(stream2, (events) => events.length >= 1))[0]!)).toBe('memo://two');

    const resumed = await openStream(url, one, { 'Last-Event-ID': seen!.id! });
    expect(resumed.status).toBe(200);
    const replay = await readSse(resumed, (events) => events.length >= 1);
    expect(replay.map(updatedUri)).toEqual(['memo://one']);
    // The store saw every stream under its session.
    expect(new Set(store.events.map((event) => event.streamId.split('.')[0])).size).toBe(2);
  });

  it("refuses to resume another session's stream", async () => {
    server = await startServer({ eventStore: new ListEventStore(withLookup) });
    server.registerResource({ uri: 'memo://one', name: 'one', read: () => ({ text: 'one' }) });
    const { url } = server.address;
    const one = await openSession(url);
    const two = await openSession(url);
    await subscribe(url, one, 'memo://one');
    const stream = await openStream(url, one);
    server.sendResourceUpdated('memo://one');
    server.sendResourceUpdated('memo://one');
    const [first] = await readSse(stream, (events) => events.length >= 1);

    const stolen = await openStream(url, two, { 'Last-Event-ID': first!.id! });
    if (withLookup) {
      expect(stolen.status).toBe(400);
      await stolen.text();
    } else {
      expect(stolen.status).toBe(200);
      expect(await readSse(stolen, () => false)).toEqual([]); // closed at once, nothing replayed
    }
  });
});

/** A header value fetch (undici) accepts as it is: visible ASCII, interior spaces and tabs. */
const HEADER_SAFE = /^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/;

describe.each([
  // As the SDK's example store does: the event id embeds the stream id it was given.
  ['ids built from stream ids', (streamId: string, n: number) => `${streamId}_${n}`],
  // A store whose own ids are not header values: CR/LF, a control character, non-ASCII, edge spaces, "%".
  ['ids that are not header values', (_streamId: string, n: number) => ` evt\r\n${n}\u0001é%41 `],
])('resumable event ids are valid header values (#24 item 10): %s', (_name, makeId) => {
  it.each([true, false])(
    'a fetch client resumes with the Last-Event-ID it was sent and gets the missed event (lookup: %s)',
    async (withLookup) => {
      const store = new ListEventStore(withLookup, makeId);
      const server = await startServer({ eventStore: store });
      try {
        server.registerResource({ uri: 'memo://one', name: 'one', read: () => ({ text: 'one' }) });
        const { url } = server.address;
        const id = await openSession(url);
        await subscribe(url, id, 'memo://one');
        const first = await openStream(url, id);
        server.sendResourceUpdated('memo://one');
        const [seen] = await readSse(first, (events) => events.length >= 1);
        expect(seen!.id).toMatch(HEADER_SAFE);
        server.sendResourceUpdated('memo://one'); // missed while the stream is down
        // Real fetch: it throws "invalid last-event-id header" for a value with control characters.
        const resumed = await openStream(url, id, { 'Last-Event-ID': seen!.id! });
        expect(resumed.status).toBe(200);
        const replay = await readSse(resumed, (events) => events.length >= 1);
        expect(replay.map(updatedUri)).toEqual(['memo://one']);
        for (const event of replay) expect(event.id).toMatch(HEADER_SAFE);
      } finally {
        await server.stop();
      }
    },
  );
});

describe('a new GET stream replaces the old one (#17 item 2)', () => {
  let server: HttpMcpServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it.each([
    ['without an event store', false],
    ['with an event store', true],
  ])('%s: the second GET is served, the first is closed, notifications go to the new one', async (_name, store) => {
    server = await startServer(store ? { eventStore: new ListEventStore(true) } : {});
    const { url } = server.address;
    const id = await openSession(url);
    const dead = await openStream(url, id); // never read again: a stream that died behind a proxy
    expect(dead.status).toBe(200);
    const fresh = await openStream(url, id);
    expect(fresh.status).toBe(200);
    expect(await readSse(dead, () => false)).toEqual([]); // the server ended the old stream
    server.registerResource({ uri: 'memo://new', name: 'new', read: () => ({ text: 'x' }) });
    const [event] = await readSse(fresh, (events) => events.length >= 1);
    expect(event!.message?.method).toBe('notifications/resources/list_changed');
  });
});

describe('resuming a POST stream that still looks open (#17 item 2, same kind)', () => {
  it.each([true, false])(
    'the GET with Last-Event-ID takes the stream over and gets the answer (lookup: %s)',
    async (withLookup) => {
      const server = await startServer({ eventStore: new ListEventStore(withLookup) });
      try {
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        server.registerTool(defineTool({ name: 'held', execute: () => released.then(() => 'done') }));
        const { url } = server.address;
        const id = await openSession(url);
        const call = await post(
          url,
          { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'held', arguments: {} } },
          sessionHeaders(id),
        );
        // Read the priming event and then stop reading without closing: to the server the
        // POST's stream still looks alive, as behind a proxy that keeps our side open.
        const reader = call.body!.getReader();
        const first = await Promise.race([
          reader.read(),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no priming event')), 5_000)),
        ]);
        const primingId = /^id: (.+)$/m.exec(new TextDecoder().decode(first.value))?.[1];
        expect(primingId).toBeDefined();
        const resumed = await openStream(url, id, { 'Last-Event-ID': primingId! });
        expect(resumed.status).toBe(200);
        release();
        const events = await readSse(resumed, (seen) => seen.some((event) => event.message?.id === 9));
        expect(events.find((event) => event.message?.id === 9)?.message?.result).toMatchObject({
          content: [{ type: 'text', text: 'done' }],
        });
      } finally {
        await server.stop();
      }
    },
  );
});
