import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { connectClient, type ClientKind } from '../support/clients.js';
import { until } from './http-helpers.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/llm-chat-stdio-fixture.mjs', import.meta.url));

describe.each(['v1', 'v2-modern'] as ClientKind[])('llm-chat objects over stdio (%s client)', (kind) => {
  it('maps result chains and errors, sends the tutorial, serves the session set and content documents', async () => {
    const params = { command: process.execPath, args: [FIXTURE], stderr: 'pipe' as const };
    const transport = kind === 'v1' ? new StdioV1(params) : new StdioV2(params);
    let stderr = '';
    (transport.stderr as Readable).on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = await connectClient(kind, transport);
    try {
      expect(client.instructions()).toBe(
        'Stdio intro.\n\nFiles tutorial: call read_files with every path you need in one call.',
      );
      expect(await client.toolNames()).toEqual(['get_weather', 'read_files', 'counter']);
      const chain = await client.callTool('read_files', { paths: ['a', 'missing-b', 'c'] });
      expect(chain.content.map((block) => block.text)).toEqual([
        'contents of a',
        'No such file: missing-b',
        'contents of c',
      ]);
      expect(chain.isError).toBe(true);
      const thrown = await client.callTool('get_weather', { city: 'Atlantis' });
      expect(thrown).toMatchObject({ isError: true, content: [{ text: 'Error: City not found: Atlantis' }] });
      expect((await client.callTool('counter')).content[0]?.text).toBe('1');
      expect((await client.callTool('counter')).content[0]?.text).toBe('2');
      expect((await client.readResource('content://status')).contents[0]?.text).toMatch(/^pid \d+$/);
      await until(() => stderr.includes('RESOURCE_READ'), 'the observer line');
      expect(stderr).toContain('TOOL_CALL read_files isError=true');
      expect(stderr).toContain('TOOL_CALL get_weather isError=true');
      expect(stderr).toContain('RESOURCE_READ content://status ok=true');
    } finally {
      await client.close();
    }
  });
});
