// A request id (or progress token) holding a lone UTF-16 surrogate (`"a\ud800"` in the JSON text) cannot be
// echoed in well-formed Unicode, and every message the server sends is made well-formed: the answer used
// to carry `"a\ufffd"`. Over HTTP the SDK transport then found no stream for that id, so the POST never
// got an answer (an open SSE stream with keepalives, native session POST and SDK path alike); on stdio
// the client got an id it never sent. Such a request is refused at the door instead: -32600, id null.
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { nativeSessionPostProbe } from '../../src/mcp/sdk-internals/native-session-post.js';
import { RawStdio } from '../support/raw-stdio.js';
import { messages, openSession, POST_HEADERS, sessionHeaders, startServer } from './http-helpers.js';

/** JSON text with the escape kept: `JSON.stringify` of a lone surrogate writes exactly this. */
const call = (id: string, meta = '') =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}${meta}}}`;
const ILL_FORMED_ID = '"a\\ud800"';
const ILL_FORMED_TOKEN = ',"_meta":{"progressToken":"t\\udc00"}';

describe('ids and progress tokens that are not well-formed Unicode', () => {
  let server: HttpMcpServer | undefined;
  let raw: RawStdio | undefined;
  afterEach(async () => {
    nativeSessionPostProbe.enabled = true;
    await server?.stop();
    await raw?.close();
    server = undefined;
    raw = undefined;
  });

  for (const native of [true, false]) {
    it(`are refused on a legacy HTTP session (native session POST ${native ? 'on' : 'off'})`, async () => {
      nativeSessionPostProbe.enabled = native;
      server = await startServer();
      const { url } = server.address;
      const session = await openSession(url);
      for (const body of [call(ILL_FORMED_ID), call('7', ILL_FORMED_TOKEN)]) {
        const response = await fetch(url, {
          method: 'POST',
          headers: { ...POST_HEADERS, ...sessionHeaders(session) },
          body,
          signal: AbortSignal.timeout(3_000),
        });
        expect(response.status).toBe(400);
        const [answer] = await messages(response);
        expect(answer).toMatchObject({ id: body.includes('ud800') ? null : 7, error: { code: -32600 } });
      }
      // The session still serves well-formed ids.
      const ok = await fetch(url, {
        method: 'POST',
        headers: { ...POST_HEADERS, ...sessionHeaders(session) },
        body: call('"b\\u00e9"'),
        signal: AbortSignal.timeout(3_000),
      });
      expect(await messages(ok)).toMatchObject([{ id: 'bé', result: { content: [{ text: 'x' }] } }]);
    });
  }

  it('are refused on stdio', async () => {
    raw = new RawStdio();
    const { defineTool } = await import('../../src/registry/tool.js');
    raw.server.registerTool(defineTool({ name: 'echo', execute: () => 'x' }));
    await raw.open('legacy');
    raw.send(call(ILL_FORMED_ID));
    expect(await raw.next((message) => 'error' in message)).toMatchObject({ id: null, error: { code: -32600 } });
    raw.send(call('8', ILL_FORMED_TOKEN));
    expect(await raw.next((message) => 'error' in message)).toMatchObject({ id: 8, error: { code: -32600 } });
    expect(raw.received.filter((message) => 'result' in message)).toEqual([]);
  });
});
