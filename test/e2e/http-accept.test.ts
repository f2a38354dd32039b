import { afterEach, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { INITIALIZE, messages, openSession, post, readSse, sessionHeaders, startServer } from './http-helpers.js';

/** #17 item 7: `Accept` is read per RFC 9110 (media ranges, wildcards, case, q-values), on every route that checks it. */
describe('Accept header negotiation', () => {
  let server: HttpMcpServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  const acceptable = [
    '*/*',
    'application/*, text/*',
    'TEXT/EVENT-STREAM, Application/JSON',
    'application/json;q=0.5, text/event-stream;q=0.1',
    'text/html, */*;q=0.8',
  ];
  const refused = [
    'application/json',
    'text/event-stream;q=0, */*',
    '*/*;q=0',
    'application/json, text/*;q=0',
    'text/html',
    '',
  ];

  it.each([false, true])('initialize (stateless: %s) accepts the ranges that allow both types', async (stateless) => {
    server = await startServer({ stateless });
    for (const accept of acceptable) {
      const response = await post(server.address.url, INITIALIZE, { Accept: accept });
      expect({ accept, status: response.status }).toEqual({ accept, status: 200 });
      const [message] = await messages(response);
      expect(message?.result).toBeDefined();
    }
    for (const accept of refused) {
      const response = await post(server.address.url, INITIALIZE, { Accept: accept });
      expect({ accept, status: response.status }).toEqual({ accept, status: 406 });
      const body = (await response.json()) as { error: { code: number; message: string } };
      expect(body.error.message).toMatch(/Not Acceptable/);
    }
  });

  it('requests inside a session and GET streams are negotiated the same way', async () => {
    server = await startServer();
    const { url } = server.address;
    const id = await openSession(url);
    const list = await post(
      url,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      sessionHeaders(id, { Accept: '*/*' }),
    );
    expect(list.status).toBe(200);
    expect((await messages(list))[0]?.result).toBeDefined();

    for (const accept of ['text/*;q=0', 'application/json', '']) {
      const get = await fetch(url, { headers: { ...sessionHeaders(id), Accept: accept } });
      expect({ accept, status: get.status }).toEqual({ accept, status: 406 });
      await get.text();
    }
    const stream = await fetch(url, { headers: { ...sessionHeaders(id), Accept: 'Text/*' } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
    await readSse(stream, () => true);
  });
});
