import { afterEach, describe, expect, it } from 'vitest';
import type { ToolCallAbortedError } from '../../src/errors.js';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { defineTool } from '../../src/registry/tool.js';
import { messages, openSession, post, sessionHeaders, startServer, until } from './http-helpers.js';

/** A tool that runs until its signal aborts, recording why. */
function waitsForAbort(reasons: string[], started: () => void) {
  return defineTool({
    name: 'wait',
    execute: (_args, context) =>
      new Promise<string>((resolve) => {
        started();
        context.signal.addEventListener('abort', () => {
          reasons.push((context.signal.reason as ToolCallAbortedError).reason);
          resolve('finished after the abort'); // too late: the abort already answered the call
        });
      }),
  });
}

/** Starts a server with the `wait` tool and opens a session; `running()` counts started calls. */
async function serveWaiting(reasons: string[] = []) {
  let running = 0;
  const server = await startServer();
  server.registerTool(waitsForAbort(reasons, () => (running += 1)));
  const { url } = server.address;
  return { server, url, id: await openSession(url), running: () => running };
}

const CALL = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'wait', arguments: {} } };

/** #17 item 14: a legacy call whose connection dies is aborted; a DELETE during a call answers it with an error. */
describe('legacy HTTP: disconnects and DELETE during a call', () => {
  let server: HttpMcpServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it("aborts the call's signal (reason disconnected) when the client's connection closes", async () => {
    const reasons: string[] = [];
    const served = await serveWaiting(reasons);
    ({ server } = served);
    const { url, id, running } = served;
    const controller = new AbortController();
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        ...sessionHeaders(id),
      },
      body: JSON.stringify(CALL),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    await until(() => running() === 1, 'the tool to start');
    controller.abort();
    await until(() => reasons.length === 1, 'the tool signal to abort', 3_000);
    expect(reasons).toEqual(['disconnected']);
    // The session itself lives on.
    const again = await post(url, { jsonrpc: '2.0', id: 10, method: 'tools/list' }, sessionHeaders(id));
    expect(again.status).toBe(200);
    await again.text();
  });

  it("aborts a 2026-07-28 call's signal (reason disconnected) when its connection closes", async () => {
    const reasons: string[] = [];
    const served = await serveWaiting(reasons);
    ({ server } = served);
    const controller = new AbortController();
    const request = fetch(served.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'tools/call',
        'Mcp-Name': 'wait',
      },
      body: JSON.stringify({
        ...CALL,
        params: {
          ...CALL.params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
      signal: controller.signal,
    }).catch(() => undefined);
    await until(() => served.running() === 1, 'the tool to start');
    controller.abort();
    await request;
    await until(() => reasons.length === 1, 'the tool signal to abort', 3_000);
    expect(reasons).toEqual(['disconnected']);
  });

  it("answers a running call's POST with a JSON-RPC error when the session is deleted", async () => {
    const reasons: string[] = [];
    const served = await serveWaiting(reasons);
    ({ server } = served);
    const { url, id, running } = served;
    const call = post(url, CALL, sessionHeaders(id));
    await until(() => running() === 1, 'the tool to start');
    const deleted = await fetch(url, { method: 'DELETE', headers: sessionHeaders(id) });
    expect(deleted.status).toBe(200);
    const answers = await messages(await call);
    expect(answers).toEqual([
      {
        jsonrpc: '2.0',
        id: 9,
        error: { code: -32603, message: expect.stringMatching(/session was deleted/) },
      },
    ]);
    expect(reasons).toEqual(['disconnected']);
  });

  it('answers a running call with an error when the app closes its session', async () => {
    const served = await serveWaiting();
    ({ server } = served);
    const { url, id, running } = served;
    const call = post(url, CALL, sessionHeaders(id));
    await until(() => running() === 1, 'the tool to start');
    expect(server.closeSession(id)).toBe(true);
    const [answer] = await messages(await call);
    expect(answer).toMatchObject({
      id: 9,
      error: { code: -32603, message: expect.stringMatching(/session was closed/) },
    });
  });
});
