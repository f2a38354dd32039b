import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  checkSdkSseWriter,
  sdkSseWriterMatches,
  useCachedSseWriter,
} from '../../src/mcp/sdk-internals/cached-sse-writer.js';
import { checkQuietCallKeepalive } from '../../src/mcp/sdk-internals/quiet-call-keepalive.js';
import { markSerializedOnce, responseArray, serializedOnce } from '../../src/mcp/wire/serialized-once.js';
import { countedTools } from '../support/counted-tools.js';

type Writer = (
  controller: unknown,
  encoder: { encode(input: string): Uint8Array },
  message: unknown,
  eventId?: string,
) => boolean;

/** The bytes a transport's SSE writer produces for `message`. */
function frame(transport: WebStandardStreamableHTTPServerTransport, message: unknown, eventId?: string): string {
  const chunks: Uint8Array[] = [];
  const controller = { enqueue: (chunk: Uint8Array) => chunks.push(chunk) };
  const write = (transport as unknown as { writeSSEEvent: Writer }).writeSSEEvent;
  expect(write.call(transport, controller, new TextEncoder(), message, eventId)).toBe(true);
  return Buffer.concat(chunks).toString('utf8');
}

const tools = Object.freeze([
  Object.freeze({ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }),
  Object.freeze({ name: 'ünïcode ✓', description: 'quotes " and \\ and \n newlines', inputSchema: { type: 'object' } }),
]);
markSerializedOnce(tools);

describe('cached SSE writer (serialized-once tools/list)', () => {
  const messages: Array<[string, unknown, string?]> = [
    ['a marked tools/list result', { result: { tools }, jsonrpc: '2.0', id: 7 }],
    ['the same with an event id', { result: { tools }, jsonrpc: '2.0', id: 'req-1' }, 'stream_1_42'],
    [
      'a marked result with other keys around it',
      { result: { _meta: { a: 1 }, tools, nextCursor: 'c' }, jsonrpc: '2.0', id: 8 },
    ],
    ['an unmarked list', { result: { tools: [...tools] }, jsonrpc: '2.0', id: 9 }],
    ['a notification', { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }],
    ['an error', { jsonrpc: '2.0', id: 10, error: { code: -32602, message: 'nope' } }],
  ];

  it.each(messages)('writes %s byte for byte as the SDK does', (_label, message, eventId) => {
    const sdk = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const ours = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    useCachedSseWriter(ours);
    expect(frame(ours, message, eventId)).toBe(frame(sdk, message, eventId));
  });

  it('writes a marked list from its cached JSON: the list is not serialized again', () => {
    const { tools: counted, reads } = countedTools();
    const ours = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    useCachedSseWriter(ours);
    const first = frame(ours, { result: { tools: counted }, jsonrpc: '2.0', id: 1 });
    const second = frame(ours, { result: { tools: counted }, jsonrpc: '2.0', id: 2 });
    expect(reads()).toBe(1);
    expect(first).toBe('event: message\ndata: {"result":{"tools":[{"name":"counted"}]},"jsonrpc":"2.0","id":1}\n\n');
    expect(second).toContain('"id":2}');
  });

  it('serializes a marked array once; unfrozen or unmarked values are never cached', () => {
    expect(serializedOnce(tools)).toBe(serializedOnce(tools));
    const loose = [{ name: 'x' }];
    markSerializedOnce(loose);
    expect(serializedOnce(loose)).toBeUndefined();
    expect(serializedOnce(Object.freeze([1]))).toBeUndefined();
  });

  it('gives a marked array a plain response copy per response, sharing its cached JSON', () => {
    const copy = responseArray(tools);
    expect(copy).not.toBe(tools);
    expect(Object.isFrozen(copy)).toBe(false); // V8 has no fast Array.prototype.some on frozen arrays
    expect(copy).toEqual(tools);
    expect(serializedOnce(copy)).toBe(serializedOnce(tools));
    expect(responseArray(copy)).toBe(copy);
    // one response's copy changed by its receiver (in-memory clients get the object itself): the next is whole
    (copy as unknown[]).reverse();
    (copy as unknown[]).push({ name: 'late' });
    expect(responseArray(tools)).toEqual(tools);
    expect(new TextDecoder().decode(serializedOnce(copy))).toBe(JSON.stringify(tools));
    const unmarked = Object.freeze([{ name: 'u' }]);
    expect(responseArray(unmarked)).toBe(unmarked);
  });
});

