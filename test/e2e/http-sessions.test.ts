import { afterEach, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import type { HttpSessionEvent } from '../../src/mcp/transports/http/session-map.js';
import {
  INITIALIZE,
  listTools,
  messages,
  openSession,
  post,
  sessionHeaders,
  startServer,
  until,
} from './http-helpers.js';

describe('HttpMcpServer legacy sessions', () => {
  let server: HttpMcpServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('initialize opens a session; later requests need its id (400 without, 404 unknown)', async () => {
    server = await startServer();
    const { url } = server.address;
    const id = await openSession(url);
    expect(server.sessionCount).toBe(1);
    expect((await listTools(url, id)).names?.sort()).toEqual(['echo', 'whoami']);

    const missing = await post(url, { jsonrpc: '2.0', id: 3, method: 'tools/list' });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(/Mcp-Session-Id/);
    const missingGet = await fetch(url, { headers: { Accept: 'text/event-stream' } });
    expect(missingGet.status).toBe(400);
    await missingGet.body?.cancel();

    const unknown = await listTools(url, '00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.error?.code).toBe(-32001);
  });

  it('DELETE ends the session: 200, then 404, and a `deleted` event', async () => {
    const events: HttpSessionEvent[] = [];
    server = await startServer({ onSessionEvent: (event) => events.push(event) });
    const { url } = server.address;
    const id = await openSession(url);
    const deleted = await fetch(url, { method: 'DELETE', headers: sessionHeaders(id) });
    expect(deleted.status).toBe(200);
    expect((await listTools(url, id)).status).toBe(404);
    expect(server.sessionCount).toBe(0);
    expect(events.map((event) => (event.type === 'closed' ? `closed:${event.reason}` : event.type))).toEqual([
      'created',
      'closed:deleted',
    ]);
  });

  it('reaps abandoned sessions after the idle timeout, but never one with an open stream', async () => {
    const events: HttpSessionEvent[] = [];
    // Long enough that four sessions open before the first is reaped, even on a loaded machine.
    server = await startServer({ sessionIdleTimeoutMs: 2_000, onSessionEvent: (event) => events.push(event) });
    const { url } = server.address;
    const abandoned = await Promise.all([openSession(url), openSession(url), openSession(url)]);
    const listening = await openSession(url);
    const stream = await fetch(url, { headers: { Accept: 'text/event-stream', ...sessionHeaders(listening) } });
    expect(stream.status).toBe(200);
    expect(server.sessionCount).toBe(4);

    await until(() => server!.sessionCount === 1, 'the idle sessions to be reaped', 15_000);
    expect(server.listSessions().map((session) => session.id)).toEqual([listening]);
    for (const id of abandoned) expect((await listTools(url, id)).status).toBe(404);
    const reaped = events.filter((event) => event.type === 'closed');
    expect(reaped.map((event) => event.type === 'closed' && event.reason)).toEqual(['idle', 'idle', 'idle']);

    // Once its stream is gone, the listening session idles out too.
    await stream.body?.cancel();
    await until(() => server!.sessionCount === 0, 'the last session to be reaped', 15_000);
  });

  it('refuses a new session with 503 and Retry-After at the cap (policy reject)', async () => {
    server = await startServer({ maxSessions: 2 });
    const { url } = server.address;
    const first = await openSession(url);
    await openSession(url);
    const refused = await post(url, INITIALIZE);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/session limit \(2\)/);
    expect((await listTools(url, first)).status).toBe(200); // existing sessions unaffected
    await fetch(url, { method: 'DELETE', headers: sessionHeaders(first) });
    await openSession(url); // room again
    expect(server.sessionCount).toBe(2);
  });

  it('evicts the least recently used idle session at the cap (policy evict-lru)', async () => {
    const events: HttpSessionEvent[] = [];
    server = await startServer({
      maxSessions: 2,
      sessionLimitPolicy: 'evict-lru',
      onSessionEvent: (event) => events.push(event),
    });
    const { url } = server.address;
    const older = await openSession(url);
    const newer = await openSession(url);
    await listTools(url, older); // `older` is now the most recently used
    const third = await openSession(url);
    expect(
      server
        .listSessions()
        .map((session) => session.id)
        .sort(),
    ).toEqual([older, third].sort());
    expect((await listTools(url, newer)).status).toBe(404);
    expect(events).toContainEqual(expect.objectContaining({ type: 'closed', sessionId: newer, reason: 'evicted' }));
  });

  it('closeSession() and stop() close sessions with their reasons; server.events sees them too', async () => {
    const events: HttpSessionEvent[] = [];
    server = await startServer({ onSessionEvent: (event) => events.push(event) });
    const emitted: string[] = [];
    server.events.on('sessionClosed', (info) => emitted.push(`${info.transport}:${info.reason}`));
    const { url } = server.address;
    const kicked = await openSession(url);
    await openSession(url);
    expect(server.closeSession(kicked)).toBe(true);
    expect(server.closeSession(kicked)).toBe(false);
    expect((await listTools(url, kicked)).status).toBe(404);
    await server.stop();
    const reasons = events.flatMap((event) => (event.type === 'closed' ? [event.reason] : []));
    expect(reasons).toEqual(['closed', 'shutdown']);
    expect(emitted).toEqual(['http:closed', 'http:shutdown']);
  });

  it('a change made before the client opens its GET stream reaches it once the stream opens', async () => {
    server = await startServer();
    const { url } = server.address;
    const id = await openSession(url);
    server.disableTool('echo');
    server.enableTool('echo'); // two changes, one pending notification: the client re-lists once
    const stream = await fetch(url, { headers: { Accept: 'text/event-stream', ...sessionHeaders(id) } });
    const reader = stream.body!.getReader();
    let text = '';
    while (!text.includes('list_changed')) text += new TextDecoder().decode((await reader.read()).value);
    server.disableTool('whoami'); // with the stream open, changes go out as they happen
    while (text.split('list_changed').length < 3) text += new TextDecoder().decode((await reader.read()).value);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(text.split('notifications/tools/list_changed').length - 1).toBe(2);
    await reader.cancel();
  });

  it('an initialize that fails on the server side answers 500 and gives its slot back', async () => {
    let calls = 0;
    server = await startServer({
      maxSessions: 1,
      sessionTools: () => {
        calls += 1;
        if (calls === 1) throw new Error('per-session setup failed');
        return [];
      },
    });
    const { url } = server.address;
    const failed = await post(url, INITIALIZE);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ error: { code: -32603 } });
    expect(server.sessionCount).toBe(0);
    await openSession(url); // the slot was released: the cap of 1 is not used up
    expect(server.sessionCount).toBe(1);
  });

  it('a tool sees the session id of the legacy session that called it', async () => {
    server = await startServer();
    const { url } = server.address;
    const id = await openSession(url);
    const response = await post(
      url,
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
      sessionHeaders(id),
    );
    const [message] = await messages(response);
    const text = (message?.result as { content: Array<{ text: string }> }).content[0]?.text ?? '';
    expect(JSON.parse(text)).toEqual({ clientId: null, sessionId: id });
  });
});
