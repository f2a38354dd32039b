// #17 item 10: no stdio line over maxMessageBytes (default 8 MiB, below the SDK clients' 10 MiB cap).
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_STDIO_MAX_MESSAGE_BYTES } from '../../src/mcp/transports/stdio/outgoing-limit.js';
import { MODERN_META, RawStdio } from '../support/raw-stdio.js';
import { openTarget, populate, type Target } from './targets.js';

let target: Target | undefined;
let raw: RawStdio | undefined;
afterEach(async () => {
  await target?.close();
  await raw?.close();
  target = raw = undefined;
});

describe.each(['stdio legacy', 'stdio modern'] as const)('stdio message limit on %s', (name) => {
  it('turns a tool result over the limit into a tool error saying its size and what to do', async () => {
    target = await openTarget(name, { maxMessageBytes: 64 * 1024 });
    const answer = await target.request(1, 'tools/call', { name: 'big', arguments: { bytes: 100_000 } });
    const result = answer.message?.result as { isError?: boolean; content: Array<{ text: string }> };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/tools\/call result is 0\.1 MiB \(100\d{3} bytes\)/);
    expect(result.content[0]!.text).toMatch(/limit of 0\.1 MiB \(65536 bytes\).*maxMessageBytes/s);
    // Just under the limit is sent as is, and the connection keeps serving.
    const fits = await target.request(2, 'tools/call', { name: 'big', arguments: { bytes: 60_000 } });
    expect((fits.message?.result as { content: Array<{ text: string }> }).content[0]!.text).toHaveLength(60_000);
  });

  it('answers any other response over the limit with -32603 saying its size', async () => {
    target = await openTarget(name, { maxMessageBytes: 300 });
    const answer = await target.request(1, 'tools/list', {});
    expect(answer.message?.error?.code).toBe(-32603);
    expect(answer.message?.error?.message).toMatch(/tools\/list result is .* bytes\), over this server's stdio/);
  });
});

describe('stdio message limit default', () => {
  it('is below the 10 MiB the official clients accept: a 9 MiB tool result becomes a tool error', async () => {
    expect(DEFAULT_STDIO_MAX_MESSAGE_BYTES).toBe(8 * 1024 * 1024);
    raw = new RawStdio();
    populate(raw.server);
    await raw.open('legacy');
    const answer = await raw.request(1, 'tools/call', { name: 'big', arguments: { bytes: 9 * 1024 * 1024 } });
    const result = answer.result as { isError?: boolean; content: Array<{ text: string }> };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/is 9\.0 MiB/);
  });

  it('rejects a non-positive limit', () => {
    expect(() => new RawStdio({ maxMessageBytes: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});

describe('stdio subscriptions with equivalent URIs', () => {
  it('delivers an update for a URI subscribed in another spelling (RFC 3986 section 6.2.2)', async () => {
    raw = new RawStdio();
    populate(raw.server);
    await raw.open('legacy');
    await raw.request(1, 'resources/subscribe', { uri: 'memo://note/%7euser' });
    raw.server.sendResourceUpdated('memo://note/~user');
    const update = await raw.next((message) => message.method === 'notifications/resources/updated');
    expect(update.params).toEqual({ uri: 'memo://note/~user' });
    await raw.request(2, 'resources/unsubscribe', { uri: 'MEMO://note/~user' });
    raw.server.sendResourceUpdated('memo://note/~user');
    await raw.request(3, 'ping');
    expect(raw.received.filter((message) => message.method === 'notifications/resources/updated')).toHaveLength(0);
  });
});

describe('stdio errors the SDK builds itself', () => {
  it('quote client input as well-formed Unicode (an unsupported protocol version with a lone surrogate)', async () => {
    raw = new RawStdio();
    await raw.open('modern');
    raw.send({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/list',
      params: { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': 'a\ud800b' } },
    });
    const answer = await raw.next((message) => message.id === 7);
    const text = JSON.stringify(answer);
    expect(answer.error).toBeDefined();
    expect(/\\ud[89a-f][0-9a-f]{2}/i.test(text)).toBe(false);
    expect(text).toContain('a\ufffdb');
  });
});
