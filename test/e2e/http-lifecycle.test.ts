import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerStateError } from '../../src/errors.js';
import { HttpMcpServer } from '../../src/mcp/http-server.js';
import { defineTool } from '../../src/registry/tool.js';
import { connectClient } from '../support/clients.js';
import { silentLogger } from '../support/in-memory.js';
import { INITIALIZE, openSession, post, sessionHeaders, startServer } from './http-helpers.js';

const DIST = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const CLIENT = import.meta.resolve('@modelcontextprotocol/client');

describe('HttpMcpServer lifecycle and operations', () => {
  let server: HttpMcpServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('start() twice throws ServerStateError; address is known only after start()', async () => {
    const fresh = new HttpMcpServer({ name: 't', version: '1' }, { port: 0 });
    expect(() => fresh.address).toThrow(ServerStateError);
    server = fresh;
    await fresh.start();
    expect(fresh.address.port).toBeGreaterThan(0);
    await expect(fresh.start()).rejects.toThrow(ServerStateError);
  });

  it('a port in use rejects start() with the Node error', async () => {
    server = await startServer();
    const second = new HttpMcpServer({ name: 't', version: '1' }, { port: server.address.port });
    await expect(second.start()).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(second.isRunning).toBe(false);
    await second.stop();
  });

  it('after a start() that could not bind, the port can be freed and start() run again', async () => {
    const blocker = await startServer();
    const port = blocker.address.port;
    const retried = new HttpMcpServer({ name: 't', version: '1' }, { port, logger: silentLogger() });
    retried.registerTool(defineTool({ name: 'ping_me', description: 'Answers.', execute: () => 'pong' }));
    try {
      await expect(retried.start()).rejects.toMatchObject({ code: 'EADDRINUSE' });
      await blocker.stop();
      await retried.start();
      expect(retried.isRunning).toBe(true);
      const client = await connectClient('v1', new HttpV1(new URL(retried.address.url)));
      expect((await client.callTool('ping_me', {})).content[0]?.text).toBe('pong');
      await client.close();
    } finally {
      await retried.stop();
      await blocker.stop();
    }
  });

  it('serves /health and /ready (mode, live sessions); both can be moved or disabled', async () => {
    server = await startServer();
    const base = server.address.url.replace(/\/mcp$/, '');
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ status: 'ok' });
    await openSession(server.address.url);
    const ready = await fetch(`${base}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', mode: 'sessions', sessions: 1 });
    await server.stop();

    server = await startServer({ healthPath: false, readyPath: '/readyz' });
    const other = server.address.url.replace(/\/mcp$/, '');
    expect((await fetch(`${other}/health`)).status).toBe(404);
    expect((await fetch(`${other}/readyz`)).status).toBe(200);
  });

  it('routes added before start() run before the MCP endpoint; later ones are served beside it', async () => {
    const app = express();
    const seen: string[] = [];
    app.use((req, _res, next) => {
      seen.push(`${req.method} ${req.path}`);
      next();
    });
    server = await startServer({ app, path: '/rpc' });
    server.app.get('/version', (_req, res) => {
      res.json({ version: '1.0.0' });
    });
    await openSession(server.address.url);
    expect(seen[0]).toBe('POST /rpc');
    const base = server.address.url.replace(/\/rpc$/, '');
    expect(await (await fetch(`${base}/version`)).json()).toEqual({ version: '1.0.0' });
  });

  it('stateless mode serves legacy clients without sessions (GET answers 405)', async () => {
    server = await startServer({ stateless: true });
    const { url } = server.address;
    const client = await connectClient('v1', new HttpV1(new URL(url)));
    expect((await client.toolNames()).sort()).toEqual(['echo', 'whoami']);
    expect((await client.callTool('echo', { text: 'hi' })).content[0]?.text).toBe('hi');
    expect(server.sessionCount).toBe(0);
    const get = await fetch(url, { headers: { Accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    await get.body?.cancel();
    const base = url.replace(/\/mcp$/, '');
    expect(await (await fetch(`${base}/ready`)).json()).toMatchObject({ mode: 'stateless', sessions: 0 });
    await client.close();
  });

  it('answers other methods on the endpoint 405 with Allow and a JSON-RPC error; the session is untouched', async () => {
    server = await startServer();
    const { url } = server.address;
    const id = await openSession(url);
    const cases = ['PUT', 'PATCH', 'OPTIONS', 'HEAD'].flatMap((method) => [
      { method, headers: sessionHeaders(id) },
      { method, headers: {} }, // no session: before, 400 "Mcp-Session-Id header is required"
      { method, headers: { 'Mcp-Protocol-Version': '2026-07-28' } },
    ]);
    for (const { method, headers } of cases) {
      const response = await fetch(url, {
        method,
        headers: { 'Content-Type': 'application/json', ...headers },
        ...(method === 'PUT' || method === 'PATCH' ? { body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' } : {}),
      });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, POST, DELETE');
      if (method !== 'HEAD')
        expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
      else await response.body?.cancel();
    }
    expect(server.sessionCount).toBe(1);
  });

  it('sends SSE keepalive comments on open streams', async () => {
    server = await startServer({ keepAliveMs: 30 });
    const id = await openSession(server.address.url);
    const stream = await fetch(server.address.url, { headers: { Accept: 'text/event-stream', ...sessionHeaders(id) } });
    const reader = stream.body!.getReader();
    let text = '';
    while (!text.includes(': keepalive')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).toContain(': keepalive');
    await reader.cancel();
  });

  it('keeps a long legacy tool call alive with keepalive comments on its POST stream', async () => {
    server = await startServer({ keepAliveMs: 30 });
    server.registerTool(
      defineTool({
        name: 'slow',
        execute: async () => {
          await new Promise((resolve) => setTimeout(resolve, 200));
          return 'done';
        },
      }),
    );
    const id = await openSession(server.address.url);
    const response = await post(
      server.address.url,
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow', arguments: {} } },
      sessionHeaders(id),
    );
    const text = await response.text();
    expect(text.indexOf(': keepalive')).toBeGreaterThan(-1);
    expect(text.indexOf(': keepalive')).toBeLessThan(text.indexOf('done'));
  });

  it('refuses requests once stopped (the port is closed)', async () => {
    server = await startServer();
    const { url } = server.address;
    await server.stop();
    await expect(post(url, INITIALIZE)).rejects.toThrow();
  });

  it('stop() leaves no handle: a process with open streams of both eras exits by itself', async () => {
    const script = `
      import { HttpMcpServer } from ${JSON.stringify(DIST)};
      import { Client, StreamableHTTPClientTransport } from ${JSON.stringify(CLIENT)};
      const server = new HttpMcpServer({ name: 'child', version: '1' }, { port: 0, keepAliveMs: 1000 });
      await server.start();
      const url = server.address.url;
      const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
      const init = await fetch(url, { method: 'POST', headers, body: ${JSON.stringify(JSON.stringify(INITIALIZE))} });
      const id = init.headers.get('mcp-session-id');
      await init.text();
      const legacy = { ...headers, 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-11-25' };
      await (await fetch(url, { method: 'POST', headers: legacy, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' })).text();
      const stream = await fetch(url, { headers: { ...legacy, Accept: 'text/event-stream' } });
      stream.body.getReader().read().catch(() => {});
      const modern = new Client({ name: 'child-modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await modern.connect(new StreamableHTTPClientTransport(new URL(url)));
      await modern.listen({ toolsListChanged: true });
      await server.stop();
      await modern.close();
      process.stderr.write('stopped sessions=' + server.sessionCount + '\\n');
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exit = await new Promise<number | null | 'hung'>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('hung');
      }, 10_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    expect(stderr).toContain('stopped sessions=0');
    expect(exit).toBe(0);
  });
});
