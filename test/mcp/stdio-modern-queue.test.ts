// The way past serveStdio's queue on a 2026-07-28 connection (`stdio-channel.ts`,
// `deliverPlainCallsDirectly`) against the SDK's queue, on the SDK's own `serveStdio` with a wire
// this test holds: the cases a stdio pipe cannot stage (a close while the SDK waits for its
// listen teardown to be written; a `server/discover` probe instance that is not pinned yet). Each
// session runs with the dispatch off (the SDK's queue and `_onrequest`) and on; what the wire was
// sent must be the same, message for message.
import { SUBSCRIPTION_ID_META_KEY, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  modernQueueBypassMismatch,
  recognizeServeStdio,
  stdioQueueBypassProbe,
} from '../../src/mcp/sdk-internals/stdio-channel.js';
import { modernStdioToolsCallProbe, setStdioToolsCallDispatch } from '../../src/mcp/sdk-internals/stdio-tools-call.js';
import { viewFactoryOf } from '../../src/mcp/server/view-factory.js';
import { defineTool } from '../../src/registry/tool.js';
import { InMemoryServer } from '../support/in-memory.js';
import { MODERN_META } from '../support/raw-stdio.js';

type Message = Record<string, unknown>;

/** A wire whose listen teardown results stay unwritten until `release()` (a client not reading stdout). */
class HeldWire implements Transport {
  readonly sent: Message[] = [];
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  #release: (() => void) | undefined;

  async start(): Promise<void> {}

  send(message: JSONRPCMessage): Promise<void> {
    const sent = JSON.parse(JSON.stringify(message)) as Message;
    this.sent.push(sent);
    const meta = (sent.result as { _meta?: Message } | undefined)?._meta;
    if (meta && SUBSCRIPTION_ID_META_KEY in meta) return new Promise((resolve) => (this.#release = resolve));
    return Promise.resolve();
  }

  async close(): Promise<void> {
    this.onclose?.();
  }

  receive(message: object): void {
    this.onmessage?.(message as JSONRPCMessage);
  }

  release(): void {
    this.#release?.();
  }

  /** Waits until a message matching `done` was sent. */
  async until(done: (message: Message) => boolean, what: string): Promise<void> {
    const deadline = performance.now() + 5_000;
    while (!this.sent.some(done)) {
      if (performance.now() > deadline) throw new Error(`${what}: ${JSON.stringify(this.sent)}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  answered(id: unknown): Promise<void> {
    return this.until((message) => message.id === id && !('method' in message), `no answer to ${String(id)}`);
  }
}

const call = (id: number | string, text: string, meta: object = MODERN_META) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text }, _meta: meta },
});
const listen = {
  jsonrpc: '2.0',
  id: 'L1',
  method: 'subscriptions/listen',
  params: { notifications: { toolsListChanged: true }, _meta: MODERN_META },
};
const initialize = {
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
};
const discover = { jsonrpc: '2.0', id: 'd', method: 'server/discover', params: { _meta: MODERN_META } };
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** One session on the SDK's serveStdio; `script` drives it. What the wire was sent, and what took the shortcuts. */
async function session(dispatch: boolean, script: (wire: HeldWire, close: () => Promise<void>) => Promise<void>) {
  setStdioToolsCallDispatch(dispatch);
  const server = new InMemoryServer();
  server.registerTool(
    defineTool({
      name: 'echo',
      description: 'echo',
      inputSchema: z.object({ text: z.string() }),
      execute: ({ text }) => text,
    }),
  );
  await server.start();
  const wire = new HeldWire();
  const handle = serveStdio(viewFactoryOf(server), { transport: wire });
  const served = modernStdioToolsCallProbe.served;
  const direct = stdioQueueBypassProbe.delivered;
  try {
    await script(wire, () => handle.close());
  } finally {
    wire.release();
    await handle.close();
    await server.stop();
  }
  return {
    sent: wire.sent,
    served: modernStdioToolsCallProbe.served - served,
    direct: stdioQueueBypassProbe.delivered - direct,
  };
}

describe("2026-07-28 stdio: tools/call past serveStdio's queue", () => {
  afterEach(() => setStdioToolsCallDispatch(true));

  it('applies to the installed SDK', () => {
    recognizeServeStdio(serveStdio);
    expect(modernQueueBypassMismatch()).toBeUndefined();
  });

  it('drops a call that arrives while the SDK writes the listen teardown at close, as the SDK does', async () => {
    recognizeServeStdio(serveStdio);
    const script = async (wire: HeldWire, close: () => Promise<void>) => {
      wire.receive({ jsonrpc: '2.0', id: 0, method: 'tools/list', params: { _meta: MODERN_META } });
      await wire.answered(0);
      wire.receive(listen);
      await wire.until((message) => message.method === 'notifications/subscriptions/acknowledged', 'no ack');
      for (const id of [1, 2, 3]) {
        wire.receive(call(id, `call ${id}`));
        await wire.answered(id);
      }
      const closing = close();
      await wire.until((message) => message.id === 'L1', 'no listen teardown'); // held: not written yet
      wire.receive(call(4, 'during close'));
      for (let i = 0; i < 5; i += 1) await settle();
      wire.release();
      await closing;
    };
    const sdk = await session(false, script);
    const ours = await session(true, script);
    expect(ours.sent).toEqual(sdk.sent);
    expect(sdk.sent.some((message) => message.id === 4)).toBe(false);
    expect(sdk.sent.filter((message) => message.id === 'L1')).toHaveLength(1);
    expect([sdk.served, sdk.direct]).toEqual([0, 0]);
    expect(ours.served).toBe(3);
    expect(ours.direct).toBeGreaterThan(0); // calls 2 and 3 (call 1 came right after a listen: queued)
  });

  it('leaves a call to a server/discover probe instance to the SDK, which pins the connection with it', async () => {
    recognizeServeStdio(serveStdio);
    const script = async (wire: HeldWire) => {
      wire.receive(discover);
      await wire.answered('d');
      // Delivered to the probe instance by the queue (with the opening's classification).
      wire.receive({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 'x', _meta: MODERN_META },
      });
      await settle();
      wire.receive(call(1, 'pins'));
      await wire.answered(1);
      wire.receive(initialize); // refused on a pinned 2026-07-28 connection; a probe would be discarded for it
      await wire.answered('init');
      wire.receive(call(2, 'after'));
      await wire.answered(2);
    };
    const sdk = await session(false, script);
    const ours = await session(true, script);
    expect(ours.sent).toEqual(sdk.sent);
    expect(sdk.sent.find((message) => message.id === 'init')).toHaveProperty('error');
  });

  it('serves a handshake-era connection past the queue after a discarded server/discover probe', async () => {
    recognizeServeStdio(serveStdio);
    const script = async (wire: HeldWire) => {
      wire.receive(discover);
      await wire.answered('d');
      wire.receive(initialize);
      await wire.answered('init');
      wire.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
      for (const id of [1, 2, 3]) {
        wire.receive({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } });
        await wire.answered(id);
      }
    };
    const sdk = await session(false, script);
    const ours = await session(true, script);
    expect(ours.sent).toEqual(sdk.sent);
    expect(ours.direct).toBeGreaterThan(0);
  });
});
