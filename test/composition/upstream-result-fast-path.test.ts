// The upstream client's shortcut for plain 2026-07-28 tools/call results (#27): a result it does not
// parse a second time must be one the SDK codec's schema accepts and returns unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StdioMcpServer } from '../../src/index.js';
import { connectInMemory, type InMemoryConnection } from '../../src/testing/index.js';
import { isPlainModernToolResult } from '../../src/mcp/sdk-internals/upstream-client.js';

type Outcome = { ok: true; value: unknown } | { ok: false };
type Codec = { era: string; validateResult(method: string, value: unknown): Outcome };

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const text = (value: string) => ({ type: 'text', text: value });

const plain: Record<string, unknown>[] = [
  { content: [] },
  { content: [text('x0')] },
  { content: [text('a'), text('b')], isError: true },
  { content: [text('x')], isError: false, _meta: { [SERVER_INFO]: { name: 'up', version: '1.0.0' } } },
  { content: [text('x')], _meta: { [SERVER_INFO]: { name: 'up', version: '1' }, 'example.com/trace': { id: 7 } } },
  { content: [text('x')], _meta: {} },
  { content: [text('x')], structuredContent: { n: 1, nested: { list: [1, 2] } } },
  { content: [text('x')], structuredContent: [1, 'two'] },
  { content: [text('x')], extra: { kept: true } },
];

const notPlain: unknown[] = [
  undefined,
  null,
  [],
  { content: [text('x')], isError: 'yes' },
  { content: 'x' },
  {},
  { content: [{ type: 'text', text: 'x', annotations: { priority: 1 } }] },
  { content: [{ type: 'text', text: 'x', stray: 1 }] },
  { content: [{ type: 'text', text: 7 }] },
  { content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] },
  { content: [text('x')], _meta: 'meta' },
  { content: [text('x')], _meta: { [SERVER_INFO]: { name: 'up', version: '1', title: 'Up' } } },
  { content: [text('x')], _meta: { [SERVER_INFO]: { name: 'up' } } },
  { content: [text('x')], _meta: { [SERVER_INFO]: 'up' } },
];

describe('isPlainModernToolResult (the upstream client does not parse these twice)', () => {
  let connection: InMemoryConnection;
  let codec: Codec;
  beforeAll(async () => {
    const server = new StdioMcpServer({ name: 'codec-source', version: '1' });
    connection = await connectInMemory(server, { era: '2026-07-28' });
    codec = (connection.client as unknown as { _wireCodec(): Codec })._wireCodec();
  });
  afterAll(() => connection.close());

  it('uses the 2026-07-28 codec', () => {
    expect(codec.era).toBe('2026-07-28');
  });

  it.each(plain.map((value) => [JSON.stringify(value), value]))(
    'plain %s: the codec accepts it and returns an equal value',
    (_label, value) => {
      expect(isPlainModernToolResult(value)).toBe(true);
      const outcome = codec.validateResult('tools/call', structuredClone(value));
      expect(outcome.ok).toBe(true);
      expect(outcome.ok && outcome.value).toStrictEqual(value);
    },
  );

  it.each(notPlain.map((value) => [JSON.stringify(value) ?? String(value), value]))(
    'not plain %s: left to the codec',
    (_label, value) => {
      expect(isPlainModernToolResult(value)).toBe(false);
    },
  );
});
