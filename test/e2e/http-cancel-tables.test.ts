// A cancelled call of a legacy session gets no answer (MCP cancellation): its POST stream is ended by
// the endpoint (closeSSEStream), and nothing of it may stay in the session transport's tables, on the
// native session POST and the SDK path alike (a long session that cancels often grew them for good).
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { nativeSessionPostProbe } from '../../src/mcp/sdk-internals/native-session-post.js';
import { defineTool } from '../../src/registry/tool.js';
import { openSession, post, sessionHeaders, startServer, until } from './http-helpers.js';

type Tables = {
  sessionId?: string;
  _streamMapping: Map<unknown, unknown>;
  _requestToStreamMapping: Map<unknown, unknown>;
};

/** Every session transport started in this file (their tables are private to the SDK). */
const started: Tables[] = [];
const sdkStart = Object.getOwnPropertyDescriptor(WebStandardStreamableHTTPServerTransport.prototype, 'start')!;

describe('a cancelled legacy call leaves nothing in the transport tables', () => {
  let server: HttpMcpServer | undefined;
  beforeAll(() => {
    Object.defineProperty(WebStandardStreamableHTTPServerTransport.prototype, 'start', {
      ...sdkStart,
      value(this: WebStandardStreamableHTTPServerTransport) {
        started.push(this as unknown as Tables);
        return (sdkStart.value as () => Promise<void>).call(this);
      },
    });
  });
  afterAll(() => Object.defineProperty(WebStandardStreamableHTTPServerTransport.prototype, 'start', sdkStart));
  afterEach(async () => {
    nativeSessionPostProbe.enabled = true;
    await server?.stop();
    server = undefined;
  });

  for (const native of [true, false]) {
    it(`native session POST ${native ? 'on' : 'off'}`, async () => {
      nativeSessionPostProbe.enabled = native;
      let running = 0;
      server = await startServer();
      server.registerTool(
        defineTool({
          name: 'wait',
          execute: (_args, context) =>
            new Promise<string>((resolve) => {
              running += 1;
              context.signal.addEventListener('abort', () => resolve('aborted'));
            }),
        }),
      );
      const { url } = server.address;
      const session = await openSession(url);
      const transport = started.find((candidate) => candidate.sessionId === session)!;
      for (const id of [7, 'eight']) {
        const call = post(
          url,
          { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'wait' } },
          sessionHeaders(session),
        );
        await until(() => running === (id === 7 ? 1 : 2), 'the tool to start');
        const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } };
        expect((await post(url, cancel, sessionHeaders(session))).status).toBe(202);
        const response = await call;
        expect(await response.text()).toBe(''); // no answer: the stream just ends
      }
      await until(() => transport._streamMapping.size === 0, 'the streams to be gone');
      expect([...transport._requestToStreamMapping.keys()]).toEqual([]);
    });
  }
});
