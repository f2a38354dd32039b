// #30 (W3): a view's request handlers are installed on the first request for their method, through
// the SDK's own setRequestHandler; behaviour is the SDK's (answers, replacement, removal, refusals).
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ViewServer } from '../../src/mcp/sdk-internals/view-server.js';

const listed = (name: string) => () => ({ tools: [{ name, inputSchema: { type: 'object' as const } }] });

/** Methods whose wrapped SDK handler is in the table (installed), not merely registered. */
function installed(server: ViewServer): string[] {
  const table = (server as unknown as { _requestHandlers: Map<string, unknown> })._requestHandlers;
  return [...Map.prototype.keys.call(table)] as string[];
}

async function connected(server: ViewServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'c', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  await client.connect(clientSide);
  return client;
}

describe('deferred request handlers (a view installs a handler on its first request)', () => {
  it('installs a handler on the first request for its method and answers as registered', async () => {
    const server = new ViewServer({ name: 's', version: '1.0.0' }, { capabilities: { tools: {}, prompts: {} } });
    server.setRequestHandler('tools/list', listed('first'));
    server.setRequestHandler('prompts/list', () => ({ prompts: [] }));
    expect(installed(server)).not.toContain('tools/list');
    const client = await connected(server);
    expect(installed(server)).not.toContain('tools/list');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['first']);
    expect(installed(server)).toContain('tools/list');
    expect(installed(server)).not.toContain('prompts/list');
    await client.close();
  });

  it('a later registration replaces the earlier one, installed or not; a removed one answers -32601', async () => {
    const server = new ViewServer({ name: 's', version: '1.0.0' }, { capabilities: { tools: {}, prompts: {} } });
    server.setRequestHandler('tools/list', listed('first'));
    server.setRequestHandler('tools/list', listed('second'));
    server.setRequestHandler('prompts/list', () => ({ prompts: [] }));
    server.removeRequestHandler('prompts/list');
    const client = await connected(server);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['second']);
    server.setRequestHandler('tools/list', listed('third'));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['third']);
    await expect(client.listPrompts()).rejects.toMatchObject({ code: -32601 });
    await client.close();
  });

  it('refuses at registration what the SDK refuses (no capability for the method)', () => {
    const server = new ViewServer({ name: 's', version: '1.0.0' }, { capabilities: {} });
    expect(() => server.setRequestHandler('tools/list', listed('x'))).toThrow(/tools/);
  });

  it('a schema-form registration is marked for dispatch at once and validates its params on use', async () => {
    const server = new ViewServer({ name: 's', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/call', { params: z.object({ name: z.literal('ok') }) }, () => ({
      content: [{ type: 'text' as const, text: 'fine' }],
    }));
    expect(installed(server)).not.toContain('tools/call');
    const client = await connected(server);
    expect((await client.callTool({ name: 'ok' })).content).toEqual([{ type: 'text', text: 'fine' }]);
    await expect(client.callTool({ name: 'no' })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});
