// connectInMemory(server, { auth }): a unit test connects as a principal with scopes, without HTTP
// or an authorization server; requiredScopes / canAccess of tools, prompts, resources and
// templates apply to it on both eras, and tools see the principal.
import { afterEach, describe, expect, it } from 'vitest';
import { StdioMcpServer, defineTool, definePrompt } from '../../src/index.js';
import { principalOf } from '../../src/auth/principal.js';
import { connectInMemory, type InMemoryConnection } from '../../src/testing/index.js';
import { silentLogger } from '../support/in-memory.js';

let server: StdioMcpServer;
let connection: InMemoryConnection | undefined;
afterEach(async () => {
  await connection?.close();
  connection = undefined;
  await server?.stop();
});

function appServer(seenBySessionTools: unknown[]): StdioMcpServer {
  const app = new StdioMcpServer(
    { name: 'app', version: '1.0.0' },
    {
      logger: silentLogger(),
      sessionTools: (session) => {
        seenBySessionTools.push(principalOf(session.authInfo)?.subject);
        return [];
      },
    },
  );
  app.registerTool(
    defineTool({
      name: 'whoami',
      execute: (_args, context) => JSON.stringify(principalOf(context.authInfo) ?? null),
    }),
  );
  app.registerTool(defineTool({ name: 'write_note', requiredScopes: ['notes:write'], execute: () => 'written' }));
  app.registerPrompt(
    definePrompt({ name: 'admin_only', canAccess: (auth) => auth?.clientId === 'admin-app', load: () => 'hi' }),
  );
  app.registerResource({ uri: 'notes://all', name: 'all', requiredScopes: ['notes:read'], read: () => 'notes' });
  app.registerResourceTemplate({
    uriTemplate: 'notes://{id}',
    name: 'note',
    requiredScopes: ['notes:read'],
    read: (_uri, { id }) => `note ${String(id)}`,
  });
  return app;
}

describe.each(['legacy', '2026-07-28'] as const)('connectInMemory({ auth }) on the %s era', (era) => {
  it('the principal reaches tools, and its scopes decide what it sees and may use', async () => {
    const seen: unknown[] = [];
    server = appServer(seen);
    connection = await connectInMemory(server, { era, auth: { subject: 'alice', scopes: ['notes:read'] } });
    const { client } = connection;
    const whoami = await client.callTool({ name: 'whoami', arguments: {} });
    expect(JSON.parse((whoami.content as Array<{ text: string }>)[0]!.text)).toEqual({
      subject: 'alice',
      clientId: 'test-client',
      scopes: ['notes:read'],
      claims: { sub: 'alice', client_id: 'test-client', scope: 'notes:read' },
    });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami']);
    await expect(client.callTool({ name: 'write_note', arguments: {} })).rejects.toThrow(/write_note/);
    expect((await client.listPrompts()).prompts).toEqual([]);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['notes://all']);
    expect((await client.readResource({ uri: 'notes://7' })).contents[0]).toMatchObject({ text: 'note 7' });
    if (era === 'legacy') expect(seen).toContain('alice'); // the connection's sessionTools saw the principal
    await connection.close();

    connection = await connectInMemory(server, {
      era,
      auth: { clientId: 'admin-app', scopes: ['notes:write'] },
    });
    const admin = connection.client;
    expect((await admin.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami', 'write_note']);
    expect((await admin.callTool({ name: 'write_note', arguments: {} })).content).toEqual([
      { type: 'text', text: 'written' },
    ]);
    expect((await admin.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['admin_only']);
    expect((await admin.listResources()).resources).toEqual([]);
    await expect(admin.readResource({ uri: 'notes://all' })).rejects.toThrow(/not found/i);
  });

  it('without auth the caller is unauthenticated: scoped items are hidden', async () => {
    server = appServer([]);
    connection = await connectInMemory(server, { era });
    const whoami = await connection.client.callTool({ name: 'whoami', arguments: {} });
    expect(whoami.content).toEqual([{ type: 'text', text: 'null' }]);
    expect((await connection.client.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami']);
  });
});

it('refuses scopes that are not a string array (InvalidOptionsError naming auth.scopes)', async () => {
  server = appServer([]);
  await expect(connectInMemory(server, { auth: { scopes: 'notes:read' as never } })).rejects.toMatchObject({
    code: 'INVALID_OPTIONS',
    option: 'auth.scopes',
  });
});
