// The two hot-path shortcuts into SDK private parts (sdk-internals/direct-dispatch.ts and
// stdio-channel.ts) against the installed SDK: they must install (a failure here after an SDK
// upgrade means the shortcut silently stopped applying) and keep the SDK's behaviour.
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, Server, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { describe, expect, it } from 'vitest';
import { dispatchPlainMessagesDirectly } from '../../src/mcp/sdk-internals/direct-dispatch.js';
import { spareStdioChannelChecks } from '../../src/mcp/sdk-internals/stdio-channel.js';

/** A wire transport for `serveStdio` that records what is sent and lets the test deliver messages. */
class FakeWire implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly sent: JSONRPCMessage[] = [];
  async start() {}
  async send(message: JSONRPCMessage) {
    this.sent.push(message);
  }
  async close() {
    this.onclose?.();
  }
}

/** Lets queued promise reactions (serveStdio's pump, the channel) run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('stdio channel shortcut', () => {
  it('installs on the channel serveStdio connects, and keeps its request bookkeeping', async () => {
    const wire = new FakeWire();
    const seen: JSONRPCMessage[] = [];
    let channel: (Transport & { whenRequestsAnswered(ms: number): Promise<boolean> }) | undefined;
    let installed: boolean | undefined;
    const handle = serveStdio(
      () =>
        ({
          async connect(transport: Transport) {
            installed = spareStdioChannelChecks(transport);
            channel = transport as typeof channel;
            transport.onmessage = (message) => seen.push(message);
          },
          async close() {},
        }) as unknown as Server,
      { transport: wire },
    );
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/list' } as const;
    wire.onmessage!(request);
    await settle();
    expect(installed).toBe(true);
    expect(seen).toEqual([request]);

    // Unanswered: the probe-discard wait times out; answered with a plain result: it settles.
    expect(await channel!.whenRequestsAnswered(20)).toBe(false);
    await channel!.send({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
    expect(await channel!.whenRequestsAnswered(20)).toBe(true);
    expect(wire.sent).toEqual([{ jsonrpc: '2.0', id: 1, result: { tools: [] } }]);

    // Cancellation and error responses still take the channel's own path.
    wire.onmessage!({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x' } });
    await settle();
    wire.onmessage!({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } });
    await settle();
    expect(await channel!.whenRequestsAnswered(20)).toBe(true);
    wire.onmessage!({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'x' } });
    await settle();
    await channel!.send({ jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'no' } });
    expect(await channel!.whenRequestsAnswered(20)).toBe(true);
    await handle.close();
  });

  it('leaves a transport that is not the SDK channel as it is', async () => {
    const [, serverSide] = InMemoryTransport.createLinkedPair();
    const send = serverSide.send;
    expect(spareStdioChannelChecks(serverSide)).toBe(false);
    expect(serverSide.send).toBe(send);
  });
});

describe('direct dispatch shortcut', () => {
  it('installs on a connected SDK server; requests, notifications and responses still work', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = new Server({ name: 's', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools: [{ name: 't', inputSchema: { type: 'object' } }] }));
    await server.connect(serverSide);
    expect(dispatchPlainMessagesDirectly(server, serverSide)).toBe(true);
    let initialized = false;
    server.oninitialized = () => (initialized = true);

    const client = new Client({ name: 'c', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(clientSide);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['t']);
    await settle();
    expect(initialized).toBe(true); // notifications/initialized went to _onnotification
    await expect(server.ping()).resolves.toEqual({}); // the client's response took the SDK's path
    await client.close();
  });

  it('changes nothing when the transport had no SDK callback', () => {
    const [, serverSide] = InMemoryTransport.createLinkedPair();
    expect(dispatchPlainMessagesDirectly(new Server({ name: 's', version: '1.0.0' }), serverSide)).toBe(false);
    expect(serverSide.onmessage).toBeUndefined();
  });
});
