// Liveness pings (pingIntervalMs / pingTimeoutMs): a handshake-era client that answers stays,
// one that stops answering is dropped (reason `unresponsive`), on a legacy HTTP session's GET
// stream and on stdio; 2026-07-28 clients are never pinged (that revision has no ping).
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import type { HttpSessionEvent } from '../../src/mcp/transports/http/session-map.js';
import { connectClient } from '../support/clients.js';
import { RawStdio } from '../support/raw-stdio.js';
import { openSession, openStream, post, sessionHeaders, startServer, until } from './http-helpers.js';

// A generous answer time: a busy CI machine must not make a live client look gone.
const PING = { pingIntervalMs: 150, pingTimeoutMs: 1_500 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let server: HttpMcpServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Reads a GET stream in the background; answers each ping while `answering` is true. */
function pingReader(response: Response, answer: (id: unknown) => Promise<void>) {
  const state = { pings: 0, answering: true, ended: false };
  void (async () => {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .find((line) => line.startsWith('data: '));
        buffer = buffer.slice(end + 2);
        const message = data && (JSON.parse(data.slice(6)) as { id?: unknown; method?: string });
        if (message && message.method === 'ping') {
          state.pings += 1;
          if (state.answering) await answer(message.id);
        }
      }
    }
    state.ended = true;
  })();
  return state;
}

describe('pings on legacy HTTP sessions', () => {
  it('keeps a session that answers and closes one that stops answering', async () => {
    const events: HttpSessionEvent[] = [];
    server = await startServer({ ...PING, onSessionEvent: (event) => events.push(event) });
    const url = server.address.url;
    const id = await openSession(url);
    const stream = pingReader(await openStream(url, id), async (pingId) => {
      await (await post(url, { jsonrpc: '2.0', id: pingId, result: {} }, sessionHeaders(id))).text();
    });
    await until(() => stream.pings >= 3, 'three answered pings');
    expect(server.sessionCount).toBe(1);
    stream.answering = false;
    await until(() => events.some((event) => event.type === 'closed'), 'the session to close', 5_000);
    expect(events.find((event) => event.type === 'closed')).toMatchObject({ sessionId: id, reason: 'unresponsive' });
    await until(() => stream.ended, 'the GET stream to end');
    expect(server.sessionCount).toBe(0);
  });

  it('does not ping a session without an open GET stream (the idle timeout covers it)', async () => {
    server = await startServer(PING);
    await openSession(server.address.url);
    await sleep(700);
    expect(server.sessionCount).toBe(1);
  });

  it('the v1 SDK client answers by itself and keeps its session', async () => {
    server = await startServer(PING);
    const client = await connectClient('v1', new HttpV1(new URL(server.address.url)));
    try {
      await sleep(800);
      expect(server.sessionCount).toBe(1);
      expect((await client.callTool('echo', { text: 'still here' })).content[0]?.text).toBe('still here');
    } finally {
      await client.close();
    }
  });
});

describe('pings on stdio', () => {
  it('a handshake-era client that stops answering ends the connection and the server', async () => {
    const raw = new RawStdio(PING);
    const closed: string[] = [];
    raw.server.events.on('sessionClosed', (info) => closed.push(info.reason));
    const stopped = new Promise<void>((resolve) => raw.server.events.once('stopped', resolve));
    await raw.open('legacy');
    for (let answered = 0; answered < 2; answered++) {
      const ping = await raw.next((message) => message.method === 'ping');
      raw.send({ jsonrpc: '2.0', id: ping.id, result: {} });
    }
    await raw.next((message) => message.method === 'ping'); // not answered
    await stopped;
    expect(closed).toEqual(['unresponsive']);
  });

  it('never pings a 2026-07-28 client', async () => {
    const raw = new RawStdio(PING);
    await raw.open('modern');
    expect((await raw.request(1, 'tools/list', {}, true)).result).toBeDefined();
    await sleep(600);
    expect(raw.received.filter((message) => message.method === 'ping')).toEqual([]);
    expect(raw.server.isRunning).toBe(true);
    await raw.close();
  });
});
