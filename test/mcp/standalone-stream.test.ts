// #30 (W5): a legacy session's list_changed and other messages tied to no request are written on
// its GET stream without the SDK send's response checks; the bytes must be the SDK's own.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { useCachedSseWriter } from '../../src/mcp/sdk-internals/cached-sse-writer.js';
import { writeOnStandaloneStream } from '../../src/mcp/sdk-internals/transport-streams.js';

/** A transport whose standalone GET stream is open, and the bytes written on it. */
function withStandaloneStream(): { transport: WebStandardStreamableHTTPServerTransport; written: () => string } {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  useCachedSseWriter(transport);
  const chunks: Uint8Array[] = [];
  const controller = { enqueue: (chunk: Uint8Array) => void chunks.push(chunk) };
  const table = (transport as unknown as { _streamMapping: Map<string, unknown> })._streamMapping;
  table.set('_GET_stream', { controller, encoder: new TextEncoder(), cleanup: () => {} });
  return { transport, written: () => Buffer.concat(chunks).toString('utf8') };
}

describe('writing on the standalone GET stream (legacy sessions)', () => {
  it.each([
    ['a list_changed notification', { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }],
    [
      'a notification with params',
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'file:///ü "q".md' } },
    ],
    ['a server request (ping)', { jsonrpc: '2.0', id: 3, method: 'ping' }],
  ])('writes %s byte for byte as the SDK send does', async (_label, message) => {
    const sdk = withStandaloneStream();
    const ours = withStandaloneStream();
    await sdk.transport.send(message as never);
    expect(writeOnStandaloneStream(ours.transport, message)).toBe(true);
    expect(ours.written()).toBe(sdk.written());
    expect(ours.written()).toBe(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  });

  it('drops the message, as the SDK does, when no GET stream is open', async () => {
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await expect(transport.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })).resolves.toBe(
      undefined,
    );
    expect(writeOnStandaloneStream(transport, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' })).toBe(
      true,
    );
  });

  it('leaves the message to the SDK send when the transport lacks the parts it relies on', () => {
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    (transport as unknown as { _standaloneSseStreamId?: string })._standaloneSseStreamId = undefined;
    expect(writeOnStandaloneStream(transport, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' })).toBe(
      false,
    );
  });
});
