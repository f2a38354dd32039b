// sdk-internals/tools-call-wrapper.ts against the installed SDK's own tools/call wrapper: the same
// answer (the same JSON, or the same error) for the same request and handler result, with the request
// parsed once instead of twice.
import { Server, type JSONRPCRequest, type ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { toolsCallWrapperApplies, wrapToolsCall } from '../../src/mcp/sdk-internals/tools-call-wrapper.js';

type Wrapped = (request: JSONRPCRequest, ctx: ServerContext) => Promise<unknown>;

function legacyServer(): Server {
  const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } });
  (server as unknown as { _negotiatedProtocolVersion: string })._negotiatedProtocolVersion = '2025-11-25';
  return server;
}

/** The SDK's path: its setRequestHandler closure (parse, then the handler) inside its _wrapHandler. */
function sdkWrapped(server: Server, handler: (request: unknown) => unknown): Wrapped {
  let wrapped: Wrapped | undefined;
  const parts = server as unknown as { _wrapHandler(method: string, h: unknown): Wrapped };
  const original = parts._wrapHandler.bind(server);
  parts._wrapHandler = (method, h) => (wrapped = original(method, h));
  server.setRequestHandler('tools/call', handler as never);
  return wrapped!;
}

const ctx = { mcpReq: { id: 1, method: 'tools/call', requestState: () => undefined } } as unknown as ServerContext;

async function outcome(run: () => Promise<unknown>) {
  try {
    return { value: JSON.stringify(await run()) };
  } catch (error) {
    const { code, message } = error as { code?: number; message: string };
    return { code, message };
  }
}

const request = (params: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }) as JSONRPCRequest;

describe('tools/call wrapper', () => {
  it('applies to the installed SDK', () => {
    expect(toolsCallWrapperApplies(legacyServer())).toBe(true);
  });

  const results: Array<[string, unknown]> = [
    ['plain text', { content: [{ type: 'text', text: 'hi' }] }],
    [
      'text with isError',
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
        isError: true,
      },
    ],
    ['isError first', { isError: false, content: [{ type: 'text', text: 'a' }] }],
    ['extra block key', { content: [{ text: 'a', type: 'text', extra: 1 }] }],
    ['structured', { content: [{ type: 'text', text: '{}' }], structuredContent: { a: 1 } }],
    ['image', { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] }],
    ['contentless', { structuredContent: { a: 1 } }],
    ['extra top-level key', { content: [], zz: 1 }],
    ['lone surrogate text', { content: [{ type: 'text', text: 'a\ud800' }] }],
    ['invalid block', { content: [{ type: 'text', text: 5 }] }],
    ['not an object', 'nope'],
  ];
  for (const [name, result] of results) {
    it(`answers like the SDK: ${name}`, async () => {
      const seen: unknown[] = [];
      const handler = (parsed: unknown) => (seen.push(parsed), result);
      const params = { name: 'echo', arguments: { text: 'x' }, zz: 'stripped' };
      const ours = await outcome(() => wrapToolsCall(legacyServer(), handler)(request(params), ctx));
      const sdk = await outcome(() => sdkWrapped(legacyServer(), handler)(request(params), ctx));
      expect(ours).toEqual(sdk);
      expect(JSON.stringify(seen[0])).toBe(JSON.stringify(seen[1])); // the handler got the same parsed request
    });
  }

  it('refuses an invalid request like the SDK, without calling the handler', async () => {
    let calls = 0;
    const handler = () => (calls++, { content: [] });
    const bad = request({ arguments: { text: 'x' } });
    const ours = await outcome(() => wrapToolsCall(legacyServer(), handler)(bad, ctx));
    const sdk = await outcome(() => sdkWrapped(legacyServer(), handler)(bad, ctx));
    expect(ours).toEqual(sdk);
    expect(ours.code).toBe(-32602);
    expect(calls).toBe(0);
  });

  it('passes a handler error through unchanged, and runs escape on the result first', async () => {
    const failure = new Error('boom');
    const failing = await outcome(() =>
      wrapToolsCall(legacyServer(), () => {
        throw failure;
      })(request({ name: 'echo' }), ctx),
    );
    expect(failing).toEqual({ code: undefined, message: 'boom' });
    const handle = { task: { taskId: 't' } };
    const escaped = await outcome(() =>
      wrapToolsCall(
        legacyServer(),
        () => handle,
        (result) => {
          if (result === handle) throw new Error('escaped');
        },
      )(request({ name: 'echo' }), ctx),
    );
    expect(escaped).toEqual({ code: undefined, message: 'escaped' });
  });

  it('returns a fresh copy of a plain result, as the schema does', async () => {
    const result = { content: [{ type: 'text', text: 'hi' }] };
    const answer = (await wrapToolsCall(legacyServer(), () => result)(request({ name: 'echo' }), ctx)) as typeof result;
    expect(answer).toEqual(result);
    expect(answer).not.toBe(result);
    expect(answer.content[0]).not.toBe(result.content[0]);
  });
});
