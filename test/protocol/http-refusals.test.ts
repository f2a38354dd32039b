// #17 items 5 and 13 (HTTP): a malformed initialize is answered as one, and every refusal has a JSON-RPC body.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { INITIALIZE, post, startServer } from '../e2e/http-helpers.js';

let server: HttpMcpServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Writes raw bytes to the server and returns the whole response (the server closes the connection). */
function rawExchange(port: number, request: string, timeoutMs = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let response = '';
    const timer = setTimeout(() => (socket.destroy(), reject(new Error(`no answer; got ${response}`))), timeoutMs);
    socket.on('data', (chunk) => (response += chunk.toString()));
    socket.on('close', () => (clearTimeout(timer), resolve(response)));
    socket.on('error', () => {}); // the server may reset after answering
    socket.write(request);
  });
}

describe('HTTP refusals', () => {
  it('answers an initialize without capabilities -32602 naming the field, with its id', async () => {
    server = await startServer();
    const { capabilities: _omitted, ...params } = INITIALIZE.params;
    const response = await post(server.address!.url, { ...INITIALIZE, id: 41, params });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { id: unknown; error: { code: number; message: string } };
    expect(body.id).toBe(41);
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toMatch(/initialize: capabilities/);
    expect(server.sessionCount).toBe(0);
  });

  it('answers a 20 KiB Mcp-Session-Id 431 with a JSON-RPC error body', async () => {
    server = await startServer();
    const response = await post(server.address!.url, INITIALIZE, { 'Mcp-Session-Id': 'x'.repeat(20 * 1024) });
    expect(response.status).toBe(431);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await response.json()) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    expect(body.error.message).toMatch(/Header Fields Too Large/);
    // The server keeps serving.
    expect((await post(server.address!.url, INITIALIZE)).status).toBe(200);
  });

  it('answers a request line Node cannot parse 400 with a JSON-RPC error body', async () => {
    server = await startServer();
    const answer = await rawExchange(server.address!.port, 'NOT A REQUEST\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { code: number } };
    expect(body.error.code).toBe(-32000);
  });

  it.each([
    ['no session id', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, {}, 400],
    ['unknown session', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'Mcp-Session-Id': 'nope' }, 404],
    ['not JSON', '{oops', {}, 400],
    ['wrong media type', '{}', { 'Content-Type': 'text/plain' }, 415],
  ] as const)('%s: %s status with a JSON-RPC error body', async (_label, body, headers, status) => {
    server = await startServer();
    const response = await post(server.address!.url, body, headers);
    expect(response.status).toBe(status);
    const answer = (await response.json()) as { jsonrpc: string; error: { code: number; message: string } };
    expect(answer.jsonrpc).toBe('2.0');
    expect(answer.error.message.length).toBeGreaterThan(0);
  });
});
