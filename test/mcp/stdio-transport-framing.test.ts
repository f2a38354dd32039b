// The stdio transport's line framing: CRLF lines, blank lines and lines with leading blanks
// (the hot path checks the CR byte and a leading '{' instead of a regex and trim).
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StdioTransport } from '../../src/mcp/transports/stdio/stdio-transport.js';

async function frame(input: string): Promise<{ messages: unknown[]; written: string }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let written = '';
  stdout.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
  const transport = new StdioTransport(stdin, stdout, { maxMessageBytes: 1 << 20, stdinCloseGraceMs: 0 });
  const messages: unknown[] = [];
  transport.onmessage = (message) => messages.push(message);
  await transport.start();
  stdin.write(Buffer.from(input, 'utf8'));
  await new Promise((resolve) => setImmediate(resolve));
  await transport.close();
  return { messages, written };
}

const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } };
const note = { jsonrpc: '2.0', method: 'notifications/initialized' };

describe('StdioTransport framing', () => {
  it('drops the CR of CRLF lines, and only that one', async () => {
    const { messages, written } = await frame(`${JSON.stringify(call)}\r\n${JSON.stringify(note)}\n`);
    expect(messages).toEqual([call, note]);
    expect(written).toBe('');
    const text = await frame(`{"jsonrpc":"2.0","id":2,"method":"x","params":{"t":"a\\r"}}\r\n`);
    expect(text.messages).toEqual([{ jsonrpc: '2.0', id: 2, method: 'x', params: { t: 'a\r' } }]);
  });

  it('skips blank lines (spaces, tabs, a lone CR) and reads lines with leading blanks', async () => {
    const { messages, written } = await frame(`\n   \n\t\r\n\r\n  ${JSON.stringify(call)}\n`);
    expect(messages).toEqual([call]);
    expect(written).toBe('');
  });

  it('answers a line that is not JSON with a parse error, and a CR inside it stays', async () => {
    const { messages, written } = await frame('nope\r\r\n');
    expect(messages).toEqual([]);
    expect(JSON.parse(written)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('refuses a batch and a malformed message as before', async () => {
    const { messages, written } = await frame(`[${JSON.stringify(call)}]\n{"jsonrpc":"2.0","id":1.5,"method":"x"}\n`);
    expect(messages).toEqual([]);
    const lines = written
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { error: { code: number } });
    expect(lines.map((line) => line.error.code)).toEqual([-32600, -32600]);
  });
});
