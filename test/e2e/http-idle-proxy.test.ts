import net from 'node:net';
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { defineTool } from '../../src/registry/tool.js';
import { connectClient, type ClientKind } from '../support/clients.js';
import { post, startServer } from './http-helpers.js';

/** A TCP proxy on 127.0.0.1 that cuts a connection after `idleMs` without a byte either way (as load balancers do). */
async function idleProxy(target: number, idleMs: number): Promise<{ port: number; cuts: () => number; close(): void }> {
  let cuts = 0;
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
      socket.setTimeout(idleMs, () => {
        cuts += 1;
        client.destroy();
        upstream.destroy();
      });
    }
    // A byte in either direction is activity for both sides.
    client.on('data', () => upstream.setTimeout(idleMs));
    upstream.on('data', () => client.setTimeout(idleMs));
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    port: (proxy.address() as net.AddressInfo).port,
    cuts: () => cuts,
    close: () => {
      for (const socket of sockets) socket.destroy();
      proxy.close();
    },
  };
}

const IDLE_MS = 1_000;
const SLEEP_MS = 2_500;

/** #17 item 3: a tool silent for longer than a proxy's idle timeout works on both eras. */
describe('long silent calls behind an idle-timeout proxy', () => {
  let server: HttpMcpServer;
  let proxy: Awaited<ReturnType<typeof idleProxy>>;
  beforeAll(async () => {
    server = await startServer({ keepAliveMs: 200 });
    server.registerTool(
      defineTool({
        name: 'sleep',
        execute: () => new Promise<string>((resolve) => setTimeout(() => resolve('woke up'), SLEEP_MS)),
      }),
    );
    proxy = await idleProxy(server.address.port, IDLE_MS);
  });
  afterAll(async () => {
    proxy.close();
    await server.stop();
  });

  it.each(['v1', 'v2-legacy', 'v2-modern'] as ClientKind[])('%s: the call completes', async (kind) => {
    const url = new URL(server.address.url);
    url.port = String(proxy.port);
    const transport = kind === 'v1' ? new HttpV1(url) : new HttpV2(url);
    const client = await connectClient(kind, transport);
    try {
      const result = await client.callTool('sleep');
      expect(result.content[0]?.text).toBe('woke up');
    } finally {
      await client.close();
    }
  });

  it('a quiet 2026-07-28 call becomes an event stream with keepalives; a quick one stays JSON', async () => {
    const modern = (name: string, accept = 'application/json, text/event-stream') =>
      post(
        server.address.url,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name,
            arguments: name === 'echo' ? { text: 'hi' } : {},
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        },
        { Accept: accept, 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': name },
      );
    const slow = await modern('sleep');
    expect(slow.headers.get('content-type')).toMatch(/text\/event-stream/);
    const text = await slow.text();
    expect(text).toContain(': keepalive');
    expect(text).toContain('woke up');

    const quick = await modern('echo');
    expect(quick.headers.get('content-type')).toMatch(/application\/json/);
    await quick.text();

    // A client that accepts only JSON keeps getting JSON, however long the call.
    const jsonOnly = await modern('sleep', 'application/json');
    expect(jsonOnly.headers.get('content-type')).toMatch(/application\/json/);
    expect(await jsonOnly.text()).toContain('woke up');
  });
});