/** #16 part 4: the start-up self-check keeps the SDK path when the SDK's private writer changed, and says so once. */
describe('SDK internals self-check', () => {
  it('passes for the installed SDK, and the cached writer is used', () => {
    const warnings: string[] = [];
    expect(checkSdkSseWriter((reason) => warnings.push(reason))).toBe(true);
    expect(checkQuietCallKeepalive((reason) => warnings.push(reason))).toBe(true);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const original = (transport as unknown as { writeSSEEvent: Writer }).writeSSEEvent;
    expect(useCachedSseWriter(transport)).toBe(true);
    expect((transport as unknown as { writeSSEEvent: Writer }).writeSSEEvent).not.toBe(original);
    expect(warnings).toEqual([]);
  });

  it.each([
    [
      'a writer that frames events differently',
      function (this: unknown, controller: { enqueue(chunk: Uint8Array): void }, encoder, message, eventId) {
        controller.enqueue(encoder.encode(`${eventId ? `id: ${eventId}\n` : ''}data: ${JSON.stringify(message)}\n\n`));
        return true;
      } as Writer,
    ],
    [
      'a writer with another signature',
      function (this: unknown, controller: { enqueue(chunk: Uint8Array): void }, message: unknown) {
        controller.enqueue(new TextEncoder().encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
        return true;
      } as unknown as Writer,
    ],
  ])('with %s: keeps the SDK writer on every transport and reports it once', (_label, changed) => {
    const warnings: string[] = [];
    const transports = [1, 2, 3].map(() => {
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      (transport as unknown as { writeSSEEvent: Writer }).writeSSEEvent = changed;
      return transport;
    });
    for (const transport of transports) {
      expect(useCachedSseWriter(transport, (reason) => warnings.push(reason))).toBe(false);
      expect((transport as unknown as { writeSSEEvent: Writer }).writeSSEEvent).toBe(changed);
    }
    expect(warnings).toHaveLength(1);
    expect(sdkSseWriterMatches(changed)).toBe(false);
  });
});

describe('cached tools/list over a real legacy HTTP session', () => {
  it('answers the same full list every time: the shared cached bytes are written, never detached or changed', async () => {
    const { HttpMcpServer } = await import('../../src/mcp/http-server.js');
    const { defineTool } = await import('../../src/registry/tool.js');
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const noop = () => {};
    const logger = { debug: noop, info: noop, warn: noop, error: noop, child: () => logger };
    const server = new HttpMcpServer({ name: 'cached', version: '1.0.0' }, { port: 0, logger: logger as never });
    for (let i = 0; i < 300; i += 1) {
      server.registerTool(defineTool({ name: `tool_${i}`, description: `Tool ${i} ✓`, execute: () => 'ok' }));
    }
    await server.start();
    const clients = [new Client({ name: 'a', version: '1' }), new Client({ name: 'b', version: '1' })];
    try {
      for (const client of clients)
        await client.connect(new StreamableHTTPClientTransport(new URL(server.address.url)));
      const lists = [];
      for (let round = 0; round < 3; round += 1) {
        for (const client of clients) lists.push((await client.listTools()).tools.map((tool) => tool.name));
      }
      expect(lists[0]).toHaveLength(300);
      expect(lists[0]![299]).toBe('tool_299');
      for (const list of lists) expect(list).toEqual(lists[0]);
    } finally {
      for (const client of clients) await client.close();
      await server.stop();
    }
  });
});
